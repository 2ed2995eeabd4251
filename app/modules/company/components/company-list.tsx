import type { PageData } from '#app/lib/page-data'
import { Link } from 'react-router'
import { ListPagination, ListSearchForm, ListSection, type HrefFor } from '#app/components/admin-list'
import { CreatedCell, DataTable, RowActions, RowHeader, Cell } from '#app/components/data-table'
import { resultFor, type IntentReply } from '#app/components/form-kit'
import { CreateCompanyForm, EditCompanyForm } from '#app/modules/company/components/company-forms'
import type { loadCompanyList } from '#app/modules/company/company-list.server'
import { COMPANY_SORT_LABELS, COMPANY_SORTS } from '#app/modules/company/schemas'
import { Card } from '#app/components/card'

/** The companies page's create form and list, typed by the page's loader (the page-props rule). */
type Data = PageData<typeof loadCompanyList>

export function AddCompany({
  brandOptions,
  actionData,
}: Pick<Data, 'brandOptions'> & { actionData: IntentReply }) {
  return (
    <Card id="create-title" title="Add a company">
      {brandOptions.length ? (
        <CreateCompanyForm brandOptions={brandOptions} lastResult={resultFor(actionData, 'create')} />
      ) : (
        <p className="text-slate-700">
          A company needs a brand.{' '}
          <Link className="link" to="/admin/brand-management#new-brand">
            Create a brand first
          </Link>
          .
        </p>
      )}
    </Card>
  )
}

/** Every company, searchable and sorted, with the inline edit form on the row being edited. */
export function CompanyList({
  data: { query, page, brandOptions, editing },
  path,
  href,
  actionData,
}: {
  data: Data
  path: string
  href: HrefFor
  actionData: IntentReply
}) {
  const editForm = editing ? (
    <EditCompanyForm
      company={editing}
      brandOptions={brandOptions}
      lastResult={resultFor(actionData, 'update')}
      cancelHref={href({ edit: null })}
    />
  ) : null
  return (
    <ListSection title="All companies">
      <ListSearchForm
        path={path}
        noun="companies"
        q={query.q}
        sort={query.sort}
        sorts={COMPANY_SORTS}
        sortLabels={COMPANY_SORT_LABELS}
      />
      <DataTable
        caption={`Companies${query.q ? ` matching “${query.q}”` : ''}, sorted by ${COMPANY_SORT_LABELS[query.sort]}`}
        columns={['Name', 'Brand', 'Created', 'Actions']}
        rows={page.rows}
        empty={
          query.q
            ? `No company’s name contains “${query.q}”.`
            : 'There are no companies yet. Add the first one above.'
        }
      >
        {(row) =>
          editing?.id === row.id ? (
            <tr key={row.id} className="bg-indigo-50/40">
              <td colSpan={4} className="px-4 py-4">
                {editForm}
              </td>
            </tr>
          ) : (
            <tr key={row.id}>
              <RowHeader>{row.name}</RowHeader>
              <Cell>
                <Link className="link" to={`/admin/brand-management/${row.brandId}`}>
                  {row.brandName}
                </Link>
              </Cell>
              <CreatedCell at={row.createdAt} />
              <RowActions
                name={row.name}
                actions={[
                  { label: 'Edit', href: href({ edit: row.id, delete: null }) },
                  { label: 'Delete', href: href({ delete: row.id, edit: null }), danger: true },
                ]}
              />
            </tr>
          )
        }
      </DataTable>
      {/* An edit link for a row on another page still opens its form. */}
      {editing && !page.rows.some((r) => r.id === editing.id) ? <div className="card">{editForm}</div> : null}
      <ListPagination
        noun="companies"
        reset={{ edit: null, delete: null }}
        next={page.next}
        prev={page.prev}
        href={href}
      />
    </ListSection>
  )
}
