import { Link } from 'react-router'
import { Card } from '#app/components/card'
import { formErrorsOf, resultFor, type IntentReply } from '#app/components/form-kit'
import { PageHeader } from '#app/components/page-kit'
import { FormErrors } from '#app/components/forms'
import type { PageData } from '#app/lib/page-data'
import type { loadResponsePage } from '../response-page.server'
import type { RevealedRespondent } from '../response.server'
import { ANSWERS_ADMIN_MESSAGES, RELATIONSHIP_LABELS } from '../schemas'
import { DayTime, ResponseStateBadge } from './response-list'
import { ReopenForm, RespondentCell, ResponseAnswers, RevealForm } from './response-view'

/**
 * One response's admin page (the route is app/routes/admin/answer-management.$responseId.tsx):
 * the response read-only, "reveal who answered" and reopen.
 */

const LIST = '/admin/answer-management'

export function ResponsePage({
  data,
  actionData,
}: {
  data: PageData<typeof loadResponsePage>
  /** The action's reply: a reveal's reply carries the name, for this reply only. */
  actionData: IntentReply | (NonNullable<IntentReply> & { revealed?: RevealedRespondent })
}) {
  const { header, sections } = data.view
  const blockedBy =
    header.state !== 'submitted'
      ? ANSWERS_ADMIN_MESSAGES.notSubmitted
      : header.phase !== 'open'
        ? ANSWERS_ADMIN_MESSAGES.schemeNotOpen(header.schemeName)
        : null
  const revealed = actionData && 'revealed' in actionData ? (actionData.revealed ?? null) : null
  return (
    <section aria-labelledby="page-title" className="flex max-w-4xl flex-col gap-6">
      <PageHeader title={`Response about ${header.subjectName}`}>
        <Link className="link" to={LIST}>
          Back to the responses
        </Link>
      </PageHeader>
      <Card id="about-title" title="About this response" className="gap-3">
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
      </Card>
      {header.respondent.kind === 'self' ? (
        // Nothing to reveal: only a hand-made post gets here, and it reads why.
        <FormErrors id="reveal-errors" errors={formErrorsOf(resultFor(actionData, 'reveal'))} />
      ) : !revealed ? (
        <RevealForm lastResult={resultFor(actionData, 'reveal')} allowed={data.revealAllowed} />
      ) : null}
      {header.reopenRequest ? (
        <Card id="request-title" title="The respondent asked to change these answers" className="gap-2">
          <p className="text-slate-800">
            Asked on <DayTime day={header.reopenRequest.requested} />
            {header.reopenRequest.note ? ':' : ', without a note.'}
          </p>
          {header.reopenRequest.note ? (
            <blockquote className="whitespace-pre-wrap break-words border-l-4 border-slate-300 pl-3 text-slate-800">
              {`“${header.reopenRequest.note}”`}
            </blockquote>
          ) : null}
          <p className="text-slate-700">
            Reopening the answers below answers the request; to decline it, use the{' '}
            <Link className="link" to={`${LIST}/reopen-requests`}>
              reopen requests
            </Link>
            .
          </p>
        </Card>
      ) : null}
      <ReopenForm lastResult={resultFor(actionData, 'reopen')} blockedBy={blockedBy} />
      <ResponseAnswers sections={sections} />
    </section>
  )
}
