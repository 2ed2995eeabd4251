import type { Route } from './+types/scheme-management.$schemeId.reports-zip'
import { notFound, requireUser } from '#app/modules/auth/guards.server'
import { ROUTE_ROLES } from '#app/modules/auth/permissions'
import { isUuid } from '#app/lib/ids'
import { pdfAnswer, pdfRefusal } from '#app/modules/pdf/answers.server'
import { languageOf } from '#app/modules/i18n/i18n.server'
import { pdfT } from '#app/modules/pdf/words.server'
import {
  auditZipDownload,
  fileSlug,
  releasedReportsOf,
  schemeReportsZip,
} from '#app/modules/pdf/report-pdf.server'

/**
 * Every released report of a scheme, one PDF each, as one ZIP (ADR 046): streamed, one report
 * printed at a time, so a scheme of hundreds never sits in memory. Admins only; recorded.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const session = await requireUser(request, { roles: ROUTE_ROLES['admin/scheme-management/reports.zip'] })
  if (!isUuid(params.schemeId)) notFound()
  const released = await releasedReportsOf(params.schemeId)
  if (!released) notFound()
  // Every PDF in the ZIP is in the admin's language.
  const language = languageOf(request, session.user)
  if (!released.reports.length) return pdfRefusal(409, pdfT(language)('refusals.nothingReleased'))
  return pdfAnswer(async () => {
    await auditZipDownload(
      { id: session.user.id, ip: context.ip || null },
      params.schemeId,
      released.reports.length,
    )
    return new Response(schemeReportsZip(released.reports, session, language), {
      headers: {
        'Content-Type': 'application/zip',
        'Content-Disposition': `attachment; filename="feedback-reports-${fileSlug(released.schemeName)}.zip"`,
        'Cache-Control': 'no-store',
      },
    })
  }, language)
}
