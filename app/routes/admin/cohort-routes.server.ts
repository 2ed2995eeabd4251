import { data } from 'react-router'
import { notFound, requireUser } from '#app/modules/auth/guards.server'
import { ROUTE_ROLES } from '#app/modules/auth/permissions'
import { loadGroupReport, loadHeatmap, type CohortScope } from '#app/modules/cohort/cohort.server'
import { heatmapQuery } from '#app/modules/cohort/schemas'
import { groupReportPdfResponse } from '#app/modules/pdf/group-report-pdf.server'
import { pdfAvailable } from '#app/modules/pdf/browser.server'
import { languageOf } from '#app/modules/i18n/i18n.server'

/**
 * The route side of a cohort's pages (issue 19 §4, ADR 045), written once for a scheme's and a
 * company's: each route names its scope and passes its id param. Every function guards first
 * (admins only), then reads; an unknown or malformed id is a 404. Not a route: app/routes.ts names
 * the routes.
 */

/** The group report: from released reports only, each participant counted through their own report. */
export async function groupReportLoader(request: Request, scope: CohortScope, id: string) {
  await requireUser(request, { roles: ROUTE_ROLES.admin })
  const report = (await loadGroupReport(scope, id)) ?? notFound()
  return { report, pdfAvailable: pdfAvailable() }
}

/**
 * The heatmap, participants × competencies, a page of participants at a time (`?after=&name=`, by
 * name; `?view=table` adds the self scores). A query it does not understand reads as the first page.
 */
export async function heatmapLoader(request: Request, scope: CohortScope, id: string) {
  await requireUser(request, { roles: ROUTE_ROLES.admin })
  const query = heatmapQuery(new URL(request.url).searchParams)
  const heatmap = (await loadHeatmap(scope, id, query.after)) ?? notFound()
  return { heatmap, view: query.view, pageQuery: query.pageQuery }
}

/** The group report as a branded PDF (issue 19 §7): recorded; nothing released yet is a 409 in words. */
export async function groupReportPdfLoader(
  request: Request,
  context: { ip?: string },
  scope: CohortScope,
  id: string,
) {
  const session = await requireUser(request, { roles: ROUTE_ROLES.admin })
  return (
    (await groupReportPdfResponse(
      scope,
      id,
      session,
      context.ip || null,
      languageOf(request, session.user),
    )) ?? notFound()
  )
}

/** The pages are read-only: a POST is guarded like the page, then answered "method not allowed". */
export async function cohortReadOnlyAction(request: Request) {
  await requireUser(request, { roles: ROUTE_ROLES.admin })
  return data({ readOnly: true }, { status: 405 })
}
