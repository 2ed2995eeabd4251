import { and, eq } from 'drizzle-orm'
import { expect, test } from 'vitest'
import { getDb } from '#db/client'
import { auditLog } from '#db/schema/index'
import { useTestDatabase } from '#tests/support/database'
import { send, sessionCookieFor, useTestServer } from '#tests/support/app'
import { isPdf, pdfPages } from '#tests/support/pdf'
import { reportFileName } from '#app/modules/pdf/report-pdf.server'
import { answersFor, buildReport } from '#tests/integration/journey/report-scenario'
import { json, unzip } from './my-data-zip'

/**
 * The data export with the server's Chromium (ADR 055, ADR 046): each released report is in the ZIP
 * as the PDF its "Download PDF" gives, and the README says so. Once, with one report: printing is
 * the slow part (my-data.test.ts covers the rest with PDFs switched off).
 */
useTestDatabase()
const server = useTestServer()

test('each released report is in the ZIP as a PDF', { timeout: 120_000 }, async () => {
  const built = await buildReport({
    minRaters: 3,
    raters: [2, 3, 4].map((value) => ({
      answers: (qs) => answersFor(qs, { value, comment: `Said ${value}` }),
    })),
  })
  const cookie = await sessionCookieFor(built.employee.id)
  const response = await send(server, '/user/edit-profile/my-data.zip', { cookie })
  expect(response.status).toBe(200)
  const entries = await unzip(Buffer.from(await response.arrayBuffer()))
  const reports = json<{ header: { responseId: string; subjectName: string } }[]>(entries, 'reports.json')
  expect(reports).toHaveLength(1)
  const name = `reports/${reportFileName(reports[0]!.header)}`
  expect([...entries.keys()].filter((n) => n.startsWith('reports/'))).toEqual([name])
  const pdf = entries.get(name)!
  expect(isPdf(pdf)).toBe(true)
  expect(pdfPages(pdf)).toBeGreaterThan(1)
  expect(entries.get('README.txt')!.toString('utf8')).toContain(
    'reports/*.pdf: each released report as a PDF',
  )
  const [recorded] = await getDb()
    .select({ details: auditLog.details })
    .from(auditLog)
    .where(and(eq(auditLog.actorId, built.employee.id), eq(auditLog.action, 'user.data_exported')))
  expect(recorded?.details).toEqual({ reports: 1, pdfs: 1 })
})
