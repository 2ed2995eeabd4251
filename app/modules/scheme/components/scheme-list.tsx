import type { PageData } from '#app/lib/page-data'
import { ListPagination, ListSection, type HrefFor } from '#app/components/admin-list'
import { Cell, DataTable, RowHeader } from '#app/components/data-table'
import { FilterBar, FilterSelect, SearchField, SortSelect } from '#app/components/filter-bar'
import { useTranslation } from 'react-i18next'
import { formatDate, formatDateTime } from '#app/lib/dates'
import { richT } from '#app/modules/i18n/rich'
import { useIntlLocale } from '#app/modules/i18n/use-intl-locale'
import { SCHEME_PHASES, SCHEME_SORTS } from '#app/modules/scheme/schemas'
import { useNameSortLabels } from '#app/components/admin-list'
import type { loadSchemeList } from '#app/modules/scheme/scheme-list.server'
import type { SchemePhase } from '#app/modules/scheme/state'
import { PhaseBadge } from './phase-badge'
import { choicesOf } from '#app/components/choices'

/** The schemes list: its search and filters (all in the URL, a plain GET form) and its table. */

/** The page's data, as its loader returns it (the page-props rule). */
type Data = PageData<typeof loadSchemeList>

/** "3 of 10": a count out of a total, with a bar for sighted readers (the text says it all). */
export function Progress({ done, total, label }: { done: number; total: number; label: string }) {
  const { t } = useTranslation('schemes')
  const percent = total ? Math.round((done / total) * 100) : 0
  return (
    <div className="flex min-w-32 flex-col gap-1">
      <span className="text-slate-800">{richT(t, 'progress', { label, done, total })}</span>
      <span aria-hidden="true" className="block h-1.5 w-full overflow-hidden rounded-full bg-slate-200">
        <span className="block h-full rounded-full bg-indigo-600" style={{ width: `${percent}%` }} />
      </span>
    </div>
  )
}

const isFiltered = (query: Data['query']) =>
  Boolean(query.q || query.company || query.phase || query.questionnaire)

export function SchemeFilters({
  path,
  query,
  companies,
  questionnaires,
}: {
  path: string
  query: Data['query']
  companies: Array<{ id: string; name: string }>
  /** The questionnaire versions schemes can use (the questionnaire pages link here with one). */
  questionnaires: Array<{ id: string; name: string }>
}) {
  const { t } = useTranslation('schemes')
  const sortLabels = useNameSortLabels()
  const filtered = isFiltered(query)
  return (
    // Keyed by the query so "Clear" (a link) also clears the boxes.
    <FilterBar
      label={t('list.searchLabel')}
      idPrefix="schemes"
      query={query}
      resetKey={[query.q, query.company, query.phase, query.questionnaire, query.sort]}
      clear={{
        href: filtered ? `${path}?${new URLSearchParams({ sort: query.sort })}` : null,
        label: t('list.clear'),
      }}
    >
      <SearchField label={t('list.searchByName')} className="flex min-w-48 flex-1 flex-col gap-1" />
      <FilterSelect
        name="company"
        label={t('list.company')}
        anyLabel={t('list.allCompanies')}
        options={choicesOf(companies)}
        className="flex min-w-40 flex-col gap-1"
      />
      <FilterSelect
        name="questionnaire"
        label={t('list.questionnaire')}
        anyLabel={t('list.allQuestionnaires')}
        options={choicesOf(questionnaires)}
        className="flex min-w-40 flex-col gap-1"
      />
      <FilterSelect
        name="phase"
        label={t('list.status')}
        options={SCHEME_PHASES.map((phase) => ({ value: phase, label: t(`phase.${phase}`) }))}
      />
      <SortSelect sorts={SCHEME_SORTS} labels={sortLabels} />
    </FilterBar>
  )
}

/** The schemes page's list: filters, the table, page links. */
export function SchemeList({ data, path, href }: { data: Data; path: string; href: HrefFor }) {
  const { t } = useTranslation('schemes')
  const { query, page, options, filterQuestionnaires } = data
  const ready = options.companies.length > 0 && options.questionnaires.length > 0
  const filtered = isFiltered(query)
  return (
    <ListSection title={t('list.sectionTitle')}>
      <SchemeFilters
        path={path}
        query={query}
        companies={options.companies}
        questionnaires={filterQuestionnaires}
      />
      <SchemeTable
        rows={page.rows}
        empty={filtered ? t('list.emptyFiltered') : ready ? t('list.emptyReady') : t('list.emptyNotReady')}
      />
      <ListPagination noun="schemes" next={page.next} prev={page.prev} href={href} />
    </ListSection>
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

export function SchemeTable({ rows, empty }: { rows: SchemeRow[]; empty: string }) {
  const { t } = useTranslation('schemes')
  const locale = useIntlLocale()
  /** One of the row's dates: the day, the time on hover. */
  const day = (at: string, zone: string) => (
    <span className="whitespace-nowrap">
      <time dateTime={at} title={formatDateTime(at, zone, locale)}>
        {formatDate(at, zone, locale)}
      </time>
    </span>
  )
  return (
    <DataTable
      caption={t('list.caption')}
      columns={(['scheme', 'status', 'company', 'dates', 'progress'] as const).map((c) =>
        t(`list.columns.${c}`),
      )}
      rows={rows}
      empty={empty}
    >
      {(row) => (
        <tr key={row.id}>
          <RowHeader href={`/admin/scheme-management/${row.id}`}>{row.name}</RowHeader>
          <Cell>
            <PhaseBadge phase={row.phase} label={t(`phase.${row.phase}`)} />
          </Cell>
          <Cell className="text-slate-800">{row.companyName}</Cell>
          <Cell className="text-slate-800">
            {richT(t, 'list.dates', {
              opens: day(row.opensAt, row.timeZone),
              closes: day(row.closesAt, row.timeZone),
            })}
          </Cell>
          <Cell>
            <div className="flex flex-col gap-2">
              <Progress label={t('list.selfAssessments')} done={row.selfSubmitted} total={row.enrolled} />
              <Progress
                label={t('list.colleaguesAnswered')}
                done={row.colleaguesAnswered}
                total={row.colleaguesInvited}
              />
            </div>
          </Cell>
        </tr>
      )}
    </DataTable>
  )
}
