import type { SubmissionResult } from '@conform-to/react'
import { data, Link } from 'react-router'
import type { Route } from './+types/colleague-invite'
import { possessive } from '#app/lib/words'
import { FormErrors } from '#app/components/forms'
import { parseForm, readFormData } from '#app/lib/form-data.server'
import { passRetryAfter, replyInvalid, replyRefused } from '#app/lib/reply.server'
import { notFound, requireUser } from '#app/modules/auth/guards.server'
import { ROUTE_ROLES } from '#app/modules/auth/permissions'
import type { SessionUser } from '#app/modules/auth/session.server'
import { verifyTurnstile } from '#app/modules/auth/turnstile.server'
import {
  findEmployee,
  getInvitePage,
  inviteColleague,
  resendInvite,
  revokeInvite,
  type InviteEmployee,
} from '#app/modules/invite/invite.server'
import {
  INVITE_MESSAGES,
  InvitePageQuerySchema,
  InviteSchema,
  remainingText,
  ResendSchema,
  RevokeSchema,
} from '#app/modules/invite/schemas'
import { ColleagueList } from '#app/modules/invite/components/colleague-list'
import { InviteForm } from '#app/modules/invite/components/invite-form'
import { PickEmployee } from '#app/modules/invite/components/pick-employee'
import { RevokePanel } from '#app/modules/invite/components/revoke-panel'
import { ClosedNotice, SchemePicker, SchemeSummary } from '#app/modules/invite/components/scheme-panels'
import { redirectWithToast } from '#app/modules/toast/toast.server'
import type { RouteHandle } from '#app/root'

export const handle: RouteHandle = { layout: 'user', transition: true }

export const meta: Route.MetaFunction = ({ loaderData }) => [
  {
    title:
      loaderData?.state === 'ready' && loaderData.onBehalf
        ? `Invite colleagues for ${loaderData.employee.displayName || loaderData.employee.email} · Panorama`
        : 'Invite colleagues · Panorama',
  },
]

// A 429's Retry-After reaches the browser only when the route passes it on.
export const headers: Route.HeadersFunction = passRetryAfter

const PATH = '/user/colleague-invite'

type Target = { employee: InviteEmployee; onBehalf: boolean }

/**
 * Whose invitations this page shows: an employee's own (an `?employee=` naming anyone else is a
 * 404); for an admin the employee named by `?employee=` (unknown → 404), or null when none is named.
 */
async function resolveTarget(user: SessionUser, employeeParam: string | undefined): Promise<Target | null> {
  if (user.role === 'employee') {
    if (employeeParam !== undefined && employeeParam !== user.id) notFound()
    return { employee: { id: user.id, displayName: user.displayName, email: user.email }, onBehalf: false }
  }
  if (employeeParam === undefined) return null
  const employee = await findEmployee(employeeParam)
  if (!employee) notFound()
  return { employee, onBehalf: true }
}

function readQuery(request: Request) {
  return InvitePageQuerySchema.parse(Object.fromEntries(new URL(request.url).searchParams))
}

/** This page's address for a scheme (and the employee an admin acts for). */
function pageUrl(target: Target, schemeId: string | undefined) {
  const params = new URLSearchParams()
  if (schemeId) params.set('scheme', schemeId)
  if (target.onBehalf) params.set('employee', target.employee.id)
  const search = params.toString()
  return search ? `${PATH}?${search}` : PATH
}

export async function loader({ request }: Route.LoaderArgs) {
  const { user } = await requireUser(request, { roles: ROUTE_ROLES['user/colleague-invite'] })
  const query = readQuery(request)
  const target = await resolveTarget(user, query.employee)
  if (!target) return { state: 'pick-employee' as const, brand: null }
  const page = await getInvitePage(target.employee.id, query.scheme)
  if (!page) notFound()
  const confirmRevoke =
    page.scheme?.open && query.revoke
      ? (page.colleagues.find(
          (c) => c.id === query.revoke && (c.status === 'invited' || c.status === 'started'),
        ) ?? null)
      : null
  return {
    state: 'ready' as const,
    employee: target.employee,
    onBehalf: target.onBehalf,
    ...page,
    confirmRevoke,
    // The header wears the brand of the scheme shown.
    brand: page.scheme?.brand ?? null,
  }
}

function formError(intent: 'invite' | 'resend' | 'revoke' | 'unknown', message: string, status = 400) {
  const result: SubmissionResult<string[]> = { status: 'error', error: { '': [message] } }
  return data({ intent, result }, { status })
}

export async function action({ request, context }: Route.ActionArgs) {
  const { user } = await requireUser(request, { roles: ROUTE_ROLES['user/colleague-invite'] })
  const query = readQuery(request)
  const target = await resolveTarget(user, query.employee)
  const formData = await readFormData(request)
  if (!target)
    return formError('unknown', 'Choose the employee you are inviting colleagues for, then try again.')
  const actor = { id: user.id, role: user.role, ip: context.ip || null }
  const intent = formData.get('intent')

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
      title: `Invitation sent to ${outcome.value.name}`,
      description: `We e-mailed ${outcome.value.email} a personal link. ${remainingText(
        outcome.value.remaining,
        target.onBehalf ? target.employee.displayName || target.employee.email : null,
      )}`,
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
        title: `Invitation sent again to ${outcome.value.name}`,
        description: `The earlier link no longer works; ${outcome.value.email} has a new one.`,
      })
    }
    const outcome = await revokeInvite(actor, assignmentId, options)
    if (!outcome.ok) return replyRefused(intent, submission, outcome)
    return redirectWithToast(pageUrl(target, query.scheme), {
      kind: 'success',
      title: `Invitation to ${outcome.value.name} revoked`,
      description: `Their link no longer works. ${remainingText(
        outcome.value.remaining,
        target.onBehalf ? target.employee.displayName || target.employee.email : null,
      )}`,
    })
  }

  return formError('unknown', INVITE_MESSAGES.unreadable)
}

export default function ColleagueInvite({ loaderData, actionData }: Route.ComponentProps) {
  if (loaderData.state === 'pick-employee')
    return (
      <PickEmployee errors={actionData?.intent === 'unknown' ? actionData.result.error?.[''] : undefined} />
    )
  const { employee, onBehalf, schemes, scheme, colleagues, confirmRevoke } = loaderData
  const employeeName = employee.displayName || employee.email
  const hrefFor = (changes: { scheme?: string; revoke?: string }) => {
    const params = new URLSearchParams()
    const schemeId = changes.scheme ?? scheme?.id
    if (schemeId && (schemes.length > 1 || changes.scheme)) params.set('scheme', schemeId)
    if (onBehalf) params.set('employee', employee.id)
    if (changes.revoke) params.set('revoke', changes.revoke)
    const search = params.toString()
    return search ? `${PATH}?${search}` : PATH
  }
  const listErrors = actionData && actionData.intent !== 'invite' ? actionData.result.error?.[''] : undefined
  return (
    <section aria-labelledby="page-title" className="flex max-w-5xl flex-col gap-8">
      <div className="flex max-w-3xl flex-col gap-3">
        <h1 id="page-title" className="text-2xl font-bold tracking-tight">
          Invite colleagues
        </h1>
        {onBehalf ? (
          <p className="rounded-md border border-indigo-200 bg-indigo-50 p-3 text-sm text-indigo-950">
            Inviting on behalf of <strong>{employeeName}</strong> ({employee.email}). Invitations you send
            here come from {possessive(employeeName)} programme.{' '}
            <Link className="link" to="/admin/employee-management">
              Choose another employee
            </Link>
          </p>
        ) : null}
        <p className="text-slate-700">
          {onBehalf ? `${possessive(employeeName)} colleagues` : 'The colleagues you invite'} answer the same
          questionnaire about {onBehalf ? 'them' : 'you'}. Each receives a personal link by e-mail; their
          answers are shown combined and without names, and only once enough of them have answered.
        </p>
      </div>

      {!scheme ? (
        <div className="card flex flex-col gap-2">
          <h2 className="text-lg font-semibold">No feedback programme yet</h2>
          <p className="text-slate-700">
            {onBehalf ? `${employeeName} is` : 'You are'} not enrolled in a feedback scheme yet, so there is
            nobody to invite colleagues for.{' '}
            {onBehalf
              ? 'Enrol them in a scheme first.'
              : 'Your consultant will enrol you and let you know by e-mail.'}
          </p>
        </div>
      ) : (
        <>
          {schemes.length > 1 ? (
            <SchemePicker schemes={schemes} current={scheme.id} hrefFor={hrefFor} />
          ) : null}
          <SchemeSummary scheme={scheme} who={onBehalf ? employeeName : null} />
          <FormErrors errors={listErrors} />
          {confirmRevoke ? (
            <RevokePanel key={confirmRevoke.id} colleague={confirmRevoke} cancelHref={hrefFor({})} />
          ) : null}
          <ColleagueList scheme={scheme} colleagues={colleagues} hrefFor={hrefFor} onBehalf={onBehalf} />
          {scheme.open && scheme.remaining > 0 ? (
            <InviteForm
              // After an invitation is sent the list changes and the form starts empty again.
              key={`${scheme.id}:${colleagues.map((c) => c.id).join(',')}`}
              schemeId={scheme.id}
              action={hrefFor({})}
              lastResult={actionData?.intent === 'invite' ? actionData.result : undefined}
              onBehalf={onBehalf}
            />
          ) : (
            <>
              {/* An invitation posted from a stale page still shows why it was refused. */}
              <FormErrors
                errors={actionData?.intent === 'invite' ? actionData.result.error?.[''] : undefined}
              />
              <ClosedNotice scheme={scheme} who={onBehalf ? employeeName : null} />
            </>
          )}
        </>
      )}
    </section>
  )
}
