import type { Route } from './+types/scheme-management.$schemeId'
import { formatDateTime } from '#app/lib/dates'
import { unreadableForm } from '#app/lib/form-data.server'
import { submitIntent } from '#app/lib/reply.server'
import { plural, possessive } from '#app/lib/words'
import { notFound, requireUser } from '#app/modules/auth/guards.server'
import { ROUTE_ROLES } from '#app/modules/auth/permissions'
import { SchemePage } from '#app/modules/scheme/components/scheme-page'
import {
  addEmployee,
  enrolSelected,
  enrolWholeCompany,
  getParticipant,
  listCandidates,
  listParticipants,
  remindParticipant,
  removeEnrolment,
} from '#app/modules/scheme/participants.server'
import {
  closeScheme,
  extendDeadline,
  getScheme,
  getSchemeFormOptions,
  getSchemeHead,
  launchScheme,
  reopenScheme,
  updateScheme,
} from '#app/modules/scheme/scheme.server'
import {
  parseSchemeDetailQuery,
  SchemeAddEmployeeSchema,
  SchemeCloseSchema,
  SchemeEnrolAllSchema,
  SchemeEnrolSchema,
  SchemeExtendSchema,
  SchemeLaunchSchema,
  SchemeReleaseAllSchema,
  SchemeReleaseSchema,
  SchemeRemindSchema,
  SchemeRemoveSchema,
  SchemeReopenSchema,
  SchemeUpdateSchema,
  schemeInputOf,
} from '#app/modules/scheme/schemas'
import {
  previewRelease,
  previewSchemeRelease,
  releaseParticipant,
  releaseScheme,
} from '#app/modules/report/release.server'
import { redirectWithToast } from '#app/modules/toast/toast.server'
import type { RouteHandle } from '#app/root'

export const handle: RouteHandle = { layout: 'admin', transition: true }

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: loaderData ? `${loaderData.scheme.name} · Schemes · Panorama admin` : 'Scheme · Panorama admin' },
]

// React Router keeps an action's headers only when the route passes them on: a 429's Retry-After.
export const headers: Route.HeadersFunction = ({ actionHeaders }) => {
  const retryAfter = actionHeaders.get('Retry-After')
  return retryAfter ? { 'Retry-After': retryAfter } : new Headers()
}

/**
 * One scheme: its details (edit with `?edit`), its lifecycle (launch, extend, close now, reopen:
 * the irreversible ones behind a confirmation, `?confirm=`), enrolment (pick from the company,
 * the whole company, or someone new) and the per-participant progress table with "remind",
 * "invite on their behalf" and "remove" (`?remove=<uid>`). Unknown or malformed ids are a 404.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  await requireUser(request, { roles: ROUTE_ROLES.admin })
  const scheme = await getScheme(params.schemeId)
  if (!scheme) notFound()
  const query = parseSchemeDetailQuery(new URL(request.url).searchParams)
  const editing = query.edit !== undefined
  const releasingAll = query.confirm === 'release-all' || query.confirm === 'release-again-all'
  const [participants, candidates, options, removing, releasing, releaseVerdict, releasePlan] =
    await Promise.all([
      listParticipants(scheme, query),
      scheme.phase === 'closed' ? null : listCandidates(scheme, query.find),
      editing ? getSchemeFormOptions(scheme.questionnaireId) : null,
      query.remove ? getParticipant(scheme, query.remove) : null,
      query.release ? getParticipant(scheme, query.release) : null,
      // What a release would do now, under the rule between releases (ADR 025), for its confirmation.
      query.release ? previewRelease(scheme.id, query.release) : null,
      releasingAll ? previewSchemeRelease(scheme.id) : null,
    ])
  const notices: string[] = []
  if (participants.staleCursor) notices.push('That page link is out of date, so the first page is shown.')
  if ((query.remove && !removing) || (query.release && !releasing))
    notices.push('That employee is not enrolled in this scheme (any more).')
  return {
    scheme,
    query: { q: query.q, find: query.find, confirm: query.confirm ?? null, editing },
    participants,
    candidates,
    options,
    removing,
    releasing: releasing ? { ...releasing, verdict: releaseVerdict } : null,
    releasePlan,
    notices,
  }
}

/** The page as it was, without a panel open: where a finished change returns to. */
function pageHref(request: Request, params: { schemeId: string }) {
  const url = new URL(request.url)
  for (const name of ['edit', 'confirm', 'remove', 'release', 'index']) url.searchParams.delete(name)
  const search = url.searchParams.toString()
  return `/admin/scheme-management/${params.schemeId}${search ? `?${search}` : ''}`
}

/** "3 e-mails queued (1 to activate an account, 2 …)", naming only the kinds that were queued. */
function queuedMails({ activation, programmeOpen }: { activation: number; programmeOpen: number }) {
  const open = '“your programme is open” e-mail'
  if (!activation) return `${plural(programmeOpen, open, `${open}s`)} queued`
  if (!programmeOpen) return `${plural(activation, 'activation e-mail', 'activation e-mails')} queued`
  return `${plural(activation + programmeOpen, 'e-mail', 'e-mails')} queued (${activation} to activate an account, ${programmeOpen} “your programme is open”)`
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const { user } = await requireUser(request, { roles: ROUTE_ROLES.admin })
  const scheme = await getSchemeHead(params.schemeId)
  if (!scheme) notFound()
  const formData = await request.formData().catch(() => null)
  if (!formData) return unreadableForm()
  const actor = { id: user.id, ip: context.ip || null }
  const id = scheme.id
  const back = pageHref(request, params)
  const done = (title: string, description: string, kind: 'success' | 'info' = 'success') =>
    redirectWithToast(back, { kind, title, description })

  switch (formData.get('intent')) {
    case 'update':
      return submitIntent(
        formData,
        'update',
        SchemeUpdateSchema,
        (value) => updateScheme(actor, id, schemeInputOf(value)),
        ({ changed }, input) =>
          changed.length
            ? done('Scheme saved', `“${input.name}” was updated.`)
            : done('Nothing to save', 'The scheme already had those details.', 'info'),
      )
    case 'launch':
      return submitIntent(
        formData,
        'launch',
        SchemeLaunchSchema,
        () => launchScheme(actor, id),
        (r) =>
          done(
            'Scheme launched',
            `${queuedMails(r)}${
              r.heldUntil ? `, held until ${formatDateTime(r.heldUntil, scheme.timeZone)}` : ''
            }.`,
          ),
      )
    case 'close':
      return submitIntent(
        formData,
        'close',
        SchemeCloseSchema,
        () => closeScheme(actor, id),
        (r) =>
          done(
            'Scheme closed',
            `“${r.name}” is closed: nobody can answer or invite any more.${
              r.withdrawn
                ? ` ${plural(r.withdrawn, 'e-mail', 'e-mails')} waiting for its opening ${r.withdrawn === 1 ? 'was' : 'were'} withdrawn.`
                : ''
            }`,
          ),
      )
    case 'reopen':
      return submitIntent(
        formData,
        'reopen',
        SchemeReopenSchema,
        ({ closesAt }) => reopenScheme(actor, id, closesAt),
        (r) =>
          done('Scheme reopened', `“${r.name}” is open until ${formatDateTime(r.closesAt, r.timeZone)}.`),
      )
    case 'extend':
      return submitIntent(
        formData,
        'extend',
        SchemeExtendSchema,
        ({ closesAt }) => extendDeadline(actor, id, closesAt),
        (r) => done('Deadline extended', `“${r.name}” now closes ${formatDateTime(r.closesAt, r.timeZone)}.`),
      )
    case 'enrol':
      return submitIntent(
        formData,
        'enrol',
        SchemeEnrolSchema,
        ({ employeeIds }) => enrolSelected(actor, id, employeeIds),
        (r) =>
          done(
            r.enrolled ? 'Employees enrolled' : 'Nobody new to enrol',
            `${plural(r.enrolled, 'employee', 'employees')} enrolled${r.skipped ? `; ${r.skipped} already enrolled or not active` : ''}${
              r.mail
                ? `; ${plural(r.mail.activation + r.mail.programmeOpen, 'e-mail', 'e-mails')} queued`
                : ''
            }.`,
            r.enrolled ? 'success' : 'info',
          ),
      )
    case 'enrol-all':
      return submitIntent(
        formData,
        'enrol-all',
        SchemeEnrolAllSchema,
        () => enrolWholeCompany(actor, id),
        (r) =>
          done(
            r.enrolled ? 'Company enrolled' : 'Nobody new to enrol',
            `${plural(r.enrolled, 'employee', 'employees')} of ${scheme.companyName} enrolled${
              r.mail
                ? `; ${plural(r.mail.activation + r.mail.programmeOpen, 'e-mail', 'e-mails')} queued`
                : ''
            }.`,
            r.enrolled ? 'success' : 'info',
          ),
      )
    case 'add-employee':
      return submitIntent(
        formData,
        'add-employee',
        SchemeAddEmployeeSchema,
        ({ intent: _i, ...input }) => addEmployee(actor, id, input),
        (r, input) =>
          done(
            'Employee enrolled',
            `${input.displayName} ${r.created ? `was added to ${scheme.companyName} and ` : ''}is enrolled${
              r.mail ? '; their e-mail is queued' : ': they get their e-mail when the scheme is launched'
            }.`,
          ),
      )
    case 'remove':
      return submitIntent(
        formData,
        'remove',
        SchemeRemoveSchema,
        ({ employeeId }) => removeEnrolment(actor, id, employeeId),
        (r) => done('Enrolment removed', `${r.employeeName} is no longer enrolled in “${r.name}”.`),
      )
    case 'remind':
      return submitIntent(
        formData,
        'remind',
        SchemeRemindSchema,
        ({ employeeId }) => remindParticipant(actor, id, employeeId),
        (r) =>
          done(
            'Reminder sent',
            `${plural(r.sent, 'reminder', 'reminders')} queued about ${possessive(r.employeeName)} feedback.`,
          ),
      )
    case 'release':
      return submitIntent(
        formData,
        'release',
        SchemeReleaseSchema,
        ({ employeeId, kind }) => releaseParticipant(actor, id, employeeId, { kind }),
        (r) =>
          r.colleaguesShown
            ? done(
                'Report released',
                `The report now shows ${plural(r.raters, 'colleague’s answers', 'colleagues’ answers')}, combined${
                  r.groupsShown ? '' : ' (without rater groups this time)'
                }; the employee was e-mailed${
                  r.closedAssignments
                    ? ` and ${plural(r.closedAssignments, 'unanswered invitation was', 'unanswered invitations were')} closed`
                    : ''
                }.`,
              )
            : done(
                'Self-assessment released',
                `The report shows the self-assessment alone: fewer than ${scheme.minRaters} colleagues have answered. Their invitations stay open; no e-mail was sent.`,
              ),
      )
    case 'release-all':
      return submitIntent(
        formData,
        'release-all',
        SchemeReleaseAllSchema,
        ({ again }) => releaseScheme(actor, id, { includeReleased: again === 'yes' }),
        (r) =>
          done(
            'Reports released',
            `${plural(r.released, 'report', 'reports')} of “${r.schemeName}” released with colleagues’ results; each employee was e-mailed.${
              r.plan.belowThreshold
                ? ` ${plural(r.plan.belowThreshold, 'report is', 'reports are')} below the threshold and ${r.plan.belowThreshold === 1 ? 'was' : 'were'} left as ${r.plan.belowThreshold === 1 ? 'it was' : 'they were'}.`
                : ''
            }`,
          ),
      )
    default:
      return unreadableForm()
  }
}

export default function SchemeDetailPage({ loaderData, actionData }: Route.ComponentProps) {
  return <SchemePage data={loaderData} actionData={actionData} />
}
