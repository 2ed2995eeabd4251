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
import {
  EMPLOYEE_SORT_LABELS,
  EMPLOYEE_SORTS,
  EMPLOYEE_STATE_LABELS,
  EMPLOYEE_STATES,
} from '#app/modules/employee/schemas'
import { Card } from '#app/components/card'
import { labelledChoices } from '#app/components/choices'

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
  const filtered = isFiltered(query)
  const departmentFilter = Boolean(query.company && departments.length)
  return (
    <FilterBar
      label="Search employees"
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
        label: 'Clear filters',
      }}
    >
      <SearchField label="Search by name or e-mail" />
      <CompanySchemeSelects companies={companies} schemes={schemes} schemesNeedCompany={schemesNeedCompany} />
      {departmentFilter ? (
        <FilterSelect
          name="department"
          label="Department"
          options={departments.map((d) => ({ value: d, label: d }))}
        />
      ) : null}
      <FilterSelect
        name="state"
        label="State"
        options={labelledChoices(EMPLOYEE_STATES, EMPLOYEE_STATE_LABELS)}
      />
      <SortSelect sorts={EMPLOYEE_SORTS} labels={EMPLOYEE_SORT_LABELS} />
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
  const { query, page, companies } = data
  const filtered = isFiltered(query)
  return (
    <ListSection title="All employees">
      <EmployeeFilters path={path} data={data} />
      {data.manager ? (
        <p className="text-slate-800">
          Showing the direct reports of{' '}
          <Link className="link" to={`${path}/${data.manager.id}`}>
            {data.manager.name}
          </Link>
          .{' '}
          <Link className="link" to={`${path}?${new URLSearchParams(withoutManager(query))}`}>
            Show everyone<span className="sr-only"> matching the other filters</span>
          </Link>
        </p>
      ) : null}
      <DataTable
        caption={`Employees${filtered ? ' matching the filters' : ''}, sorted by ${EMPLOYEE_SORT_LABELS[query.sort]}`}
        columns={['Name', 'E-mail', 'Company', 'Reports to', 'State', 'Added']}
        rows={page.rows}
        empty={
          filtered
            ? 'No employee matches this search and these filters.'
            : companies.length
              ? 'There are no employees yet. Add the first one above, or import them from a CSV file.'
              : 'There are no employees yet. Create a company first, then add its employees here.'
        }
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
      <ListPagination noun="employees" next={page.next} prev={page.prev} href={href} />
    </ListSection>
  )
}

/** The two ways in: one employee at a time, or a CSV file (both need a company first). */
export function AddEmployees({
  companies,
  actionData,
}: Pick<Data, 'companies'> & { actionData: IntentReply }) {
  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <Card id="create-title" title="Add an employee">
        {companies.length ? (
          <CreateEmployeeForm companies={companies} lastResult={resultFor(actionData, 'create')} />
        ) : (
          <NoCompanyYet />
        )}
      </Card>
      <Card id="import-title" title="Import from a CSV file">
        {companies.length ? (
          <ImportUploadForm lastResult={resultFor(actionData, 'upload')} />
        ) : (
          <NoCompanyYet />
        )}
      </Card>
    </div>
  )
}

const NoCompanyYet = () => (
  <CreateFirst
    reason="Employees belong to a company."
    href="/admin/company-management"
    label="Create a company first"
  />
)
