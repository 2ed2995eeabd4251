import { useTranslation } from 'react-i18next'
import { Form, Link } from 'react-router'
import { formErrorsOf, resultFor, usePendingIntent, type IntentReply } from '#app/components/form-kit'
import { Field, ErrorList, FormErrors } from '#app/components/forms'
import { Card } from '#app/components/card'
import type { Language } from '#db/enums'
import { INTRO_MAX, LABEL_MAX, QUESTION_TEXT_MAX, SECTION_TITLE_MAX, TITLE_MAX } from '../schemas'
import type { BuilderData } from '../builder-page.server'
import { questionUntranslated } from '../translations'
import { richT } from '#app/modules/i18n/rich'
import { languageName } from './words'

/**
 * The builder's languages (ADR 051): a card listing how much each language lacks, and the view of
 * one language, where every item shows its source text beside its translation's field, each item
 * its own form (saved at once, like the builder's other changes), with an "only untranslated" filter.
 */

type Qn = BuilderData['questionnaire']
type Section = Qn['sections'][number]
type Question = Section['questions'][number]

const PATH = '/admin/questionnaire-management'
/** A language's name in the reader's language. */
function useLanguageName() {
  const { t } = useTranslation('questionnaires')
  return (l: Language) => languageName(t, l)
}

function replyFor(actionData: IntentReply, intent: string, key?: [string, string]) {
  const result = resultFor(actionData, intent)
  return key && result?.initialValue?.[key[0]] !== key[1] ? undefined : result
}
const fieldErrors = (result: ReturnType<typeof replyFor>, field: string) =>
  result?.error?.[field] ?? undefined

/** The languages card of the builder: each language, what it lacks, and a link to translate it. */
export function LanguagesCard({ data }: { data: BuilderData }) {
  const { questionnaire: qn, languageCounts } = data
  const here = `${PATH}/${qn.id}`
  const { t } = useTranslation('questionnaires')
  const nameOf = useLanguageName()
  return (
    <Card id="languages-title" title={t('languages.title')} className="gap-2">
      <p className="text-slate-800">{t('languages.intro', { source: nameOf(qn.sourceLanguage) })}</p>
      <ul className="flex flex-col gap-1">
        {languageCounts.map((c) => (
          <li key={c.language} className="flex flex-wrap items-center gap-2">
            <span className="font-medium">{nameOf(c.language)}</span>
            <span className="text-slate-700">
              {c.missing ? t('languages.untranslated', { count: c.missing }) : t('languages.complete')}
            </span>
            <Link className="link" to={`${here}?language=${c.language}`}>
              {qn.status === 'draft' ? t('languages.translate') : t('languages.show')}
              <span className="sr-only"> {nameOf(c.language)}</span>
            </Link>
          </li>
        ))}
      </ul>
      {qn.schemeLanguages.length ? (
        <p className="text-sm text-slate-700">
          {t('languages.schemesOffer', {
            languages: qn.schemeLanguages.map(nameOf).join(t('names.separator')),
          })}
        </p>
      ) : null}
    </Card>
  )
}

/** One language's view: the source beside each translation. */
export function TranslationView({ data, actionData }: { data: BuilderData; actionData: IntentReply }) {
  const { questionnaire: qn, translating } = data
  const { t: tr } = useTranslation('questionnaires')
  const nameOf = useLanguageName()
  if (!translating) return null
  const { language, onlyUntranslated, missing } = translating
  const here = `${PATH}/${qn.id}`
  const view = `${here}?language=${language}`
  const draft = qn.status === 'draft'
  const t = qn.translations[language] ?? {}
  const sections = qn.sections
    .map((s) => ({
      section: s,
      questions: onlyUntranslated
        ? s.questions.filter((q) => questionUntranslated(q, language))
        : s.questions,
    }))
    .filter(
      ({ section, questions }) =>
        !onlyUntranslated || questions.length || !section.translations[language]?.title,
    )
  const unknownErrors = actionData?.intent === 'unknown' ? formErrorsOf(actionData.result) : undefined
  return (
    <section aria-labelledby="translation-title" id="translation" className="flex flex-col gap-4">
      <h2 id="translation-title" className="text-lg font-semibold">
        {tr('translation.title', { language: nameOf(language) })}
      </h2>
      <FormErrors errors={unknownErrors} />
      <div className="flex flex-wrap items-center gap-3">
        <p className="text-slate-800">
          {missing ? <RichUntranslated count={missing} /> : tr('translation.complete')}
        </p>
        {onlyUntranslated ? (
          <Link className="link" to={view}>
            {tr('translation.showAll')}
          </Link>
        ) : (
          <Link className="link" to={`${view}&untranslated=1`}>
            {tr('translation.showUntranslated')}
          </Link>
        )}
        <Link className="link" to={`${view}&preview=self`}>
          {tr('translation.preview', { language: nameOf(language) })}
        </Link>
        <Link className="link" to={here}>
          {tr('translation.back')}
        </Link>
      </div>
      {draft ? (
        <p className="text-slate-700">{tr('translation.draftHelp', { source: nameOf(qn.sourceLanguage) })}</p>
      ) : (
        <p className="text-slate-700">{tr('translation.frozen', { status: qn.status })}</p>
      )}

      <TranslationForm
        id="details"
        title={tr('details.title')}
        intent="translate-details"
        language={language}
        draft={draft}
        fields={{}}
        result={replyFor(actionData, 'translate-details')}
        rows={[
          { name: 'title', label: tr('details.field'), source: qn.title, value: t.title, max: TITLE_MAX },
          ...(qn.intro.trim()
            ? [
                {
                  name: 'intro',
                  label: tr('details.intro'),
                  source: qn.intro,
                  value: t.intro,
                  max: INTRO_MAX,
                  long: true,
                },
              ]
            : []),
        ]}
      />
      {sections.map(({ section, questions }) => (
        <div key={section.id} className="flex flex-col gap-3">
          {onlyUntranslated && section.translations[language]?.title ? (
            <p className="text-sm text-slate-700">{tr('translation.inSection', { title: section.title })}</p>
          ) : (
            <TranslationForm
              id={`section-${section.id}`}
              title={tr('translation.section', { title: section.title })}
              intent="translate-section"
              language={language}
              draft={draft}
              fields={{ sectionId: section.id }}
              result={replyFor(actionData, 'translate-section', ['sectionId', section.id])}
              rows={[
                {
                  name: 'title',
                  label: tr('sections.field'),
                  source: section.title,
                  value: section.translations[language]?.title,
                  max: SECTION_TITLE_MAX,
                },
              ]}
            />
          )}
          {questions.map((q) => (
            <QuestionTranslation
              key={q.id}
              question={q}
              language={language}
              draft={draft}
              actionData={actionData}
            />
          ))}
        </div>
      ))}
      {onlyUntranslated && !sections.length ? <p className="card">{tr('translation.nothingLeft')}</p> : null}
    </section>
  )
}

function QuestionTranslation({
  question: q,
  language,
  draft,
  actionData,
}: {
  question: Question
  language: Language
  draft: boolean
  actionData: IntentReply
}) {
  const { t: tr } = useTranslation('questionnaires')
  const t = q.translations[language] ?? {}
  const labels = q.options.labels ?? []
  return (
    <TranslationForm
      id={`question-${q.id}`}
      title={tr('translation.question', { text: q.text })}
      intent="translate-question"
      language={language}
      draft={draft}
      fields={{ questionId: q.id }}
      result={replyFor(actionData, 'translate-question', ['questionId', q.id])}
      rows={[
        {
          name: 'text',
          label: tr('questions.text.label'),
          source: q.text,
          value: t.text,
          max: QUESTION_TEXT_MAX,
        },
        {
          name: 'raterText',
          label: tr('translation.raterText'),
          source: q.raterText,
          value: t.raterText,
          max: QUESTION_TEXT_MAX,
        },
        ...labels.map((label, i) => ({
          name: `labels[${i}]`,
          label: tr(q.kind === 'scale' ? 'translation.scaleLabel' : 'translation.choice', { number: i + 1 }),
          source: label,
          value: t.labels?.[i],
          max: LABEL_MAX,
        })),
      ]}
    />
  )
}

type Row = { name: string; label: string; source: string; value?: string; max: number; long?: boolean }

/** One item's form: each text's source, and its translation's field (read-only once frozen). */
function TranslationForm({
  id,
  title,
  intent,
  language,
  draft,
  fields,
  rows,
  result,
}: {
  id: string
  title: string
  intent: string
  language: Language
  draft: boolean
  fields: Record<string, string>
  rows: Row[]
  result: ReturnType<typeof replyFor>
}) {
  const busy = usePendingIntent(intent)
  const headingId = `${id}-translation-title`
  const { t } = useTranslation('questionnaires')
  const name = useLanguageName()(language)
  return (
    <section aria-labelledby={headingId} id={id} className="card flex flex-col gap-3">
      <h3 id={headingId} className="font-semibold break-words">
        {title}
      </h3>
      <Form method="post" preventScrollReset className="flex flex-col gap-3">
        <input type="hidden" name="intent" value={intent} />
        <input type="hidden" name="language" value={language} />
        {Object.entries(fields).map(([k, v]) => (
          <input key={k} type="hidden" name={k} value={v} />
        ))}
        <FormErrors
          errors={[
            ...(formErrorsOf(result) ?? []),
            ...(fieldErrors(result, 'language') ?? []),
            ...(fieldErrors(result, 'labels') ?? []),
          ]}
        />
        {rows.map((row) => {
          const fieldId = `${id}-${row.name.replace(/\W/g, '-')}`
          const untranslated = !row.value?.trim()
          const help = (
            <>
              {t('translation.source', { text: row.source })}
              {untranslated ? <strong className="ml-2">{t('translation.untranslated')}</strong> : null}
            </>
          )
          if (!draft)
            return (
              <div key={row.name} className="flex flex-col gap-1">
                <p className="label">{t('translation.fieldIn', { label: row.label, language: name })}</p>
                <p lang={language}>{row.value?.trim() ? row.value : '—'}</p>
                <p className="text-sm text-slate-600">{help}</p>
              </div>
            )
          return row.long ? (
            <div key={row.name} className="flex flex-col gap-1">
              <label htmlFor={fieldId} className="label">
                {t('translation.fieldIn', { label: row.label, language: name })}
              </label>
              <textarea
                id={fieldId}
                name={row.name}
                rows={4}
                className="input"
                lang={language}
                maxLength={row.max}
                defaultValue={row.value ?? ''}
                aria-describedby={`${fieldId}-help`}
              />
              <p id={`${fieldId}-help`} className="text-sm whitespace-pre-line text-slate-600">
                {help}
              </p>
              <ErrorList errors={fieldErrors(result, row.name)} />
            </div>
          ) : (
            <Field
              key={row.name}
              label={t('translation.fieldIn', { label: row.label, language: name })}
              inputProps={{
                id: fieldId,
                name: row.name,
                maxLength: row.max,
                defaultValue: row.value ?? '',
                lang: language,
              }}
              errors={fieldErrors(result, row.name)}
              help={help}
            />
          )
        })}
        {draft ? (
          <div>
            <button type="submit" className="btn btn-primary" disabled={busy}>
              {busy ? t('builder.saving') : t('translation.save')}
              <span className="sr-only"> {t('translation.saveOf', { title })}</span>
            </button>
          </div>
        ) : null}
      </Form>
    </section>
  )
}

/** “**12** untranslated”: the count stands out. */
function RichUntranslated({ count }: { count: number }) {
  const { t } = useTranslation('questionnaires')
  return richT(t, 'translation.untranslatedCount', { shown: <strong>{count}</strong> }, { count })
}
