import { data, type ShouldRevalidateFunctionArgs } from 'react-router'
import type { Route } from './+types/development-plan'
import { parseForm, readFormData } from '#app/lib/form-data.server'
import { dispatchIntent, intent } from '#app/lib/reply.server'
import { changesNothingShown } from '#app/lib/revalidation'
import { notFound, requireUser } from '#app/modules/auth/guards.server'
import { ROUTE_ROLES } from '#app/modules/auth/permissions'
import {
  addFocusArea,
  removeFocusArea,
  revokeShare,
  savePlan,
  setCoachShare,
  shareReport,
} from '#app/modules/plan/plan.server'
import { loadPlanPage } from '#app/modules/plan/plan-page.server'
import {
  AddFocusSchema,
  CoachSchema,
  PLAN_MESSAGES,
  planHref,
  RemoveFocusSchema,
  RevokeSchema,
  SavePlanSchema,
  ShareSchema,
} from '#app/modules/plan/schemas'
import { PlanPage } from '#app/modules/plan/components/plan-page'
import { redirectWithToast } from '#app/modules/toast/toast.server'
import { getFixedT, requestLanguage } from '#app/modules/i18n/i18n.server'
import { intlLocale } from '#app/modules/i18n/languages'
import { metaT } from '#app/modules/i18n/meta'
import type { RouteHandle } from '#app/root'

/** /user/development-plan/:rid — the employee's plan made from their released report (ADR 043). */
// The autosave's status line is the answering page's (the `answering` words).
export const handle: RouteHandle = { layout: 'user', transition: true, i18n: ['plan', 'answering'] }

export const meta: Route.MetaFunction = ({ matches }) => [{ title: metaT(matches, 'plan:metaTitle') }]

export async function loader({ request, params }: Route.LoaderArgs) {
  const { user } = await requireUser(request, { roles: ROUTE_ROLES['user/development-plan'] })
  // Ownership is in both statements: another employee's report is not found, like none.
  const [t, language] = await Promise.all([getFixedT(request, 'plan'), requestLanguage(request)])
  const page = await loadPlanPage(params.rid, user.id, { t, language, locale: intlLocale(language) })
  if (!page) notFound()
  return { ...page, brand: page.brand }
}

/** An autosave stores what the page already shows: no loader needs to run again after it. */
export function shouldRevalidate({ formData, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  if (changesNothingShown(formData)) return false
  return defaultShouldRevalidate
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const { user } = await requireUser(request, { roles: ROUTE_ROLES['user/development-plan'] })
  const rid = params.rid
  const actor = { id: user.id, ip: context.ip || null }
  const formData = await readFormData(request)
  const back = planHref(rid)
  if (formData.get('intent') === 'autosave') return autosave(actor, rid, formData)
  // Toasts in the reader's language (the page they land on is this one, but a toast is not a form).
  const t = await getFixedT(request, 'plan')
  return dispatchIntent(formData, {
    add: intent(
      AddFocusSchema,
      (v) => addFocusArea(actor, rid, v),
      (added) =>
        redirectWithToast(back, {
          kind: 'success',
          title: t('toast.added', { title: added.title }),
          description: t('toast.addedHint'),
        }),
    ),
    save: intent(
      SavePlanSchema,
      (v) => savePlan(actor, rid, v.areas),
      () => redirectWithToast(back, { kind: 'success', title: t('toast.saved') }),
    ),
    remove: intent(
      RemoveFocusSchema,
      (v) => removeFocusArea(actor, rid, v.id),
      (removed) =>
        redirectWithToast(back, { kind: 'success', title: t('toast.removed', { title: removed.title }) }),
    ),
    share: intent(
      ShareSchema,
      (v) => shareReport(actor, rid, { includePlan: v.includePlan === true }),
      (shared) =>
        redirectWithToast(back, {
          kind: 'success',
          title: t('toast.shared', { name: shared.managerName }),
          description: t('toast.sharedHint'),
        }),
    ),
    revoke: intent(
      RevokeSchema,
      () => revokeShare(actor, rid),
      (revoked) =>
        redirectWithToast(back, {
          kind: 'success',
          title: t('toast.revoked', { name: revoked.managerName }),
        }),
    ),
    coach: intent(
      CoachSchema,
      (v) => setCoachShare(actor, rid, v.share === 'on'),
      (done) =>
        redirectWithToast(back, {
          kind: 'success',
          title: done.shared ? t('toast.coachOn') : t('toast.coachOff'),
        }),
    ),
  })
}

/**
 * The autosave's answer, in the shape the answering page's autosave reads (use-autosave.ts): saved,
 * or refused with the fields' messages (invalid) or a message (anything else).
 */
async function autosave(actor: { id: string; ip: string | null }, rid: string, formData: FormData) {
  const submission = parseForm(formData, { schema: SavePlanSchema })
  if (submission.status !== 'success') {
    const fieldErrors = Object.fromEntries(
      Object.entries(submission.error ?? {}).filter((e): e is [string, string[]] => Array.isArray(e[1])),
    )
    return data(
      { kind: 'refused' as const, reason: 'invalid', message: 'Check the fields marked.', fieldErrors },
      { status: 400 },
    )
  }
  const outcome = await savePlan(actor, rid, submission.value.areas)
  if (outcome.ok) return data({ kind: 'saved' as const, savedAt: outcome.value.savedAt })
  if (outcome.notFound) notFound()
  if (outcome.fieldErrors)
    return data(
      {
        kind: 'refused' as const,
        reason: 'invalid',
        message: 'Check the fields marked.',
        fieldErrors: outcome.fieldErrors,
      },
      { status: 400 },
    )
  return data(
    { kind: 'refused' as const, reason: 'refused', message: outcome.formErrors?.[0] ?? PLAN_MESSAGES.stale },
    { status: 400 },
  )
}

export default function DevelopmentPlan({ loaderData, actionData }: Route.ComponentProps) {
  return <PlanPage page={loaderData} actionData={actionData} />
}
