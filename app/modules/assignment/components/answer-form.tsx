import { useCallback, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Form, useNavigation } from 'react-router'
import { FormErrors } from '#app/components/forms'
import type { AnsweringView } from '#app/modules/assignment/answering-view.server'
import type { AnswerActionData, Progress } from './answer-state'
import { QuestionField } from './question-fields'
import { SaveStatusLine } from './save-status'
import { SectionProgress } from './section-progress'
import { MissingList, SubmitConfirm, SubmitSummary } from './submit-summary'
import { useAutosave } from './use-autosave'

/** Beside a required question left open (the form kit says it in the page's language, ADR 052). */
const MISSING_ANSWER = 'Answer this question before you submit.'

export function AnswerForm({
  view,
  actionData,
}: {
  view: AnsweringView
  actionData: AnswerActionData | undefined
}) {
  const { assignment, sections, current } = view
  const section = sections[current - 1]!
  const last = current === sections.length
  const navigation = useNavigation()
  const busyIntent = navigation.state === 'submitting' ? navigation.formData?.get('intent') : null
  const { t } = useTranslation('answering')

  const formRef = useRef<HTMLFormElement>(null)
  // The counts as last saved: the page's own until an autosave (which does not reload it) reports newer.
  const [saved, setSaved] = useState<{ progress: Progress; of: AnsweringView } | null>(null)
  const progress: Progress = saved?.of === view ? saved.progress : { sections, totals: view.totals }
  const onSaved = useCallback((p: Progress) => setSaved({ progress: p, of: view }), [view])
  const { status, errors: autosaveErrors, retryNow, beforeSubmit } = useAutosave(formRef, onSaved)

  // A refusal of this very section puts the posted values back (the form works without JavaScript).
  const refusal = actionData?.kind === 'refused' ? actionData : undefined
  const networkError = actionData?.kind === 'network' ? actionData.message : undefined
  const postedValues = refusal?.section === current ? refusal.values : undefined
  const fieldErrors = refusal?.section === current ? refusal.fieldErrors : undefined
  // The confirmation step of "Submit answers", as long as nothing required is missing (a required
  // answer cleared on this very page since: the summary says so instead, and the button asks again).
  const confirming = view.confirmSubmit && last && progress.totals.missingRequired === 0

  return (
    <Form
      method="post"
      // The section rides in the URL too: after a refused post the page shows the same section again.
      action={`/assignment/${assignment.id}?section=${current}`}
      ref={formRef}
      id="answer-form"
      noValidate
      onSubmit={beforeSubmit}
      aria-labelledby="section-title"
      className="flex flex-col gap-6"
    >
      {/* Enter in a text box submits with the form's first button: make that a plain save. */}
      <button type="submit" name="intent" value="save" className="sr-only" tabIndex={-1} aria-hidden="true">
        {t('buttons.save')}
      </button>
      <input type="hidden" name="section" value={current} />

      <SectionProgress progress={progress} current={current} />

      <FormErrors
        errors={[networkError, refusal && refusal.reason !== 'missing' ? refusal.message : undefined]}
      />
      {refusal?.reason === 'missing' && refusal.missing ? (
        <MissingList message={refusal.message} missing={refusal.missing} assignmentId={assignment.id} />
      ) : null}

      {/* A little less padding on a phone: a rating scale's row of points needs the width. */}
      <div className="card flex flex-col gap-8 p-4 sm:p-6">
        <div className="flex flex-col gap-1">
          <h2 id="section-title" className="text-xl font-semibold">
            {section.title}
          </h2>
          <p className="text-sm text-slate-600">{t('page.requiredHelp')}</p>
        </div>
        {view.questions.map((q) => (
          <QuestionField
            key={q.id}
            question={q}
            values={postedValues?.[q.id] ?? q.values}
            errors={
              fieldErrors?.[q.id] ?? autosaveErrors?.[q.id] ?? (q.missing ? [MISSING_ANSWER] : undefined)
            }
          />
        ))}
      </div>

      <SaveStatusLine status={status} onRetry={retryNow} />

      {confirming ? (
        <SubmitConfirm
          progress={progress}
          assignmentId={assignment.id}
          current={current}
          busy={Boolean(busyIntent)}
        />
      ) : last ? (
        <SubmitSummary progress={progress} assignmentId={assignment.id} />
      ) : null}

      {confirming ? null : (
        <div className="flex flex-wrap items-center gap-3">
          {current > 1 ? (
            <IntentButton intent="previous" busyIntent={busyIntent} label={t('buttons.previous')} />
          ) : null}
          <IntentButton
            intent="finish-later"
            busyIntent={busyIntent}
            label={t('buttons.finishLater')}
            busyLabel={t('buttons.saving')}
          />
          <span className="flex-1" />
          {last ? (
            // Asks first: the server saves the section and answers with the confirmation step.
            <IntentButton
              intent="review"
              busyIntent={busyIntent}
              primary
              label={t('buttons.submit')}
              busyLabel={t('buttons.saving')}
            />
          ) : (
            <IntentButton
              intent="next"
              busyIntent={busyIntent}
              primary
              label={t('buttons.next')}
              busyLabel={t('buttons.saving')}
            />
          )}
        </div>
      )}
    </Form>
  )
}

/** One of the form's submit buttons, named by its intent; all of them wait while any is on its way. */
function IntentButton({
  intent,
  busyIntent,
  primary = false,
  label,
  busyLabel = label,
}: {
  intent: string
  busyIntent: FormDataEntryValue | null | undefined
  primary?: boolean
  label: string
  busyLabel?: string
}) {
  return (
    <button
      type="submit"
      name="intent"
      value={intent}
      className={primary ? 'btn btn-primary' : 'btn btn-secondary'}
      disabled={Boolean(busyIntent)}
    >
      {busyIntent === intent ? busyLabel : label}
    </button>
  )
}
