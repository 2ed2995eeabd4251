import type { PageData } from '#app/lib/page-data'
import { useTranslation } from 'react-i18next'
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
  const { t } = useTranslation('companies')
  return (
    <Card id="create-title" title={t('add.title')}>
      {brandOptions.length ? (
        <CreateCompanyForm brandOptions={brandOptions} lastResult={resultFor(actionData, 'create')} />
      ) : (
        <CreateFirst
          reason={t('add.needsBrand')}
          href="/admin/brand-management#new-brand"
          label={t('add.createBrand')}
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
  const { t } = useTranslation('companies')
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
      nounText={t('list.noun')}
      query={query}
      columns={[t('list.name'), t('list.brand'), t('list.created'), t('list.actions')]}
      page={page}
      noMatch={(q) => t('list.noMatch', { q })}
      empty={t('list.empty')}
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
                { label: t('list.edit'), href: href({ edit: row.id, delete: null }) },
                { label: t('list.groupReport'), href: `/admin/company-management/${row.id}/group-report` },
                { label: t('list.retention'), href: `/admin/company-management/${row.id}/retention` },
                { label: t('list.delete'), href: href({ delete: row.id, edit: null }), danger: true },
              ]}
            />
          </tr>
        )
      }
    </NameList>
  )
}
