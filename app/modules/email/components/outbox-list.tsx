import type { PageData } from '#app/lib/page-data'
import { Link } from 'react-router'
import { ListPagination, useListHref } from '#app/components/admin-list'
import { Cell, DataTable, RowHeader } from '#app/components/data-table'
import { FilterBar, FilterSelect, SearchField } from '#app/components/filter-bar'
import { EMAIL_TEMPLATE_KEYS, OUTBOX_STATUSES } from '#db/enums'
import type { loadEmailPage } from '../email-list.server'
import { formatDateTime } from '#app/lib/dates'
import { formatCount } from '#app/lib/numbers'
import { RECIPIENT_PREFIX_MIN } from '../schemas'
import { OutboxState } from './outbox-state'
import { useEmailWords } from './use-email-words'

const PATH = '/admin/email-management'

/** The outbox tab's data, as the page's loader returns it (the page-props rule). */
type Data = Extract<PageData<typeof loadEmailPage>, { tab: 'outbox' }>

/** The outbox tab: counts per state (as filter links), the filter form, the messages, page links. */
export function OutboxList({ data: { page, counts, query } }: { data: Data }) {
  const { t, locale, templateLabel, stateLabel, languageName } = useEmailWords()
  const when = (iso: string) => formatDateTime(iso, 'UTC', locale)
  const href = useListHref(PATH)
  const filtered = Boolean(query.state || query.template || query.to)
  return (
    <div className="flex flex-col gap-4">
      <nav aria-label={t('outbox.byState')}>
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
                  {state ? stateLabel(state) : t('outbox.all')}
                  <span className="tabular-nums font-semibold">{formatCount(count, locale)}</span>
                </Link>
              </li>
            )
          })}
        </ul>
      </nav>

      <FilterBar
        label={t('outbox.filter')}
        idPrefix="outbox"
        query={query}
        resetKey={[query.state, query.template, query.to]}
        hidden={{ tab: 'outbox' }}
        clear={{ href: filtered ? `${PATH}?tab=outbox` : null, label: t('outbox.clear') }}
      >
        <FilterSelect
          name="state"
          label={t('outbox.state')}
          options={OUTBOX_STATUSES.map((s) => ({ value: s, label: stateLabel(s) }))}
        />
        <FilterSelect
          name="template"
          label={t('outbox.template')}
          options={EMAIL_TEMPLATE_KEYS.map((key) => ({ value: key, label: templateLabel(key) }))}
        />
        <SearchField
          name="to"
          label={t('outbox.recipient')}
          maxLength={254}
          className="flex min-w-56 flex-1 flex-col gap-1"
          help={t('outbox.recipientHelp', { min: RECIPIENT_PREFIX_MIN })}
        />
      </FilterBar>

      <DataTable
        caption={t('outbox.caption')}
        columns={[
          t('outbox.recipient'),
          t('outbox.template'),
          t('outbox.brand'),
          t('outbox.state'),
          { label: t('outbox.attempts'), className: 'text-right' },
          t('outbox.queued'),
          t('outbox.lastError'),
        ]}
        rows={page.rows}
        empty={filtered ? t('outbox.noMatch') : t('outbox.empty')}
      >
        {(row) => (
          <tr key={row.id} className="align-top">
            <RowHeader className="min-w-48 font-medium break-words" href={`${PATH}/outbox/${row.id}`}>
              {row.recipient}
            </RowHeader>
            <Cell>
              {templateLabel(row.templateKey)}
              {row.language !== 'en' ? (
                <span
                  className="ml-1 rounded bg-slate-100 px-1.5 py-0.5 text-xs font-medium uppercase"
                  title={languageName(row.language)}
                >
                  {row.language}
                </span>
              ) : null}
            </Cell>
            <Cell>{row.brandName ?? <span className="text-slate-600">{t('outbox.default')}</span>}</Cell>
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
      <ListPagination noun={t('outbox.messages')} next={page.next} prev={page.prev} href={href} />
    </div>
  )
}
