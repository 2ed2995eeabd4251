import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { Form, Link } from 'react-router'
import {
  formErrorsOf,
  resultFor,
  usePendingIntent,
  useResetAfterSuccess,
  type IntentReply,
} from '#app/components/form-kit'
import { ConfirmPanel, Notices, PageHeader } from '#app/components/page-kit'
import { ErrorList, Field, FormErrors } from '#app/components/forms'
import { Card } from '#app/components/card'
import { QUESTION_KINDS, type QuestionKind } from '#db/enums'
import {
  CATEGORY_MAX,
  INTRO_MAX,
  LABEL_MAX,
  QUESTION_TEXT_MAX,
  SCALE_MAX_HIGHEST,
  SCALE_MIN_LOWEST,
  SECTION_TITLE_MAX,
  TITLE_MAX,
} from '../schemas'
import type { BuilderData } from '../builder-page.server'
import { blockerText, type PublishProblem } from '../checks'
import { QuestionnairePreview } from './preview'
import { SchemeUseLink, StatusBadge } from './questionnaire-list'
import { LanguagesCard, TranslationView } from './translations'
import { languageWarningOf, useQnWords } from './words'

/**
 * The builder page. Every change is its own small form posting an intent (it works without
 * JavaScript and saves at once; a toast says so); a refused change shows its messages beside the
 * form it came from, found by its intent and the id it named.
 */

type Section = BuilderData['questionnaire']['sections'][number]
type Question = Section['questions'][number]

const PATH = '/admin/questionnaire-management'

/** The result of the action if it answered this intent for this item (by the id the form posted). */
function replyFor(actionData: IntentReply, intent: string, key?: [string, string]) {
  const result = resultFor(actionData, intent)
  return key && result?.initialValue?.[key[0]] !== key[1] ? undefined : result
}
const fieldErrors = (result: ReturnType<typeof replyFor>, field: string) =>
  result?.error?.[field] ?? undefined
const allErrors = (result: ReturnType<typeof replyFor>) =>
  result?.error ? Object.values(result.error).flatMap((e) => e ?? []) : undefined

function MoveButtons({ label, first, last }: { label: string; first: boolean; last: boolean }) {
  const { t } = useTranslation('questionnaires')
  return (
    <span className="inline-flex gap-1">
      <button
        type="submit"
        name="direction"
        value="up"
        className="btn btn-secondary px-2 text-sm"
        disabled={first}
      >
        ↑<span className="sr-only"> {t('builder.moveUp', { label })}</span>
      </button>
      <button
        type="submit"
        name="direction"
        value="down"
        className="btn btn-secondary px-2 text-sm"
        disabled={last}
      >
        ↓<span className="sr-only"> {t('builder.moveDown', { label })}</span>
      </button>
    </span>
  )
}

export function QuestionnaireBuilder({ data, actionData }: { data: BuilderData; actionData: IntentReply }) {
  const {
    questionnaire: qn,
    blockers,
    preview,
    confirm,
    deleting,
    notices,
    translating,
    incompleteLanguages,
  } = data
  const { t } = useTranslation('questionnaires')
  const { archiveBlocked, statusLabels } = useQnWords()
  const languageWarning = languageWarningOf(t, incompleteLanguages)
  const here = `${PATH}/${qn.id}`
  const draft = qn.status === 'draft'
  const newest = qn.versions[0]
  const isNewest = newest?.id === qn.id
  const used = qn.use.total > 0
  const unknownErrors = actionData?.intent === 'unknown' ? formErrorsOf(actionData.result) : undefined

  if (preview) return <QuestionnairePreview data={data} />

  return (
    <section aria-labelledby="page-title" className="flex max-w-5xl flex-col gap-6">
      <p>
        <Link className="link" to={PATH}>
          ← {t('builder.allQuestionnaires')}
        </Link>
      </p>
      <PageHeader title={qn.title} />
      <div className="-mt-4 flex flex-wrap items-center gap-3 text-sm text-slate-800">
        <span>{t('list.version', { version: qn.version })}</span>
        <StatusBadge status={qn.status} />
        {qn.versions.length > 1 ? (
          <nav aria-label={t('builder.versions')} className="flex flex-wrap items-center gap-2">
            <span>{t('builder.versionsColon')}</span>
            {qn.versions.map((v) =>
              v.id === qn.id ? (
                <span key={v.id} aria-current="page" className="font-semibold">
                  v{v.version}
                </span>
              ) : (
                <Link key={v.id} className="link" to={`${PATH}/${v.id}`}>
                  v{v.version}
                  <span className="sr-only"> ({statusLabels[v.status]})</span>
                </Link>
              ),
            )}
          </nav>
        ) : null}
      </div>
      <Notices notices={notices.map((n) => t(`notices.${n}`))} />
      <FormErrors errors={unknownErrors} />

      <Card id="use-title" title={t('builder.use.title')} className="gap-3">
        {used ? (
          <p>
            <SchemeUseLink versionId={qn.id} use={qn.use} />
          </p>
        ) : (
          <p className="text-slate-700">{t('builder.use.none')}</p>
        )}
        <p className="text-slate-700">
          {draft
            ? t('builder.use.draft')
            : qn.status === 'published'
              ? used
                ? t('builder.use.publishedUsed')
                : t('builder.use.published')
              : t('builder.use.archived')}
        </p>
        <FormErrors
          errors={[
            ...(formErrorsOf(replyFor(actionData, 'new-version')) ?? []),
            ...(formErrorsOf(replyFor(actionData, 'revert-to-draft')) ?? []),
            ...(formErrorsOf(replyFor(actionData, 'duplicate')) ?? []),
          ]}
        />
        <div className="flex flex-wrap gap-3">
          <Link className="btn btn-secondary" to={`${here}?preview=self`}>
            {t('builder.previewSelf')}
          </Link>
          <Link className="btn btn-secondary" to={`${here}?preview=colleague`}>
            {t('builder.previewColleague')}
          </Link>
          <a className="btn btn-secondary" href={`${here}/export.json`} download>
            {t('builder.export')}
          </a>
          {draft ? (
            <Link className="btn btn-primary" to={`${here}?confirm=publish#publish-questionnaire-title`}>
              {t('builder.publishEllipsis')}
            </Link>
          ) : null}
          {qn.status === 'published' && !used ? (
            <IntentButton
              intent="revert-to-draft"
              label={t('builder.revert')}
              pending={t('builder.revertPending')}
            />
          ) : null}
          {!draft && isNewest ? (
            <IntentButton
              intent="new-version"
              label={t('builder.newVersion')}
              pending={t('builder.newVersionPending')}
            />
          ) : null}
          {!draft && !isNewest && newest ? (
            <Link className="btn btn-secondary" to={`${PATH}/${newest.id}`}>
              {t('builder.openNewest', { version: newest.version })}
            </Link>
          ) : null}
          <IntentButton
            intent="duplicate"
            label={t('list.duplicate')}
            pending={t('builder.duplicatePending')}
          />
          {qn.status !== 'archived' ? (
            <Link className="btn btn-secondary" to={`${here}?confirm=archive#archive-questionnaire-title`}>
              {t('builder.archiveEllipsis')}
            </Link>
          ) : null}
        </div>
      </Card>

      {confirm === 'publish' && draft ? (
        <ConfirmPanel
          id="publish-questionnaire"
          title={t('publish.title')}
          intent="publish"
          fields={{}}
          tone="primary"
          confirmLabel={t('publish.confirm')}
          pendingLabel={t('publish.pending')}
          cancelHref={here}
          backLabel={t('builder.back')}
          lastResult={replyFor(actionData, 'publish')}
          blockedBy={
            blockers.length ? (
              <>
                {t('publish.blocked')}
                <span className="mt-2 block">
                  <BlockerList blockers={blockers} />
                </span>
              </>
            ) : undefined
          }
        >
          <p className="text-slate-800">{t('publish.text')}</p>
          {languageWarning ? (
            <p className="mt-2 text-slate-800">
              <strong>{t('publish.untranslated')}</strong> {languageWarning}
            </p>
          ) : null}
        </ConfirmPanel>
      ) : null}
      {confirm === 'archive' && qn.status !== 'archived' ? (
        <ConfirmPanel
          id="archive-questionnaire"
          title={t('archive.title')}
          intent="archive"
          fields={{}}
          confirmLabel={t('archive.confirm')}
          pendingLabel={t('archive.pending')}
          cancelHref={here}
          backLabel={t('builder.back')}
          lastResult={replyFor(actionData, 'archive')}
          blockedBy={qn.use.open ? archiveBlocked(qn.use.openNames, qn.use.open) : undefined}
        >
          <p className="text-slate-800">{t('archive.text')}</p>
        </ConfirmPanel>
      ) : null}

      {draft ? (
        <Card id="checks-title" title={t('checks.title')} className="gap-2">
          {blockers.length ? (
            <>
              <p className="text-slate-800">{t('checks.intro')}</p>
              <BlockerList blockers={blockers} />
            </>
          ) : (
            <p className="text-emerald-900">{t('checks.none')}</p>
          )}
        </Card>
      ) : null}

      <LanguagesCard data={data} />

      {translating ? <TranslationView data={data} actionData={actionData} /> : null}

      {translating ? null : draft ? (
        <DetailsForm qn={qn} actionData={actionData} />
      ) : (
        <ReadOnlyIntro intro={qn.intro} />
      )}

      {deleting ? (
        <ConfirmPanel
          id="delete-section"
          title={t('deleteSection.title', { title: deleting.title })}
          intent="delete-section"
          fields={{ sectionId: deleting.id, confirmed: 'on' }}
          confirmLabel={t('deleteSection.confirm')}
          pendingLabel={t('deleteSection.pending')}
          backLabel={t('builder.back')}
          cancelHref={`${here}#section-${deleting.id}`}
          lastResult={replyFor(actionData, 'delete-section', ['sectionId', deleting.id])}
        >
          <p className="text-slate-800">{t('deleteSection.text', { count: deleting.questions })}</p>
        </ConfirmPanel>
      ) : null}

      {translating ? null : (
        <section aria-labelledby="sections-title" id="sections" className="flex flex-col gap-4">
          <h2 id="sections-title" className="text-lg font-semibold">
            {t('sections.title')}
          </h2>
          {qn.sections.length ? null : <p className="card text-slate-700">{t('sections.none')}</p>}
          <datalist id="competencies">
            {qn.competencies.map((c) => (
              <option key={c} value={c} />
            ))}
          </datalist>
          {qn.sections.map((section, s) => (
            <SectionCard
              key={section.id}
              section={section}
              number={s + 1}
              first={s === 0}
              last={s === qn.sections.length - 1}
              firstQuestionId={qn.sections.find((x) => x.questions.length)?.questions[0]?.id}
              lastQuestionId={qn.sections.findLast((x) => x.questions.length)?.questions.at(-1)?.id}
              draft={draft}
              here={here}
              actionData={actionData}
            />
          ))}
          {draft ? <AddSectionForm actionData={actionData} /> : null}
        </section>
      )}
    </section>
  )
}

function BlockerList({ blockers }: { blockers: PublishProblem[] }) {
  const { t } = useTranslation('questionnaires')
  return (
    <ul className="list-disc pl-6 text-slate-800">
      {blockers.map((b, i) => (
        <li key={i}>{blockerText(t, b)}</li>
      ))}
    </ul>
  )
}

function IntentButton({ intent, label, pending }: { intent: string; label: string; pending: string }) {
  const busy = usePendingIntent(intent)
  return (
    <Form method="post" className="inline">
      <input type="hidden" name="intent" value={intent} />
      <button type="submit" className="btn btn-secondary" disabled={busy}>
        {busy ? pending : label}
      </button>
    </Form>
  )
}

function ReadOnlyIntro({ intro }: { intro: string }) {
  const { t } = useTranslation('questionnaires')
  return (
    <Card id="intro-title" title={t('details.intro')} className="gap-2">
      <p className="whitespace-pre-line text-slate-800">{intro || t('details.noIntro')}</p>
    </Card>
  )
}

function DetailsForm({ qn, actionData }: { qn: BuilderData['questionnaire']; actionData: IntentReply }) {
  const result = replyFor(actionData, 'details')
  const busy = usePendingIntent('details')
  const { t } = useTranslation('questionnaires')
  return (
    <section aria-labelledby="details-title" id="details" className="card flex flex-col gap-4">
      <h2 id="details-title" className="text-lg font-semibold">
        {t('details.title')}
      </h2>
      <Form method="post" preventScrollReset className="flex flex-col gap-4">
        <input type="hidden" name="intent" value="details" />
        <FormErrors errors={formErrorsOf(result)} />
        <TextInput
          id="qn-title"
          name="title"
          label={t('details.field')}
          max={TITLE_MAX}
          defaultValue={qn.title}
          errors={fieldErrors(result, 'title')}
        />
        <div className="flex flex-col gap-1">
          <label htmlFor="qn-intro" className="label">
            {t('details.intro')}
          </label>
          <textarea
            id="qn-intro"
            name="intro"
            rows={4}
            className="input"
            maxLength={INTRO_MAX}
            defaultValue={qn.intro}
            aria-describedby="qn-intro-help"
          />
          <p id="qn-intro-help" className="text-sm text-slate-600">
            {t('details.introHelp')}
          </p>
          <ErrorList errors={fieldErrors(result, 'intro')} />
        </div>
        <div>
          <button type="submit" className="btn btn-primary" disabled={busy}>
            {busy ? t('builder.saving') : t('details.save')}
          </button>
        </div>
      </Form>
    </section>
  )
}

function AddSectionForm({ actionData }: { actionData: IntentReply }) {
  const result = replyFor(actionData, 'add-section')
  const busy = usePendingIntent('add-section')
  useResetAfterSuccess('add-section-form', 'add-section', result)
  const { t } = useTranslation('questionnaires')
  return (
    <Form
      id="add-section-form"
      method="post"
      preventScrollReset
      className="card flex flex-wrap items-end gap-3"
      aria-label={t('sections.addLabel')}
    >
      <input type="hidden" name="intent" value="add-section" />
      <div className="flex min-w-48 flex-1 flex-col gap-1">
        <label htmlFor="new-section-title" className="label">
          {t('sections.newTitle')}
        </label>
        <input
          id="new-section-title"
          name="title"
          className="input"
          required
          maxLength={SECTION_TITLE_MAX}
          aria-invalid={result ? true : undefined}
          aria-describedby={result ? 'new-section-error' : undefined}
        />
      </div>
      <button type="submit" className="btn btn-primary" disabled={busy}>
        {busy ? t('sections.adding') : t('sections.add')}
      </button>
      <ErrorList id="new-section-error" errors={allErrors(result)} />
    </Form>
  )
}

function SectionCard({
  section,
  number,
  first,
  last,
  firstQuestionId,
  lastQuestionId,
  draft,
  here,
  actionData,
}: {
  section: Section
  number: number
  first: boolean
  last: boolean
  firstQuestionId: string | undefined
  lastQuestionId: string | undefined
  draft: boolean
  here: string
  actionData: IntentReply
}) {
  const key: [string, string] = ['sectionId', section.id]
  const renameResult = replyFor(actionData, 'rename-section', key)
  const otherErrors = [
    ...(allErrors(replyFor(actionData, 'move-section', key)) ?? []),
    ...(allErrors(replyFor(actionData, 'delete-section', key)) ?? []),
  ]
  const headingId = `section-${section.id}-title`
  const { t } = useTranslation('questionnaires')
  const sectionLabel = t('sections.label', { number })
  return (
    <section id={`section-${section.id}`} aria-labelledby={headingId} className="card flex flex-col gap-4">
      <h3 id={headingId} className="text-base font-semibold">
        {t('sections.heading', { number, title: section.title })}
      </h3>
      {draft ? (
        <div className="flex flex-wrap items-end gap-3">
          <Form method="post" preventScrollReset className="flex min-w-56 flex-1 flex-wrap items-end gap-2">
            <input type="hidden" name="intent" value="rename-section" />
            <input type="hidden" name="sectionId" value={section.id} />
            <div className="flex min-w-40 flex-1 flex-col gap-1">
              <label htmlFor={`section-${section.id}-name`} className="label">
                {t('sections.field')}
              </label>
              <input
                id={`section-${section.id}-name`}
                name="title"
                className="input"
                required
                maxLength={SECTION_TITLE_MAX}
                defaultValue={section.title}
                aria-invalid={renameResult ? true : undefined}
                aria-describedby={renameResult ? `section-${section.id}-name-error` : undefined}
              />
            </div>
            <button type="submit" className="btn btn-secondary">
              {t('builder.rename')}
              <span className="sr-only"> {sectionLabel}</span>
            </button>
            <ErrorList id={`section-${section.id}-name-error`} errors={allErrors(renameResult)} />
          </Form>
          <Form method="post" preventScrollReset>
            <input type="hidden" name="intent" value="move-section" />
            <input type="hidden" name="sectionId" value={section.id} />
            <MoveButtons label={sectionLabel} first={first} last={last} />
          </Form>
          {section.questions.length ? (
            <Link
              className="btn btn-secondary text-sm"
              to={`${here}?deleteSection=${section.id}#delete-section-title`}
            >
              {t('builder.deleteEllipsis')}
              <span className="sr-only"> {sectionLabel}</span>
            </Link>
          ) : (
            <Form method="post" preventScrollReset>
              <input type="hidden" name="intent" value="delete-section" />
              <input type="hidden" name="sectionId" value={section.id} />
              <button type="submit" className="btn btn-secondary text-sm">
                {t('builder.delete')}
                <span className="sr-only"> {sectionLabel}</span>
              </button>
            </Form>
          )}
        </div>
      ) : null}
      <FormErrors errors={otherErrors} />
      {section.questions.length ? (
        <ol className="flex flex-col gap-4">
          {section.questions.map((q, n) => (
            <li key={q.id}>
              <QuestionCard
                question={q}
                label={t('questions.label', { number: n + 1, section: number })}
                title={t('questions.heading', { number: n + 1, section: number })}
                first={q.id === firstQuestionId}
                last={q.id === lastQuestionId}
                draft={draft}
                actionData={actionData}
              />
            </li>
          ))}
        </ol>
      ) : (
        <p className="text-slate-700">{t('sections.noQuestions')}</p>
      )}
      {draft ? <AddQuestionForm sectionId={section.id} number={number} actionData={actionData} /> : null}
    </section>
  )
}

/** A required text field of the builder, on the form kit's {@link Field}. */
function TextInput({
  id,
  name,
  label,
  defaultValue,
  max,
  errors,
  help,
  list,
}: {
  id: string
  name: string
  label: string
  defaultValue?: string
  max: number
  errors?: string[]
  help?: string
  list?: string
}) {
  return (
    <Field
      label={label}
      inputProps={{ id, name, required: true, maxLength: max, defaultValue, list }}
      errors={errors}
      help={help}
    />
  )
}

function KindSelect({ id, defaultValue }: { id: string; defaultValue?: QuestionKind }) {
  const { t } = useTranslation('questionnaires')
  const { kindLabels } = useQnWords()
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="label">
        {t('questions.kind')}
      </label>
      <select id={id} name="kind" className="input" defaultValue={defaultValue ?? 'scale'}>
        {QUESTION_KINDS.map((k) => (
          <option key={k} value={k}>
            {kindLabels[k]}
          </option>
        ))}
      </select>
    </div>
  )
}

/**
 * A wording field (its words are `questions.<name>.label`, `.help` always shown, `.addHelp` only
 * while the question is being added).
 */
type WordingField = {
  name: 'category' | 'text' | 'raterText'
  suffix: string
  max: number
  list?: string
  help?: boolean
  addHelp?: boolean
}

const WORDING_FIELDS: WordingField[] = [
  { name: 'category', suffix: 'category', max: CATEGORY_MAX, list: 'competencies', addHelp: true },
  { name: 'text', suffix: 'text', max: QUESTION_TEXT_MAX, addHelp: true },
  { name: 'raterText', suffix: 'rater', max: QUESTION_TEXT_MAX, help: true },
]

/**
 * A question's competency and its two wordings: blank with their help when adding one, filled in
 * when editing it (the colleague wording keeps its help: the {{name}} rule is easy to forget).
 */
function WordingFields({
  base,
  result,
  question,
}: {
  base: string
  result: ReturnType<typeof replyFor>
  question?: Question
}) {
  const { t } = useTranslation('questionnaires')
  return WORDING_FIELDS.map((f) => (
    <TextInput
      key={f.name}
      id={`${base}-${f.suffix}`}
      name={f.name}
      label={t(`questions.${f.name}.label`)}
      max={f.max}
      list={f.list}
      defaultValue={question?.[f.name]}
      errors={fieldErrors(result, f.name)}
      help={
        f.help
          ? t(`questions.${f.name}.help`)
          : f.addHelp && !question
            ? t(`questions.${f.name}.addHelp`)
            : undefined
      }
    />
  ))
}

function AddQuestionForm({
  sectionId,
  number,
  actionData,
}: {
  sectionId: string
  number: number
  actionData: IntentReply
}) {
  const result = replyFor(actionData, 'add-question', ['sectionId', sectionId])
  const base = `add-q-${sectionId}`
  useResetAfterSuccess(`${base}-form`, 'add-question', result)
  const { t } = useTranslation('questionnaires')
  return (
    <details className="rounded-lg border border-slate-200 p-3" open={Boolean(result)}>
      <summary className="cursor-pointer font-medium text-indigo-800">
        {t('questions.addTo', { number })}
      </summary>
      <Form id={`${base}-form`} method="post" preventScrollReset className="mt-3 grid gap-3 sm:grid-cols-2">
        <input type="hidden" name="intent" value="add-question" />
        <input type="hidden" name="sectionId" value={sectionId} />
        <div className="sm:col-span-2">
          <FormErrors errors={formErrorsOf(result)} />
        </div>
        <KindSelect id={`${base}-kind`} />
        <WordingFields base={base} result={result} />
        <div className="sm:col-span-2">
          <button type="submit" className="btn btn-primary">
            {t('questions.add')}
          </button>
        </div>
      </Form>
    </details>
  )
}

/**
 * Whether a question carries over from the previous version (same key: the report compares it with
 * the previous cycle and the norm counts it, ADR 044) or is new in this one. Nothing on a first version.
 */
function CarriedMarker({ carriedOver }: { carriedOver?: boolean }) {
  const { t } = useTranslation('questionnaires')
  if (carriedOver === undefined) return null
  return (
    <p className="text-sm text-slate-700" data-carried={carriedOver ? 'yes' : 'no'}>
      <span
        className={`rounded-full border px-2.5 py-0.5 font-medium ${carriedOver ? 'border-slate-300 bg-slate-50 text-slate-800' : 'border-sky-300 bg-sky-50 text-sky-900'}`}
      >
        {carriedOver ? t('questions.carriedOver') : t('questions.new')}
      </span>
    </p>
  )
}

function QuestionCard({
  question: q,
  label,
  title,
  first,
  last,
  draft,
  actionData,
}: {
  question: Question
  /** Which question, inside a sentence ("question 2 of section 1"). */
  label: string
  /** The same, as a heading ("Question 2 of section 1"). */
  title: string
  first: boolean
  last: boolean
  draft: boolean
  actionData: IntentReply
}) {
  const { t } = useTranslation('questionnaires')
  const { kindLabels } = useQnWords()
  const key: [string, string] = ['questionId', q.id]
  const result = replyFor(actionData, 'update-question', key)
  const base = `q-${q.id}`
  const hasOptions = q.kind === 'scale' || q.kind === 'single' || q.kind === 'multi'
  const moveErrors = [
    ...(allErrors(replyFor(actionData, 'move-question', key)) ?? []),
    ...(allErrors(replyFor(actionData, 'delete-question', key)) ?? []),
  ]
  if (!draft)
    return (
      <div id={`question-${q.id}`} className="flex flex-col gap-1 rounded-lg border border-slate-200 p-3">
        <p className="font-medium text-slate-900">{q.text}</p>
        <CarriedMarker carriedOver={q.carriedOver} />
        <p className="text-slate-700">{t('questions.colleague', { text: q.raterText })}</p>
        <p className="text-sm text-slate-600">
          {kindLabels[q.kind]} · {q.category} ·{' '}
          {q.required ? t('questions.required') : t('questions.optional')}
          {q.kind === 'scale'
            ? ` · ${q.options.min}–${q.options.max}${q.options.allowNa ? `, ${t('questions.naAllowed')}` : ''}`
            : ''}
        </p>
        {hasOptions && q.options.labels?.length ? (
          <p className="text-sm text-slate-700">
            {t(q.kind === 'scale' ? 'questions.labelsList' : 'questions.choicesList', {
              labels: q.options.labels.join(' · '),
            })}
          </p>
        ) : null}
      </div>
    )
  return (
    <div id={`question-${q.id}`} className="flex flex-col gap-3 rounded-lg border border-slate-200 p-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="font-semibold text-slate-900">
          {title} · {kindLabels[q.kind]}
        </p>
        <CarriedMarker carriedOver={q.carriedOver} />
        <div className="flex flex-wrap gap-2">
          <Form method="post" preventScrollReset>
            <input type="hidden" name="intent" value="move-question" />
            <input type="hidden" name="questionId" value={q.id} />
            <MoveButtons label={label} first={first} last={last} />
          </Form>
          <Form method="post" preventScrollReset>
            <input type="hidden" name="intent" value="delete-question" />
            <input type="hidden" name="questionId" value={q.id} />
            <button type="submit" className="btn btn-secondary px-2 text-sm">
              {t('builder.delete')}
              <span className="sr-only"> {label}</span>
            </button>
          </Form>
        </div>
      </div>
      <FormErrors errors={moveErrors} />
      <Form
        method="post"
        preventScrollReset
        className="grid gap-3 sm:grid-cols-2"
        aria-label={t('questions.edit', { label })}
      >
        <input type="hidden" name="intent" value="update-question" />
        <input type="hidden" name="questionId" value={q.id} />
        <div className="sm:col-span-2">
          <FormErrors errors={formErrorsOf(result)} />
        </div>
        <KindSelect id={`${base}-kind`} defaultValue={q.kind} />
        <WordingFields base={base} result={result} question={q} />
        <label className="flex items-center gap-2">
          <input
            type="checkbox"
            name="required"
            defaultChecked={q.required}
            className="h-4 w-4 accent-indigo-700"
          />
          {t('questions.required')}
        </label>
        {q.kind === 'scale' ? (
          <>
            <label className="flex items-center gap-2">
              <input
                type="checkbox"
                name="allowNa"
                defaultChecked={q.options.allowNa}
                className="h-4 w-4 accent-indigo-700"
              />
              {t('questions.naAllowedField')}
            </label>
            <NumberInput
              id={`${base}-min`}
              name="min"
              label={t('questions.min')}
              value={q.options.min}
              errors={fieldErrors(result, 'min')}
            />
            <NumberInput
              id={`${base}-max`}
              name="max"
              label={t('questions.max')}
              value={q.options.max}
              errors={fieldErrors(result, 'max')}
            />
          </>
        ) : null}
        <div className="sm:col-span-2">
          <button type="submit" className="btn btn-primary">
            {t('questions.save')}
          </button>
        </div>
      </Form>
      {hasOptions ? <OptionList question={q} label={label} actionData={actionData} /> : null}
    </div>
  )
}

/** A scale's end point, on the form kit's {@link Field}. */
function NumberInput({
  id,
  name,
  label,
  value,
  errors,
}: {
  id: string
  name: string
  label: string
  value: number | undefined
  errors?: string[]
}) {
  const bounds = { min: SCALE_MIN_LOWEST, max: SCALE_MAX_HIGHEST, step: 1 }
  return (
    <Field
      label={label}
      inputProps={{ id, name, type: 'number', inputMode: 'numeric', ...bounds, defaultValue: value }}
      errors={errors}
    />
  )
}

/** A form on one label or choice of a question: the intent, the question and the option's place. */
function OptionForm({
  intent,
  questionId,
  index,
  className,
  children,
}: {
  intent: string
  questionId: string
  index: number
  className?: string
  children: ReactNode
}) {
  return (
    <Form method="post" preventScrollReset className={className}>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="questionId" value={questionId} />
      <input type="hidden" name="index" value={index} />
      {children}
    </Form>
  )
}

/** An option's button: the verb, and for a screen reader which option ("Rename choice 2"). */
function OptionButton({ verb, which }: { verb: string; which: string }) {
  return (
    <button type="submit" className="btn btn-secondary px-2 text-sm">
      {verb}
      <span className="sr-only"> {which}</span>
    </button>
  )
}

function OptionList({
  question: q,
  label,
  actionData,
}: {
  question: Question
  label: string
  actionData: IntentReply
}) {
  const { t } = useTranslation('questionnaires')
  const labels = q.options.labels ?? []
  // The option's noun: `options.label.*` for a scale's labels, `options.choice.*` for choices.
  const noun = q.kind === 'scale' ? 'label' : 'choice'
  const which = (i: number) => t(`options.${noun}.which`, { number: i + 1 })
  const key: [string, string] = ['questionId', q.id]
  const addResult = replyFor(actionData, 'add-option', key)
  useResetAfterSuccess(`q-${q.id}-add-option`, 'add-option', addResult)
  const listErrors = [
    ...(allErrors(replyFor(actionData, 'rename-option', key)) ?? []),
    ...(allErrors(replyFor(actionData, 'move-option', key)) ?? []),
    ...(allErrors(replyFor(actionData, 'remove-option', key)) ?? []),
  ]
  return (
    <div className="flex flex-col gap-2">
      <h4 className="font-medium text-slate-900">{t(`options.${noun}.heading`)}</h4>
      <FormErrors errors={listErrors} />
      {labels.length ? (
        <ol className="flex flex-col gap-2">
          {labels.map((l, i) => {
            const id = `q-${q.id}-opt-${i}`
            return (
              <li key={`${i}-${l}`} className="flex flex-wrap items-end gap-2">
                <OptionForm
                  intent="rename-option"
                  questionId={q.id}
                  index={i}
                  className="flex min-w-48 flex-1 items-end gap-2"
                >
                  <div className="flex flex-1 flex-col gap-1">
                    <label htmlFor={id} className="sr-only">
                      {t(`options.${noun}.of`, { number: i + 1, question: label })}
                    </label>
                    <input
                      id={id}
                      name="label"
                      className="input"
                      required
                      maxLength={LABEL_MAX}
                      defaultValue={l}
                    />
                  </div>
                  <OptionButton verb={t('builder.rename')} which={which(i)} />
                </OptionForm>
                <OptionForm intent="move-option" questionId={q.id} index={i}>
                  <MoveButtons label={which(i)} first={i === 0} last={i === labels.length - 1} />
                </OptionForm>
                <OptionForm intent="remove-option" questionId={q.id} index={i}>
                  <OptionButton verb={t('options.remove')} which={which(i)} />
                </OptionForm>
              </li>
            )
          })}
        </ol>
      ) : (
        <p className="text-sm text-slate-700">{t(`options.${noun}.none`)}</p>
      )}
      <Form
        id={`q-${q.id}-add-option`}
        method="post"
        preventScrollReset
        className="flex flex-wrap items-end gap-2"
      >
        <input type="hidden" name="intent" value="add-option" />
        <input type="hidden" name="questionId" value={q.id} />
        <div className="flex min-w-40 flex-1 flex-col gap-1">
          <label htmlFor={`q-${q.id}-new-opt`} className="label">
            {t(`options.${noun}.new`)}
          </label>
          <input
            id={`q-${q.id}-new-opt`}
            name="label"
            className="input"
            required
            maxLength={LABEL_MAX}
            aria-invalid={addResult ? true : undefined}
            aria-describedby={addResult ? `q-${q.id}-new-opt-error` : undefined}
          />
        </div>
        <button type="submit" className="btn btn-secondary">
          {t(`options.${noun}.add`)}
        </button>
        <ErrorList id={`q-${q.id}-new-opt-error`} errors={allErrors(addResult)} />
      </Form>
    </div>
  )
}
