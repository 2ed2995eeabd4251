import { Card } from '#app/components/card'
import { useConformForm, type FormResult } from '#app/components/form-kit'
import { IntentForm, SubmitButton } from '#app/components/form-parts'
import { FormErrors } from '#app/components/forms'
import type { DateLabel } from '#app/lib/dates'
import { REOPEN_NOTE_MAX, ReopenRequestSchema } from '../reopen-request-schemas'
import { ReasonField } from './reason-field'

/** The request's state on the respondent's page (thank-you.server.ts). */
type ReopenState =
  | { state: 'available' }
  | { state: 'requested'; requestedOn: DateLabel }
  | { state: 'declined'; reason: string | null }

/**
 * The messages of a refused request that are not about the note (not theirs any more, closed,
 * asked already, too many requests, a page out of date): shown whatever the card's state, since the
 * request may have been refused precisely because the state changed.
 */
export function requestErrors(lastResult: FormResult): string[] | undefined {
  const errors = Object.entries(lastResult?.error ?? {})
    .filter(([name]) => name !== 'note')
    .flatMap(([, messages]) => messages ?? [])
  return errors.length ? errors : undefined
}

/**
 * "I need to change my answers" (issue 18 §5, ADR 039): on the page after submitting, while the
 * round is open. Sent, it says so on every visit until the team answers; declined, it says so (with
 * the team's reason) and may be asked again.
 */
export function ReopenRequestCard({
  assignmentId,
  reopen,
  rater,
  lastResult,
}: {
  assignmentId: string
  reopen: ReopenState
  /** A colleague's answers: their note, like their answers, reaches the team without their name. */
  rater: boolean
  lastResult: FormResult
}) {
  return (
    <Card
      id="change-answers-title"
      sectionId="change-answers"
      title="I need to change my answers"
      className="gap-3"
    >
      <FormErrors id="request-reopen-errors" errors={requestErrors(lastResult)} />
      {reopen.state === 'requested' ? (
        <div role="status" className="flex flex-col gap-1">
          <p className="font-medium text-slate-900">Your request has been sent.</p>
          <p className="text-slate-800">
            You asked on <time dateTime={reopen.requestedOn.iso}>{reopen.requestedOn.label}</time>. The
            programme team will reopen your answers or tell you why not; when they reopen them, you get an
            e-mail with a link back to the questionnaire.
          </p>
        </div>
      ) : (
        <>
          {reopen.state === 'declined' ? (
            <div role="status" className="rounded-md border border-amber-300 bg-amber-50 p-3 text-amber-950">
              <p className="font-medium">The programme team did not reopen your answers.</p>
              {reopen.reason ? (
                <p className="mt-1 whitespace-pre-wrap break-words">{`“${reopen.reason}”`}</p>
              ) : null}
              <p className="mt-1 text-sm">You can ask again below if something still needs changing.</p>
            </div>
          ) : null}
          <RequestForm assignmentId={assignmentId} rater={rater} lastResult={lastResult} />
        </>
      )}
    </Card>
  )
}

function RequestForm({
  assignmentId,
  rater,
  lastResult,
}: {
  assignmentId: string
  rater: boolean
  lastResult: FormResult
}) {
  const [form, fields] = useConformForm(ReopenRequestSchema, { id: 'request-reopen', lastResult })
  return (
    <>
      <p className="text-slate-800">
        Submitted too soon, or something you want to put differently? Ask the programme team to reopen your
        answers: you keep what you wrote and change only what you need.
        {rater ? ' Your note reaches them with your answers, without your name.' : ''}
      </p>
      <IntentForm form={form} intent="request-reopen" className="flex flex-col gap-3">
        <input type="hidden" name="assignmentId" value={assignmentId} />
        <ReasonField meta={fields.note} rows={3} maxLength={REOPEN_NOTE_MAX}>
          What do you need to change? (optional)
        </ReasonField>
        <div>
          <SubmitButton
            intent="request-reopen"
            label="Ask to change my answers"
            pendingLabel="Sending…"
            className="btn btn-secondary"
          />
        </div>
      </IntentForm>
    </>
  )
}
