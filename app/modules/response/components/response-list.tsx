import { getFormProps, getTextareaProps } from '@conform-to/react'
import { Form, Link } from 'react-router'
import { FilterSelect } from '#app/components/admin-list'
import { useConformForm, type FormResult } from '#app/components/form-kit'
import { ErrorList, FormErrors } from '#app/components/forms'
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

type Option = { id: string; name: string }
type SchemeOption = Option & { companyName: string }

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

const STATE_TONES: Record<ResponseState, string> = {
  in_progress: 'bg-amber-100 text-amber-950',
  submitted: 'bg-emerald-100 text-emerald-950',
  reopened: 'bg-indigo-100 text-indigo-950',
}

export function ResponseStateBadge({ state }: { state: ResponseState }) {
  return (
    <span className={`inline-block rounded-full px-2 py-0.5 text-xs font-semibold ${STATE_TONES[state]}`}>
      {RESPONSE_STATE_LABELS[state]}
    </span>
  )
}

/** The list's filters: a GET form, so every filter lives in the URL. */
export function ResponseFilters({
  query,
  companies,
  schemes,
  schemesNeedCompany,
  questionnaires,
  path,
}: {
  query: ResponseListQuery
  companies: Option[]
  schemes: SchemeOption[]
  schemesNeedCompany: boolean
  questionnaires: Option[]
  path: string
}) {
  return (
    <Form
      key={JSON.stringify([
        query.q,
        query.scheme,
        query.company,
        query.questionnaire,
        query.relationship,
        query.state,
        query.sort,
      ])}
      method="get"
      role="search"
      aria-label="Filter responses"
      className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4 lg:items-end"
    >
      <div className="flex flex-col gap-1">
        <label htmlFor="responses-search" className="label">
          Subject (name or e-mail)
        </label>
        <input
          id="responses-search"
          type="search"
          name="q"
          defaultValue={query.q}
          maxLength={100}
          className="input"
        />
      </div>
      <FilterSelect
        id="responses-company"
        name="company"
        label="Company"
        value={query.company}
        anyLabel="All companies"
        options={companies.map((c) => ({ value: c.id, label: c.name }))}
      />
      <div className="flex flex-col gap-1">
        <label htmlFor="responses-scheme" className="label">
          Scheme
        </label>
        <select
          id="responses-scheme"
          name="scheme"
          defaultValue={query.scheme}
          className="input"
          aria-describedby={schemesNeedCompany ? 'responses-scheme-help' : undefined}
        >
          <option value="">Any scheme</option>
          {schemes.map((s) => (
            <option key={s.id} value={s.id}>
              {s.name} ({s.companyName})
            </option>
          ))}
        </select>
        {schemesNeedCompany ? (
          <p id="responses-scheme-help" className="text-xs text-slate-600">
            Choose a company first to list its schemes.
          </p>
        ) : null}
      </div>
      <FilterSelect
        id="responses-questionnaire"
        name="questionnaire"
        label="Questionnaire"
        value={query.questionnaire}
        anyLabel="Any questionnaire"
        options={questionnaires.map((q) => ({ value: q.id, label: q.name }))}
      />
      <FilterSelect
        id="responses-relationship"
        name="relationship"
        label="Relationship"
        value={query.relationship}
        anyLabel="Any relationship"
        options={RELATIONSHIPS.map((r) => ({ value: r, label: RELATIONSHIP_LABELS[r] }))}
      />
      <FilterSelect
        id="responses-state"
        name="state"
        label="State"
        value={query.state}
        anyLabel="Any state"
        options={RESPONSE_STATES.map((s) => ({ value: s, label: RESPONSE_STATE_LABELS[s] }))}
      />
      <FilterSelect
        id="responses-sort"
        name="sort"
        label="Sort by"
        value={query.sort}
        options={RESPONSE_SORTS.map((s) => ({ value: s, label: RESPONSE_SORT_LABELS[s] }))}
      />
      <div className="flex flex-wrap items-center gap-3">
        <button type="submit" className="btn btn-secondary">
          Show
        </button>
        {isFiltered(query) ? (
          <Link className="link" to={path}>
            Clear filters
          </Link>
        ) : null}
      </div>
    </Form>
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
  if (!rows.length)
    return (
      <p className="card text-slate-700">
        {filtered ? 'No response matches these filters.' : 'Nobody has started answering yet.'}
      </p>
    )
  return (
    <div className="relative overflow-x-auto rounded-xl border border-slate-200 bg-white">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">Responses{filtered ? ' matching the filters' : ''}</caption>
        <thead className="border-b border-slate-200 bg-slate-50 text-slate-800">
          <tr>
            <th scope="col" className="px-4 py-3 font-semibold">
              Subject
            </th>
            <th scope="col" className="px-4 py-3 font-semibold">
              Respondent
            </th>
            <th scope="col" className="px-4 py-3 font-semibold">
              State
            </th>
            <th scope="col" className="px-4 py-3 font-semibold">
              Scheme
            </th>
            <th scope="col" className="px-4 py-3 font-semibold">
              Questionnaire
            </th>
            <th scope="col" className="px-4 py-3 font-semibold">
              Started
            </th>
            <th scope="col" className="px-4 py-3 font-semibold">
              Submitted
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-200">
          {rows.map((row) => (
            <tr key={row.id}>
              <th scope="row" className="px-4 py-3 font-medium text-slate-900">
                <Link className="link" to={`${path}/${row.id}`}>
                  {row.subjectName}
                </Link>
              </th>
              <td className="px-4 py-3 text-slate-800">{RELATIONSHIP_LABELS[row.relationship]}</td>
              <td className="px-4 py-3">
                <ResponseStateBadge state={row.state} />
              </td>
              <td className="px-4 py-3 text-slate-800">
                {row.schemeName} <span className="text-slate-600">({row.companyName})</span>
              </td>
              <td className="px-4 py-3 text-slate-800">
                {row.questionnaireTitle} (v{row.questionnaireVersion})
              </td>
              <td className="px-4 py-3 text-slate-700">
                <DayTime day={row.started} />
              </td>
              <td className="px-4 py-3 text-slate-700">
                <DayTime day={row.submitted} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
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
    <section aria-labelledby="export-title" className="card flex flex-col gap-3">
      <h2 id="export-title" className="text-lg font-semibold">
        Export answers as CSV
      </h2>
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
    </section>
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
