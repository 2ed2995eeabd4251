import { data } from 'react-router'
import type { Route } from './+types/response'
import { requireReportAccess, requireReportId } from '#app/modules/report/access.server'
import { notFound, requireUser } from '#app/modules/auth/guards.server'
import { ROUTE_ROLES } from '#app/modules/auth/permissions'
import { ReportView } from '#app/modules/report/report-view'
import { loadPlanBeside } from '#app/modules/plan/plan.server'
import { MAX_FOCUS_AREAS, planHref } from '#app/modules/plan/words'
import { PlanTargetsContext } from '#app/modules/plan/components/add-to-plan'
import { ReportPlanCard } from '#app/modules/plan/components/report-plan-card'
import { languageOf } from '#app/modules/i18n/i18n.server'
import { metaT } from '#app/modules/i18n/meta'
import { loadReportWithCycle } from '#app/modules/cycle/cycle.server'
import { CycleSection } from '#app/modules/cycle/components/cycle-section'
import type { RouteHandle } from '#app/root'
import printSheet from '#app/modules/report/report.css?url'
import { pdfAvailable, PDF_UNAVAILABLE_MESSAGE } from '#app/modules/pdf/browser.server'

/** /user/response-:rid (STYLE.md §1: a slug whose loader strips "response-"). */
// The plan's card and "Add to my plan" under the report (the `plan` words).
export const handle: RouteHandle = { layout: 'user', transition: true, i18n: ['report', 'plan'] }

// The print sheet ("Save as PDF") as a print-only stylesheet: the browser fetches it without holding
// the first paint for it, as it would for a stylesheet of every medium.
export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: printSheet, media: 'print' }]

export const meta: Route.MetaFunction = ({ loaderData, matches }) => {
  const name = loaderData?.report.header.subjectName
  const title = metaT(matches, 'report:feedbackReport')
  return [{ title: name ? `${title} · ${name} · Panorama` : `${title} · Panorama` }]
}

// Matching the URL comes before the guard: /user/anything-else is not this route at all (404 for
// every visitor, like any unknown path), whereas /user/response-<id> is guarded first, then checked.
function ridOf(slug: string | undefined) {
  if (!slug?.startsWith('response-')) notFound()
  return slug.slice('response-'.length)
}

export async function loader({ request, params }: Route.LoaderArgs) {
  const rid = ridOf(params.responseSlug)
  const { user } = await requireUser(request, { roles: ROUTE_ROLES['user/response'] })
  // Ownership is in the report's one query: another employee's report is not found, like none.
  // Below the anonymity threshold this holds no colleague answer at all (report.server.ts): what the
  // loader returns is what both the HTML and the `.data` request carry.
  // The previous cycle and the norm (ADR 044): only for a scheme that follows another or shows the
  // norm, at most three more statements; the previous report read as its own page reads it. The plan
  // beside it (ADR 043): the employee's own, or for an admin whether there is one (its text only when
  // shared with the coach). Its own statement, ownership in it too.
  const id = requireReportId(rid)
  const [read, plan] = await Promise.all([
    loadReportWithCycle(id, user, languageOf(request, user)),
    loadPlanBeside(id, user),
  ])
  if (!read) notFound()
  const { report, cycle } = read
  return {
    report,
    cycle,
    plan: report.status === 'ready' ? plan : null,
    viewer: user.role === 'admin' ? ('admin' as const) : ('employee' as const),
    // The layout's header wears the programme's brand (it came with the report's header query).
    brand: report.header.brand,
    // A released report downloads as a PDF the server prints (ADR 046), where it has Chromium.
    pdf: !report.header.releasedAt
      ? null
      : pdfAvailable()
        ? { href: `/user/response-${report.header.responseId}/report.pdf` }
        : { unavailable: PDF_UNAVAILABLE_MESSAGE },
  }
}

export async function action({ request, params }: Route.ActionArgs) {
  const rid = ridOf(params.responseSlug)
  const { user } = await requireUser(request, { roles: ROUTE_ROLES['user/response'] })
  await requireReportAccess(rid, user)
  // The report is read-only: nothing to post.
  return data({ readOnly: true }, { status: 405 })
}

export default function Report({ loaderData }: Route.ComponentProps) {
  const { report, plan, viewer, cycle } = loaderData
  const targets =
    plan?.ready && viewer === 'employee'
      ? {
          action: planHref(plan.responseId),
          chosen: plan.areas.map((a) =>
            a.kind === 'question' ? `question:${a.questionId}` : `category:${a.category}`,
          ),
          full: plan.areas.length >= MAX_FOCUS_AREAS,
        }
      : null
  return (
    <PlanTargetsContext.Provider value={targets}>
      <div className="flex flex-col gap-8">
        <ReportView
          report={report}
          viewer={viewer}
          pdf={loaderData.pdf}
          afterInsight={
            cycle && report.status === 'ready' ? (
              <CycleSection view={cycle} scale={report.scale} timeZone={report.header.timeZone} />
            ) : null
          }
        />
        {plan ? <ReportPlanCard plan={plan} viewer={viewer} /> : null}
      </div>
    </PlanTargetsContext.Provider>
  )
}
