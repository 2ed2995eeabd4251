import type { TFunction } from 'i18next'
import type { Route } from './+types/scheme-management.$schemeId'
import { formatDateTime } from '#app/lib/dates'
import { dispatchIntent, intent, passRetryAfter } from '#app/lib/reply.server'
import { possessive } from '#app/lib/words'
import { notFound, requireUser } from '#app/modules/auth/guards.server'
import { ROUTE_ROLES } from '#app/modules/auth/permissions'
import { releaseParticipant, releaseScheme } from '#app/modules/report/release.server'
import { SchemePage, untranslatedMessage } from '#app/modules/scheme/components/scheme-page'
import {
  addEmployee,
  enrolSelected,
  enrolWholeCompany,
  remindParticipant,
  removeEnrolment,
} from '#app/modules/scheme/participants.server'
import * as S from '#app/modules/scheme/schemas'
import { loadSchemePage, schemePageHref } from '#app/modules/scheme/scheme-page.server'
import {
  closeScheme,
  extendDeadline,
  getSchemeHead,
  launchScheme,
  reopenScheme,
  updateScheme,
} from '#app/modules/scheme/scheme.server'
import { intlLocale } from '#app/modules/i18n/languages'
import { getFixedT, requestLanguage } from '#app/modules/i18n/i18n.server'
import { metaT } from '#app/modules/i18n/meta'
import { liftLegalHold, placeLegalHold } from '#app/modules/scheme/legal-hold.server'
import { translateRefusal, translateReleaseRefusal } from '#app/modules/scheme/refusals.server'
import { redirectWithToast } from '#app/modules/toast/toast.server'
import type { Outcome } from '#app/lib/outcome'
import type { RouteHandle } from '#app/root'
import { requireAdminForm, toastReply } from './admin-action.server'
import { ADMIN_HANDLE, adminTitle } from './admin-meta'

export const handle: RouteHandle = { ...ADMIN_HANDLE, i18n: ['schemes', 'scheme-page'] }

export const meta: Route.MetaFunction = ({ loaderData, matches }) =>
  adminTitle(
    loaderData
      ? `${loaderData.scheme.name} · ${metaT(matches, 'schemes:list.title')}`
      : metaT(matches, 'schemes:schemeMetaTitle'),
  )

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
  const t = await getFixedT(request, 'scheme-page')
  const words = { staleCursor: t('notices.staleCursor'), notEnrolled: t('notices.notEnrolled') }
  return (await loadSchemePage(params.schemeId, new URL(request.url).searchParams, words)) ?? notFound()
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const { actor, formData } = await requireAdminForm(request, context)
  const scheme = (await getSchemeHead(params.schemeId)) ?? notFound()
  const id = scheme.id
  const back = schemePageHref(new URL(request.url), params.schemeId)
  const done = toastReply(back)
  // The toasts are written in the request's language (ADR 052): the page they land on is this one.
  const [t, language] = await Promise.all([getFixedT(request, 'scheme-page'), requestLanguage(request)])
  const when = (at: Date | string, zone: string) => formatDateTime(at, zone, intlLocale(language))
  // Refusals with a name or a date in them, in the request's language (the kit translates the rest).
  const say = <T,>(outcome: Outcome<T>) =>
    translateRefusal(outcome, t, () => when(scheme.closesAt, scheme.timeZone))
  const queued = (mail: { activation: number; programmeOpen: number }) =>
    t('toast.mail', { queued: t('toast.queuedCount', { count: mail.activation + mail.programmeOpen }) })

  return dispatchIntent(formData, {
    update: intent(
      S.SchemeUpdateSchema,
      async (value) => say(await updateScheme(actor, id, S.schemeInputOf(value))),
      ({ changed }, input) =>
        redirectWithToast(
          back,
          changed.length
            ? {
                kind: 'success',
                title: t('toast.saved'),
                description: t('toast.updated', { name: input.name }),
              }
            : { kind: 'info', title: t('toast.unchanged'), description: t('toast.unchangedText') },
        ),
    ),
    launch: intent(
      S.SchemeLaunchSchema,
      async () => say(await launchScheme(actor, id)),
      (r) => {
        const mails = queuedMailsIn(t, r)
        const note = untranslatedMessage(t, r.untranslated)
        return done(
          t('toast.launched'),
          `${
            r.heldUntil
              ? t('toast.launchedHeld', { mails, date: when(r.heldUntil, scheme.timeZone) })
              : t('toast.launchedText', { mails })
          }${note ? t('toast.untranslated', { message: note }) : ''}`,
        )
      },
    ),
    close: intent(
      S.SchemeCloseSchema,
      async () => say(await closeScheme(actor, id)),
      (r) =>
        done(
          t('toast.closed'),
          r.withdrawn
            ? t('toast.closedWithdrawn', { name: r.name, count: r.withdrawn })
            : t('toast.closedText', { name: r.name }),
        ),
    ),
    reopen: intent(
      S.SchemeReopenSchema,
      async ({ closesAt }) => say(await reopenScheme(actor, id, closesAt)),
      (r) =>
        done(
          t('toast.reopened'),
          t('toast.reopenedText', { name: r.name, date: when(r.closesAt, r.timeZone) }),
        ),
    ),
    extend: intent(
      S.SchemeExtendSchema,
      async ({ closesAt }) => say(await extendDeadline(actor, id, closesAt)),
      (r) =>
        done(
          t('toast.extended'),
          t('toast.extendedText', { name: r.name, date: when(r.closesAt, r.timeZone) }),
        ),
    ),
    enrol: intent(
      S.SchemeEnrolSchema,
      async ({ employeeIds }) => say(await enrolSelected(actor, id, employeeIds)),
      (r) =>
        done(
          r.enrolled ? t('toast.enrolled') : t('toast.nobodyNew'),
          t('toast.enrolledText', {
            count: r.enrolled,
            skipped: r.skipped ? t('toast.skipped', { count: r.skipped }) : '',
            mail: r.mail ? queued(r.mail) : '',
          }),
          r.enrolled ? 'success' : 'info',
        ),
    ),
    'enrol-all': intent(
      S.SchemeEnrolAllSchema,
      async () => say(await enrolWholeCompany(actor, id)),
      (r) =>
        done(
          r.enrolled ? t('toast.companyEnrolled') : t('toast.nobodyNew'),
          t('toast.companyEnrolledText', {
            count: r.enrolled,
            company: scheme.companyName,
            mail: r.mail ? queued(r.mail) : '',
          }),
          r.enrolled ? 'success' : 'info',
        ),
    ),
    'add-employee': intent(
      S.SchemeAddEmployeeSchema,
      async ({ intent: _i, ...input }) => say(await addEmployee(actor, id, input)),
      (r, input) =>
        done(
          t('toast.employeeEnrolled'),
          t(
            r.created
              ? r.mail
                ? 'toast.addedQueued'
                : 'toast.addedLater'
              : r.mail
                ? 'toast.enrolledQueued'
                : 'toast.enrolledLater',
            { name: input.displayName, company: scheme.companyName },
          ),
        ),
    ),
    remove: intent(
      S.SchemeRemoveSchema,
      async ({ employeeId }) => say(await removeEnrolment(actor, id, employeeId)),
      (r) => done(t('toast.removed'), t('toast.removedText', { name: r.employeeName, scheme: r.name })),
    ),
    remind: intent(
      S.SchemeRemindSchema,
      async ({ employeeId }) => say(await remindParticipant(actor, id, employeeId)),
      (r) =>
        done(
          t('toast.reminded'),
          t('toast.remindedText', {
            count: r.sent,
            // English says "Erin’s feedback"; the other languages name the person ("von Erin").
            whose: language === 'en' ? possessive(r.employeeName) : r.employeeName,
          }),
        ),
    ),
    release: intent(
      S.SchemeReleaseSchema,
      async ({ employeeId, kind }) =>
        say(translateReleaseRefusal(await releaseParticipant(actor, id, employeeId, { kind }), t)),
      (r) =>
        r.colleaguesShown
          ? done(
              t('toast.released'),
              t('toast.releasedText', {
                count: r.raters,
                groups: r.groupsShown ? '' : t('toast.noGroups'),
                closed: r.closedAssignments
                  ? t('toast.closedInvitations', { count: r.closedAssignments })
                  : '',
              }),
            )
          : done(t('toast.selfReleased'), t('toast.selfReleasedText', { needed: scheme.minRaters })),
    ),
    // A legal hold (issue 21 §3, ADR 058): retention leaves the scheme alone while it stands.
    'legal-hold': intent(
      S.SchemeLegalHoldSchema,
      async ({ reason }) => say(await placeLegalHold(actor, id, reason)),
      (r) => done(t('legalHold.toastPlaced'), t('legalHold.toastPlacedText', { name: r.name })),
    ),
    'lift-legal-hold': intent(
      S.SchemeLiftLegalHoldSchema,
      async () => say(await liftLegalHold(actor, id)),
      (r) => done(t('legalHold.toastLifted'), t('legalHold.toastLiftedText', { name: r.name })),
    ),
    'release-all': intent(
      S.SchemeReleaseAllSchema,
      async ({ again }) => say(await releaseScheme(actor, id, { includeReleased: again === 'yes' })),
      (r) =>
        done(
          t('toast.allReleased'),
          t('toast.allReleasedText', {
            count: r.released,
            name: r.schemeName,
            below: r.plan.belowThreshold ? t('toast.below', { count: r.plan.belowThreshold }) : '',
          }),
        ),
    ),
  })
}

type Queued = { activation: number; programmeOpen: number }

/** "3 e-mails queued (1 to activate an account, 2 …)", naming only the kinds that were queued. */
function queuedMailsIn(t: TFunction<'scheme-page'>, { activation, programmeOpen }: Queued) {
  if (!activation) return t('toast.queuedOpen', { count: programmeOpen })
  if (!programmeOpen) return t('toast.queuedActivation', { count: activation })
  return t('toast.queuedBoth', { count: activation + programmeOpen, activation, open: programmeOpen })
}

export default function SchemeDetailPage({ loaderData, actionData }: Route.ComponentProps) {
  return <SchemePage data={loaderData} actionData={actionData} />
}
