import type { PageData } from '#app/lib/page-data'
import { Link } from 'react-router'
import { CreateFirst, NameList, type HrefFor } from '#app/components/admin-list'
import { CreatedCell, RowActions, RowHeader, Cell } from '#app/components/data-table'
import { resultFor, type IntentReply } from '#app/components/form-kit'
import { CreateCompanyForm, EditCompanyForm } from '#app/modules/company/components/company-forms'
import type { loadCompanyList } from '#app/modules/company/company-list.server'
import { Card } from '#app/components/card'
import { NearCapList } from './near-cap'

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
        <CreateFirst
          reason="A company needs a brand."
          href="/admin/brand-management#new-brand"
          label="Create a brand first"
        />
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
    <div className="flex flex-col gap-6">
      <EditCompanyForm
        company={editing}
        brandOptions={brandOptions}
        lastResult={resultFor(actionData, 'update')}
        cancelHref={href({ edit: null })}
      />
      <NearCapList
        companyName={editing.name}
        cap={editing.feedbackRequestCap}
        people={editing.nearCap}
        limit={editing.nearCapShown}
      />
    </div>
  ) : null
  return (
    <NameList
      path={path}
      noun="companies"
      query={query}
      columns={['Name', 'Brand', 'Created', 'Actions']}
      page={page}
      noMatch={(q) => `No company’s name contains “${q}”.`}
      empty="There are no companies yet. Add the first one above."
      href={href}
      reset={{ edit: null, delete: null }}
      // An edit link for a row on another page still opens its form.
      after={
        editing && !page.rows.some((r) => r.id === editing.id) ? <div className="card">{editForm}</div> : null
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
                { label: 'Group report', href: `/admin/company-management/${row.id}/group-report` },
                { label: 'Delete', href: href({ delete: row.id, edit: null }), danger: true },
              ]}
            />
          </tr>
        )
      }
    </NameList>
  )
}
