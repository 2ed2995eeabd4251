import { afterAll, beforeAll, expect, test } from 'vitest'
import { useTestDatabase } from '#tests/support/database'
import { send, sessionCookieFor, useTestServer } from '#tests/support/app'
import { textOf } from '#tests/integration/auth/helpers'
import { buildReport } from '#tests/integration/journey/report-scenario'

/**
 * A server without Chromium (ADR 046): the released report says PDF download is unavailable here
 * and points to the browser's own "Save as PDF"; the PDF and ZIP addresses answer 503 in words.
 */
const previous = process.env.CHROMIUM_PATH
process.env.CHROMIUM_PATH = '/nonexistent/chromium-for-this-test'
afterAll(() => {
  if (previous === undefined) delete process.env.CHROMIUM_PATH
  else process.env.CHROMIUM_PATH = previous
})

useTestDatabase()
const server = useTestServer()
const state = { rid: '', scheme: '', employee: '', admin: '' }

beforeAll(async () => {
  const built = await buildReport({ minRaters: 3, raters: [{}, {}, {}] })
  const { createUser } = await import('#db/factories')
  const admin = await createUser({ role: 'admin', password: null })
  Object.assign(state, {
    rid: built.rid,
    scheme: built.scheme.id,
    employee: await sessionCookieFor(built.employee.id),
    admin: await sessionCookieFor(admin.id),
  })
})

test('the report page explains that PDFs are unavailable instead of offering a broken link', async () => {
  const page = await (await send(server, `/user/response-${state.rid}`, { cookie: state.employee })).text()
  // The visible text: the page's i18n data block carries the catalogue's "Download PDF" (ADR 050).
  expect(textOf(page)).not.toContain('Download PDF')
  expect(page).toContain('PDF download is not available on this server')
})

test('the PDF and the ZIP answer 503 with a sentence, not a server error', async () => {
  for (const [path, cookie] of [
    [`/user/response-${state.rid}/report.pdf`, state.employee],
    [`/admin/scheme-management/${state.scheme}/reports.zip`, state.admin],
  ] as const) {
    const response = await send(server, path, { cookie })
    expect(response.status).toBe(503)
    expect(response.headers.get('Content-Type')).toBe('text/plain; charset=utf-8')
    expect(await response.text()).toContain('PDF download is not available on this server')
  }
})
