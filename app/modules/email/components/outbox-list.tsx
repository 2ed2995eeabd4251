import { Form, Link } from 'react-router'
import { FilterSelect, ListPagination, useListHref } from '#app/components/admin-list'
import { OUTBOX_STATUSES, type OutboxStatus } from '#db/enums'
import {
  OUTBOX_STATE_LABELS,
  OUTBOX_STATE_OPTIONS,
  RECIPIENT_PREFIX_MIN,
  TEMPLATE_KEY_OPTIONS,
  TEMPLATE_LABELS,
} from '../schemas'
import type { TemplateKey } from '../templates'
import { OutboxState } from './outbox-state'

const PATH = '/admin/email-management'

type Row = {
  id: string
  recipient: string
  templateKey: TemplateKey
  brandName: string | null
  status: OutboxStatus
  leaseExpired: boolean
  attempts: number
  lastError: string | null
  createdAt: string
  sentAt: string | null
}

const when = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)}`

/** The outbox tab: counts per state (as filter links), the filter form, the messages, page links. */
export function OutboxList({
  page,
  counts,
  query,
}: {
  page: { rows: Row[]; next: string | null; prev: string | null }
  counts: Record<OutboxStatus | 'all', number>
  query: { state: string; template: string; to: string }
}) {
  const href = useListHref(PATH)
  const filtered = Boolean(query.state || query.template || query.to)
  return (
    <div className="flex flex-col gap-4">
      <nav aria-label="Messages by state">
        <ul className="flex flex-wrap gap-2">
          {(['', ...OUTBOX_STATUSES] as const).map((state) => {
            const current = query.state === state
            const count = state ? counts[state] : counts.all
            return (
              <li key={state || 'all'}>
                <Link
                  to={href({ state: state || null, after: null, before: null })}
                  aria-current={current ? 'page' : undefined}
                  className={`inline-flex items-center gap-2 rounded-full border px-3 py-1 text-sm ${
                    current
                      ? 'border-indigo-700 bg-indigo-700 text-white'
                      : 'border-slate-300 bg-white text-slate-800 hover:border-slate-500'
                  }`}
                >
                  {state ? OUTBOX_STATE_LABELS[state] : 'All'}
                  <span className="tabular-nums font-semibold">{count.toLocaleString('en-GB')}</span>
                </Link>
              </li>
            )
          })}
        </ul>
      </nav>

      <Form
        key={`${query.state}|${query.template}|${query.to}`}
        method="get"
        role="search"
        aria-label="Filter messages"
        className="flex flex-wrap items-end gap-3"
      >
        <input type="hidden" name="tab" value="outbox" />
        <FilterSelect
          id="outbox-state"
          name="state"
          label="State"
          value={query.state}
          anyLabel="Any state"
          options={OUTBOX_STATE_OPTIONS}
        />
        <FilterSelect
          id="outbox-template"
          name="template"
          label="Template"
          value={query.template}
          anyLabel="Any template"
          options={TEMPLATE_KEY_OPTIONS}
        />
        <div className="flex min-w-56 flex-1 flex-col gap-1">
          <label htmlFor="outbox-to" className="label">
            Recipient
          </label>
          <input
            id="outbox-to"
            type="search"
            name="to"
            defaultValue={query.to}
            maxLength={254}
            className="input"
            aria-describedby="outbox-to-help"
          />
          <p id="outbox-to-help" className="text-xs text-slate-600">
            The full address, or its start followed by * (at least {RECIPIENT_PREFIX_MIN} characters).
          </p>
        </div>
        <button type="submit" className="btn btn-secondary">
          Show
        </button>
        {filtered ? (
          <Link className="link self-center" to={`${PATH}?tab=outbox`}>
            Clear filters
          </Link>
        ) : null}
      </Form>

      {page.rows.length ? (
        <div className="relative overflow-x-auto rounded-xl border border-slate-200 bg-white">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Messages, newest first</caption>
            <thead className="border-b border-slate-200 bg-slate-50 text-slate-800">
              <tr>
                <th scope="col" className="px-4 py-3 font-semibold">
                  Recipient
                </th>
                <th scope="col" className="px-4 py-3 font-semibold">
                  Template
                </th>
                <th scope="col" className="px-4 py-3 font-semibold">
                  Brand
                </th>
                <th scope="col" className="px-4 py-3 font-semibold">
                  State
                </th>
                <th scope="col" className="px-4 py-3 text-right font-semibold">
                  Attempts
                </th>
                <th scope="col" className="px-4 py-3 font-semibold">
                  Queued
                </th>
                <th scope="col" className="px-4 py-3 font-semibold">
                  Last error
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-200">
              {page.rows.map((row) => (
                <tr key={row.id} className="align-top">
                  <th scope="row" className="min-w-48 px-4 py-3 font-medium break-words">
                    <Link className="link" to={`${PATH}/outbox/${row.id}`}>
                      {row.recipient}
                    </Link>
                  </th>
                  <td className="px-4 py-3">{TEMPLATE_LABELS[row.templateKey]}</td>
                  <td className="px-4 py-3">
                    {row.brandName ?? <span className="text-slate-600">Default</span>}
                  </td>
                  <td className="px-4 py-3">
                    <OutboxState status={row.status} leaseExpired={row.leaseExpired} />
                    {row.sentAt ? (
                      <span className="mt-1 block text-xs text-slate-600">
                        <time dateTime={row.sentAt}>{when(row.sentAt)}</time>
                      </span>
                    ) : null}
                  </td>
                  <td className="px-4 py-3 text-right tabular-nums">{row.attempts}</td>
                  <td className="px-4 py-3 whitespace-nowrap text-slate-700">
                    <time dateTime={row.createdAt}>{when(row.createdAt)}</time>
                  </td>
                  <td className="max-w-xs px-4 py-3 text-slate-700">
                    {row.lastError ? <span className="line-clamp-2 break-words">{row.lastError}</span> : '—'}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p className="card text-slate-700">
          {filtered ? 'No message matches these filters.' : 'No e-mail has been queued yet.'}
        </p>
      )}
      <ListPagination noun="messages" next={page.next} prev={page.prev} href={href} />
    </div>
  )
}
