import { beforeAll, describe, expect, test } from 'vitest'
import { createQuestionnaire } from '#db/factories'
import { useTestDatabase } from '#tests/support/database'
import { client, signedIn, useTestServer } from '#tests/support/app'
import { textOf, titleOf } from '#tests/integration/auth/helpers'
import { usePreviewLanguages } from '#tests/support/languages'

/**
 * The questionnaire pages in German (issue 20 §3, ADR 050): the list, the builder with its publish
 * checks and languages card, a form's message, a toast and a refusal, for an admin whose language is
 * German once German is previewed (LANGUAGES_PREVIEW); English, unchanged, without it.
 */

useTestDatabase()
const server = useTestServer()

const LIST = '/admin/questionnaire-management'
let admin = ''

beforeAll(async () => {
  admin = (await signedIn({ role: 'admin', language: 'de' })).cookie
})

/** Ships (for this test) the languages translators would preview: the build reads its variables again. */
const preview = usePreviewLanguages(server)

const { get, post, follow } = client(server, () => admin)
const langOf = (html: string) => /<html lang="([^"]*)"/.exec(html)?.[1]

async function page(path: string) {
  const response = await get(path)
  expect(response.status).toBe(200)
  return response.text()
}

describe('the questionnaire pages in German', () => {
  test('the list: <html lang="de">, its title, its words and the statuses', async () => {
    preview('de,fr')
    await createQuestionnaire({ title: 'Führung 360' })
    const html = await page(LIST)
    expect(langOf(html)).toBe('de')
    expect(titleOf(html)).toBe('Fragebogenverwaltung · Panorama admin')
    const text = textOf(html)
    expect(text).toContain('Alle Fragebögen')
    expect(text).toContain('Fragebogen erstellen')
    expect(text).toContain('Als Entwurf importieren')
    expect(text).toContain('Veröffentlicht')
    expect(text).toContain('Version 1')
    expect(text).toContain('1 Frage')
    expect(text).not.toContain('All questionnaires')
  })

  test('creating one: a German toast, and the builder with its checks, languages and forms in German', async () => {
    preview('de,fr')
    const created = await post(LIST, { intent: 'create', title: 'Zusammenarbeit' })
    const builder = await follow(created)
    expect(langOf(builder)).toBe('de')
    expect(titleOf(builder)).toBe('Zusammenarbeit (Version 1) · Fragebögen · Panorama admin')
    const text = textOf(builder)
    expect(text).toContain('Fragebogen erstellt')
    expect(text).toContain('„Zusammenarbeit“ ist ein Entwurf. Fügen Sie Abschnitte und Fragen hinzu.')
    expect(text).toContain('Prüfungen vor der Veröffentlichung')
    expect(text).toContain('Fügen Sie mindestens einen Abschnitt mit Fragen hinzu.')
    expect(text).toContain('Abschnitte und Fragen')
    expect(text).toContain('Sprachen')
    expect(text).toContain('Verfasst auf Englisch.')
    expect(text).not.toContain('Publish checks')

    // A form's message (the schema answers English; the page shows the catalogue's German).
    const id = created.headers.get('Location')!.split('/').pop()!
    const refused = await post(`${LIST}/${id}`, { intent: 'add-section', title: '' })
    expect(refused.status).toBe(400)
    expect(textOf(await refused.text())).toContain('Geben Sie den Titel des Abschnitts ein.')

    // A section without questions: the publish checks name it, in German.
    const added = await post(`${LIST}/${id}`, { intent: 'add-section', title: 'Zuhören' })
    const page = await follow(added)
    const withSection = textOf(page)
    expect(withSection).toContain('„Zuhören“ wurde am Ende hinzugefügt.')
    expect(withSection).toContain('Abschnitt 1 („Zuhören“) hat keine Fragen')
    expect(withSection).toContain('Frage zu Abschnitt 1 hinzufügen')

    // A message holding the {{name}} placeholder: its table holds it with {n} in the placeholder's place.
    const sectionId = /id="section-([0-9a-f-]{36})"/.exec(page)![1]!
    const noName = await post(`${LIST}/${id}`, {
      intent: 'add-question',
      sectionId,
      kind: 'scale',
      text: 'Ich höre zu.',
      raterText: 'Die Person hört zu.',
      category: 'Kommunikation',
    })
    expect(noName.status).toBe(400)
    expect(textOf(await noName.text())).toContain(
      'Die Formulierung für Kolleginnen und Kollegen muss {{name}} enthalten.',
    )
  })

  test('the language view of a published version, and a module’s refusal, are German', async () => {
    preview('de,fr')
    const qn = await createQuestionnaire({ title: 'Gesperrt' })
    const view = textOf(await page(`${LIST}/${qn.id}?language=de`))
    expect(view).toContain('Übersetzung: Deutsch')
    expect(view).toContain('Nur Unübersetztes anzeigen')
    expect(view).toContain('Diese Version ist veröffentlicht')
    const draft = await createQuestionnaire({ title: 'Entwurf', status: 'draft' })
    const refused = await post(`${LIST}/${draft.id}`, { intent: 'new-version' })
    expect(refused.status).toBe(400)
    expect(textOf(await refused.text())).toContain(
      'Diese Version ist ein Entwurf: Bearbeiten Sie sie direkt.',
    )
  })
})

test('an admin who chose a language not shipped (French) reads the pages in English, as before', async () => {
  // The last test of the file: from here on the pages are read by a French-speaking admin.
  admin = (await signedIn({ role: 'admin', language: 'fr' })).cookie
  const html = await page(LIST)
  expect(langOf(html)).toBe('en')
  expect(titleOf(html)).toBe('Questionnaire management · Panorama admin')
  expect(textOf(html)).toContain('All questionnaires')
  expect(textOf(html)).toContain('Create a questionnaire')
  expect(textOf(html)).not.toContain('Fragebögen')
})
