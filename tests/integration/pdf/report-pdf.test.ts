import { and, eq } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'
import { auditLog, brands, companies, schemes } from '#db/schema/index'
import { createBrand, createUser } from '#db/factories'
import { useTestDatabase } from '#tests/support/database'
import { send, sessionCookieFor, useTestServer } from '#tests/support/app'
import { textOf } from '#tests/integration/auth/helpers'
import { isPdf, pdfImages, pdfPages, pdfTitle, zipEntries } from '#tests/support/pdf'
import { addParticipant, answersFor, buildReport } from '#tests/integration/journey/report-scenario'

/**
 * Reports as PDF (issue 19 §7, ADR 046), printed by the server's Chromium from the report page: the
 * employee's own, an admin's of any released report, refusals (another employee's, unreleased, a
 * colleague), and the scheme's ZIP with one PDF per released report. One browser serves the file.
 */
const db = useTestDatabase()
const server = useTestServer()

const pdfPath = (rid: string) => `/user/response-${rid}/report.pdf`
const ids = { scheme: '', rid: '', otherRid: '', unreleasedRid: '', employee: '', other: '', colleague: '' }
const cookies = { employee: '', other: '', admin: '', colleague: '', unreleased: '' }
const names = { employee: '', other: '', brand: '' }

/** An employee of the scheme with three colleagues who answered, released unless told. */
async function addEmployee(built: Awaited<ReturnType<typeof buildReport>>, name: string, release: boolean) {
  return addParticipant(built.scheme, {
    name,
    self: answersFor(built.qs),
    colleagues: [2, 3, 4].map((value) => ({ answers: answersFor(built.qs, { value }) })),
    release,
  })
}

beforeAll(async () => {
  const built = await buildReport({
    minRaters: 3,
    raters: [{ answers: (q) => answersFor(q, { value: 5 }) }, {}, {}],
  })
  const brand = await createBrand({
    name: 'Northwind Coaching',
    primaryColor: '#7c2d12',
    accentColor: '#0e7490',
  })
  const [scheme] = await db().select().from(schemes).where(eq(schemes.id, built.scheme.id))
  await db().update(companies).set({ brandId: brand.id }).where(eq(companies.id, scheme!.companyId))
  const employeeName = `Erin Pdfson ${Math.random().toString(36).slice(2, 6)}`
  await db()
    .update((await import('#db/schema/index')).users)
    .set({ displayName: employeeName })
    .where(eq((await import('#db/schema/index')).users.id, built.employee.id))
  const other = await addEmployee(built, 'Zoë Ölander', true)
  const unreleased = await addEmployee(built, 'Una Unreleased', false)
  const admin = await createUser({ role: 'admin', password: null })
  Object.assign(ids, {
    scheme: built.scheme.id,
    rid: built.rid,
    otherRid: other.rid,
    unreleasedRid: unreleased.rid,
    employee: built.employee.id,
    other: other.subjectId,
    colleague: built.raters[0]!.user.id,
  })
  Object.assign(names, { employee: employeeName, other: 'Zoë Ölander', brand: brand.name })
  Object.assign(cookies, {
    employee: await sessionCookieFor(built.employee.id),
    other: await sessionCookieFor(other.subjectId),
    admin: await sessionCookieFor(admin.id),
    colleague: await sessionCookieFor(built.raters[0]!.user.id),
    unreleased: await sessionCookieFor(unreleased.subjectId),
  })
  void brands
}, 60_000)

async function download(path: string, cookie: string) {
  const response = await send(server, path, { cookie })
  return { response, bytes: new Uint8Array(await response.arrayBuffer()) }
}

describe('one report as PDF', () => {
  test('the employee downloads their released report: a branded A4 PDF of several pages with their name', async () => {
    const started = performance.now()
    const { response, bytes } = await download(pdfPath(ids.rid), cookies.employee)
    const ms = performance.now() - started
    expect(response.status).toBe(200)
    expect(response.headers.get('Content-Type')).toBe('application/pdf')
    expect(response.headers.get('Content-Disposition')).toMatch(
      new RegExp(
        `^attachment; filename="feedback-report-erin-pdfson-[a-z0-9]+-${ids.rid.slice(0, 8)}\\.pdf"$`,
      ),
    )
    expect(response.headers.get('Cache-Control')).toBe('no-store')
    expect(isPdf(bytes)).toBe(true)
    // Cover, "At a glance", by category, by question, comments: each section starts a page.
    expect(pdfPages(bytes)).toBeGreaterThanOrEqual(5)
    expect(pdfTitle(bytes)).toBe(`Feedback report · ${names.employee} · ${names.brand}`)
    // The charts were drawn (canvases print as images): by category, and one per category of scales.
    expect(pdfImages(bytes)).toBeGreaterThanOrEqual(3)
    console.info(`report PDF: ${bytes.length} bytes, ${pdfPages(bytes)} pages, ${Math.round(ms)} ms`)
  }, 60_000)

  test('an admin downloads any released report, and the download is recorded', async () => {
    const { response, bytes } = await download(pdfPath(ids.otherRid), cookies.admin)
    expect(response.status).toBe(200)
    expect(isPdf(bytes)).toBe(true)
    expect(pdfPages(bytes)).toBeGreaterThan(1)
    expect(pdfTitle(bytes)).toBe(`Feedback report · ${names.other} · ${names.brand}`)
    const audits = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'report.pdf_download'), eq(auditLog.entityId, ids.otherRid)))
    expect(audits).toHaveLength(1)
    // The employee's own download is theirs, not recorded.
    const own = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'report.pdf_download'), eq(auditLog.entityId, ids.rid)))
    expect(own).toHaveLength(0)
  }, 60_000)

  test('another employee’s report is not found; a colleague goes home; nobody signed in signs in', async () => {
    expect((await send(server, pdfPath(ids.otherRid), { cookie: cookies.employee })).status).toBe(404)
    const colleague = await send(server, pdfPath(ids.rid), { cookie: cookies.colleague })
    expect(colleague.status).toBe(302)
    expect(colleague.headers.get('Location')).not.toContain('report.pdf')
    const anonymous = await send(server, pdfPath(ids.rid))
    expect(anonymous.status).toBe(302)
    expect(anonymous.headers.get('Location')).toMatch(/^\/sign-in\?redirectTo=/)
  })

  test('an unreleased report is refused in words, for its employee and for an admin', async () => {
    for (const cookie of [cookies.unreleased, cookies.admin]) {
      const response = await send(server, pdfPath(ids.unreleasedRid), { cookie })
      expect(response.status).toBe(409)
      expect(await response.text()).toContain('has not been released yet')
    }
  })

  test('the report page offers the download only once released', async () => {
    const released = await (
      await send(server, `/user/response-${ids.rid}`, { cookie: cookies.employee })
    ).text()
    expect(released).toContain(`href="${pdfPath(ids.rid)}"`)
    expect(released).toContain('Download PDF')
    const unreleased = await (
      await send(server, `/user/response-${ids.unreleasedRid}`, { cookie: cookies.unreleased })
    ).text()
    // The visible text: the page's i18n data block carries the catalogue's "Download PDF" (ADR 050).
    expect(textOf(unreleased)).not.toContain('Download PDF')
  })
})

describe('a scheme’s released reports as one ZIP', () => {
  test('one PDF per released report, named by person, each with the brand; the download is recorded', async () => {
    const started = performance.now()
    const response = await send(server, `/admin/scheme-management/${ids.scheme}/reports.zip`, {
      cookie: cookies.admin,
    })
    expect(response.status).toBe(200)
    expect(response.headers.get('Content-Type')).toBe('application/zip')
    expect(response.headers.get('Content-Disposition')).toMatch(
      /^attachment; filename="feedback-reports-[a-z0-9-]+\.zip"$/,
    )
    const entries = await zipEntries(Buffer.from(await response.arrayBuffer()))
    console.info(`ZIP of ${entries.length} reports: ${Math.round(performance.now() - started)} ms`)
    expect(entries.map((e) => e.name).sort()).toEqual(
      [
        `feedback-report-erin-pdfson-${names.employee.split(' ').at(-1)}-${ids.rid.slice(0, 8)}.pdf`,
        `feedback-report-zoe-olander-${ids.otherRid.slice(0, 8)}.pdf`,
      ].sort(),
    )
    for (const entry of entries) {
      expect(isPdf(entry.bytes)).toBe(true)
      expect(pdfPages(entry.bytes)).toBeGreaterThan(1)
      expect(pdfTitle(entry.bytes)).toContain(`· ${names.brand}`)
    }
    const audits = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'scheme.reports_zip_download'), eq(auditLog.entityId, ids.scheme)))
    expect(audits).toHaveLength(1)
    expect(audits[0]!.details).toEqual({ reports: 2 })
  }, 120_000)

  test('only admins; an unknown scheme is not found; a scheme with nothing released is refused in words', async () => {
    const path = `/admin/scheme-management/${ids.scheme}/reports.zip`
    for (const cookie of [cookies.employee, cookies.colleague]) {
      const response = await send(server, path, { cookie })
      expect(response.status).toBe(302)
      expect(response.headers.get('Location')).not.toContain('reports.zip')
    }
    expect(
      (
        await send(server, '/admin/scheme-management/00000000-0000-4000-8000-000000000000/reports.zip', {
          cookie: cookies.admin,
        })
      ).status,
    ).toBe(404)
    const empty = await buildReport({ minRaters: 3, release: false })
    const refused = await send(server, `/admin/scheme-management/${empty.scheme.id}/reports.zip`, {
      cookie: cookies.admin,
    })
    expect(refused.status).toBe(409)
    expect(await refused.text()).toContain('No report of this scheme has been released yet')
  })
})

describe('a group report as PDF (issue 19 §4)', () => {
  test('an admin downloads the scheme’s and the company’s group report, branded and recorded; the page links it', async () => {
    const [scheme] = await db().select().from(schemes).where(eq(schemes.id, ids.scheme))
    for (const [scope, id, name] of [
      ['scheme', ids.scheme, scheme!.name],
      ['company', scheme!.companyId, null],
    ] as const) {
      const path = `/admin/${scope}-management/${id}/group-report.pdf`
      const { response, bytes } = await download(path, cookies.admin)
      expect(response.status, path).toBe(200)
      expect(response.headers.get('Content-Type')).toBe('application/pdf')
      expect(response.headers.get('Content-Disposition')).toMatch(
        new RegExp(`^attachment; filename="group-report-[a-z0-9-]+-${id.slice(0, 8)}\\.pdf"$`),
      )
      expect(isPdf(bytes)).toBe(true)
      expect(pdfPages(bytes)).toBeGreaterThan(1)
      expect(pdfTitle(bytes)).toMatch(new RegExp(`^Group report · .+ · ${names.brand}$`))
      if (name) expect(pdfTitle(bytes)).toBe(`Group report · ${name} · ${names.brand}`)
      const audits = await db()
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, 'cohort.pdf_download'), eq(auditLog.entityId, id)))
      expect(audits).toHaveLength(1)
      expect(audits[0]!.details).toEqual({ participants: 2 })
      const page = await (
        await send(server, `/admin/${scope}-management/${id}/group-report`, { cookie: cookies.admin })
      ).text()
      expect(page).toContain(`href="/admin/${scope}-management/${id}/group-report.pdf"`)
    }
  }, 120_000)

  test('only admins; unknown ids are not found', async () => {
    const path = `/admin/scheme-management/${ids.scheme}/group-report.pdf`
    for (const cookie of [cookies.employee, cookies.colleague]) {
      const response = await send(server, path, { cookie })
      expect(response.status).toBe(302)
      expect(response.headers.get('Location')).not.toContain('group-report.pdf')
    }
    for (const id of ['nope', '00000000-0000-4000-8000-000000000000'])
      expect(
        (await send(server, `/admin/company-management/${id}/group-report.pdf`, { cookie: cookies.admin }))
          .status,
      ).toBe(404)
  })
})
