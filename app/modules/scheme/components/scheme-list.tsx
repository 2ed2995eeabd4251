import { FilterSelect } from '#app/components/admin-list'
import { Form, Link } from 'react-router'
import { formatDate, formatDateTime } from '#app/lib/dates'
import {
  PHASE_LABELS,
  SCHEME_PHASES,
  SCHEME_SORT_LABELS,
  SCHEME_SORTS,
  type SchemeSort,
} from '#app/modules/scheme/schemas'
import type { SchemePhase } from '#app/modules/scheme/state'
import { PhaseBadge } from './phase-badge'

/** The schemes list: its search and filters (all in the URL, a plain GET form) and its table. */

/** "3 of 10": a count out of a total, with a bar for sighted readers (the text says it all). */
export function Progress({ done, total, label }: { done: number; total: number; label: string }) {
  const percent = total ? Math.round((done / total) * 100) : 0
  return (
    <div className="flex min-w-32 flex-col gap-1">
      <span className="text-slate-800">
        {label}: {done} of {total}
      </span>
      <span aria-hidden="true" className="block h-1.5 w-full overflow-hidden rounded-full bg-slate-200">
        <span className="block h-full rounded-full bg-indigo-600" style={{ width: `${percent}%` }} />
      </span>
    </div>
  )
}

export function SchemeFilters({
  path,
  query,
  companies,
}: {
  path: string
  query: { q: string; company: string; phase: string; sort: SchemeSort }
  companies: Array<{ id: string; name: string }>
}) {
  const filtered = Boolean(query.q || query.company || query.phase)
  return (
    // Keyed by the query so "Clear" (a link) also clears the boxes.
    <Form
      key={`${query.q}|${query.company}|${query.phase}|${query.sort}`}
      method="get"
      role="search"
      aria-label="Search schemes"
      className="flex flex-wrap items-end gap-3"
    >
      <div className="flex min-w-48 flex-1 flex-col gap-1">
        <label htmlFor="schemes-search" className="label">
          Search by name
        </label>
        <input
          id="schemes-search"
          type="search"
          name="q"
          defaultValue={query.q}
          maxLength={100}
          className="input"
        />
      </div>
      <FilterSelect
        id="schemes-company"
        name="company"
        label="Company"
        value={query.company}
        anyLabel="All companies"
        options={companies.map((c) => ({ value: c.id, label: c.name }))}
        className="flex min-w-40 flex-col gap-1"
      />
      <FilterSelect
        id="schemes-phase"
        name="phase"
        label="Status"
        value={query.phase}
        anyLabel="Any status"
        options={SCHEME_PHASES.map((p) => ({ value: p, label: PHASE_LABELS[p] }))}
      />
      <FilterSelect
        id="schemes-sort"
        name="sort"
        label="Sort by"
        value={query.sort}
        options={SCHEME_SORTS.map((s) => ({ value: s, label: SCHEME_SORT_LABELS[s] }))}
      />
      <button type="submit" className="btn btn-secondary">
        Show
      </button>
      {filtered ? (
        <Link className="link self-center" to={`${path}?${new URLSearchParams({ sort: query.sort })}`}>
          Clear
        </Link>
      ) : null}
    </Form>
  )
}

export type SchemeRow = {
  id: string
  name: string
  phase: SchemePhase
  companyName: string
  opensAt: string
  closesAt: string
  timeZone: string
  enrolled: number
  selfSubmitted: number
  colleaguesInvited: number
  colleaguesAnswered: number
}

export function SchemeTable({ rows }: { rows: SchemeRow[] }) {
  return (
    <div className="relative overflow-x-auto rounded-xl border border-slate-200 bg-white">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">Schemes with their status, company, dates and progress</caption>
        <thead className="border-b border-slate-200 bg-slate-50 text-slate-800">
          <tr>
            <th scope="col" className="px-4 py-3 font-semibold">
              Scheme
            </th>
            <th scope="col" className="px-4 py-3 font-semibold">
              Status
            </th>
            <th scope="col" className="px-4 py-3 font-semibold">
              Company
            </th>
            <th scope="col" className="px-4 py-3 font-semibold">
              Dates
            </th>
            <th scope="col" className="px-4 py-3 font-semibold">
              Progress
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-200">
          {rows.map((row) => (
            <tr key={row.id}>
              <th scope="row" className="px-4 py-3 font-medium text-slate-900">
                <Link className="link" to={`/admin/scheme-management/${row.id}`}>
                  {row.name}
                </Link>
              </th>
              <td className="px-4 py-3">
                <PhaseBadge phase={row.phase} />
              </td>
              <td className="px-4 py-3 text-slate-800">{row.companyName}</td>
              <td className="px-4 py-3 text-slate-800">
                <span className="whitespace-nowrap">
                  <time dateTime={row.opensAt} title={formatDateTime(row.opensAt, row.timeZone)}>
                    {formatDate(row.opensAt, row.timeZone)}
                  </time>
                </span>{' '}
                to{' '}
                <span className="whitespace-nowrap">
                  <time dateTime={row.closesAt} title={formatDateTime(row.closesAt, row.timeZone)}>
                    {formatDate(row.closesAt, row.timeZone)}
                  </time>
                </span>
              </td>
              <td className="px-4 py-3">
                <div className="flex flex-col gap-2">
                  <Progress label="Self-assessments" done={row.selfSubmitted} total={row.enrolled} />
                  <Progress
                    label="Colleagues answered"
                    done={row.colleaguesAnswered}
                    total={row.colleaguesInvited}
                  />
                </div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}
