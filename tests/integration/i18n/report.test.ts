import { eq } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'
import { users } from '#db/schema/index'
import { createUser } from '#db/factories'
import { useTestDatabase } from '#tests/support/database'
import { send, sessionCookieFor, useTestServer } from '#tests/support/app'
import { textOf, titleOf } from '#tests/integration/auth/helpers'
import { answersFor, buildReport } from '#tests/integration/journey/report-scenario'
import { usePreviewLanguages } from '#tests/support/languages'

/**
 * The released report in the reader's language (issue 20 §3, ADR 050, namespace `report`): German
 * once German is previewed and the reader has chosen it, with German numbers and dates; English,
 * word for word as before, without.
 */

const db = useTestDatabase()
const server = useTestServer()

const preview = usePreviewLanguages(server)

const ids = { rid: '', unreleasedRid: '', employee: '', admin: '' }
const cookies = { employee: '', admin: '', unreleased: '' }

beforeAll(async () => {
  const built = await buildReport({
    minRaters: 3,
    raters: [{ answers: (q) => answersFor(q, { value: 5 }) }, {}, {}],
  })
  const unreleased = await buildReport({ minRaters: 3, raters: [{}], release: false })
  const admin = await createUser({ role: 'admin', password: null })
  await db().update(users).set({ language: 'de' }).where(eq(users.id, built.employee.id))
  await db().update(users).set({ language: 'de' }).where(eq(users.id, unreleased.employee.id))
  Object.assign(ids, { rid: built.rid, unreleasedRid: unreleased.rid, employee: built.employee.id })
  Object.assign(cookies, {
    employee: await sessionCookieFor(built.employee.id),
    admin: await sessionCookieFor(admin.id),
    unreleased: await sessionCookieFor(unreleased.employee.id),
  })
}, 60_000)

async function page(path: string, cookie: string, accept?: string) {
  const response = await send(server, path, { cookie, headers: accept ? { 'Accept-Language': accept } : {} })
  expect(response.status).toBe(200)
  return response.text()
}

const langOf = (html: string) => /<html lang="([^"]*)"/.exec(html)?.[1]
const GERMAN_DATE =
  /\d{1,2}\. (Januar|Februar|März|April|Mai|Juni|Juli|August|September|Oktober|November|Dezember) \d{4}/

describe('the report page', () => {
  test('is German for an employee who chose German, once German is previewed', async () => {
    preview('de,fr')
    const html = await page(`/user/response-${ids.rid}`, cookies.employee)
    expect(langOf(html)).toBe('de')
    expect(titleOf(html)).toMatch(/^Feedbackbericht · .+ · Panorama$/)
    const text = textOf(html)
    for (const words of [
      'Auf einen Blick',
      'Von Kolleginnen und Kollegen am höchsten bewertet',
      'Blinde Flecken',
      'Verborgene Stärken',
      'Nach Kategorie',
      'Nach Frage',
      'Kommentare von Kolleginnen und Kollegen',
      'Alle Kolleginnen und Kollegen',
      'Ihre Antwort',
      'Als PDF speichern',
      'Programm',
      'Fragebogen',
    ])
      expect(text, words).toContain(words)
    // The closing date and the scores in German.
    expect(text).toMatch(new RegExp(`Schließt ${GERMAN_DATE.source}`))
    expect(text).toMatch(/Sie \d,\d/)
    expect(text).not.toContain('At a glance')
    expect(text).not.toContain('Rated highest by colleagues')
    // The difference in a cell, with the German decimal comma.
    expect(text).toMatch(/Communication 4,0 3,7 0,3 niedriger/)
  })

  test('a report not released yet tells its story in German', async () => {
    preview('de,fr')
    const text = textOf(await page(`/user/response-${ids.unreleasedRid}`, cookies.unreleased))
    expect(text).toContain('Die Ergebnisse der Kolleginnen und Kollegen sind noch nicht freigegeben')
    expect(text).toContain('Hier ist inzwischen Ihre eigene Selbsteinschätzung.')
    expect(text).toMatch(new RegExp(`wenn das Programm am ${GERMAN_DATE.source} schließt`))
  })

  test('an admin reads it in their own language (here the browser’s German), with the subject by name', async () => {
    preview('de,fr')
    const text = textOf(await page(`/user/response-${ids.rid}`, cookies.admin, 'de-DE,de;q=0.9'))
    expect(text).toContain('Selbst')
    expect(text).toContain(
      'Unterschied: wie der Durchschnitt der Kolleginnen und Kollegen im Vergleich zur Selbsteinschätzung ausfällt.',
    )
  })

  test('is English, word for word, for a reader who chose a language not shipped (French)', async () => {
    await db().update(users).set({ language: 'fr' }).where(eq(users.id, ids.employee))
    const html = await page(`/user/response-${ids.rid}`, cookies.employee, 'fr-FR,fr;q=0.9').finally(() =>
      db().update(users).set({ language: 'de' }).where(eq(users.id, ids.employee)),
    )
    expect(langOf(html)).toBe('en')
    expect(titleOf(html)).toMatch(/^Feedback report · .+ · Panorama$/)
    const text = textOf(html)
    for (const words of [
      'At a glance',
      'Rated highest by colleagues',
      'By category',
      'By question',
      'All colleagues',
      'Save as PDF',
    ])
      expect(text, words).toContain(words)
    expect(text).not.toContain('Auf einen Blick')
  })
})
