import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import type { TFunction } from 'i18next'
import { Card } from '#app/components/card'
import { useConformForm, type FormResult } from '#app/components/form-kit'
import { IntentForm, SubmitButton } from '#app/components/form-parts'
import { FormErrors, useFormMessage } from '#app/components/forms'
import {
  ANSWERS_ADMIN_MESSAGES,
  REOPEN_REASON_MAX,
  ReopenSchema,
  REVEAL_REASON_MAX,
  RevealSchema,
} from '../schemas'
import { ReasonField } from './reason-field'

export type ViewQuestion = {
  questionId: string
  kind: string
  category: string
  text: string
  options: { labels?: string[]; min?: number; max?: number }
  numericValue: number | null
  textValue: string | null
  choices: string[] | null
  notApplicable: boolean | null
}

/** An answer as words: the scale point with its label, the choices, the text, or "Not answered". */
function answerText(q: ViewQuestion, t: TFunction<'answers'>): string {
  if (q.notApplicable) return t('response.notApplicable')
  if (q.numericValue !== null) {
    const min = Number.isInteger(q.options.min) ? q.options.min! : 1
    const label = q.options.labels?.[q.numericValue - min]
    const point = label ? `${q.numericValue} — ${label}` : String(q.numericValue)
    return q.textValue?.trim() ? `${point}. ${q.textValue}` : point
  }
  if (q.choices?.length) return q.choices.join(', ')
  if (q.textValue?.trim()) return q.textValue
  return t('response.notAnswered')
}

/** The response read-only: each section's questions with the answer given. */
export function ResponseAnswers({
  sections,
}: {
  sections: Array<{ title: string; questions: ViewQuestion[] }>
}) {
  const { t } = useTranslation('answers')
  return (
    <div className="flex flex-col gap-6">
      {sections.map((section) => (
        <section
          key={section.title}
          aria-labelledby={`section-${section.title}`}
          className="card flex flex-col gap-3"
        >
          <h2 id={`section-${section.title}`} className="text-lg font-semibold">
            {section.title}
          </h2>
          <dl className="flex flex-col gap-4">
            {section.questions.map((q) => (
              <div key={q.questionId} className="flex flex-col gap-1">
                <dt className="font-medium text-slate-900">
                  {q.text} <span className="text-sm font-normal text-slate-600">({q.category})</span>
                </dt>
                <dd className="whitespace-pre-wrap break-words text-slate-800">{answerText(q, t)}</dd>
              </div>
            ))}
          </dl>
        </section>
      ))}
    </div>
  )
}

/** Reopening a submitted response: the reason is required and goes to the respondent. */
export function ReopenForm({ lastResult, blockedBy }: { lastResult: FormResult; blockedBy: string | null }) {
  const { t } = useTranslation('answers')
  const [form, fields] = useConformForm(ReopenSchema, { id: 'reopen', lastResult })
  return (
    <Card id="reopen-title" title={t('response.reopenTitle')} className="gap-3">
      {blockedBy ? (
        <p className="text-slate-800">{blockedBy}</p>
      ) : (
        <ReasonForm
          form={form}
          intent="reopen"
          submit={
            <SubmitButton
              intent="reopen"
              label={t('response.reopen')}
              pendingLabel={t('response.reopening')}
            />
          }
          intro={t('response.reopenIntro')}
        >
          <ReasonField meta={fields.reason} rows={4} maxLength={REOPEN_REASON_MAX}>
            {t('response.reopenReason')}
          </ReasonField>
        </ReasonForm>
      )}
    </Card>
  )
}

type ReasonFormProps = {
  form: ReturnType<typeof useConformForm>[0]
  intent: string
  intro: string
  /** The submit button. */
  submit: ReactNode
  /** The reason field. */
  children: ReactNode
}

/** The form of an audited change whose one field is its reason: what it does, the reason, the button. */
function ReasonForm({ form, intent, intro, submit, children }: ReasonFormProps) {
  return (
    <>
      <p className="text-slate-700">{intro}</p>
      <FormErrors id={form.errorId} errors={form.errors} />
      <IntentForm form={form} intent={intent} className="flex flex-col gap-3">
        {children}
        <div>{submit}</div>
      </IntentForm>
    </>
  )
}

type Respondent = { kind: 'self'; name: string } | { kind: 'colleague' }

/** Who answered: the subject for a self-assessment; a colleague only once revealed (ADR 024). */
export function RespondentCell({
  respondent,
  revealed,
}: {
  respondent: Respondent
  revealed: { name: string; email: string } | null
}) {
  const { t } = useTranslation('answers')
  if (respondent.kind === 'self') return <>{t('response.selfRespondent', { name: respondent.name })}</>
  if (!revealed) return <>{t('response.notShown')}</>
  return (
    <span className="flex flex-col gap-1">
      <strong>{`${revealed.name} (${revealed.email})`}</strong>
      <span className="text-sm text-slate-700">{t('response.shownOnce')}</span>
    </span>
  )
}

/**
 * "Reveal who answered": a reason is required and recorded; the name comes back in the action's
 * reply only. Under strict confidentiality the page says that nobody can see it.
 */
export function RevealForm({ lastResult, allowed }: { lastResult: FormResult; allowed: boolean }) {
  const { t } = useTranslation('answers')
  const say = useFormMessage()
  const [form, fields] = useConformForm(RevealSchema, { id: 'reveal', lastResult })
  return (
    <Card id="reveal-title" title={t('response.revealTitle')} className="gap-3">
      {allowed ? (
        <ReasonForm
          form={form}
          intent="reveal"
          submit={
            <SubmitButton
              intent="reveal"
              label={t('response.reveal')}
              pendingLabel={t('response.revealing')}
              className="btn btn-secondary"
            />
          }
          intro={t('response.revealIntro')}
        >
          <ReasonField meta={fields.reason} rows={3} maxLength={REVEAL_REASON_MAX}>
            {t('response.revealReason')}
          </ReasonField>
        </ReasonForm>
      ) : (
        <p className="text-slate-800">{say(ANSWERS_ADMIN_MESSAGES.strict)}</p>
      )}
    </Card>
  )
}
