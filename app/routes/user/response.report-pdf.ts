import type { Route } from './+types/response.report-pdf'
import { notFound, requireUser } from '#app/modules/auth/guards.server'
import { ROUTE_ROLES } from '#app/modules/auth/permissions'
import { requireReportId } from '#app/modules/report/access.server'
import { pdfAnswer, pdfDownload, pdfRefusal } from '#app/modules/pdf/answers.server'
import { languageOf } from '#app/modules/i18n/i18n.server'
import { pdfT } from '#app/modules/pdf/words.server'
import {
  auditReportDownload,
  releasedReport,
  renderReportPdf,
  reportFileName,
} from '#app/modules/pdf/report-pdf.server'

/**
 * /user/response-:rid/report.pdf: the released report as a PDF (ADR 046), for its employee and for
 * admins — the report page itself, printed for the one who asks. Another employee's report is a
 * 404 like none; an unreleased one is refused with a sentence, never printed.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  if (!params.responseSlug.startsWith('response-')) notFound()
  const session = await requireUser(request, { roles: ROUTE_ROLES['user/response/report.pdf'] })
  const rid = requireReportId(params.responseSlug.slice('response-'.length))
  const found = await releasedReport(rid, session.user)
  // The reader's language: the employee's for their own report, the admin's for one they download.
  const language = languageOf(request, session.user)
  if (!found.ok) {
    if (found.refusal === 'not-found') notFound()
    return pdfRefusal(409, pdfT(language)('refusals.notReleased'))
  }
  const { header } = found.report
  return pdfAnswer(async () => {
    const { pdf } = await renderReportPdf(header, session, language)
    if (session.user.role === 'admin')
      await auditReportDownload({ id: session.user.id, ip: context.ip || null }, header)
    return pdfDownload(pdf, reportFileName(header))
  }, language)
}
