import type { Route } from './+types/company-management.$companyId.group-report-pdf'
import { notFound, requireUser } from '#app/modules/auth/guards.server'
import { ROUTE_ROLES } from '#app/modules/auth/permissions'
import { groupReportPdfResponse } from '#app/modules/pdf/group-report-pdf.server'

/**
 * The company's group report as a branded PDF (issue 19 §4 and §7): admins only, recorded; an unknown or
 * malformed id is a 404, nothing released yet a 409 in words.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const session = await requireUser(request, { roles: ROUTE_ROLES.admin })
  return (
    (await groupReportPdfResponse('company', params.companyId, session, context.ip || null)) ?? notFound()
  )
}
