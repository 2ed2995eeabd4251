import { Link } from 'react-router'
import type { Route } from './+types/thank-you'
import { resultFor } from '#app/components/form-kit'
import { readFormData } from '#app/lib/form-data.server'
import { dispatchIntent, intent, passRetryAfter } from '#app/lib/reply.server'
import { requestReopen } from '#app/modules/response/reopen-request.server'
import { ReopenRequestSchema } from '#app/modules/response/reopen-request-schemas'
import { ReopenRequestCard, requestErrors } from '#app/modules/response/components/reopen-request-form'
import { FormErrors } from '#app/components/forms'
import { redirectWithToast } from '#app/modules/toast/toast.server'
import { getThankYou, type OpenAssignment } from '#app/modules/assignment/thank-you.server'
import { answersNeeded } from '#app/modules/report/threshold'
import { requireUser } from '#app/modules/auth/guards.server'
import { ROUTE_ROLES } from '#app/modules/auth/permissions'
import { ADDRESS_WORDING, ContactLinks, contactFor } from '#app/components/layouts'
import { useRootData, type RouteHandle } from '#app/root'

export const handle: RouteHandle = { layout: 'user', transition: true }

export const meta: Route.MetaFunction = ({ loaderData: d }) => [
  { title: d?.later ? 'Answers saved · Panorama' : 'Thank you · Panorama' },
]

/**
 * After submitting (or "save and finish later"): what happens next. An employee learns about
 * inviting colleagues and when the report becomes meaningful; a colleague learns that nothing more
 * is needed, and sees who to contact (the brand's links, else the portal's).
 */
export async function loader({ request }: Route.LoaderArgs) {
  const { user } = await requireUser(request, { roles: ROUTE_ROLES['user/thank-you'] })
  const url = new URL(request.url)
  const view = await getThankYou(
    { id: user.id, role: user.role as 'employee' | 'colleague' },
    url.searchParams.get('assignment'),
  )
  // "Finish later" only makes sense for an assignment that is still open.
  const later = url.searchParams.get('later') === '1' && view.assignment?.status !== 'submitted'
  return { ...view, later }
}

// A refused request's Retry-After (the rate limit) reaches the browser.
export const headers: Route.HeadersFunction = passRetryAfter

/**
 * "I need to change my answers" (ADR 039): the respondent's own submitted assignment, while its
 * round is open; ownership is in the module's query (not theirs: 404).
 */
export async function action({ request, context }: Route.ActionArgs) {
  const { user } = await requireUser(request, { roles: ROUTE_ROLES['user/thank-you'] })
  const formData = await readFormData(request)
  const actor = { id: user.id, ip: context.ip || null }
  return dispatchIntent(formData, {
    'request-reopen': intent(
      ReopenRequestSchema,
      ({ assignmentId, note }) => requestReopen(actor, assignmentId, note),
      (_, { assignmentId }) =>
        redirectWithToast(`/user/thank-you?assignment=${assignmentId}#change-answers`, {
          kind: 'success',
          title: 'Your request has been sent',
          description:
            'The programme team will reopen your answers or tell you why not. When they reopen them, you get an e-mail.',
        }),
    ),
  })
}

export default function ThankYouPage({ loaderData, actionData }: Route.ComponentProps) {
  const { role, assignment, brand, scheme, open, later, reopen } = loaderData
  const root = useRootData()
  // The brand's own links win over the portal's; none configured at all → no contact section.
  const contact = contactFor(root?.publicEnv.contact ?? null, brand)
  const rater = assignment && assignment.relationship !== 'self'

  return (
    <section aria-labelledby="page-title" className="flex max-w-3xl flex-col gap-6">
      <div className="flex flex-col gap-2">
        <h1 id="page-title" className="text-2xl font-bold tracking-tight">
          {later ? 'Your answers are saved' : 'Thank you'}
        </h1>
        {later && assignment ? (
          <p className="text-lg text-slate-800">
            You can come back any time before{' '}
            <time dateTime={assignment.deadline.iso}>{assignment.deadline.label}</time>
            {rater ? ' with the link in your invitation e-mail' : ''} and continue where you stopped.
          </p>
        ) : assignment?.status === 'submitted' ? (
          <p className="text-lg text-slate-800">
            {rater
              ? `Your feedback for ${assignment.subjectName} has been submitted.`
              : 'Your self-assessment has been submitted.'}
          </p>
        ) : null}
      </div>

      {later && assignment ? (
        <div>
          <Link to={`/assignment/${assignment.id}`} className="btn btn-primary">
            Continue answering now
          </Link>
        </div>
      ) : null}

      {role === 'employee' && scheme && !later ? <EmployeeNextSteps scheme={scheme} /> : null}

      {role === 'colleague' && !later && assignment?.status === 'submitted' ? (
        <div className="card flex flex-col gap-2">
          <h2 className="text-lg font-semibold">What happens next</h2>
          <p className="text-slate-800">
            Nothing more is needed from you. {assignment.subjectName} will see your answers only together with
            other colleagues’ answers, without your name, once enough colleagues have answered.
          </p>
          <p className="text-slate-700">Your invitation link has now expired, so you can close this page.</p>
        </div>
      ) : null}

      {assignment && reopen && !later ? (
        <ReopenRequestCard
          assignmentId={assignment.id}
          reopen={reopen}
          rater={Boolean(rater)}
          lastResult={resultFor(actionData, 'request-reopen')}
        />
      ) : (
        // A refused request about an assignment this page is not about (or no longer offers it for).
        <FormErrors errors={requestErrors(resultFor(actionData, 'request-reopen'))} />
      )}

      {open.length ? <OpenList open={open} /> : null}

      {role === 'colleague' && contact ? (
        <section aria-labelledby="contact-title" className="card flex flex-col gap-3">
          <h2 id="contact-title" className="text-lg font-semibold">
            {brand ? `Questions? Contact ${brand.name}` : 'Questions? Contact us'}
          </h2>
          <ContactLinks contact={contact} wording={ADDRESS_WORDING} />
        </section>
      ) : null}
    </section>
  )
}

type Scheme = NonNullable<Route.ComponentProps['loaderData']['scheme']>

function EmployeeNextSteps({ scheme }: { scheme: Scheme }) {
  const needed = answersNeeded(scheme.colleaguesSubmitted, scheme.minRaters)
  return (
    <div className="card flex flex-col gap-4">
      <h2 className="text-lg font-semibold">What happens next</h2>
      <ol className="flex list-decimal flex-col gap-3 pl-5 text-slate-800">
        <li>
          <p>
            <strong>Invite colleagues</strong> to give feedback on you: you have invited {scheme.invited} of{' '}
            {scheme.maxColleagues}
            {scheme.remaining
              ? `, so you can invite ${scheme.remaining} more.`
              : ' and cannot invite more in this programme.'}
          </p>
          {scheme.remaining && scheme.open ? (
            <Link to="/user/colleague-invite" className="btn btn-primary mt-2">
              Invite colleagues
            </Link>
          ) : null}
        </li>
        <li>
          <p>
            <strong>Your report</strong> sets your answers beside your colleagues’. It shows their answers
            once at least {scheme.minRaters} {scheme.minRaters === 1 ? 'colleague has' : 'colleagues have'}{' '}
            answered, so that nobody’s answers can be singled out.{' '}
            {needed
              ? `So far ${scheme.colleaguesSubmitted} ${scheme.colleaguesSubmitted === 1 ? 'has' : 'have'} answered: ${needed} more needed.`
              : `${scheme.colleaguesSubmitted} have answered, enough for the report.`}
          </p>
          {scheme.reportResponseId ? (
            <Link to={`/user/response-${scheme.reportResponseId}`} className="link mt-2 inline-block">
              Open your report
            </Link>
          ) : null}
        </li>
      </ol>
      <p>
        <Link to="/user" className="link">
          Back to my feedback
        </Link>
      </p>
    </div>
  )
}

function OpenList({ open }: { open: OpenAssignment[] }) {
  return (
    <section aria-labelledby="open-title" className="card flex flex-col gap-3">
      <h2 id="open-title" className="text-lg font-semibold">
        {open.length === 1
          ? 'One more questionnaire is waiting for you'
          : `${open.length} questionnaires are waiting for you`}
      </h2>
      <ul className="flex flex-col gap-2">
        {open.map((o) => (
          <li key={o.id} className="flex flex-wrap items-center justify-between gap-3">
            <span>
              {o.relationship === 'self' ? 'Your self-assessment' : `Feedback for ${o.subjectName}`} · due{' '}
              <time dateTime={o.deadline.iso}>{o.deadline.date}</time>
            </span>
            <Link to={`/assignment/${o.id}`} className="btn btn-secondary">
              {o.status === 'in_progress' ? 'Continue' : 'Start'}
              <span className="sr-only">
                {o.relationship === 'self' ? ' your self-assessment' : ` feedback for ${o.subjectName}`}
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  )
}
