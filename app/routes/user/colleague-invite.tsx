import type { SubmissionResult } from '@conform-to/react'
import { data } from 'react-router'
import type { Route } from './+types/colleague-invite'
import { parseForm, readFormData } from '#app/lib/form-data.server'
import { passRetryAfter, replyInvalid, replyRefused } from '#app/lib/reply.server'
import { notFound, requireUser } from '#app/modules/auth/guards.server'
import { ROUTE_ROLES } from '#app/modules/auth/permissions'
import { verifyTurnstile } from '#app/modules/auth/turnstile.server'
import { inviteColleague, resendInvite, revokeInvite } from '#app/modules/invite/invite.server'
import {
  loadInvitePage,
  resolveInviteTarget,
  type InviteTarget,
} from '#app/modules/invite/invite-page.server'
import {
  INVITE_MESSAGES,
  InvitePageQuerySchema,
  InviteSchema,
  ResendSchema,
  RevokeSchema,
} from '#app/modules/invite/schemas'
import { INVITE_PAGE_PATH, InvitePage } from '#app/modules/invite/components/invite-page'
import { getFixedT, requestLanguage } from '#app/modules/i18n/i18n.server'
import { metaT } from '#app/modules/i18n/meta'
import { redirectWithToast } from '#app/modules/toast/toast.server'
import type { RouteHandle } from '#app/root'

// `home`: the relationship labels.
export const handle: RouteHandle = { layout: 'user', transition: true, i18n: ['invite', 'home'] }

export const meta: Route.MetaFunction = ({ loaderData, matches }) => [
  {
    title: (loaderData?.state === 'ready' ? loaderData.title : null) ?? metaT(matches, 'invite:metaTitle'),
  },
]

// A 429's Retry-After reaches the browser only when the route passes it on.
export const headers: Route.HeadersFunction = passRetryAfter

function readQuery(request: Request) {
  return InvitePageQuerySchema.parse(Object.fromEntries(new URL(request.url).searchParams))
}

/** This page's address for a scheme (and the employee an admin acts for). */
function pageUrl(target: InviteTarget, schemeId: string | undefined) {
  const params = new URLSearchParams()
  if (schemeId) params.set('scheme', schemeId)
  if (target.onBehalf) params.set('employee', target.employee.id)
  const search = params.toString()
  return search ? `${INVITE_PAGE_PATH}?${search}` : INVITE_PAGE_PATH
}

export async function loader({ request }: Route.LoaderArgs) {
  const { user } = await requireUser(request, { roles: ROUTE_ROLES['user/colleague-invite'] })
  const query = readQuery(request)
  const target = await resolveInviteTarget(user, query.employee)
  if (!target.ok) notFound()
  const page = await loadInvitePage(
    target.value,
    query,
    await requestLanguage(request),
    await getFixedT(request, 'invite'),
  )
  if (!page.ok) notFound()
  return page.value
}

function formError(intent: 'invite' | 'resend' | 'revoke' | 'unknown', message: string, status = 400) {
  const result: SubmissionResult<string[]> = { status: 'error', error: { '': [message] } }
  return data({ intent, result }, { status })
}

export async function action({ request, context }: Route.ActionArgs) {
  const { user } = await requireUser(request, { roles: ROUTE_ROLES['user/colleague-invite'] })
  const query = readQuery(request)
  const resolved = await resolveInviteTarget(user, query.employee)
  if (!resolved.ok) notFound()
  const target = resolved.value
  const formData = await readFormData(request)
  if (!target)
    return formError('unknown', 'Choose the employee you are inviting colleagues for, then try again.')
  const actor = { id: user.id, role: user.role, ip: context.ip || null }
  const intent = formData.get('intent')
  const t = await getFixedT(request, 'invite')
  /** "You can invite 5 more colleagues", or the same about the employee an admin acts for. */
  const remaining = (count: number) =>
    target.onBehalf
      ? t('remaining.onBehalf', {
          count: Math.max(0, count),
          who: target.employee.displayName || target.employee.email,
        })
      : t('remaining.own', { count: Math.max(0, count) })

  if (intent === 'invite') {
    const submission = parseForm(formData, { schema: InviteSchema })
    if (submission.status !== 'success') return replyInvalid(intent, submission)
    if (!(await verifyTurnstile(formData, context.ip)))
      return data(
        { intent, result: submission.reply({ formErrors: [INVITE_MESSAGES.captcha] }) },
        { status: 400 },
      )
    const { schemeId, name, email, relationship } = submission.value
    const outcome = await inviteColleague(actor, {
      employeeId: target.employee.id,
      schemeId,
      name,
      email,
      relationship,
    })
    if (!outcome.ok) return replyRefused(intent, submission, outcome)
    return redirectWithToast(pageUrl(target, schemeId), {
      kind: 'success',
      title: t('toast.sentTitle', { name: outcome.value.name }),
      description: t('toast.sentText', {
        email: outcome.value.email,
        remaining: remaining(outcome.value.remaining),
      }),
    })
  }

  if (intent === 'resend' || intent === 'revoke') {
    const submission = parseForm(formData, { schema: intent === 'resend' ? ResendSchema : RevokeSchema })
    if (submission.status !== 'success')
      return formError(
        intent,
        submission.error?.['']?.[0] ?? submission.error?.assignmentId?.[0] ?? INVITE_MESSAGES.unreadable,
      )
    const options = { employeeId: target.employee.id }
    const { assignmentId } = submission.value
    if (intent === 'resend') {
      const outcome = await resendInvite(actor, assignmentId, options)
      if (!outcome.ok) return replyRefused(intent, submission, outcome)
      return redirectWithToast(pageUrl(target, query.scheme), {
        kind: 'success',
        title: t('toast.resentTitle', { name: outcome.value.name }),
        description: t('toast.resentText', { email: outcome.value.email }),
      })
    }
    const outcome = await revokeInvite(actor, assignmentId, options)
    if (!outcome.ok) return replyRefused(intent, submission, outcome)
    return redirectWithToast(pageUrl(target, query.scheme), {
      kind: 'success',
      title: t('toast.revokedTitle', { name: outcome.value.name }),
      description: t('toast.revokedText', { remaining: remaining(outcome.value.remaining) }),
    })
  }

  return formError('unknown', INVITE_MESSAGES.unreadable)
}

export default function ColleagueInvite({ loaderData, actionData }: Route.ComponentProps) {
  return <InvitePage loaderData={loaderData} actionData={actionData} />
}
