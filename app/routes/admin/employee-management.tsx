import type { SubmissionResult } from '@conform-to/react'
import { data, Link } from 'react-router'
import type { Route } from './+types/employee-management'
import { ListPagination, useListHref } from '#app/components/admin-list'
import { formErrorsOf, Notices, PageHeader, resultFor } from '#app/components/form-kit'
import { FormErrors } from '#app/components/forms'
import { unreadableForm } from '#app/lib/form-data.server'
import type { Refusal } from '#app/lib/outcome'
import { submitIntent } from '#app/lib/reply.server'
import { notFound, requireUser } from '#app/modules/auth/guards.server'
import { ROUTE_ROLES } from '#app/modules/auth/permissions'
import {
  CreateEmployeeForm,
  EmployeeFilters,
  StateBadge,
} from '#app/modules/employee/components/employee-forms'
import { ImportPanel, ImportUploadForm } from '#app/modules/employee/components/import-panel'
import { createEmployee, listEmployees, listOptions } from '#app/modules/employee/employee.server'
import {
  discardPreview,
  getImportRows,
  getImportView,
  runImport,
  uploadEmployeeCsv,
} from '#app/modules/employee/import.server'
import {
  ImportDiscardSchema,
  ImportRunSchema,
  ImportViewQuerySchema,
} from '#app/modules/employee/import-schemas'
import {
  EMPLOYEE_SORT_LABELS,
  EmployeeCreateSchema,
  parseEmployeeListQuery,
} from '#app/modules/employee/schemas'
import { redirectWithToast } from '#app/modules/toast/toast.server'
import type { RouteHandle } from '#app/root'
import { plural as count } from '#app/lib/words'

export const handle: RouteHandle = { layout: 'admin', transition: true }

export const meta: Route.MetaFunction = () => [{ title: 'Employee management · Panorama admin' }]

const PATH = '/admin/employee-management'

/**
 * The employees: a searchable, filterable, sortable, keyset-paginated list, a form to add one, and
 * the CSV import (upload → `?import=<id>` preview → import → the same address shows the summary).
 * Every state lives in the URL and every form is a plain POST, so the page works without JavaScript.
 */
export async function loader({ request }: Route.LoaderArgs) {
  await requireUser(request, { roles: ROUTE_ROLES.admin })
  const url = new URL(request.url)
  if (url.searchParams.has('import')) {
    const query = ImportViewQuerySchema.parse(Object.fromEntries(url.searchParams))
    const view = await getImportView(query.import)
    if (!view) notFound()
    const page = await getImportRows(view.id, query)
    return { mode: 'import' as const, view, page, show: query.show }
  }
  const query = parseEmployeeListQuery(url.searchParams)
  const [page, options] = await Promise.all([listEmployees(query), listOptions(query)])
  const notices: string[] = []
  if (page.staleCursor) notices.push('That page link is out of date, so the first page is shown.')
  return {
    mode: 'list' as const,
    query: { q: query.q, company: query.company, scheme: query.scheme, state: query.state, sort: query.sort },
    page,
    companies: options.companies,
    schemes: options.schemes,
    schemesNeedCompany: options.schemesNeedCompany,
    notices,
  }
}

/** The list as it was (search, filters, sort), without the page's other states. */
function listHref(request: Request) {
  const url = new URL(request.url)
  for (const key of ['import', 'show', 'index', 'after', 'before']) url.searchParams.delete(key)
  const search = url.searchParams.toString()
  return search ? `${PATH}?${search}` : PATH
}

/** A refused upload: its messages on the upload form (the file was never a Conform submission). */
function replyUploadRefused(refusal: Refusal) {
  const error: Record<string, string[]> = { ...refusal.fieldErrors }
  if (refusal.formErrors?.length) error[''] = refusal.formErrors
  const result: SubmissionResult<string[]> = { status: 'error', error }
  return data({ intent: 'upload' as const, result }, { status: 400 })
}

export async function action({ request, context }: Route.ActionArgs) {
  const { user } = await requireUser(request, { roles: ROUTE_ROLES.admin })
  const actor = { id: user.id, ip: context.ip || null }

  // The CSV upload is the one multipart form: its body is read as a stream, never whole.
  if (/^multipart\/form-data/i.test(request.headers.get('content-type') ?? '')) {
    const outcome = await uploadEmployeeCsv(actor, request)
    if (!outcome.ok) return replyUploadRefused(outcome)
    const { importId, rows, problemRows } = outcome.value
    return redirectWithToast(`${PATH}?import=${importId}`, {
      kind: problemRows ? 'info' : 'success',
      title: 'File read',
      description: `${count(rows, 'row', 'rows')}, ${count(problemRows, 'with a problem', 'with problems')}. Check the preview, then import.`,
    })
  }

  // A body that is not a form (JSON, a broken multipart) is a 400 like any other bad input.
  const formData = await request.formData().catch(() => null)
  if (!formData) return unreadableForm()
  const intent = formData.get('intent')

  if (intent === 'create')
    return submitIntent(
      formData,
      intent,
      EmployeeCreateSchema,
      (input) => createEmployee(actor, input),
      ({ id, promoted }, input) =>
        redirectWithToast(`${PATH}/${id}`, {
          kind: 'success',
          title: 'Employee added',
          description: promoted
            ? `${input.name} had given feedback as a colleague; their account is now an employee’s.`
            : `${input.name} was added. They get their activation e-mail when their scheme is launched.`,
        }),
    )

  if (intent === 'import')
    return submitIntent(
      formData,
      intent,
      ImportRunSchema,
      ({ importId, schemeId, updateNames }) => runImport(actor, importId, schemeId, { updateNames }),
      (summary, { importId }) =>
        redirectWithToast(`${PATH}?import=${importId}`, {
          kind: 'success',
          title: 'Import finished',
          description:
            `${count(summary.created, 'created', 'created')}, ${count(summary.updated, 'updated', 'updated')}, ` +
            `${count(summary.unchanged, 'unchanged', 'unchanged')}, ${count(summary.skipped, 'skipped', 'skipped')}.`,
        }),
    )

  if (intent === 'discard')
    return submitIntent(
      formData,
      intent,
      ImportDiscardSchema,
      ({ importId }) => discardPreview(actor, importId),
      ({ fileName }) =>
        redirectWithToast(listHref(request), {
          kind: 'info',
          title: 'File discarded',
          description: `Nothing from “${fileName}” was imported.`,
        }),
    )

  return unreadableForm()
}

export default function EmployeeManagement({ loaderData, actionData }: Route.ComponentProps) {
  const href = useListHref(PATH)
  const unknownErrors = actionData?.intent === 'unknown' ? formErrorsOf(actionData.result) : undefined

  if (loaderData.mode === 'import') {
    const { view, page, show } = loaderData
    return (
      <section aria-labelledby="page-title" className="flex max-w-6xl flex-col gap-6">
        <PageHeader title="Employees">
          <Link className="link" to={PATH}>
            Back to the list of employees
          </Link>
        </PageHeader>
        <FormErrors errors={unknownErrors} />
        <ImportPanel
          view={view}
          page={page}
          show={show}
          href={href}
          listHref={PATH}
          importResult={resultFor(actionData, 'import')}
          discardResult={resultFor(actionData, 'discard')}
        />
      </section>
    )
  }

  const { page, query, companies, schemes, schemesNeedCompany, notices } = loaderData
  const filtered = Boolean(query.q || query.company || query.scheme || query.state)
  return (
    <section aria-labelledby="page-title" className="flex max-w-6xl flex-col gap-8">
      <PageHeader title="Employees">
        The client companies’ people who take part in schemes: add them one by one or import a CSV file.
      </PageHeader>
      <Notices notices={notices} />
      <FormErrors errors={unknownErrors} />

      <div className="grid gap-6 lg:grid-cols-2">
        <section aria-labelledby="create-title" className="card flex flex-col gap-4">
          <h2 id="create-title" className="text-lg font-semibold">
            Add an employee
          </h2>
          {companies.length ? (
            <CreateEmployeeForm companies={companies} lastResult={resultFor(actionData, 'create')} />
          ) : (
            <NoCompanyYet />
          )}
        </section>
        <section aria-labelledby="import-title" className="card flex flex-col gap-4">
          <h2 id="import-title" className="text-lg font-semibold">
            Import from a CSV file
          </h2>
          {companies.length ? (
            <ImportUploadForm lastResult={resultFor(actionData, 'upload')} />
          ) : (
            <NoCompanyYet />
          )}
        </section>
      </div>

      <section aria-labelledby="list-title" className="flex flex-col gap-4">
        <h2 id="list-title" className="text-lg font-semibold">
          All employees
        </h2>
        <EmployeeFilters
          path={PATH}
          query={query}
          companies={companies}
          schemes={schemes}
          schemesNeedCompany={schemesNeedCompany}
        />
        {page.rows.length ? (
          <div className="relative overflow-x-auto rounded-xl border border-slate-200 bg-white">
            <table className="w-full text-left text-sm">
              <caption className="sr-only">
                Employees{filtered ? ' matching the filters' : ''}, sorted by{' '}
                {EMPLOYEE_SORT_LABELS[query.sort]}
              </caption>
              <thead className="border-b border-slate-200 bg-slate-50 text-slate-800">
                <tr>
                  <th scope="col" className="px-4 py-3 font-semibold">
                    Name
                  </th>
                  <th scope="col" className="px-4 py-3 font-semibold">
                    E-mail
                  </th>
                  <th scope="col" className="px-4 py-3 font-semibold">
                    Company
                  </th>
                  <th scope="col" className="px-4 py-3 font-semibold">
                    State
                  </th>
                  <th scope="col" className="px-4 py-3 font-semibold">
                    Added
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-200">
                {page.rows.map((row) => (
                  <tr key={row.id}>
                    <th scope="row" className="px-4 py-3 font-medium text-slate-900">
                      <Link className="link" to={`${PATH}/${row.id}`}>
                        {row.name || row.email}
                      </Link>
                    </th>
                    <td className="px-4 py-3 text-slate-800">{row.email}</td>
                    <td className="px-4 py-3 text-slate-800">{row.companyName ?? '—'}</td>
                    <td className="px-4 py-3">
                      <StateBadge state={row.state} />
                    </td>
                    <td className="px-4 py-3 text-slate-700">
                      <time dateTime={row.createdAt}>{row.createdAt.slice(0, 10)}</time>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : (
          <p className="card text-slate-700">
            {filtered
              ? 'No employee matches this search and these filters.'
              : companies.length
                ? 'There are no employees yet. Add the first one above, or import them from a CSV file.'
                : 'There are no employees yet. Create a company first, then add its employees here.'}
          </p>
        )}
        <ListPagination noun="employees" next={page.next} prev={page.prev} href={href} />
      </section>
    </section>
  )
}

function NoCompanyYet() {
  return (
    <p className="text-slate-700">
      Employees belong to a company.{' '}
      <Link className="link" to="/admin/company-management">
        Create a company first
      </Link>
      .
    </p>
  )
}
