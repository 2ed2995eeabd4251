import { beforeAll, describe, expect, test } from 'vitest'
import { createUser } from '#db/factories'
import { useTestDatabase } from '#tests/support/database'
import { cookiesFrom, location, send, sessionCookieFor, useTestServer } from '#tests/support/app'
import { fieldErrors, textOf, titleOf } from '#tests/integration/auth/helpers'
import { buildReport } from '#tests/integration/journey/report-scenario'
import { usePreviewLanguages } from '#tests/support/languages'

/**
 * The employee's own pages in the reader's language (issue 20 §3, ADR 050): the landing page, the
 * home, the page after answering and the profile, served in German once German is previewed
 * (LANGUAGES_PREVIEW, as in languages.test.ts) — words, <html lang>, dates, a form's message and a
 * toast written by the action — and in English, as before, without it.
 */

useTestDatabase()
const server = useTestServer()

const preview = usePreviewLanguages(server)

const GERMAN = { 'Accept-Language': 'de-DE,de;q=0.9' }
/** A language not shipped (French is in preview only): English is served. */
const FRENCH = { 'Accept-Language': 'fr-FR,fr;q=0.9' }
const langOf = (html: string) => /<html lang="([^"]*)"/.exec(html)?.[1]
/** "30. Juni 2026": a date as German writes it. */
const GERMAN_DATE =
  /\d{1,2}\. (Januar|Februar|März|April|Mai|Juni|Juli|August|September|Oktober|November|Dezember) \d{4}/

async function get(path: string, cookie: string | null, headers: Record<string, string> = {}) {
  const response = await send(server, path, { cookie, headers })
  expect(response.status, path).toBe(200)
  return response.text()
}

/** Follows an action's redirect as a browser does, with the toast's cookie. */
async function follow(response: Response, cookie: string, headers: Record<string, string>) {
  expect(response.status).toBe(302)
  return get(location(response)!, cookiesFrom(response, cookie), headers)
}

let world: Awaited<ReturnType<typeof buildReport>>
let cookie = ''

beforeAll(async () => {
  // An open programme; the employee's self-assessment submitted, two colleagues invited, one answered.
  world = await buildReport({ minRaters: 3, release: false, raters: [{}, { submitted: false }] })
  cookie = await sessionCookieFor(world.employee.id)
})

describe('in German (previewed)', () => {
  test('the landing page', async () => {
    preview('de,fr')
    const html = await get('/', null, GERMAN)
    expect(langOf(html)).toBe('de')
    expect(titleOf(html)).toBe('Panorama · 360°-Feedback')
    expect(textOf(html)).toContain('Sehen Sie sich so, wie Ihre Kolleginnen und Kollegen Sie sehen.')
    expect(textOf(html)).toContain('Schritt 2')
  })

  test('the home: words, labels by code, the release’s sentences and German dates', async () => {
    preview('de,fr')
    const html = await get('/user', cookie, GERMAN)
    expect(langOf(html)).toBe('de')
    expect(titleOf(html)).toBe('Mein Feedback · Panorama')
    const text = textOf(html)
    expect(text).toContain('Ihre Selbsteinschätzung')
    expect(text).toContain('Abgegeben')
    expect(text).toContain('Von Ihnen eingeladene Kolleginnen und Kollegen')
    expect(text).toContain('1 von 2 haben geantwortet.')
    expect(text).toContain('Geantwortet')
    expect(text).toContain('Die Ergebnisse Ihrer Kolleginnen und Kollegen erscheinen, wenn das Programm am')
    expect(text).toMatch(new RegExp(`Frist: ${GERMAN_DATE.source}`))
    expect(text).not.toContain('My feedback')
    expect(text).not.toContain('Deadline')
  })

  test('the page after answering: its words, a form’s message and the toast', async () => {
    preview('de,fr')
    const page = `/user/thank-you?assignment=${world.self.id}`
    const html = await get(page, cookie, GERMAN)
    expect(langOf(html)).toBe('de')
    expect(titleOf(html)).toBe('Vielen Dank · Panorama')
    expect(textOf(html)).toContain('Ihre Selbsteinschätzung wurde abgegeben.')
    expect(textOf(html)).toContain('Ich muss meine Antworten ändern')

    const tooLong = await send(server, page, {
      cookie,
      headers: GERMAN,
      form: { intent: 'request-reopen', assignmentId: world.self.id, note: 'x'.repeat(501) },
    })
    expect(tooLong.status).toBe(400)
    expect(fieldErrors(await tooLong.text(), 'note')).toEqual([
      'Ihre Notiz darf höchstens 500 Zeichen lang sein.',
    ])

    const sent = await send(server, page, {
      cookie,
      headers: GERMAN,
      form: { intent: 'request-reopen', assignmentId: world.self.id, note: 'Ein Tippfehler' },
    })
    const after = textOf(await follow(sent, cookie, GERMAN))
    expect(after).toContain('Ihre Anfrage wurde gesendet')
    expect(after).toMatch(new RegExp(`Sie haben am ${GERMAN_DATE.source}`))
  })

  test('the profile: its words, a form’s message and the toast', async () => {
    preview('de,fr')
    const me = await createUser({ role: 'employee', displayName: 'Greta Gruber', password: null })
    const mine = await sessionCookieFor(me.id)
    const html = await get('/user/edit-profile', mine, GERMAN)
    expect(langOf(html)).toBe('de')
    expect(titleOf(html)).toBe('Profil bearbeiten · Panorama')
    expect(textOf(html)).toContain('Ihre Angaben')
    expect(textOf(html)).toContain('Bestätigungslink senden')

    const empty = await send(server, '/user/edit-profile', {
      cookie: mine,
      headers: GERMAN,
      form: { intent: 'profile', displayName: '', phone: '' },
    })
    expect(fieldErrors(await empty.text(), 'displayName')).toEqual(['Geben Sie Ihren Namen ein.'])

    const saved = await send(server, '/user/edit-profile', {
      cookie: mine,
      headers: GERMAN,
      form: { intent: 'profile', displayName: 'Greta G. Gruber', phone: '' },
    })
    expect(textOf(await follow(saved, mine, GERMAN))).toContain('Profil gespeichert')
  })
})

describe('in English, as before, for a language not shipped', () => {
  test('the same pages, whatever the browser asks for', async () => {
    const home = await get('/user', cookie, FRENCH)
    expect(langOf(home)).toBe('en')
    expect(titleOf(home)).toBe('My feedback · Panorama')
    expect(textOf(home)).toContain('Colleagues you invited')
    expect(textOf(home)).toMatch(/Deadline: \d{1,2} [A-Z][a-z]+ \d{4}/)
    expect(textOf(home)).not.toContain('Ihre Selbsteinschätzung')
    const landing = await get('/', null, FRENCH)
    expect(textOf(landing)).toContain('See yourself the way your colleagues do.')
    const profile = await get('/user/edit-profile', cookie, FRENCH)
    expect(textOf(profile)).toContain('Your details')
  })
})
