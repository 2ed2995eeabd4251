import { useTranslation } from 'react-i18next'
import { Card } from '#app/components/card'
import { useConformForm, type FormResult } from '#app/components/form-kit'
import { IntentForm, SubmitButton } from '#app/components/form-parts'
import { FormErrors } from '#app/components/forms'
import type { DateLabel } from '#app/lib/dates'
import { REOPEN_NOTE_MAX, ReopenRequestSchema } from '../reopen-request-schemas'
import { ReasonField } from './reason-field'
import { richT } from '#app/modules/i18n/rich'

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
  const { t } = useTranslation('thank-you')
  return (
    <Card id="change-answers-title" sectionId="change-answers" title={t('reopen.title')} className="gap-3">
      <FormErrors id="request-reopen-errors" errors={requestErrors(lastResult)} />
      {reopen.state === 'requested' ? (
        <div role="status" className="flex flex-col gap-1">
          <p className="font-medium text-slate-900">{t('reopen.sent')}</p>
          <p className="text-slate-800">
            {richT(t, 'reopen.asked', {
              date: <time dateTime={reopen.requestedOn.iso}>{reopen.requestedOn.label}</time>,
            })}
          </p>
        </div>
      ) : (
        <>
          {reopen.state === 'declined' ? (
            <div role="status" className="rounded-md border border-amber-300 bg-amber-50 p-3 text-amber-950">
              <p className="font-medium">{t('reopen.declined')}</p>
              {reopen.reason ? (
                <p className="mt-1 whitespace-pre-wrap break-words">{`“${reopen.reason}”`}</p>
              ) : null}
              <p className="mt-1 text-sm">{t('reopen.askAgain')}</p>
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
  const { t } = useTranslation('thank-you')
  const [form, fields] = useConformForm(ReopenRequestSchema, { id: 'request-reopen', lastResult })
  return (
    <>
      <p className="text-slate-800">
        {t('reopen.intro')}
        {rater ? t('reopen.introRater') : ''}
      </p>
      <IntentForm form={form} intent="request-reopen" className="flex flex-col gap-3">
        <input type="hidden" name="assignmentId" value={assignmentId} />
        <ReasonField meta={fields.note} rows={3} maxLength={REOPEN_NOTE_MAX}>
          {t('reopen.note')}
        </ReasonField>
        <div>
          <SubmitButton
            intent="request-reopen"
            label={t('reopen.submit')}
            pendingLabel={t('reopen.sending')}
            className="btn btn-secondary"
          />
        </div>
      </IntentForm>
    </>
  )
}
