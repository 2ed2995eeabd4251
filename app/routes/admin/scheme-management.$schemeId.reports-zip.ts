import type { Route } from './+types/scheme-management.$schemeId.reports-zip'
import { notFound, requireUser } from '#app/modules/auth/guards.server'
import { ROUTE_ROLES } from '#app/modules/auth/permissions'
import { isUuid } from '#app/lib/ids'
import { pdfAnswer, pdfRefusal } from '#app/modules/pdf/answers.server'
import {
  auditZipDownload,
  fileSlug,
  NOTHING_RELEASED_MESSAGE,
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
  if (!released.reports.length) return pdfRefusal(409, NOTHING_RELEASED_MESSAGE)
  return pdfAnswer(async () => {
    await auditZipDownload(
      { id: session.user.id, ip: context.ip || null },
      params.schemeId,
      released.reports.length,
    )
    return new Response(schemeReportsZip(released.reports, session), {
      headers: {
        'Content-Type': 'application/zip',
        'Content-Disposition': `attachment; filename="feedback-reports-${fileSlug(released.schemeName)}.zip"`,
        'Cache-Control': 'no-store',
      },
    })
  })
}
