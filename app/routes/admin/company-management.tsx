import { Link } from 'react-router'
import { ListPagination, ListSearchForm, useListHref } from '#app/components/admin-list'
import type { Route } from './+types/company-management'
import { unreadableForm } from '#app/lib/form-data.server'
import { submitIntent } from '#app/lib/reply.server'
import { ConfirmPanel, formErrorsOf, Notices, PageHeader, resultFor } from '#app/components/form-kit'
import { FormErrors } from '#app/components/forms'
import { CreateCompanyForm, EditCompanyForm } from '#app/modules/company/components/company-forms'
import { requireUser } from '#app/modules/auth/guards.server'
import { ROUTE_ROLES } from '#app/modules/auth/permissions'
import { listBrandOptions } from '#app/modules/brand/brand.server'
import {
  companyInUseMessage,
  createCompany,
  deleteCompany,
  getCompany,
  listCompanies,
  updateCompany,
} from '#app/modules/company/company.server'
import {
  COMPANY_SORT_LABELS,
  COMPANY_SORTS,
  CompanyCreateSchema,
  CompanyDeleteSchema,
  CompanyUpdateSchema,
  parseCompanyListQuery,
} from '#app/modules/company/schemas'
import { redirectWithToast } from '#app/modules/toast/toast.server'
import type { RouteHandle } from '#app/root'

export const handle: RouteHandle = { layout: 'admin', transition: true }

export const meta: Route.MetaFunction = () => [{ title: 'Company management · Panorama admin' }]

const PATH = '/admin/company-management'

/**
 * The companies page: a searchable, sortable, keyset-paginated list, a create form, an inline edit
 * form (`?edit=<id>`) and a delete confirmation (`?delete=<id>`). Every state lives in the URL and
 * every form is a plain POST, so the page works without JavaScript; Conform adds live validation.
 */
export async function loader({ request }: Route.LoaderArgs) {
  await requireUser(request, { roles: ROUTE_ROLES.admin })
  const url = new URL(request.url)
  const query = parseCompanyListQuery(url.searchParams)
  const editId = url.searchParams.get('edit')
  const deleteId = url.searchParams.get('delete')
  const [page, brandOptions, editing, deleting] = await Promise.all([
    listCompanies(query),
    listBrandOptions(),
    getCompany(editId),
    getCompany(deleteId),
  ])
  const notices: string[] = []
  if (page.staleCursor) notices.push('That page link is out of date, so the first page is shown.')
  if ((editId && !editing) || (deleteId && !deleting))
    notices.push('That company does not exist (it may have been deleted).')
  return {
    query: { q: query.q, sort: query.sort },
    page,
    brandOptions,
    editing: editing ? { id: editing.id, name: editing.name, brandId: editing.brandId } : null,
    deleting: deleting
      ? {
          id: deleting.id,
          name: deleting.name,
          blockedBy:
            deleting.employeeCount || deleting.schemeCount
              ? companyInUseMessage(deleting.name, deleting.employeeCount, deleting.schemeCount)
              : null,
        }
      : null,
    notices,
  }
}

/** The list as it was, without the edit/delete state: where a finished change returns to. */
function listHref(request: Request) {
  const url = new URL(request.url)
  url.searchParams.delete('edit')
  url.searchParams.delete('delete')
  url.searchParams.delete('index')
  const search = url.searchParams.toString()
  return search ? `${PATH}?${search}` : PATH
}

export async function action({ request, context }: Route.ActionArgs) {
  const { user } = await requireUser(request, { roles: ROUTE_ROLES.admin })
  // A body that is not a form (JSON, a broken multipart) is a 400 like any other bad input.
  const formData = await request.formData().catch(() => null)
  if (!formData) return unreadableForm()
  const actor = { id: user.id, ip: context.ip || null }
  const intent = formData.get('intent')

  if (intent === 'create')
    return submitIntent(
      formData,
      intent,
      CompanyCreateSchema,
      (input) => createCompany(actor, input),
      (_, input) =>
        redirectWithToast(listHref(request), {
          kind: 'success',
          title: 'Company created',
          description: `“${input.name}” was added.`,
        }),
    )

  if (intent === 'update')
    return submitIntent(
      formData,
      intent,
      CompanyUpdateSchema,
      ({ companyId, ...input }) => updateCompany(actor, companyId, input),
      ({ changed }, input) =>
        redirectWithToast(
          listHref(request),
          changed.length
            ? { kind: 'success', title: 'Company saved', description: `“${input.name}” was updated.` }
            : {
                kind: 'info',
                title: 'Nothing to save',
                description: 'The company already had those details.',
              },
        ),
    )

  if (intent === 'delete')
    return submitIntent(
      formData,
      intent,
      CompanyDeleteSchema,
      ({ companyId }) => deleteCompany(actor, companyId),
      ({ name }) =>
        redirectWithToast(listHref(request), {
          kind: 'success',
          title: 'Company deleted',
          description: `“${name}” was deleted.`,
        }),
    )

  return unreadableForm()
}

export default function CompanyManagement({ loaderData, actionData }: Route.ComponentProps) {
  const { page, query, brandOptions, editing, deleting, notices } = loaderData
  const href = useListHref(PATH)
  const deleteResult = resultFor(actionData, 'delete')
  const unknownErrors = actionData?.intent === 'unknown' ? formErrorsOf(actionData.result) : undefined
  // A refused delete posted without the confirmation on screen (a stale tab) still shows its reason.
  const orphanDeleteErrors = !deleting ? formErrorsOf(deleteResult) : undefined

  return (
    <section aria-labelledby="page-title" className="flex max-w-5xl flex-col gap-8">
      <PageHeader title="Companies">
        The client companies whose employees take part in schemes. Each one uses a brand for its e-mails and
        pages.
      </PageHeader>
      <Notices notices={notices} />
      <FormErrors errors={unknownErrors ?? orphanDeleteErrors} />

      {deleting ? (
        <ConfirmPanel
          key={deleting.id}
          id="delete-company"
          title={`Delete “${deleting.name}”?`}
          intent="delete"
          fields={{ companyId: deleting.id }}
          confirmLabel="Yes, delete the company"
          pendingLabel="Deleting…"
          cancelHref={href({ delete: null })}
          lastResult={deleteResult}
          blockedBy={deleting.blockedBy}
        >
          <p className="text-slate-800">The company is removed for good. This cannot be undone.</p>
        </ConfirmPanel>
      ) : null}

      <section aria-labelledby="create-title" className="card flex flex-col gap-4">
        <h2 id="create-title" className="text-lg font-semibold">
          Add a company
        </h2>
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
      </section>

      <section aria-labelledby="list-title" className="flex flex-col gap-4">
        <h2 id="list-title" className="text-lg font-semibold">
          All companies
        </h2>
        <ListSearchForm
          path={PATH}
          noun="companies"
          q={query.q}
          sort={query.sort}
          sorts={COMPANY_SORTS}
          sortLabels={COMPANY_SORT_LABELS}
        />
        {page.rows.length ? (
          <div className="relative overflow-x-auto rounded-xl border border-slate-200 bg-white">
            <table className="w-full text-left text-sm">
              <caption className="sr-only">
                Companies{query.q ? ` matching “${query.q}”` : ''}, sorted by{' '}
                {COMPANY_SORT_LABELS[query.sort]}
              </caption>
              <thead className="border-b border-slate-200 bg-slate-50 text-slate-800">
                <tr>
                  <th scope="col" className="px-4 py-3 font-semibold">
                    Name
                  </th>
                  <th scope="col" className="px-4 py-3 font-semibold">
                    Brand
                  </th>
                  <th scope="col" className="px-4 py-3 font-semibold">
                    Created
                  </th>
                  <th scope="col" className="px-4 py-3 font-semibold">
                    Actions
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-200">
                {page.rows.map((row) =>
                  editing?.id === row.id ? (
                    <tr key={row.id} className="bg-indigo-50/40">
                      <td colSpan={4} className="px-4 py-4">
                        <EditCompanyForm
                          company={editing}
                          brandOptions={brandOptions}
                          lastResult={resultFor(actionData, 'update')}
                          cancelHref={href({ edit: null })}
                        />
                      </td>
                    </tr>
                  ) : (
                    <tr key={row.id}>
                      <th scope="row" className="px-4 py-3 font-medium text-slate-900">
                        {row.name}
                      </th>
                      <td className="px-4 py-3">
                        <Link className="link" to={`/admin/brand-management/${row.brandId}`}>
                          {row.brandName}
                        </Link>
                      </td>
                      <td className="px-4 py-3 text-slate-700">
                        <time dateTime={row.createdAt}>{row.createdAt.slice(0, 10)}</time>
                      </td>
                      <td className="px-4 py-3">
                        <div className="flex gap-3">
                          <Link className="link" to={href({ edit: row.id, delete: null })}>
                            Edit<span className="sr-only"> {row.name}</span>
                          </Link>
                          <Link className="link text-red-800" to={href({ delete: row.id, edit: null })}>
                            Delete<span className="sr-only"> {row.name}</span>
                          </Link>
                        </div>
                      </td>
                    </tr>
                  ),
                )}
              </tbody>
            </table>
          </div>
        ) : (
          <p className="card text-slate-700">
            {query.q
              ? `No company’s name contains “${query.q}”.`
              : 'There are no companies yet. Add the first one above.'}
          </p>
        )}
        {/* An edit link for a row on another page still opens its form. */}
        {editing && !page.rows.some((r) => r.id === editing.id) ? (
          <div className="card">
            <EditCompanyForm
              company={editing}
              brandOptions={brandOptions}
              lastResult={resultFor(actionData, 'update')}
              cancelHref={href({ edit: null })}
            />
          </div>
        ) : null}
        <ListPagination
          noun="companies"
          reset={{ edit: null, delete: null }}
          next={page.next}
          prev={page.prev}
          href={href}
        />
      </section>
    </section>
  )
}
