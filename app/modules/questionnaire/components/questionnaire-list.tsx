import type { ReactNode } from 'react'
import type { PageData } from '#app/lib/page-data'
import { Form, Link } from 'react-router'
import { ListPagination, ListSection, type HrefFor } from '#app/components/admin-list'
import { FilterBar, FilterSelect, SearchField, SortSelect } from '#app/components/filter-bar'
import {
  formErrorsOf,
  resultFor,
  useConformForm,
  type FormResult,
  type IntentReply,
} from '#app/components/form-kit'
import { ConfirmPanel } from '#app/components/page-kit'
import { FormErrors } from '#app/components/forms'
import { ConformField, IntentForm, SubmitButton } from '#app/components/form-parts'
import { QUESTIONNAIRE_STATUSES, type QuestionnaireStatus } from '#db/enums'
import { schemesUsingHref } from '#app/modules/scheme/schemas'
import type { loadQuestionnaireList } from '#app/modules/questionnaire/questionnaire-list.server'
import type { SchemeUse } from '#app/modules/questionnaire/questionnaire.server'
import { Card } from '#app/components/card'
import { stateBadge } from '#app/components/state-badge'
import { labelledChoices } from '#app/components/choices'
import {
  QN_MESSAGES,
  QN_SORT_LABELS,
  QN_SORTS,
  QnCreateSchema,
  STATUS_LABELS,
  TITLE_MAX,
  type QnSort,
} from '../schemas'

/** The questionnaires list: filters (a GET form), the table of lines and versions, create and import. */

/** The page's data, as its loader returns it (the page-props rule). */
type Data = PageData<typeof loadQuestionnaireList>

const QuestionnaireStatusBadge = stateBadge<QuestionnaireStatus>(STATUS_LABELS, {
  draft: 'border bg-slate-100 text-slate-800 border-slate-300',
  published: 'border bg-emerald-50 text-emerald-900 border-emerald-300',
  archived: 'border bg-slate-200 text-slate-800 border-slate-400',
})

export const StatusBadge = ({ status }: { status: QuestionnaireStatus }) => (
  <QuestionnaireStatusBadge state={status} />
)

/**
 * How many schemes use a version (and how many of them are open), as a link to the scheme list
 * filtered to that version: however many schemes there are, this is one line.
 */
export function SchemeUseLink({
  versionId,
  use,
  which,
}: {
  versionId: string
  use: SchemeUse
  /** Read after the link's words where several versions are listed ("version 2 of …"). */
  which?: ReactNode
}) {
  if (!use.total) return <span className="text-slate-600">Not used by a scheme</span>
  return (
    <span className="text-slate-800">
      <Link className="link" to={schemesUsingHref(versionId)}>
        Used by {use.total} {use.total === 1 ? 'scheme' : 'schemes'}
        {which}
      </Link>
      {use.open ? ` (${use.open} open now)` : null}
    </span>
  )
}

export function QuestionnaireFilters({
  path,
  query,
}: {
  path: string
  query: { q: string; status: string; sort: QnSort }
}) {
  const filtered = Boolean(query.q || query.status)
  return (
    <FilterBar
      label="Search questionnaires"
      idPrefix="qn"
      query={query}
      resetKey={[query.q, query.status, query.sort]}
      clear={{
        href: filtered ? `${path}?${new URLSearchParams({ sort: query.sort })}` : null,
        label: 'Clear',
      }}
    >
      <SearchField label="Search by title" className="flex min-w-48 flex-1 flex-col gap-1" />
      <FilterSelect
        name="status"
        label="Status"
        options={labelledChoices(QUESTIONNAIRE_STATUSES, STATUS_LABELS)}
      />
      <SortSelect sorts={QN_SORTS} labels={QN_SORT_LABELS} />
    </FilterBar>
  )
}

/** The questionnaires page's list: filters, the lines with their versions, page links. */
export function QuestionnaireList({
  data: { query, page },
  path,
  href,
}: {
  data: Data
  path: string
  href: HrefFor
}) {
  const filtered = Boolean(query.q || query.status)
  return (
    <ListSection title="All questionnaires">
      <QuestionnaireFilters path={path} query={query} />
      {page.rows.length ? (
        <QuestionnaireTable rows={page.rows} archiveHref={(id) => href({ archive: id })} />
      ) : (
        <p className="card text-slate-700">
          {filtered
            ? 'No questionnaire matches this search and this status.'
            : 'There are no questionnaires yet. Create the first one below, or import a file.'}
        </p>
      )}
      <ListPagination noun="questionnaires" next={page.next} prev={page.prev} href={href} />
    </ListSection>
  )
}

/** "Archive …?" — refused while an open scheme uses the version, or when it is archived already. */
export function ArchiveConfirm({
  archiving,
  cancelHref,
  lastResult,
}: {
  archiving: NonNullable<Data['archiving']>
  cancelHref: string
  lastResult: FormResult
}) {
  return (
    <ConfirmPanel
      id="archive-questionnaire"
      title={`Archive “${archiving.title}” (version ${archiving.version})?`}
      intent="archive"
      fields={{ questionnaireId: archiving.id }}
      confirmLabel="Archive"
      pendingLabel="Archiving…"
      cancelHref={cancelHref}
      lastResult={lastResult}
      blockedBy={
        archiving.status === 'archived'
          ? 'This questionnaire is already archived.'
          : archiving.openCount
            ? QN_MESSAGES.archiveBlocked(archiving.openSchemes, archiving.openCount)
            : undefined
      }
    >
      <p className="text-slate-800">
        No new scheme can use an archived questionnaire. Schemes that already use it, and their answers and
        reports, stay as they are.
      </p>
    </ConfirmPanel>
  )
}

/** Create a questionnaire, or import one from a file. */
export function AddQuestionnaire({
  importMaxBytes,
  actionData,
}: {
  importMaxBytes: number
  actionData: IntentReply
}) {
  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <Card id="create-title" title="Create a questionnaire">
        <CreateQuestionnaireForm lastResult={resultFor(actionData, 'create')} />
      </Card>
      <Card id="import-title" title="Import a questionnaire">
        <ImportQuestionnaireForm lastResult={resultFor(actionData, 'import')} maxBytes={importMaxBytes} />
      </Card>
    </div>
  )
}

type Version = {
  id: string
  version: number
  status: QuestionnaireStatus
  title: string
  questionCount: number
  use: SchemeUse
}

/** Read after a version's button word: which version of which questionnaire it acts on. */
const WhichVersion = ({ version, name }: { version: number; name: string }) => (
  <span className="sr-only">
    {' '}
    version {version} of {name}
  </span>
)

export function QuestionnaireTable({
  rows,
  archiveHref,
}: {
  rows: Array<{ id: string; name: string; versions: Version[] }>
  archiveHref: (id: string) => string
}) {
  return (
    <ul className="flex flex-col gap-4" aria-label="Questionnaires">
      {rows.map((family) => (
        <li key={family.id} className="card flex flex-col gap-3">
          <h3 className="text-base font-semibold text-slate-900">{family.name}</h3>
          <ul className="flex flex-col divide-y divide-slate-200" aria-label={`Versions of ${family.name}`}>
            {family.versions.map((v) => (
              <li key={v.id} className="flex flex-wrap items-center gap-x-4 gap-y-2 py-2">
                <Link className="link font-medium" to={`/admin/questionnaire-management/${v.id}`}>
                  Version {v.version}
                  {v.title !== family.name ? ` (“${v.title}”)` : ''}
                </Link>
                <StatusBadge status={v.status} />
                <span className="text-sm text-slate-700">
                  {v.questionCount} {v.questionCount === 1 ? 'question' : 'questions'}
                </span>
                <span className="text-sm">
                  <SchemeUseLink
                    versionId={v.id}
                    use={v.use}
                    which={<WhichVersion version={v.version} name={family.name} />}
                  />
                </span>
                <span className="flex-1" />
                <Form method="post" className="inline">
                  <input type="hidden" name="intent" value="duplicate" />
                  <input type="hidden" name="questionnaireId" value={v.id} />
                  <button type="submit" className="btn btn-secondary text-sm">
                    Duplicate
                    <WhichVersion version={v.version} name={family.name} />
                  </button>
                </Form>
                {v.status !== 'archived' ? (
                  <Link className="btn btn-secondary text-sm" to={archiveHref(v.id)}>
                    Archive
                    <WhichVersion version={v.version} name={family.name} />
                  </Link>
                ) : null}
              </li>
            ))}
          </ul>
        </li>
      ))}
    </ul>
  )
}

export function CreateQuestionnaireForm({ lastResult }: { lastResult: FormResult }) {
  const [form, fields] = useConformForm(QnCreateSchema, { id: 'create-questionnaire', lastResult })
  return (
    <IntentForm form={form} intent="create" className="flex flex-col gap-4">
      <FormErrors id={form.errorId} errors={form.errors} />
      <ConformField
        label="Title"
        meta={fields.title}
        maxLength={TITLE_MAX}
        help="Employees see it at the top of every page of the questionnaire."
      />
      <div>
        <SubmitButton intent="create" label="Create questionnaire" pendingLabel="Creating…" />
      </div>
    </IntentForm>
  )
}

export function ImportQuestionnaireForm({
  lastResult,
  maxBytes,
}: {
  lastResult: FormResult
  maxBytes: number
}) {
  const errors = formErrorsOf(lastResult)
  return (
    <Form method="post" encType="multipart/form-data" className="flex flex-col gap-4">
      <input type="hidden" name="intent" value="import" />
      <FormErrors errors={errors} />
      <div className="flex flex-col gap-1">
        <label htmlFor="qn-import-file" className="label">
          Questionnaire file (.json)
        </label>
        <input
          id="qn-import-file"
          name="file"
          type="file"
          accept=".json,application/json"
          required
          className="input"
          aria-describedby="qn-import-help"
        />
        <p id="qn-import-help" className="text-sm text-slate-600">
          A file exported from Panorama (format “panorama-questionnaire”, version 1), up to {maxBytes / 1024}{' '}
          kB. It becomes a new draft.
        </p>
      </div>
      <div>
        <SubmitButton
          intent="import"
          label="Import as a draft"
          pendingLabel="Importing…"
          className="btn btn-secondary"
        />
      </div>
    </Form>
  )
}
