import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import type { PageData } from '#app/lib/page-data'
import { CreateFirst, ListPagination, ListSection, type HrefFor } from '#app/components/admin-list'
import { Cell, CreatedCell, DataTable, RowHeader } from '#app/components/data-table'
import {
  CompanySchemeSelects,
  FilterBar,
  FilterSelect,
  SearchField,
  SortSelect,
} from '#app/components/filter-bar'
import { resultFor, type IntentReply } from '#app/components/form-kit'
import { CreateEmployeeForm, StateBadge } from '#app/modules/employee/components/employee-forms'
import { ImportUploadForm } from '#app/modules/employee/components/import-panel'
import type { loadEmployeeList } from '#app/modules/employee/employee-list.server'
import { EMPLOYEE_SORTS, EMPLOYEE_STATES } from '#app/modules/employee/schemas'
import { Card } from '#app/components/card'
import { labelledChoices } from '#app/components/choices'
import { richT } from '#app/modules/i18n/rich'
import { useEmployeeWords } from './employee-forms'

/** The employees list, typed by the page's loader (the page-props rule). */
type Data = PageData<typeof loadEmployeeList>

/** The list's search, filters and sort: a GET form, so every state is a link. */
export function EmployeeFilters({
  path,
  data: { query, companies, schemes, schemesNeedCompany, departments },
}: {
  path: string
  data: Pick<Data, 'query' | 'companies' | 'schemes' | 'schemesNeedCompany' | 'departments'>
}) {
  const { t } = useTranslation('employees')
  const { stateLabels, sortLabels } = useEmployeeWords()
  const filtered = isFiltered(query)
  const departmentFilter = Boolean(query.company && departments.length)
  return (
    <FilterBar
      label={t('list.searchEmployees')}
      idPrefix="employees"
      query={query}
      hidden={query.manager ? { manager: query.manager } : undefined}
      resetKey={[
        query.q,
        query.company,
        query.scheme,
        query.state,
        query.sort,
        query.department,
        query.manager,
      ]}
      layout="grid"
      className={`grid gap-3 sm:grid-cols-2 lg:items-end ${
        departmentFilter
          ? 'lg:grid-cols-[2fr_1fr_1fr_1fr_1fr_1fr_auto]'
          : 'lg:grid-cols-[2fr_1fr_1fr_1fr_1fr_auto]'
      }`}
      clear={{
        href: filtered ? `${path}?${new URLSearchParams({ sort: query.sort })}` : null,
        label: t('list.clear'),
      }}
    >
      <SearchField label={t('list.search')} />
      <CompanySchemeSelects companies={companies} schemes={schemes} schemesNeedCompany={schemesNeedCompany} />
      {departmentFilter ? (
        <FilterSelect
          name="department"
          label={t('list.department')}
          options={departments.map((d) => ({ value: d, label: d }))}
        />
      ) : null}
      <FilterSelect
        name="state"
        label={t('list.state')}
        options={labelledChoices(EMPLOYEE_STATES, stateLabels)}
      />
      <SortSelect sorts={EMPLOYEE_SORTS} labels={sortLabels} />
    </FilterBar>
  )
}

const isFiltered = (query: Data['query']) =>
  Boolean(query.q || query.company || query.scheme || query.state || query.manager || query.department)

/** The list's URL without the manager filter (the other filters and the sort kept). */
function withoutManager(query: Data['query']): Record<string, string> {
  const { manager: _manager, ...rest } = query
  return Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== ''))
}

export function EmployeeList({ data, path, href }: { data: Data; path: string; href: HrefFor }) {
  const { t } = useTranslation('employees')
  const { sortLabels } = useEmployeeWords()
  const { query, page, companies } = data
  const filtered = isFiltered(query)
  return (
    <ListSection title={t('page.allEmployees')}>
      <EmployeeFilters path={path} data={data} />
      {data.manager ? (
        <p className="text-slate-800">
          {richT(t, 'list.reportsOf', {
            link: (
              <Link className="link" to={`${path}/${data.manager.id}`}>
                {data.manager.name}
              </Link>
            ),
          })}{' '}
          <Link className="link" to={`${path}?${new URLSearchParams(withoutManager(query))}`}>
            {t('list.showEveryone')}
            <span className="sr-only">{t('list.showEveryoneMore')}</span>
          </Link>
        </p>
      ) : null}
      <DataTable
        caption={t(filtered ? 'list.captionFiltered' : 'list.caption', { sort: sortLabels[query.sort] })}
        columns={[
          t('list.name'),
          t('list.email'),
          t('list.company'),
          t('list.reportsTo'),
          t('list.state'),
          t('list.added'),
        ]}
        rows={page.rows}
        empty={filtered ? t('list.noMatch') : companies.length ? t('list.empty') : t('list.emptyNoCompany')}
      >
        {(row) => (
          <tr key={row.id}>
            <RowHeader
              href={`${path}/${row.id}`}
              detail={[row.jobTitle, row.department].filter(Boolean).join(' · ')}
            >
              {row.name || row.email}
            </RowHeader>
            <Cell className="text-slate-800">{row.email}</Cell>
            <Cell className="text-slate-800">{row.companyName ?? '—'}</Cell>
            <Cell className="text-slate-800">{row.managerName ?? '—'}</Cell>
            <Cell>
              <StateBadge state={row.state} />
            </Cell>
            <CreatedCell at={row.createdAt} />
          </tr>
        )}
      </DataTable>
      <ListPagination noun={t('noun')} next={page.next} prev={page.prev} href={href} />
    </ListSection>
  )
}

/** The two ways in: one employee at a time, or a CSV file (both need a company first). */
export function AddEmployees({
  companies,
  actionData,
}: Pick<Data, 'companies'> & { actionData: IntentReply }) {
  const { t } = useTranslation('employees')
  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <Card id="create-title" title={t('add.title')}>
        {companies.length ? (
          <CreateEmployeeForm companies={companies} lastResult={resultFor(actionData, 'create')} />
        ) : (
          <NoCompanyYet />
        )}
      </Card>
      <Card id="import-title" title={t('add.importTitle')}>
        {companies.length ? (
          <ImportUploadForm lastResult={resultFor(actionData, 'upload')} />
        ) : (
          <NoCompanyYet />
        )}
      </Card>
    </div>
  )
}

function NoCompanyYet() {
  const { t } = useTranslation('employees')
  return (
    <CreateFirst
      reason={t('add.needsCompany')}
      href="/admin/company-management"
      label={t('add.createCompany')}
    />
  )
}
