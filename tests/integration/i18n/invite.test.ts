import { eq } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'
import { getDb } from '#db/client'
import { emailOutbox, users } from '#db/schema/index'
import { createUser } from '#db/factories'
import { INVITE_MESSAGES } from '#app/modules/invite/schemas'
import { useTestDatabase } from '#tests/support/database'
import { cookiesFrom, location, send, sessionCookieFor, useTestServer } from '#tests/support/app'
import { fieldErrors, textOf, titleOf } from '#tests/integration/auth/helpers'
import { enrolledEmployee } from '#tests/integration/journey/invite-helpers'
import { listScheme } from '#tests/integration/journey/nomination-helpers'
import { usePreviewLanguages } from '#tests/support/languages'

/**
 * The colleague-invite page in the reader's language (issue 20 §3, ADR 050): its words, the
 * sentences the server writes (the introduction, the outlook, an administrator's note), German
 * dates, a form's message and the toast, in German once German is previewed (LANGUAGES_PREVIEW, as
 * in languages.test.ts), and in English, as before, without it.
 */

useTestDatabase()
const server = useTestServer()

const preview = usePreviewLanguages(server)

const PAGE = '/user/colleague-invite'
const GERMAN = { 'Accept-Language': 'de-DE,de;q=0.9' }
/** A language not shipped (French is in preview only): English is served. */
const FRENCH = { 'Accept-Language': 'fr-FR,fr;q=0.9' }
const langOf = (html: string) => /<html lang="([^"]*)"/.exec(html)?.[1]
/** "30. Juni 2026": a date as German writes it. */
const GERMAN_DATE =
  /\d{1,2}\. (Januar|Februar|März|April|Mai|Juni|Juli|August|September|Oktober|November|Dezember) \d{4}/

async function get(path: string, cookie: string, headers: Record<string, string> = {}) {
  const response = await send(server, path, { cookie, headers })
  expect(response.status, path).toBe(200)
  return response.text()
}

let world: Awaited<ReturnType<typeof enrolledEmployee>>
let cookie = ''
let adminCookie = ''

beforeAll(async () => {
  world = await enrolledEmployee({ maxColleagues: 5 })
  // The employee chose German (their brand's default is English); the administrator's browser asks for it.
  await getDb().update(users).set({ language: 'de' }).where(eq(users.id, world.employee.id))
  cookie = await sessionCookieFor(world.employee.id)
  const admin = await createUser({ role: 'admin' })
  adminCookie = await sessionCookieFor(admin.id)
})

const invite = (overrides: Record<string, string> = {}) => ({
  intent: 'invite',
  schemeId: world.scheme.id,
  name: 'Pat Peer',
  email: `pat.${Math.random().toString(36).slice(2)}@example.test`,
  relationship: 'peer',
  ...overrides,
})

describe('in German (previewed)', () => {
  test('the page: its words, the server’s sentences, a form’s message and the toast', async () => {
    preview('de,fr')
    const empty = await get(PAGE, cookie, GERMAN)
    expect(langOf(empty)).toBe('de')
    expect(titleOf(empty)).toBe('Kolleginnen und Kollegen einladen · Panorama')
    const text = textOf(empty)
    expect(text).toContain('Die Kolleginnen und Kollegen, die Sie einladen, beantworten denselben Fragebogen')
    expect(text).toContain('Sie haben noch niemanden eingeladen.')
    expect(text).toContain('Sie können noch 5 Personen einladen.')
    expect(text).toMatch(new RegExp(`Kolleginnen und Kollegen können antworten bis ${GERMAN_DATE.source}`))
    expect(text).toContain('Einladung senden')
    expect(empty).toContain('<option value="direct_report">')

    const refused = await send(server, PAGE, { cookie, headers: GERMAN, form: invite({ name: '' }) })
    expect(refused.status).toBe(400)
    expect(fieldErrors(await refused.text(), 'name')).toEqual([
      'Geben Sie den Namen Ihrer Kollegin oder Ihres Kollegen ein.',
    ])

    const sent = await send(server, PAGE, { cookie, headers: GERMAN, form: invite() })
    expect(sent.status).toBe(302)
    const after = textOf(await get(location(sent)!, cookiesFrom(sent, cookie), GERMAN))
    expect(after).toContain('Einladung an Pat Peer gesendet')
    expect(after).toContain('Sie können noch 4 Personen einladen.')
    expect(after).toContain('Eingeladen')
    expect(after).toMatch(new RegExp(`eingeladen am ${GERMAN_DATE.source}`))
    expect(after).toContain('Wie der Bericht sie gruppieren wird')
    expect(after).toContain('Kolleginnen und Kollegen (1)')
  })

  test('a German colleague’s invitation tells them in German who sees their answers', async () => {
    preview('de,fr')
    const email = `kim.${Math.random().toString(36).slice(2)}@example.test`
    await createUser({ role: 'colleague', email, language: 'de' })
    const sent = await send(server, PAGE, {
      cookie,
      headers: GERMAN,
      form: invite({ name: 'Kim Kollege', email }),
    })
    expect(sent.status).toBe(302)
    const [mail] = await getDb().select().from(emailOutbox).where(eq(emailOutbox.recipient, email))
    expect(mail!.language).toBe('de')
    expect(mail!.text).toContain(
      'Ihre Antworten werden mit denen anderer Kolleginnen und Kollegen zusammengefasst und ohne Ihren Namen gezeigt.',
    )
    expect(mail!.text).not.toContain('Your answers are combined')
  })

  test('an administrator acting for the employee reads the sentences about them', async () => {
    preview('de,fr')
    const html = await get(`${PAGE}?employee=${world.employee.id}`, adminCookie, GERMAN)
    const name = world.employee.displayName || world.employee.email
    expect(titleOf(html)).toBe(`Kolleginnen und Kollegen für ${name} einladen · Panorama`)
    expect(textOf(html)).toContain(`Sie laden im Auftrag von ${name}`)
    expect(textOf(html)).toContain(`aus dem Programm von ${name}.`)
    const pick = textOf(await get(PAGE, adminCookie, GERMAN))
    expect(pick).toContain('Wählen Sie zuerst eine Mitarbeiterin oder einen Mitarbeiter')
  })

  test('the nominations page: its words, the relationship labels, a form’s message and the toast', async () => {
    preview('de,fr')
    const s = await listScheme()
    await getDb().update(users).set({ language: 'de' }).where(eq(users.id, s.employee.id))
    const html = await get(s.href(), s.cookie, GERMAN)
    expect(langOf(html)).toBe('de')
    expect(titleOf(html)).toBe('Ihre Feedback-Liste · Panorama')
    expect(textOf(html)).toContain('Eine Kollegin oder einen Kollegen hinzufügen')
    expect(textOf(html)).toContain('Eine Liste von Adressen einfügen')
    expect(textOf(html)).toContain(
      'Wählen Sie die Kolleginnen und Kollegen, von denen Sie Feedback erhalten möchten.',
    )
    expect(textOf(html)).toContain('Noch nicht gesendet.')
    expect(textOf(html)).toMatch(new RegExp(`Antworten bis ${GERMAN_DATE.source}`))

    const refused = await send(server, s.href(), {
      cookie: s.cookie,
      headers: GERMAN,
      form: { intent: 'add', schemeId: s.scheme.id, name: '', email: s.address('x'), relationship: 'peer' },
    })
    expect(refused.status).toBe(400)
    expect(textOf(await refused.text())).toContain(
      'Geben Sie den Namen Ihrer Kollegin oder Ihres Kollegen ein.',
    )

    const added = await send(server, s.href(), {
      cookie: s.cookie,
      headers: GERMAN,
      form: {
        intent: 'add',
        schemeId: s.scheme.id,
        name: 'Pia Peer',
        email: s.address('pia'),
        relationship: 'peer',
      },
    })
    expect(added.status).toBe(302)
    const after = textOf(await get(location(added)!, cookiesFrom(added, s.cookie), GERMAN))
    expect(after).toContain('Pia Peer auf Ihre Liste gesetzt')
    expect(after).toContain('Auf der Liste (1)')
    expect(after).toContain('Kollegin/Kollege')
  })
})

test('for an employee who chose a language not shipped (French) the page is English, as before', async () => {
  // The last test of the file: the employee now prefers French.
  await getDb().update(users).set({ language: 'fr' }).where(eq(users.id, world.employee.id))
  const html = await get(PAGE, cookie, FRENCH)
  expect(langOf(html)).toBe('en')
  expect(titleOf(html)).toBe('Invite colleagues · Panorama')
  expect(textOf(html)).toContain('The colleagues you invite answer the same questionnaire about you.')
  const refused = await send(server, PAGE, { cookie, headers: FRENCH, form: invite({ name: '' }) })
  expect(fieldErrors(await refused.text(), 'name')).toEqual([INVITE_MESSAGES.nameRequired])
  const sent = await send(server, PAGE, { cookie, headers: FRENCH, form: invite({ name: 'Sam Other' }) })
  const after = textOf(await get(location(sent)!, cookiesFrom(sent, cookie)))
  expect(after).toContain('Invitation sent to Sam Other')
  expect(after).toContain('How the report will group them')
})
