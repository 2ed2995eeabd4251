import { Form, Link } from 'react-router'
import { formErrorsOf, resultFor, usePendingIntent, type IntentReply } from '#app/components/form-kit'
import { Field, ErrorList, FormErrors } from '#app/components/forms'
import { Card } from '#app/components/card'
import type { Language } from '#db/enums'
import { languageInfo } from '#app/modules/i18n/languages'
import { INTRO_MAX, LABEL_MAX, QUESTION_TEXT_MAX, SECTION_TITLE_MAX, TITLE_MAX } from '../schemas'
import type { BuilderData } from '../builder-page.server'
import { questionUntranslated } from '../translations'

/**
 * The builder's languages (ADR 051): a card listing how much each language lacks, and the view of
 * one language, where every item shows its source text beside its translation's field, each item
 * its own form (saved at once, like the builder's other changes), with an "only untranslated" filter.
 */

type Qn = BuilderData['questionnaire']
type Section = Qn['sections'][number]
type Question = Section['questions'][number]

const PATH = '/admin/questionnaire-management'
const nameOf = (l: Language) => languageInfo(l).name

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
  return (
    <Card id="languages-title" title="Languages" className="gap-2">
      <p className="text-slate-800">
        Written in {nameOf(qn.sourceLanguage)}. Raters whose language a scheme lists read its translation;
        anything untranslated shows in {nameOf(qn.sourceLanguage)}.
      </p>
      <ul className="flex flex-col gap-1">
        {languageCounts.map((c) => (
          <li key={c.language} className="flex flex-wrap items-center gap-2">
            <span className="font-medium">{nameOf(c.language)}</span>
            <span className="text-slate-700">
              {c.missing ? `${c.missing} untranslated` : 'Fully translated'}
            </span>
            <Link className="link" to={`${here}?language=${c.language}`}>
              {qn.status === 'draft' ? 'Translate' : 'Show'}
              <span className="sr-only"> {nameOf(c.language)}</span>
            </Link>
          </li>
        ))}
      </ul>
      {qn.schemeLanguages.length ? (
        <p className="text-sm text-slate-700">
          Schemes using this questionnaire offer: {qn.schemeLanguages.map(nameOf).join(', ')}.
        </p>
      ) : null}
    </Card>
  )
}

/** One language's view: the source beside each translation. */
export function TranslationView({ data, actionData }: { data: BuilderData; actionData: IntentReply }) {
  const { questionnaire: qn, translating } = data
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
        {nameOf(language)} translation
      </h2>
      <FormErrors errors={unknownErrors} />
      <div className="flex flex-wrap items-center gap-3">
        <p className="text-slate-800">
          {missing ? (
            <>
              <strong>{missing}</strong> untranslated
            </>
          ) : (
            'Every text is translated.'
          )}
        </p>
        {onlyUntranslated ? (
          <Link className="link" to={view}>
            Show every text
          </Link>
        ) : (
          <Link className="link" to={`${view}&untranslated=1`}>
            Show only the untranslated
          </Link>
        )}
        <Link className="link" to={`${view}&preview=self`}>
          Preview in {nameOf(language)}
        </Link>
        <Link className="link" to={here}>
          Back to the builder
        </Link>
      </div>
      {draft ? (
        <p className="text-slate-700">
          Each item shows its {nameOf(qn.sourceLanguage)} text and its translation. Leave a field empty to
          show the {nameOf(qn.sourceLanguage)} text there.
        </p>
      ) : (
        <p className="text-slate-700">
          This version is {qn.status}, so its translations no longer change. Edit it as a new version to
          translate more.
        </p>
      )}

      <TranslationForm
        id="details"
        title="Title and introduction"
        intent="translate-details"
        language={language}
        draft={draft}
        fields={{}}
        result={replyFor(actionData, 'translate-details')}
        rows={[
          { name: 'title', label: 'Title', source: qn.title, value: t.title, max: TITLE_MAX },
          ...(qn.intro.trim()
            ? [
                {
                  name: 'intro',
                  label: 'Introduction',
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
            <p className="text-sm text-slate-700">In the section “{section.title}”:</p>
          ) : (
            <TranslationForm
              id={`section-${section.id}`}
              title={`Section: ${section.title}`}
              intent="translate-section"
              language={language}
              draft={draft}
              fields={{ sectionId: section.id }}
              result={replyFor(actionData, 'translate-section', ['sectionId', section.id])}
              rows={[
                {
                  name: 'title',
                  label: 'Section title',
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
      {onlyUntranslated && !sections.length ? <p className="card">Nothing is left to translate.</p> : null}
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
  const t = q.translations[language] ?? {}
  const labels = q.options.labels ?? []
  return (
    <TranslationForm
      id={`question-${q.id}`}
      title={`Question: ${q.text}`}
      intent="translate-question"
      language={language}
      draft={draft}
      fields={{ questionId: q.id }}
      result={replyFor(actionData, 'translate-question', ['questionId', q.id])}
      rows={[
        { name: 'text', label: 'Self wording', source: q.text, value: t.text, max: QUESTION_TEXT_MAX },
        {
          name: 'raterText',
          label: 'Colleague wording (with {{name}})',
          source: q.raterText,
          value: t.raterText,
          max: QUESTION_TEXT_MAX,
        },
        ...labels.map((label, i) => ({
          name: `labels[${i}]`,
          label: `${q.kind === 'scale' ? 'Scale label' : 'Choice'} ${i + 1}`,
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
  const name = nameOf(language)
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
              Source: {row.source}
              {untranslated ? <strong className="ml-2">Untranslated</strong> : null}
            </>
          )
          if (!draft)
            return (
              <div key={row.name} className="flex flex-col gap-1">
                <p className="label">
                  {row.label} in {name}
                </p>
                <p lang={language}>{row.value?.trim() ? row.value : '—'}</p>
                <p className="text-sm text-slate-600">{help}</p>
              </div>
            )
          return row.long ? (
            <div key={row.name} className="flex flex-col gap-1">
              <label htmlFor={fieldId} className="label">
                {row.label} in {name}
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
              label={`${row.label} in ${name}`}
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
              {busy ? 'Saving…' : 'Save translation'}
              <span className="sr-only"> of {title}</span>
            </button>
          </div>
        ) : null}
      </Form>
    </section>
  )
}
