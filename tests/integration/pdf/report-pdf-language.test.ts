import { eq } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'
import { companies, schemes, users } from '#db/schema/index'
import { createBrand, createUser } from '#db/factories'
import { useTestDatabase } from '#tests/support/database'
import { send, sessionCookieFor, useTestServer } from '#tests/support/app'
import { isPdf, pdfTitle, zipEntries } from '#tests/support/pdf'
import { answersFor, buildReport } from '#tests/integration/journey/report-scenario'
import { usePreviewLanguages } from '#tests/support/languages'

/**
 * A report's PDF in its reader's language (issue 20 §3): the employee's own in the employee's
 * language, an admin's download and the scheme's ZIP in the admin's. The PDF's title (its Info
 * dictionary, what a viewer's window shows) is read back as report-pdf.test.ts reads it; the
 * refusals are read as text.
 */
const db = useTestDatabase()
const server = useTestServer()

const preview = usePreviewLanguages(server)

const ids = { rid: '', scheme: '', unreleasedRid: '' }
const cookies = { employee: '', admin: '', unreleased: '' }
const names = { employee: 'Erika Beispiel', brand: 'Nordwind Coaching' }

beforeAll(async () => {
  const built = await buildReport({
    minRaters: 3,
    raters: [{ answers: (q) => answersFor(q, { value: 5 }) }, {}, {}],
  })
  const brand = await createBrand({ name: names.brand, primaryColor: '#7c2d12', accentColor: '#0e7490' })
  const [scheme] = await db().select().from(schemes).where(eq(schemes.id, built.scheme.id))
  await db().update(companies).set({ brandId: brand.id }).where(eq(companies.id, scheme!.companyId))
  await db()
    .update(users)
    .set({ displayName: names.employee, language: 'de' })
    .where(eq(users.id, built.employee.id))
  const unreleased = await buildReport({ minRaters: 3, raters: [{}], release: false })
  await db().update(users).set({ language: 'de' }).where(eq(users.id, unreleased.employee.id))
  const admin = await createUser({ role: 'admin', password: null })
  Object.assign(ids, { rid: built.rid, scheme: built.scheme.id, unreleasedRid: unreleased.rid })
  Object.assign(cookies, {
    employee: await sessionCookieFor(built.employee.id),
    admin: await sessionCookieFor(admin.id),
    unreleased: await sessionCookieFor(unreleased.employee.id),
  })
}, 60_000)

async function download(path: string, cookie: string, accept?: string) {
  const response = await send(server, path, { cookie, headers: accept ? { 'Accept-Language': accept } : {} })
  return { response, bytes: new Uint8Array(await response.arrayBuffer()) }
}

describe('a report’s PDF in the reader’s language', () => {
  test('a German employee’s own report is a German PDF', async () => {
    preview('de,fr')
    const { response, bytes } = await download(`/user/response-${ids.rid}/report.pdf`, cookies.employee)
    expect(response.status).toBe(200)
    expect(isPdf(bytes)).toBe(true)
    expect(pdfTitle(bytes)).toBe(`Feedbackbericht · ${names.employee} · ${names.brand}`)
  }, 60_000)

  test('an admin reads the same report in their own language: English, then German', async () => {
    preview('de,fr')
    const english = await download(`/user/response-${ids.rid}/report.pdf`, cookies.admin, 'en-GB')
    expect(pdfTitle(english.bytes)).toBe(`Feedback report · ${names.employee} · ${names.brand}`)
    const german = await download(`/user/response-${ids.rid}/report.pdf`, cookies.admin, 'de-DE,de;q=0.9')
    expect(pdfTitle(german.bytes)).toBe(`Feedbackbericht · ${names.employee} · ${names.brand}`)
  }, 90_000)

  test('the ZIP of a scheme’s reports is in the admin’s language', async () => {
    preview('de,fr')
    const { response, bytes } = await download(
      `/admin/scheme-management/${ids.scheme}/reports.zip`,
      cookies.admin,
      'de-DE,de;q=0.9',
    )
    expect(response.status).toBe(200)
    const entries = await zipEntries(Buffer.from(bytes))
    expect(entries).toHaveLength(1)
    expect(pdfTitle(entries[0]!.bytes)).toBe(`Feedbackbericht · ${names.employee} · ${names.brand}`)
  }, 60_000)

  test('an unreleased report is refused in German', async () => {
    preview('de,fr')
    const { response, bytes } = await download(
      `/user/response-${ids.unreleasedRid}/report.pdf`,
      cookies.unreleased,
    )
    expect(response.status).toBe(409)
    expect(new TextDecoder().decode(bytes)).toBe(
      'Dieser Bericht ist noch nicht freigegeben: Sein PDF kann heruntergeladen werden, sobald die Ergebnisse freigegeben sind.\n',
    )
  })

  test('for a reader who chose a language not shipped (French), the PDF is English as before', async () => {
    const employee = (await db().select().from(users).where(eq(users.displayName, names.employee)))[0]!
    await db().update(users).set({ language: 'fr' }).where(eq(users.id, employee.id))
    try {
      const { bytes } = await download(`/user/response-${ids.rid}/report.pdf`, cookies.employee, 'fr')
      expect(pdfTitle(bytes)).toBe(`Feedback report · ${names.employee} · ${names.brand}`)
    } finally {
      await db().update(users).set({ language: 'de' }).where(eq(users.id, employee.id))
    }
  }, 60_000)
})
