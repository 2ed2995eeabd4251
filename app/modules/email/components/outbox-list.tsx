import type { PageData } from '#app/lib/page-data'
import { Link } from 'react-router'
import { ListPagination, useListHref } from '#app/components/admin-list'
import { Cell, DataTable, RowHeader } from '#app/components/data-table'
import { FilterBar, FilterSelect, SearchField } from '#app/components/filter-bar'
import { OUTBOX_STATUSES } from '#db/enums'
import type { loadEmailPage } from '../email-list.server'
import {
  OUTBOX_STATE_LABELS,
  OUTBOX_STATE_OPTIONS,
  RECIPIENT_PREFIX_MIN,
  TEMPLATE_KEY_OPTIONS,
  TEMPLATE_LABELS,
} from '../schemas'
import { OutboxState } from './outbox-state'

const PATH = '/admin/email-management'

/** The outbox tab's data, as the page's loader returns it (the page-props rule). */
type Data = Extract<PageData<typeof loadEmailPage>, { tab: 'outbox' }>

const when = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)}`

/** The outbox tab: counts per state (as filter links), the filter form, the messages, page links. */
export function OutboxList({ data: { page, counts, query } }: { data: Data }) {
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

      <FilterBar
        label="Filter messages"
        idPrefix="outbox"
        query={query}
        resetKey={[query.state, query.template, query.to]}
        hidden={{ tab: 'outbox' }}
        clear={{ href: filtered ? `${PATH}?tab=outbox` : null, label: 'Clear filters' }}
      >
        <FilterSelect name="state" label="State" options={OUTBOX_STATE_OPTIONS} />
        <FilterSelect name="template" label="Template" options={TEMPLATE_KEY_OPTIONS} />
        <SearchField
          name="to"
          label="Recipient"
          maxLength={254}
          className="flex min-w-56 flex-1 flex-col gap-1"
          help={`The full address, or its start followed by * (at least ${RECIPIENT_PREFIX_MIN} characters).`}
        />
      </FilterBar>

      <DataTable
        caption="Messages, newest first"
        columns={[
          'Recipient',
          'Template',
          'Brand',
          'State',
          { label: 'Attempts', className: 'text-right' },
          'Queued',
          'Last error',
        ]}
        rows={page.rows}
        empty={filtered ? 'No message matches these filters.' : 'No e-mail has been queued yet.'}
      >
        {(row) => (
          <tr key={row.id} className="align-top">
            <RowHeader className="min-w-48 font-medium break-words" href={`${PATH}/outbox/${row.id}`}>
              {row.recipient}
            </RowHeader>
            <Cell>
              {TEMPLATE_LABELS[row.templateKey]}
              {row.language !== 'en' ? (
                <span className="ml-1 rounded bg-slate-100 px-1.5 py-0.5 text-xs font-medium uppercase">
                  {row.language}
                </span>
              ) : null}
            </Cell>
            <Cell>{row.brandName ?? <span className="text-slate-600">Default</span>}</Cell>
            <Cell>
              <OutboxState status={row.status} leaseExpired={row.leaseExpired} />
              {row.sentAt ? (
                <span className="mt-1 block text-xs text-slate-600">
                  <time dateTime={row.sentAt}>{when(row.sentAt)}</time>
                </span>
              ) : null}
            </Cell>
            <Cell className="text-right tabular-nums">{row.attempts}</Cell>
            <Cell className="whitespace-nowrap text-slate-700">
              <time dateTime={row.createdAt}>{when(row.createdAt)}</time>
            </Cell>
            <Cell className="max-w-xs text-slate-700">
              {row.lastError ? <span className="line-clamp-2 break-words">{row.lastError}</span> : '—'}
            </Cell>
          </tr>
        )}
      </DataTable>
      <ListPagination noun="messages" next={page.next} prev={page.prev} href={href} />
    </div>
  )
}
