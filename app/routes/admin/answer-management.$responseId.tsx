import { Link } from 'react-router'
import type { Route } from './+types/answer-management.$responseId'
import { PageHeader, resultFor } from '#app/components/form-kit'
import { formatDateTime } from '#app/lib/dates'
import { unreadableForm } from '#app/lib/form-data.server'
import { submitIntent } from '#app/lib/reply.server'
import { notFound, requireUser } from '#app/modules/auth/guards.server'
import { ROUTE_ROLES } from '#app/modules/auth/permissions'
import { getResponseView, reopenResponse } from '#app/modules/answers-admin/answers-admin.server'
import { ResponseStateBadge } from '#app/modules/answers-admin/components/response-list'
import { ReopenForm, ResponseAnswers } from '#app/modules/answers-admin/components/response-view'
import { ANSWERS_ADMIN_MESSAGES, RELATIONSHIP_LABELS, ReopenSchema } from '#app/modules/answers-admin/schemas'
import { redirectWithToast } from '#app/modules/toast/toast.server'
import type { RouteHandle } from '#app/root'

export const handle: RouteHandle = { layout: 'admin', transition: true }

export const meta: Route.MetaFunction = ({ loaderData }) => [
  {
    title: loaderData
      ? `Response about ${loaderData.view.header.subjectName} · Answer management · Panorama admin`
      : 'Response · Panorama admin',
  },
]

const LIST = '/admin/answer-management'

/** One response read-only, with who answered (admins may see it), and reopen when submitted. */
export async function loader({ request, params }: Route.LoaderArgs) {
  await requireUser(request, { roles: ROUTE_ROLES.admin })
  const view = await getResponseView(params.responseId)
  if (!view) notFound()
  return { view }
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const { user } = await requireUser(request, { roles: ROUTE_ROLES.admin })
  // An unknown response is the not-found page for every post, like the page itself.
  if (!(await getResponseView(params.responseId))) notFound()
  const formData = await request.formData().catch(() => null)
  if (!formData) return unreadableForm()
  const actor = { id: user.id, ip: context.ip || null }
  const intent = formData.get('intent')
  if (intent === 'reopen')
    return submitIntent(
      formData,
      intent,
      ReopenSchema,
      ({ reason }) => reopenResponse(actor, params.responseId, reason),
      ({ respondentName, subjectName }) =>
        redirectWithToast(`${LIST}/${params.responseId}`, {
          kind: 'success',
          title: 'Answers reopened',
          description: `${respondentName} was told by e-mail and can change their answers about ${subjectName}.`,
        }),
    )
  return unreadableForm()
}

export default function AnswerManagementResponse({ loaderData, actionData }: Route.ComponentProps) {
  const { header, sections } = loaderData.view
  const blockedBy =
    header.state !== 'submitted'
      ? ANSWERS_ADMIN_MESSAGES.notSubmitted
      : header.phase !== 'open'
        ? ANSWERS_ADMIN_MESSAGES.schemeNotOpen(header.schemeName)
        : null
  const when = (iso: string | null) =>
    iso ? <time dateTime={iso}>{formatDateTime(iso, header.timeZone)}</time> : '—'
  return (
    <section aria-labelledby="page-title" className="flex max-w-4xl flex-col gap-6">
      <PageHeader title={`Response about ${header.subjectName}`}>
        <Link className="link" to={LIST}>
          Back to the responses
        </Link>
      </PageHeader>
      <section aria-labelledby="about-title" className="card flex flex-col gap-3">
        <h2 id="about-title" className="text-lg font-semibold">
          About this response
        </h2>
        <dl className="grid gap-x-6 gap-y-2 sm:grid-cols-[auto_1fr]">
          <dt className="font-medium">State</dt>
          <dd>
            <ResponseStateBadge state={header.state} />
          </dd>
          <dt className="font-medium">Scheme</dt>
          <dd className="break-words">
            {header.schemeName} ({header.companyName})
          </dd>
          <dt className="font-medium">Questionnaire</dt>
          <dd className="break-words">{header.questionnaireTitle}</dd>
          <dt className="font-medium">Relationship</dt>
          <dd>{RELATIONSHIP_LABELS[header.relationship]}</dd>
          <dt className="font-medium">Answered by</dt>
          <dd className="break-words">
            {header.respondentName} ({header.respondentEmail})
          </dd>
          <dt className="font-medium">Started</dt>
          <dd>{when(header.startedAt)}</dd>
          <dt className="font-medium">Submitted</dt>
          <dd>{when(header.submittedAt)}</dd>
          {header.reopenedAt ? (
            <>
              <dt className="font-medium">Last reopened</dt>
              <dd>{when(header.reopenedAt)}</dd>
            </>
          ) : null}
        </dl>
      </section>
      <ReopenForm lastResult={resultFor(actionData, 'reopen')} blockedBy={blockedBy} />
      <ResponseAnswers sections={sections} />
    </section>
  )
}
