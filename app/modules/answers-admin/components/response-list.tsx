import { Form, Link } from 'react-router'
import { FilterSelect } from '#app/components/admin-list'
import { RELATIONSHIPS } from '#db/enums'
import {
  isFiltered,
  RELATIONSHIP_LABELS,
  RESPONSE_SORT_LABELS,
  RESPONSE_SORTS,
  RESPONSE_STATE_LABELS,
  RESPONSE_STATES,
  type ResponseListQuery,
  type ResponseState,
} from '../schemas'

type Option = { id: string; name: string }
type SchemeOption = Option & { companyName: string }

export type ResponseRow = {
  id: string
  relationship: (typeof RELATIONSHIPS)[number]
  state: ResponseState
  startedAt: string
  updatedAt: string
  submittedAt: string | null
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

const day = (iso: string | null) => (iso ? <time dateTime={iso}>{iso.slice(0, 10)}</time> : '—')

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
              <td className="px-4 py-3 text-slate-700">{day(row.startedAt)}</td>
              <td className="px-4 py-3 text-slate-700">{day(row.submittedAt)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}

/** The export: the list's filters as hidden fields, and the explicit identities choice. */
export function ExportForm({ query }: { query: ResponseListQuery }) {
  const filters = {
    q: query.q,
    scheme: query.scheme,
    company: query.company,
    questionnaire: query.questionnaire,
    relationship: query.relationship,
    state: query.state,
  }
  return (
    <section aria-labelledby="export-title" className="card flex flex-col gap-3">
      <h2 id="export-title" className="text-lg font-semibold">
        Export answers as CSV
      </h2>
      <p className="text-slate-700">
        One row per answer of the responses these filters show. Raters appear as anonymous labels (“Peer 2”)
        that stay the same for one subject.
      </p>
      <form method="get" action={`${EXPORT_PATH}`} className="flex flex-col gap-3">
        {Object.entries(filters).map(([name, value]) =>
          value ? <input key={name} type="hidden" name={name} value={value} /> : null,
        )}
        <div className="flex items-start gap-2">
          <input
            id="export-identities"
            type="checkbox"
            name="identities"
            value="1"
            className="mt-1"
            aria-describedby="export-identities-help"
          />
          <div>
            <label htmlFor="export-identities" className="font-medium">
              Include respondents’ names and e-mail addresses
            </label>
            <p id="export-identities-help" className="text-sm text-slate-600">
              Only when you must: this export is recorded in the audit log with your name.
            </p>
          </div>
        </div>
        <div>
          <button type="submit" className="btn btn-secondary">
            Download CSV
          </button>
        </div>
      </form>
    </section>
  )
}

export const EXPORT_PATH = '/admin/answer-management/export.csv'
