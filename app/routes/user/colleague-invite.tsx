import {
  getFormProps,
  getInputProps,
  getSelectProps,
  useForm,
  type SubmissionResult,
} from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { useEffect, useRef } from 'react'
import { data, Form, Link, useNavigation } from 'react-router'
import type { Route } from './+types/colleague-invite'
import { Field, FormErrors, SelectField } from '#app/components/forms'
import { BotCheck } from '#app/components/turnstile'
import { readFormData } from '#app/lib/form-data.server'
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
  formatDate,
  INVITE_MESSAGES,
  INVITE_STATUS_LABELS,
  InvitePageQuerySchema,
  InviteSchema,
  RELATIONSHIP_LABELS,
  RELATIONSHIPS,
  remainingText,
  ResendSchema,
  RevokeSchema,
  type InviteStatus,
} from '#app/modules/invite/schemas'
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

// React Router keeps an action's headers only when the route passes them on: a 429's Retry-After.
export const headers: Route.HeadersFunction = ({ actionHeaders }) => {
  const retryAfter = actionHeaders.get('Retry-After')
  return retryAfter ? { 'Retry-After': retryAfter } : new Headers()
}

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
  if (!target) return { state: 'pick-employee' as const }
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
    const submission = parseWithZod(formData, { schema: InviteSchema })
    if (submission.status !== 'success') return data({ intent, result: submission.reply() }, { status: 400 })
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
    if (!outcome.ok) {
      if (outcome.notFound) notFound()
      const limited = outcome.retryAfterSeconds !== undefined
      return data(
        {
          intent,
          result: submission.reply({ formErrors: outcome.formErrors, fieldErrors: outcome.fieldErrors }),
        },
        {
          status: limited ? 429 : 400,
          headers: limited ? { 'Retry-After': String(outcome.retryAfterSeconds) } : undefined,
        },
      )
    }
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
    const submission = parseWithZod(formData, { schema: intent === 'resend' ? ResendSchema : RevokeSchema })
    if (submission.status !== 'success')
      return formError(intent, submission.error?.assignmentId?.[0] ?? INVITE_MESSAGES.unreadable)
    const options = { employeeId: target.employee.id }
    const { assignmentId } = submission.value
    if (intent === 'resend') {
      const outcome = await resendInvite(actor, assignmentId, options)
      if (!outcome.ok) {
        if (outcome.notFound) notFound()
        const limited = outcome.retryAfterSeconds !== undefined
        return data(
          { intent, result: submission.reply({ formErrors: outcome.formErrors }) },
          {
            status: limited ? 429 : 400,
            headers: limited ? { 'Retry-After': String(outcome.retryAfterSeconds) } : undefined,
          },
        )
      }
      return redirectWithToast(pageUrl(target, query.scheme), {
        kind: 'success',
        title: `Invitation sent again to ${outcome.value.name}`,
        description: `The earlier link no longer works; ${outcome.value.email} has a new one.`,
      })
    }
    const outcome = await revokeInvite(actor, assignmentId, options)
    if (!outcome.ok) {
      if (outcome.notFound) notFound()
      return data({ intent, result: submission.reply({ formErrors: outcome.formErrors }) }, { status: 400 })
    }
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

type LoaderData = Route.ComponentProps['loaderData']
type Ready = Extract<LoaderData, { state: 'ready' }>
type Scheme = NonNullable<Ready['scheme']>
type Colleague = Ready['colleagues'][number]

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
            here come from {employeeName}’s programme.{' '}
            <Link className="link" to="/admin/employee-management">
              Choose another employee
            </Link>
          </p>
        ) : null}
        <p className="text-slate-700">
          {onBehalf ? `${employeeName}’s colleagues` : 'The colleagues you invite'} answer the same
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

function PickEmployee({ errors }: { errors: string[] | null | undefined }) {
  return (
    <section aria-labelledby="page-title" className="flex max-w-3xl flex-col gap-4">
      <h1 id="page-title" className="text-2xl font-bold tracking-tight">
        Invite colleagues
      </h1>
      <FormErrors errors={errors} />
      <div className="card flex flex-col gap-3">
        <h2 className="text-lg font-semibold">Choose an employee first</h2>
        <p className="text-slate-700">
          As an administrator you invite colleagues on an employee’s behalf, one employee at a time. Find the
          employee on the employees page and open their invitations from there; this page then shows their
          schemes, the colleagues already invited and the invitation form.
        </p>
        <p>
          <Link className="btn btn-primary" to="/admin/employee-management">
            Go to employees
          </Link>
        </p>
      </div>
    </section>
  )
}

function SchemePicker({
  schemes,
  current,
  hrefFor,
}: {
  schemes: Scheme[]
  current: string
  hrefFor: (changes: { scheme?: string }) => string
}) {
  return (
    <nav aria-labelledby="schemes-title" className="flex flex-col gap-2">
      <h2 id="schemes-title" className="text-lg font-semibold">
        Your schemes
      </h2>
      <ul className="flex flex-wrap gap-2">
        {schemes.map((s) => (
          <li key={s.id}>
            <Link
              to={hrefFor({ scheme: s.id })}
              aria-current={s.id === current ? 'page' : undefined}
              className={`flex flex-col rounded-md border px-3 py-2 text-sm ${
                s.id === current
                  ? 'border-indigo-700 bg-indigo-50 text-indigo-950'
                  : 'border-slate-300 bg-white text-slate-800 hover:bg-slate-50'
              }`}
            >
              <span className="font-semibold">{s.name}</span>
              <span>
                {s.open ? `${s.live} of ${s.limit} invited` : 'Closed'} · {s.companyName}
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  )
}

function SchemeSummary({ scheme, who }: { scheme: Scheme; who: string | null }) {
  return (
    <section aria-labelledby="scheme-title" className="card flex flex-col gap-1">
      <h2 id="scheme-title" className="text-lg font-semibold">
        {scheme.name}
      </h2>
      <p className="text-sm text-slate-700">
        {scheme.companyName} ·{' '}
        {scheme.open ? (
          <>
            colleagues can answer until <time dateTime={scheme.closesAt}>{formatDate(scheme.closesAt)}</time>
          </>
        ) : scheme.status === 'draft' ? (
          'not open yet'
        ) : (
          <>
            closed on <time dateTime={scheme.closesAt}>{formatDate(scheme.closesAt)}</time>
          </>
        )}
      </p>
      {scheme.open ? (
        <p className="mt-2 font-medium">
          {remainingText(scheme.remaining, who)}{' '}
          <span className="font-normal text-slate-700">
            ({scheme.live} of {scheme.limit} invited)
          </span>
        </p>
      ) : null}
    </section>
  )
}

function ClosedNotice({ scheme, who }: { scheme: Scheme; who: string | null }) {
  const text = !scheme.open
    ? scheme.status === 'draft'
      ? 'This scheme has not opened yet. Invitations can be sent once it opens.'
      : 'This scheme has closed, so no more colleagues can be invited.'
    : `${who ?? 'You'} ${who ? 'has' : 'have'} invited ${scheme.limit} ${
        scheme.limit === 1 ? 'colleague' : 'colleagues'
      }, the most this scheme allows. To invite someone else, revoke an invitation that has not been answered yet.`
  return (
    <div className="card" role="status">
      <p className="text-slate-800">{text}</p>
    </div>
  )
}

const STATUS_STYLES: Record<InviteStatus, string> = {
  invited: 'border-slate-300 bg-slate-50 text-slate-800',
  started: 'border-amber-300 bg-amber-50 text-amber-950',
  answered: 'border-green-300 bg-green-50 text-green-900',
  revoked: 'border-slate-300 bg-white text-slate-700 line-through',
}

function ColleagueList({
  scheme,
  colleagues,
  hrefFor,
  onBehalf,
}: {
  scheme: Scheme
  colleagues: Colleague[]
  hrefFor: (changes: { revoke?: string }) => string
  onBehalf: boolean
}) {
  const navigation = useNavigation()
  const pending = navigation.state === 'submitting' ? navigation.formData : undefined
  return (
    <section aria-labelledby="invited-title" className="flex flex-col gap-3">
      <h2 id="invited-title" className="text-lg font-semibold">
        Invited colleagues
      </h2>
      {colleagues.length === 0 ? (
        <p className="text-slate-700">
          {onBehalf ? 'No colleague has been invited yet.' : 'You have not invited anyone yet.'}{' '}
          {scheme.open ? 'Use the form below to send the first invitation.' : null}
        </p>
      ) : (
        <div className="overflow-x-auto rounded-xl border border-slate-200 bg-white">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">
              Colleagues invited to {scheme.name}, with the state of each invitation
            </caption>
            <thead className="border-b border-slate-200 bg-slate-50 text-slate-800">
              <tr>
                <th scope="col" className="px-4 py-3 font-semibold">
                  Name
                </th>
                <th scope="col" className="px-4 py-3 font-semibold">
                  E-mail
                </th>
                <th scope="col" className="px-4 py-3 font-semibold">
                  Relationship
                </th>
                <th scope="col" className="px-4 py-3 font-semibold">
                  Status
                </th>
                <th scope="col" className="px-4 py-3 font-semibold">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-200">
              {colleagues.map((c) => {
                const changeable = scheme.open && (c.status === 'invited' || c.status === 'started')
                const resending = pending?.get('intent') === 'resend' && pending.get('assignmentId') === c.id
                return (
                  <tr key={c.id}>
                    <th scope="row" className="px-4 py-3 font-medium">
                      {c.name}
                    </th>
                    <td className="px-4 py-3 wrap-anywhere text-slate-800">{c.email}</td>
                    <td className="px-4 py-3 text-slate-800">{RELATIONSHIP_LABELS[c.relationship]}</td>
                    <td className="px-4 py-3">
                      <span
                        className={`inline-block rounded-full border px-2 py-0.5 text-xs font-semibold ${STATUS_STYLES[c.status]}`}
                      >
                        {INVITE_STATUS_LABELS[c.status]}
                      </span>
                      {c.invitedAt && c.status !== 'revoked' ? (
                        <span className="mt-1 block text-xs whitespace-nowrap text-slate-700">
                          invited <time dateTime={c.invitedAt}>{formatDate(c.invitedAt)}</time>
                        </span>
                      ) : null}
                    </td>
                    <td className="px-4 py-3">
                      {changeable ? (
                        <div className="flex items-center justify-end gap-2">
                          <Form method="post" action={hrefFor({})} preventScrollReset>
                            <input type="hidden" name="intent" value="resend" />
                            <input type="hidden" name="assignmentId" value={c.id} />
                            <button type="submit" className="btn btn-secondary" disabled={resending}>
                              {resending ? 'Sending…' : 'Resend'}
                              <span className="sr-only"> the invitation to {c.name}</span>
                            </button>
                          </Form>
                          <Link
                            to={hrefFor({ revoke: c.id })}
                            className="btn btn-secondary"
                            preventScrollReset
                          >
                            Revoke…<span className="sr-only"> the invitation to {c.name}</span>
                          </Link>
                        </div>
                      ) : null}
                    </td>
                  </tr>
                )
              })}
            </tbody>
          </table>
        </div>
      )}
    </section>
  )
}

function RevokePanel({ colleague, cancelHref }: { colleague: Colleague; cancelHref: string }) {
  const navigation = useNavigation()
  const busy = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'revoke'
  const heading = useRef<HTMLHeadingElement>(null)
  // Opened by a link: move focus here so keyboard and screen-reader users land on the question.
  useEffect(() => heading.current?.focus(), [])
  return (
    <section aria-labelledby="revoke-title" className="card flex flex-col gap-3 border-red-300">
      <h2 id="revoke-title" ref={heading} tabIndex={-1} className="text-lg font-semibold text-red-900">
        {`Revoke the invitation to ${colleague.name}?`}
      </h2>
      <p className="text-slate-800">
        The link we sent to {colleague.email} stops working at once
        {colleague.status === 'started' ? ' and the answers they have started are not used' : ''}. The place
        becomes free, so you can invite someone else. You can invite {colleague.name} again later.
      </p>
      <Form method="post" action={cancelHref} className="flex flex-wrap gap-3">
        <input type="hidden" name="intent" value="revoke" />
        <input type="hidden" name="assignmentId" value={colleague.id} />
        <button type="submit" className="btn btn-danger" disabled={busy}>
          {busy ? 'Revoking…' : 'Yes, revoke the invitation'}
        </button>
        <Link to={cancelHref} className="btn btn-secondary">
          Cancel
        </Link>
      </Form>
    </section>
  )
}

function InviteForm({
  schemeId,
  action,
  lastResult,
  onBehalf,
}: {
  schemeId: string
  /** This page without ?revoke=, so a sent invitation does not reopen a confirmation. */
  action: string
  lastResult: SubmissionResult<string[]> | undefined
  onBehalf: boolean
}) {
  const navigation = useNavigation()
  const busy = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'invite'
  const [form, fields] = useForm({
    id: 'invite',
    constraint: getZodConstraint(InviteSchema),
    lastResult,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: InviteSchema }),
    // Errors clear as they are fixed, not on blur: a message vanishing under the pointer would move
    // the submit button away from a click that is already under way.
    shouldRevalidate: 'onInput',
  })
  return (
    <section aria-labelledby="invite-title" className="card flex flex-col gap-4">
      <h2 id="invite-title" className="text-lg font-semibold">
        Invite a colleague
      </h2>
      <p className="text-sm text-slate-700">
        Choose people who have seen {onBehalf ? 'the employee' : 'you'} at work recently: a manager, peers,
        people who report to {onBehalf ? 'them' : 'you'}. A mix of perspectives gives the most useful report.
      </p>
      <Form method="post" action={action} className="flex flex-col gap-4" {...getFormProps(form)}>
        <input type="hidden" name="intent" value="invite" />
        <input type="hidden" name="schemeId" value={schemeId} />
        <FormErrors id={form.errorId} errors={form.errors} />
        <div className="grid gap-4 sm:grid-cols-2">
          <Field
            label="Name"
            inputProps={{ ...getInputProps(fields.name, { type: 'text' }), autoComplete: 'off' }}
            errors={fields.name.errors}
          />
          <Field
            label="E-mail address"
            inputProps={{
              ...getInputProps(fields.email, { type: 'email' }),
              autoComplete: 'off',
              spellCheck: false,
            }}
            errors={fields.email.errors}
          />
        </div>
        <SelectField
          label="Relationship"
          className="flex flex-col gap-1 sm:max-w-xs"
          selectProps={getSelectProps(fields.relationship)}
          options={RELATIONSHIPS.map((r) => ({ value: r, label: RELATIONSHIP_LABELS[r] }))}
          placeholder="Choose…"
          help={`How this person works with ${onBehalf ? 'the employee' : 'you'}.`}
          errors={fields.relationship.errors}
        />
        <BotCheck />
        <div>
          <button type="submit" className="btn btn-primary" disabled={busy}>
            {busy ? 'Sending…' : 'Send invitation'}
          </button>
        </div>
      </Form>
    </section>
  )
}
