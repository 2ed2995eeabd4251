import { data, Link } from 'react-router'
import type { Route } from './+types/answer-management.$responseId'
import { formErrorsOf, PageHeader, resultFor } from '#app/components/form-kit'
import { FormErrors } from '#app/components/forms'
import { unreadableForm } from '#app/lib/form-data.server'
import { submitIntent } from '#app/lib/reply.server'
import { notFound, requireUser } from '#app/modules/auth/guards.server'
import { ROUTE_ROLES } from '#app/modules/auth/permissions'
import {
  getResponseView,
  reopenResponse,
  revealAllowed,
  revealRespondent,
} from '#app/modules/response/response.server'
import { DayTime, ResponseStateBadge } from '#app/modules/response/components/response-list'
import {
  ReopenForm,
  RespondentCell,
  ResponseAnswers,
  RevealForm,
} from '#app/modules/response/components/response-view'
import {
  ANSWERS_ADMIN_MESSAGES,
  RELATIONSHIP_LABELS,
  ReopenSchema,
  RevealSchema,
} from '#app/modules/response/schemas'
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

/**
 * One response read-only, and reopen when submitted. Who answered a colleague's questionnaire is
 * not part of the page (ADR 024): "reveal who answered" asks for a reason, records it, and shows the
 * name in its own reply only — reload the page and it is gone. Strict confidentiality removes it.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  await requireUser(request, { roles: ROUTE_ROLES.admin })
  const view = await getResponseView(params.responseId)
  if (!view) notFound()
  return { view, revealAllowed: revealAllowed() }
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const { user } = await requireUser(request, { roles: ROUTE_ROLES.admin })
  // An unknown response is the not-found page for every post, like the page itself.
  if (!(await getResponseView(params.responseId))) notFound()
  const formData = await request.formData().catch(() => null)
  if (!formData) return unreadableForm()
  const actor = { id: user.id, ip: context.ip || null }
  const intent = formData.get('intent')
  if (intent === 'reveal')
    return submitIntent(
      formData,
      intent,
      RevealSchema,
      ({ reason }) => revealRespondent(actor, params.responseId, reason),
      // Shown in this reply only: the page's own data never holds it.
      (revealed) => data({ intent, result: { status: 'success' as const, initialValue: null }, revealed }),
    )
  if (intent === 'reopen')
    return submitIntent(
      formData,
      intent,
      ReopenSchema,
      ({ reason }) => reopenResponse(actor, params.responseId, reason),
      ({ subjectName }) =>
        redirectWithToast(`${LIST}/${params.responseId}`, {
          kind: 'success',
          title: 'Answers reopened',
          // The server found the respondent's address itself: the admin is not told who it is.
          description: `The respondent was told by e-mail, with your reason, and can change their answers about ${subjectName}.`,
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
  const revealed = actionData && 'revealed' in actionData ? actionData.revealed : null
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
            <RespondentCell respondent={header.respondent} revealed={revealed} />
          </dd>
          <dt className="font-medium">Started</dt>
          <dd>
            <DayTime day={header.started} />
          </dd>
          <dt className="font-medium">Submitted</dt>
          <dd>
            <DayTime day={header.submitted} />
          </dd>
          {header.reopened ? (
            <>
              <dt className="font-medium">Last reopened</dt>
              <dd>
                <DayTime day={header.reopened} />
              </dd>
            </>
          ) : null}
        </dl>
      </section>
      {header.respondent.kind === 'self' ? (
        // Nothing to reveal: only a hand-made post gets here, and it reads why.
        <FormErrors id="reveal-errors" errors={formErrorsOf(resultFor(actionData, 'reveal'))} />
      ) : !revealed ? (
        <RevealForm lastResult={resultFor(actionData, 'reveal')} allowed={loaderData.revealAllowed} />
      ) : null}
      <ReopenForm lastResult={resultFor(actionData, 'reopen')} blockedBy={blockedBy} />
      <ResponseAnswers sections={sections} />
    </section>
  )
}
