import type { Route } from './+types/scheme-management.$schemeId'
import { formatDateTime } from '#app/lib/dates'
import { dispatchIntent, intent, passRetryAfter } from '#app/lib/reply.server'
import { plural, possessive } from '#app/lib/words'
import { notFound, requireUser } from '#app/modules/auth/guards.server'
import { ROUTE_ROLES } from '#app/modules/auth/permissions'
import { releaseParticipant, releaseScheme } from '#app/modules/report/release.server'
import { SchemePage } from '#app/modules/scheme/components/scheme-page'
import {
  addEmployee,
  enrolSelected,
  enrolWholeCompany,
  remindParticipant,
  removeEnrolment,
} from '#app/modules/scheme/participants.server'
import * as S from '#app/modules/scheme/schemas'
import { loadSchemePage, schemePageHref } from '#app/modules/scheme/scheme-page.server'
import { queuedCount, queuedMails } from '#app/modules/scheme/toasts'
import {
  closeScheme,
  extendDeadline,
  getSchemeHead,
  launchScheme,
  reopenScheme,
  updateScheme,
} from '#app/modules/scheme/scheme.server'
import type { Language } from '#db/enums'
import { isLanguage } from '#app/modules/i18n/languages'
import { incompleteLanguagesMessage } from '#app/modules/questionnaire/translations'
import { redirectWithToast } from '#app/modules/toast/toast.server'
import { requireAdminForm, savedToast, toastReply } from './admin-action.server'
import { ADMIN_HANDLE, adminTitle } from './admin-meta'

export const handle = ADMIN_HANDLE

export const meta: Route.MetaFunction = ({ loaderData }) =>
  adminTitle(loaderData ? `${loaderData.scheme.name} · Schemes` : 'Scheme')

// A 429's Retry-After reaches the browser only when the route passes it on.
export const headers: Route.HeadersFunction = passRetryAfter

/**
 * One scheme: its details (edit with `?edit`), its lifecycle (launch, extend, close now, reopen:
 * the irreversible ones behind a confirmation, `?confirm=`), enrolment (pick from the company,
 * the whole company, or someone new) and the per-participant progress table with "remind",
 * "invite on their behalf" and "remove" (`?remove=<uid>`). Unknown or malformed ids are a 404.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  await requireUser(request, { roles: ROUTE_ROLES.admin })
  return (await loadSchemePage(params.schemeId, new URL(request.url).searchParams)) ?? notFound()
}

/** The launch's warning when the questionnaire lacks texts in the scheme's languages (ADR 051). */
function untranslatedNote(counts: Array<{ language: string; missing: number }>) {
  const message = incompleteLanguagesMessage(
    counts.filter((c): c is { language: Language; missing: number } => isLanguage(c.language)),
  )
  return message ? ` The questionnaire is not fully translated: ${message}` : ''
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const { actor, formData } = await requireAdminForm(request, context)
  const scheme = (await getSchemeHead(params.schemeId)) ?? notFound()
  const id = scheme.id
  const back = schemePageHref(new URL(request.url), params.schemeId)
  const done = toastReply(back)

  return dispatchIntent(formData, {
    update: intent(
      S.SchemeUpdateSchema,
      (value) => updateScheme(actor, id, S.schemeInputOf(value)),
      ({ changed }, input) =>
        redirectWithToast(back, savedToast(changed, 'scheme', `“${input.name}” was updated.`)),
    ),
    launch: intent(
      S.SchemeLaunchSchema,
      () => launchScheme(actor, id),
      (r) =>
        done(
          'Scheme launched',
          `${queuedMails(r)}${
            r.heldUntil ? `, held until ${formatDateTime(r.heldUntil, scheme.timeZone)}` : ''
          }.${untranslatedNote(r.untranslated)}`,
        ),
    ),
    close: intent(
      S.SchemeCloseSchema,
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
    ),
    reopen: intent(
      S.SchemeReopenSchema,
      ({ closesAt }) => reopenScheme(actor, id, closesAt),
      (r) => done('Scheme reopened', `“${r.name}” is open until ${formatDateTime(r.closesAt, r.timeZone)}.`),
    ),
    extend: intent(
      S.SchemeExtendSchema,
      ({ closesAt }) => extendDeadline(actor, id, closesAt),
      (r) => done('Deadline extended', `“${r.name}” now closes ${formatDateTime(r.closesAt, r.timeZone)}.`),
    ),
    enrol: intent(
      S.SchemeEnrolSchema,
      ({ employeeIds }) => enrolSelected(actor, id, employeeIds),
      (r) =>
        done(
          r.enrolled ? 'Employees enrolled' : 'Nobody new to enrol',
          `${plural(r.enrolled, 'employee', 'employees')} enrolled${r.skipped ? `; ${r.skipped} already enrolled or not active` : ''}${
            r.mail ? `; ${queuedCount(r.mail)}` : ''
          }.`,
          r.enrolled ? 'success' : 'info',
        ),
    ),
    'enrol-all': intent(
      S.SchemeEnrolAllSchema,
      () => enrolWholeCompany(actor, id),
      (r) =>
        done(
          r.enrolled ? 'Company enrolled' : 'Nobody new to enrol',
          `${plural(r.enrolled, 'employee', 'employees')} of ${scheme.companyName} enrolled${
            r.mail ? `; ${queuedCount(r.mail)}` : ''
          }.`,
          r.enrolled ? 'success' : 'info',
        ),
    ),
    'add-employee': intent(
      S.SchemeAddEmployeeSchema,
      ({ intent: _i, ...input }) => addEmployee(actor, id, input),
      (r, input) =>
        done(
          'Employee enrolled',
          `${input.displayName} ${r.created ? `was added to ${scheme.companyName} and ` : ''}is enrolled${
            r.mail ? '; their e-mail is queued' : ': they get their e-mail when the scheme is launched'
          }.`,
        ),
    ),
    remove: intent(
      S.SchemeRemoveSchema,
      ({ employeeId }) => removeEnrolment(actor, id, employeeId),
      (r) => done('Enrolment removed', `${r.employeeName} is no longer enrolled in “${r.name}”.`),
    ),
    remind: intent(
      S.SchemeRemindSchema,
      ({ employeeId }) => remindParticipant(actor, id, employeeId),
      (r) =>
        done(
          'Reminder sent',
          `${plural(r.sent, 'reminder', 'reminders')} queued about ${possessive(r.employeeName)} feedback.`,
        ),
    ),
    release: intent(
      S.SchemeReleaseSchema,
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
    ),
    'release-all': intent(
      S.SchemeReleaseAllSchema,
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
    ),
  })
}

export default function SchemeDetailPage({ loaderData, actionData }: Route.ComponentProps) {
  return <SchemePage data={loaderData} actionData={actionData} />
}
