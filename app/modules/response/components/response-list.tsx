import type { PageData } from '#app/lib/page-data'
import { getFormProps, getTextareaProps } from '@conform-to/react'
import { Form } from 'react-router'
import { ListPagination, ListSection, type HrefFor } from '#app/components/admin-list'
import { Cell, DataTable, RowHeader } from '#app/components/data-table'
import {
  CompanySchemeSelects,
  FilterBar,
  FilterSelect,
  SearchField,
  SortSelect,
} from '#app/components/filter-bar'
import { useConformForm, type FormResult } from '#app/components/form-kit'
import { ErrorList, FormErrors } from '#app/components/forms'
import { Card } from '#app/components/card'
import { choicesOf, labelledChoices } from '#app/components/choices'
import { stateBadge } from '#app/components/state-badge'
import { RELATIONSHIPS } from '#db/enums'
import {
  ANSWERS_ADMIN_MESSAGES,
  EXPORT_PATH,
  ExportIdentitiesSchema,
  isFiltered,
  RELATIONSHIP_LABELS,
  RESPONSE_SORT_LABELS,
  RESPONSE_SORTS,
  RESPONSE_STATE_LABELS,
  RESPONSE_STATES,
  REVEAL_REASON_MAX,
  type ResponseListQuery,
  type ResponseState,
} from '../schemas'
import type { loadResponseList } from '../response-list.server'

/** The page's data, as its loader returns it (the page-props rule). */
type Data = PageData<typeof loadResponseList>

type Day = { date: string; label: string }

export type ResponseRow = {
  id: string
  relationship: (typeof RELATIONSHIPS)[number]
  state: ResponseState
  started: Day
  submitted: Day | null
  schemeName: string
  companyName: string
  questionnaireTitle: string
  questionnaireVersion: number
  subjectName: string
}

export const ResponseStateBadge = stateBadge<ResponseState>(RESPONSE_STATE_LABELS, {
  in_progress: 'bg-amber-100 text-amber-950',
  submitted: 'bg-emerald-100 text-emerald-950',
  reopened: 'bg-indigo-100 text-indigo-950',
})

/** The list's filters: a GET form, so every filter lives in the URL. */
export function ResponseFilters({
  data: { query, companies, schemes, schemesNeedCompany, questionnaires },
  path,
}: {
  data: Pick<Data, 'query' | 'companies' | 'schemes' | 'schemesNeedCompany' | 'questionnaires'>
  path: string
}) {
  return (
    <FilterBar
      label="Filter responses"
      idPrefix="responses"
      query={query}
      resetKey={[
        query.q,
        query.scheme,
        query.company,
        query.questionnaire,
        query.relationship,
        query.state,
        query.sort,
      ]}
      layout="grid"
      clear={{ href: isFiltered(query) ? path : null, label: 'Clear filters' }}
    >
      <SearchField label="Subject (name or e-mail)" />
      <CompanySchemeSelects companies={companies} schemes={schemes} schemesNeedCompany={schemesNeedCompany} />
      <FilterSelect name="questionnaire" label="Questionnaire" options={choicesOf(questionnaires)} />
      <FilterSelect
        name="relationship"
        label="Relationship"
        options={labelledChoices(RELATIONSHIPS, RELATIONSHIP_LABELS)}
      />
      <FilterSelect
        name="state"
        label="State"
        options={labelledChoices(RESPONSE_STATES, RESPONSE_STATE_LABELS)}
      />
      <SortSelect sorts={RESPONSE_SORTS} labels={RESPONSE_SORT_LABELS} />
    </FilterBar>
  )
}

/** The page's list: filters, the responses, page links. */
export function ResponseList({ data, path, href }: { data: Data; path: string; href: HrefFor }) {
  const { query, page } = data
  return (
    <ListSection title="Responses">
      <ResponseFilters data={data} path={path} />
      <ResponseTable rows={page.rows} path={path} filtered={isFiltered(query)} />
      <ListPagination noun="responses" next={page.next} prev={page.prev} href={href} />
    </ListSection>
  )
}

/** A day, never the instant (ADR 024): the server sends no more than that. */
export const DayTime = ({ day }: { day: Day | null }) =>
  day ? <time dateTime={day.date}>{day.label}</time> : <>—</>

/** The responses: who the feedback is about and the respondent's relationship, never who answered. */
export function ResponseTable({
  rows,
  path,
  filtered,
}: {
  rows: ResponseRow[]
  path: string
  filtered: boolean
}) {
  return (
    <DataTable
      caption={`Responses${filtered ? ' matching the filters' : ''}`}
      columns={['Subject', 'Respondent', 'State', 'Scheme', 'Questionnaire', 'Started', 'Submitted']}
      rows={rows}
      empty={filtered ? 'No response matches these filters.' : 'Nobody has started answering yet.'}
    >
      {(row) => (
        <tr key={row.id}>
          <RowHeader href={`${path}/${row.id}`}>{row.subjectName}</RowHeader>
          <Cell className="text-slate-800">{RELATIONSHIP_LABELS[row.relationship]}</Cell>
          <Cell>
            <ResponseStateBadge state={row.state} />
          </Cell>
          <Cell className="text-slate-800">
            {row.schemeName} <span className="text-slate-600">({row.companyName})</span>
          </Cell>
          <Cell className="text-slate-800">
            {row.questionnaireTitle} (v{row.questionnaireVersion})
          </Cell>
          <Cell className="text-slate-700">
            <DayTime day={row.started} />
          </Cell>
          <Cell className="text-slate-700">
            <DayTime day={row.submitted} />
          </Cell>
        </tr>
      )}
    </DataTable>
  )
}

/** The list's filters, as the export's forms carry them (hidden fields). */
function filtersOf(query: ResponseListQuery) {
  return {
    q: query.q,
    scheme: query.scheme,
    company: query.company,
    questionnaire: query.questionnaire,
    relationship: query.relationship,
    state: query.state,
  }
}

function HiddenFilters({ query }: { query: ResponseListQuery }) {
  return (
    <>
      {Object.entries(filtersOf(query)).map(([name, value]) =>
        value ? <input key={name} type="hidden" name={name} value={value} /> : null,
      )}
    </>
  )
}

/**
 * The export: anonymous by default; with respondents' names only for a reason that goes to the
 * audit log (ADR 024), and not at all under strict confidentiality.
 */
export function ExportForm({
  query,
  identitiesAllowed,
  lastResult,
}: {
  query: ResponseListQuery
  identitiesAllowed: boolean
  lastResult: FormResult
}) {
  return (
    <Card id="export-title" title="Export answers as CSV" className="gap-3">
      <p className="text-slate-700">
        One row per answer of the responses these filters show: the question (key, section, competency,
        wording, kind and scale), the answer and its label, the day it was submitted and whom it is about.
        Raters appear as anonymous labels (“Peer 2”) that stay the same for one subject.
      </p>
      <form method="get" action={EXPORT_PATH}>
        <HiddenFilters query={query} />
        <button type="submit" className="btn btn-secondary">
          Download CSV
        </button>
      </form>
      {identitiesAllowed ? (
        <IdentitiesExportForm query={query} lastResult={lastResult} />
      ) : (
        <p className="text-sm text-slate-700">
          {ANSWERS_ADMIN_MESSAGES.strict} The export never holds names.
        </p>
      )}
    </Card>
  )
}

/**
 * The export with names: a plain document post (the answer is a redirect to the download, which a
 * fetch could not hand to the browser as a file), checked as you type like every other form.
 */
function IdentitiesExportForm({ query, lastResult }: { query: ResponseListQuery; lastResult: FormResult }) {
  const [form, fields] = useConformForm(ExportIdentitiesSchema, { id: 'export-identities', lastResult })
  return (
    <details className="rounded-md border border-slate-200 p-3" open={Boolean(lastResult)}>
      <summary className="cursor-pointer font-medium">Export with respondents’ names</summary>
      <div className="mt-3 flex flex-col gap-3">
        <p className="text-sm text-slate-700">
          Only when you must: your reason and the filters are recorded in the audit log with your name, and
          shown on the dashboard.
        </p>
        <FormErrors id={form.errorId} errors={form.errors} />
        <Form method="post" reloadDocument className="flex flex-col gap-3" {...getFormProps(form)}>
          <input type="hidden" name="intent" value="export-identities" />
          <HiddenFilters query={query} />
          <div className="flex flex-col gap-1">
            <label htmlFor={fields.reason.id} className="label">
              Why you need the names (recorded in the audit log)
            </label>
            <textarea
              {...getTextareaProps(fields.reason)}
              key={fields.reason.key}
              rows={3}
              maxLength={REVEAL_REASON_MAX}
              className="input"
            />
            <ErrorList id={fields.reason.errorId} errors={fields.reason.errors} />
          </div>
          <div>
            <button type="submit" className="btn btn-secondary">
              Download CSV with names
            </button>
          </div>
        </Form>
      </div>
    </details>
  )
}
