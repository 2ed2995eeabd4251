import { beforeAll, describe, expect, test } from 'vitest'
import { createCompany, createQuestionnaire, createScheme, createUser, enrolEmployee } from '#db/factories'
import { useTestDatabase } from '#tests/support/database'
import { client, sessionCookieFor, useTestServer } from '#tests/support/app'
import { fieldErrors, textOf, titleOf } from '#tests/integration/auth/helpers'
import { usePreviewLanguages } from '#tests/support/languages'

/**
 * The schemes pages in the catalogues (issue 20 §3, ADR 050/052): with German previewed, an admin
 * whose language is German reads the list, the scheme page, its dates, its forms' messages, its
 * refusals and its toasts in German; without the preview the same admin reads the English as before.
 */

useTestDatabase()
const server = useTestServer()

const preview = usePreviewLanguages(server)

const DAY = 24 * 60 * 60 * 1000
let cookie = ''
type Scheme = Awaited<ReturnType<typeof createScheme>>
let draft: Scheme
let open: Scheme
const admin = client(server, () => cookie)
const langOf = (html: string) => /<html lang="([^"]*)"/.exec(html)?.[1]

beforeAll(async () => {
  const user = await createUser({ role: 'admin', language: 'de' })
  cookie = await sessionCookieFor(user.id)
  const company = await createCompany({ name: 'Hafen GmbH' })
  const questionnaire = await createQuestionnaire({ title: 'Führung 360' })
  draft = await createScheme({
    name: 'Entwurf Herbst',
    status: 'draft',
    companyId: company.id,
    questionnaireId: questionnaire.id,
    opensAt: new Date('2031-03-10T09:00:00Z'),
    closesAt: new Date('2031-04-07T17:00:00Z'),
  })
  open = await createScheme({
    name: 'Laufend Frühjahr',
    companyId: company.id,
    questionnaireId: questionnaire.id,
    closesAt: new Date(Date.now() + 20 * DAY),
  })
  const employee = await createUser({ role: 'employee', companyId: company.id, displayName: 'Erin Ernst' })
  await enrolEmployee(open, employee.id)
})

async function page(path: string) {
  const response = await admin.get(path)
  expect(response.status).toBe(200)
  return response.text()
}

describe('the schemes pages', () => {
  test('are English as before for an admin who chose a language not shipped (French)', async () => {
    const german = cookie
    cookie = await sessionCookieFor((await createUser({ role: 'admin', language: 'fr' })).id)
    try {
      const list = await page('/admin/scheme-management')
      expect(langOf(list)).toBe('en')
      expect(titleOf(list)).toBe('Scheme management · Panorama admin')
      expect(textOf(list)).toContain('All schemes')
      expect(textOf(list)).toContain('10 March 2031 to 7 April 2031')
      const detail = await page(`/admin/scheme-management/${draft.id}`)
      expect(titleOf(detail)).toBe('Entwurf Herbst · Schemes · Panorama admin')
      expect(textOf(detail)).toContain('A draft: nobody has been told yet.')
      expect(textOf(detail)).toContain('Who chooses the raters The employee')
    } finally {
      cookie = german
    }
  })

  test('the list is German, with German dates, once German is previewed', async () => {
    preview('de,fr')
    const html = await page('/admin/scheme-management')
    expect(langOf(html)).toBe('de')
    expect(titleOf(html)).toBe('Programmverwaltung · Panorama admin')
    const text = textOf(html)
    expect(text).toContain('Alle Programme')
    expect(text).toContain('Programm anlegen')
    expect(text).toContain('Entwurf')
    expect(text).toContain('10. März 2031 bis 7. April 2031')
    expect(text).toContain('Wer die Befragten auswählt')
    expect(text).not.toContain('All schemes')
  })

  test('the scheme page, its edit form and its launch confirmation are German', async () => {
    preview('de')
    const text = textOf(await page(`/admin/scheme-management/${draft.id}?confirm=launch`))
    expect(text).toContain('„Entwurf Herbst“ starten?')
    expect(text).toContain('Noch ist niemand aufgenommen. Nehmen Sie zuerst mindestens eine Person auf.')
    expect(text).toContain('Mitarbeitende aufnehmen')
    expect(text).toContain('10. März 2031')
    const edit = textOf(await page(`/admin/scheme-management/${draft.id}?edit`))
    expect(edit).toContain('Programm speichern')
    expect(edit).toContain('Mindestzahl einzuladender Kollegen je Gruppe')
    const running = textOf(await page(`/admin/scheme-management/${open.id}`))
    expect(running).toContain('Teilnehmende')
    expect(running).toContain('Erin Ernst')
    expect(running).toContain('Nicht begonnen')
  })

  test('a form message, a refusal with a date and a toast come in German', async () => {
    preview('de')
    const invalid = await admin.post('/admin/scheme-management', { intent: 'create', name: '' })
    expect(invalid.status).toBe(400)
    expect(fieldErrors(await invalid.text(), 'name')).toEqual(['Geben Sie den Namen des Programms ein.'])

    const tooEarly = await admin.post(`/admin/scheme-management/${open.id}`, {
      intent: 'extend',
      closesAt: new Date(Date.now() + 2 * DAY).toISOString().slice(0, 16),
    })
    expect(tooEarly.status).toBe(400)
    expect(textOf(await tooEarly.text())).toMatch(
      /Wählen Sie einen Zeitpunkt nach der jetzigen Frist \(\d+\. /,
    )

    const closed = await admin.post(`/admin/scheme-management/${open.id}`, { intent: 'close' })
    const after = textOf(await admin.follow(closed))
    expect(after).toContain('Programm geschlossen')
    expect(after).toContain('„Laufend Frühjahr“ ist geschlossen: Niemand kann mehr antworten oder einladen.')
  })
})
