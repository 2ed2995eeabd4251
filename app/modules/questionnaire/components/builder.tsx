import type { ReactNode } from 'react'
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
  KIND_LABELS,
  LABEL_MAX,
  QN_MESSAGES,
  QUESTION_TEXT_MAX,
  SCALE_MAX_HIGHEST,
  SCALE_MIN_LOWEST,
  SECTION_TITLE_MAX,
  TITLE_MAX,
} from '../schemas'
import type { BuilderData } from '../builder-page.server'
import { QuestionnairePreview } from './preview'
import { SchemeUseLink, StatusBadge } from './questionnaire-list'
import { LanguagesCard, TranslationView } from './translations'

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
  return (
    <span className="inline-flex gap-1">
      <button
        type="submit"
        name="direction"
        value="up"
        className="btn btn-secondary px-2 text-sm"
        disabled={first}
      >
        ↑<span className="sr-only"> Move {label} up</span>
      </button>
      <button
        type="submit"
        name="direction"
        value="down"
        className="btn btn-secondary px-2 text-sm"
        disabled={last}
      >
        ↓<span className="sr-only"> Move {label} down</span>
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
    languageWarning,
  } = data
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
          ← All questionnaires
        </Link>
      </p>
      <PageHeader title={qn.title} />
      <div className="-mt-4 flex flex-wrap items-center gap-3 text-sm text-slate-800">
        <span>Version {qn.version}</span>
        <StatusBadge status={qn.status} />
        {qn.versions.length > 1 ? (
          <nav aria-label="Versions" className="flex flex-wrap items-center gap-2">
            <span>Versions:</span>
            {qn.versions.map((v) =>
              v.id === qn.id ? (
                <span key={v.id} aria-current="page" className="font-semibold">
                  v{v.version}
                </span>
              ) : (
                <Link key={v.id} className="link" to={`${PATH}/${v.id}`}>
                  v{v.version}
                  <span className="sr-only"> ({v.status})</span>
                </Link>
              ),
            )}
          </nav>
        ) : null}
      </div>
      <Notices notices={notices} />
      <FormErrors errors={unknownErrors} />

      <Card id="use-title" title="Status and use" className="gap-3">
        {used ? (
          <p>
            <SchemeUseLink versionId={qn.id} use={qn.use} />
          </p>
        ) : (
          <p className="text-slate-700">No scheme uses this version.</p>
        )}
        <p className="text-slate-700">
          {draft
            ? 'A draft: every change below is saved as you make it. Publish it when the checks find nothing, so schemes can use it.'
            : qn.status === 'published'
              ? used
                ? 'Published and in use: it no longer changes. “Edit as a new version” makes a draft copy; the schemes using this version keep it, and their answers.'
                : 'Published: it no longer changes. No scheme uses it yet, so it can go back to draft, or be edited as a new version.'
              : 'Archived: no new scheme can use it. Schemes that use it keep it.'}
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
            Preview as self
          </Link>
          <Link className="btn btn-secondary" to={`${here}?preview=colleague`}>
            Preview as a colleague
          </Link>
          <a className="btn btn-secondary" href={`${here}/export.json`} download>
            Export as JSON
          </a>
          {draft ? (
            <Link className="btn btn-primary" to={`${here}?confirm=publish#publish-questionnaire-title`}>
              Publish…
            </Link>
          ) : null}
          {qn.status === 'published' && !used ? (
            <IntentButton intent="revert-to-draft" label="Return to draft" pending="Returning…" />
          ) : null}
          {!draft && isNewest ? (
            <IntentButton intent="new-version" label="Edit as a new version" pending="Copying…" />
          ) : null}
          {!draft && !isNewest && newest ? (
            <Link className="btn btn-secondary" to={`${PATH}/${newest.id}`}>
              Open the newest version (v{newest.version})
            </Link>
          ) : null}
          <IntentButton intent="duplicate" label="Duplicate" pending="Duplicating…" />
          {qn.status !== 'archived' ? (
            <Link className="btn btn-secondary" to={`${here}?confirm=archive#archive-questionnaire-title`}>
              Archive…
            </Link>
          ) : null}
        </div>
      </Card>

      {confirm === 'publish' && draft ? (
        <ConfirmPanel
          id="publish-questionnaire"
          title="Publish this questionnaire?"
          intent="publish"
          fields={{}}
          tone="primary"
          confirmLabel="Publish"
          pendingLabel="Publishing…"
          cancelHref={here}
          backLabel="Back to the questionnaire"
          lastResult={replyFor(actionData, 'publish')}
          blockedBy={
            blockers.length ? (
              <>
                It cannot be published yet:
                <span className="mt-2 block">
                  <BlockerList blockers={blockers} />
                </span>
              </>
            ) : undefined
          }
        >
          <p className="text-slate-800">
            Once published it no longer changes, and schemes can use it. To change it later you edit it as a
            new version.
          </p>
          {languageWarning ? (
            <p className="mt-2 text-slate-800">
              <strong>Not every text is translated.</strong> {languageWarning}
            </p>
          ) : null}
        </ConfirmPanel>
      ) : null}
      {confirm === 'archive' && qn.status !== 'archived' ? (
        <ConfirmPanel
          id="archive-questionnaire"
          title="Archive this questionnaire?"
          intent="archive"
          fields={{}}
          confirmLabel="Archive"
          pendingLabel="Archiving…"
          cancelHref={here}
          backLabel="Back to the questionnaire"
          lastResult={replyFor(actionData, 'archive')}
          blockedBy={qn.use.open ? QN_MESSAGES.archiveBlocked(qn.use.openNames, qn.use.open) : undefined}
        >
          <p className="text-slate-800">
            No new scheme can use an archived questionnaire. Schemes that already use it keep it.
          </p>
        </ConfirmPanel>
      ) : null}

      {draft ? (
        <Card id="checks-title" title="Publish checks" className="gap-2">
          {blockers.length ? (
            <>
              <p className="text-slate-800">These must be fixed before it can be published:</p>
              <BlockerList blockers={blockers} />
            </>
          ) : (
            <p className="text-emerald-900">Nothing blocks publishing.</p>
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
          title={`Delete the section “${deleting.title}”?`}
          intent="delete-section"
          fields={{ sectionId: deleting.id, confirmed: 'on' }}
          confirmLabel="Delete section and questions"
          pendingLabel="Deleting…"
          cancelHref={`${here}#section-${deleting.id}`}
          lastResult={replyFor(actionData, 'delete-section', ['sectionId', deleting.id])}
        >
          <p className="text-slate-800">
            Its {deleting.questions} {deleting.questions === 1 ? 'question is' : 'questions are'} deleted with
            it.
          </p>
        </ConfirmPanel>
      ) : null}

      {translating ? null : (
        <section aria-labelledby="sections-title" id="sections" className="flex flex-col gap-4">
          <h2 id="sections-title" className="text-lg font-semibold">
            Sections and questions
          </h2>
          {qn.sections.length ? null : (
            <p className="card text-slate-700">No sections yet. Add the first one below.</p>
          )}
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

function BlockerList({ blockers }: { blockers: string[] }) {
  return (
    <ul className="list-disc pl-6 text-slate-800">
      {blockers.map((b) => (
        <li key={b}>{b}</li>
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
  return (
    <Card id="intro-title" title="Introduction" className="gap-2">
      <p className="whitespace-pre-line text-slate-800">{intro || 'No introduction.'}</p>
    </Card>
  )
}

function DetailsForm({ qn, actionData }: { qn: BuilderData['questionnaire']; actionData: IntentReply }) {
  const result = replyFor(actionData, 'details')
  const busy = usePendingIntent('details')
  return (
    <section aria-labelledby="details-title" id="details" className="card flex flex-col gap-4">
      <h2 id="details-title" className="text-lg font-semibold">
        Title and introduction
      </h2>
      <Form method="post" preventScrollReset className="flex flex-col gap-4">
        <input type="hidden" name="intent" value="details" />
        <FormErrors errors={formErrorsOf(result)} />
        <TextInput
          id="qn-title"
          name="title"
          label="Title"
          max={TITLE_MAX}
          defaultValue={qn.title}
          errors={fieldErrors(result, 'title')}
        />
        <div className="flex flex-col gap-1">
          <label htmlFor="qn-intro" className="label">
            Introduction
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
            Shown before the first question.
          </p>
          <ErrorList errors={fieldErrors(result, 'intro')} />
        </div>
        <div>
          <button type="submit" className="btn btn-primary" disabled={busy}>
            {busy ? 'Saving…' : 'Save title and introduction'}
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
  return (
    <Form
      id="add-section-form"
      method="post"
      preventScrollReset
      className="card flex flex-wrap items-end gap-3"
      aria-label="Add a section"
    >
      <input type="hidden" name="intent" value="add-section" />
      <div className="flex min-w-48 flex-1 flex-col gap-1">
        <label htmlFor="new-section-title" className="label">
          New section’s title
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
        {busy ? 'Adding…' : 'Add section'}
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
  return (
    <section id={`section-${section.id}`} aria-labelledby={headingId} className="card flex flex-col gap-4">
      <h3 id={headingId} className="text-base font-semibold">
        Section {number}: {section.title}
      </h3>
      {draft ? (
        <div className="flex flex-wrap items-end gap-3">
          <Form method="post" preventScrollReset className="flex min-w-56 flex-1 flex-wrap items-end gap-2">
            <input type="hidden" name="intent" value="rename-section" />
            <input type="hidden" name="sectionId" value={section.id} />
            <div className="flex min-w-40 flex-1 flex-col gap-1">
              <label htmlFor={`section-${section.id}-name`} className="label">
                Section title
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
              Rename<span className="sr-only"> section {number}</span>
            </button>
            <ErrorList id={`section-${section.id}-name-error`} errors={allErrors(renameResult)} />
          </Form>
          <Form method="post" preventScrollReset>
            <input type="hidden" name="intent" value="move-section" />
            <input type="hidden" name="sectionId" value={section.id} />
            <MoveButtons label={`section ${number}`} first={first} last={last} />
          </Form>
          {section.questions.length ? (
            <Link
              className="btn btn-secondary text-sm"
              to={`${here}?deleteSection=${section.id}#delete-section-title`}
            >
              Delete…<span className="sr-only"> section {number}</span>
            </Link>
          ) : (
            <Form method="post" preventScrollReset>
              <input type="hidden" name="intent" value="delete-section" />
              <input type="hidden" name="sectionId" value={section.id} />
              <button type="submit" className="btn btn-secondary text-sm">
                Delete<span className="sr-only"> section {number}</span>
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
                label={`question ${n + 1} of section ${number}`}
                first={q.id === firstQuestionId}
                last={q.id === lastQuestionId}
                draft={draft}
                actionData={actionData}
              />
            </li>
          ))}
        </ol>
      ) : (
        <p className="text-slate-700">No questions in this section yet.</p>
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
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="label">
        Kind
      </label>
      <select id={id} name="kind" className="input" defaultValue={defaultValue ?? 'scale'}>
        {QUESTION_KINDS.map((k) => (
          <option key={k} value={k}>
            {KIND_LABELS[k]}
          </option>
        ))}
      </select>
    </div>
  )
}

const RATER_HELP = 'Write {{name}} where the person’s name goes, e.g. “{{name}} listens carefully.”'

/** A wording field: `help` always shows, `addHelp` only while the question is being added. */
type WordingField = {
  name: 'category' | 'text' | 'raterText'
  suffix: string
  label: string
  max: number
  list?: string
  help?: string
  addHelp?: string
}

const WORDING_FIELDS: WordingField[] = [
  {
    name: 'category',
    suffix: 'category',
    label: 'Competency',
    max: CATEGORY_MAX,
    list: 'competencies',
    addHelp: 'Pick one or type a new one: the report charts by it.',
  },
  {
    name: 'text',
    suffix: 'text',
    label: 'Self wording',
    max: QUESTION_TEXT_MAX,
    addHelp: 'As the person answers about themselves: “I listen carefully.”',
  },
  {
    name: 'raterText',
    suffix: 'rater',
    label: 'Colleague wording',
    max: QUESTION_TEXT_MAX,
    help: RATER_HELP,
  },
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
  return WORDING_FIELDS.map((f) => (
    <TextInput
      key={f.name}
      id={`${base}-${f.suffix}`}
      name={f.name}
      label={f.label}
      max={f.max}
      list={f.list}
      defaultValue={question?.[f.name]}
      errors={fieldErrors(result, f.name)}
      help={f.help ?? (question ? undefined : f.addHelp)}
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
  return (
    <details className="rounded-lg border border-slate-200 p-3" open={Boolean(result)}>
      <summary className="cursor-pointer font-medium text-indigo-800">
        Add a question to section {number}
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
            Add question
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
  if (carriedOver === undefined) return null
  return (
    <p className="text-sm text-slate-700" data-carried={carriedOver ? 'yes' : 'no'}>
      <span
        className={`rounded-full border px-2.5 py-0.5 font-medium ${carriedOver ? 'border-slate-300 bg-slate-50 text-slate-800' : 'border-sky-300 bg-sky-50 text-sky-900'}`}
      >
        {carriedOver ? 'Carried over from the previous version' : 'New in this version'}
      </span>
    </p>
  )
}

function QuestionCard({
  question: q,
  label,
  first,
  last,
  draft,
  actionData,
}: {
  question: Question
  label: string
  first: boolean
  last: boolean
  draft: boolean
  actionData: IntentReply
}) {
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
        <p className="text-slate-700">Colleague: {q.raterText}</p>
        <p className="text-sm text-slate-600">
          {KIND_LABELS[q.kind]} · {q.category} · {q.required ? 'Required' : 'Optional'}
          {q.kind === 'scale'
            ? ` · ${q.options.min}–${q.options.max}${q.options.allowNa ? ', “Not applicable” allowed' : ''}`
            : ''}
        </p>
        {hasOptions && q.options.labels?.length ? (
          <p className="text-sm text-slate-700">
            {q.kind === 'scale' ? 'Labels' : 'Choices'}: {q.options.labels.join(' · ')}
          </p>
        ) : null}
      </div>
    )
  return (
    <div id={`question-${q.id}`} className="flex flex-col gap-3 rounded-lg border border-slate-200 p-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="font-semibold text-slate-900">
          {label.charAt(0).toUpperCase() + label.slice(1)} · {KIND_LABELS[q.kind]}
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
              Delete<span className="sr-only"> {label}</span>
            </button>
          </Form>
        </div>
      </div>
      <FormErrors errors={moveErrors} />
      <Form
        method="post"
        preventScrollReset
        className="grid gap-3 sm:grid-cols-2"
        aria-label={`Edit ${label}`}
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
          Required
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
              “Not applicable” allowed
            </label>
            <NumberInput
              id={`${base}-min`}
              name="min"
              label="Lowest point"
              value={q.options.min}
              errors={fieldErrors(result, 'min')}
            />
            <NumberInput
              id={`${base}-max`}
              name="max"
              label="Highest point"
              value={q.options.max}
              errors={fieldErrors(result, 'max')}
            />
          </>
        ) : null}
        <div className="sm:col-span-2">
          <button type="submit" className="btn btn-primary">
            Save question
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
function OptionButton({ verb, noun, number }: { verb: string; noun: string; number: number }) {
  return (
    <button type="submit" className="btn btn-secondary px-2 text-sm">
      {verb}
      <span className="sr-only">
        {' '}
        {noun} {number}
      </span>
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
  const labels = q.options.labels ?? []
  const noun = q.kind === 'scale' ? 'label' : 'choice'
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
      <h4 className="font-medium text-slate-900">
        {q.kind === 'scale' ? 'Scale labels, from the lowest point up' : 'Choices'}
      </h4>
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
                      {noun} {i + 1} of {label}
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
                  <OptionButton verb="Rename" noun={noun} number={i + 1} />
                </OptionForm>
                <OptionForm intent="move-option" questionId={q.id} index={i}>
                  <MoveButtons label={`${noun} ${i + 1}`} first={i === 0} last={i === labels.length - 1} />
                </OptionForm>
                <OptionForm intent="remove-option" questionId={q.id} index={i}>
                  <OptionButton verb="Remove" noun={noun} number={i + 1} />
                </OptionForm>
              </li>
            )
          })}
        </ol>
      ) : (
        <p className="text-sm text-slate-700">No {noun}s yet.</p>
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
            New {noun}
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
          Add {noun}
        </button>
        <ErrorList id={`q-${q.id}-new-opt-error`} errors={allErrors(addResult)} />
      </Form>
    </div>
  )
}
