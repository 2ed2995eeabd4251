import type { Route } from './+types/scheme-management.$schemeId.group-report-pdf'
import { notFound, requireUser } from '#app/modules/auth/guards.server'
import { ROUTE_ROLES } from '#app/modules/auth/permissions'
import { groupReportPdfResponse } from '#app/modules/pdf/group-report-pdf.server'

/**
 * The scheme's group report as a branded PDF (issue 19 §4 and §7): admins only, recorded; an unknown or
 * malformed id is a 404, nothing released yet a 409 in words.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const session = await requireUser(request, { roles: ROUTE_ROLES.admin })
  return (await groupReportPdfResponse('scheme', params.schemeId, session, context.ip || null)) ?? notFound()
}
