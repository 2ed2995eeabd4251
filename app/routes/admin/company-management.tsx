import {
  getFormProps,
  getInputProps,
  getSelectProps,
  useForm,
  type SubmissionResult,
} from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { useEffect, useRef } from 'react'
import { data, Form, Link, useNavigation } from 'react-router'
import { ListPagination, ListSearchForm, useListHref } from '#app/components/admin-list'
import type { Route } from './+types/company-management'
import { unreadableForm } from '#app/lib/form-data.server'
import { Field, FormErrors, SelectField } from '#app/components/forms'
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

type Intent = 'create' | 'update' | 'delete'

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

  if (intent === 'create') {
    const submission = parseWithZod(formData, { schema: CompanyCreateSchema })
    if (submission.status !== 'success') return data({ intent, result: submission.reply() }, { status: 400 })
    const outcome = await createCompany(actor, submission.value)
    if (!outcome.ok) {
      return data(
        {
          intent,
          result: submission.reply({ formErrors: outcome.formErrors, fieldErrors: outcome.fieldErrors }),
        },
        { status: 400 },
      )
    }
    return redirectWithToast(listHref(request), {
      kind: 'success',
      title: 'Company created',
      description: `“${submission.value.name}” was added.`,
    })
  }

  if (intent === 'update') {
    const submission = parseWithZod(formData, { schema: CompanyUpdateSchema })
    if (submission.status !== 'success') return data({ intent, result: submission.reply() }, { status: 400 })
    const { companyId, ...input } = submission.value
    const outcome = await updateCompany(actor, companyId, input)
    if (!outcome.ok) {
      return data(
        {
          intent,
          result: submission.reply({ formErrors: outcome.formErrors, fieldErrors: outcome.fieldErrors }),
        },
        { status: 400 },
      )
    }
    return redirectWithToast(
      listHref(request),
      outcome.value.changed.length
        ? { kind: 'success', title: 'Company saved', description: `“${input.name}” was updated.` }
        : { kind: 'info', title: 'Nothing to save', description: 'The company already had those details.' },
    )
  }

  if (intent === 'delete') {
    const submission = parseWithZod(formData, { schema: CompanyDeleteSchema })
    if (submission.status !== 'success') return data({ intent, result: submission.reply() }, { status: 400 })
    const outcome = await deleteCompany(actor, submission.value.companyId)
    if (!outcome.ok) {
      return data({ intent, result: submission.reply({ formErrors: outcome.formErrors }) }, { status: 400 })
    }
    return redirectWithToast(listHref(request), {
      kind: 'success',
      title: 'Company deleted',
      description: `“${outcome.value.name}” was deleted.`,
    })
  }

  return unreadableForm()
}

type ActionData = Route.ComponentProps['actionData']
const resultFor = (actionData: ActionData, intent: Intent) =>
  actionData?.intent === intent ? actionData.result : undefined
const formErrorsOf = (result: SubmissionResult<string[]> | undefined) => result?.error?.[''] ?? undefined

/** A link to this page with some query parameters changed (null removes one). */

function useBusy(intent: Intent) {
  const navigation = useNavigation()
  return navigation.state === 'submitting' && navigation.formData?.get('intent') === intent
}

/**
 * Empties a form that stays on screen once its submission succeeded (the action redirected back
 * here, so there is no result); a refused one keeps what was typed. A native reset puts every
 * control back to its markup default (the select to "Choose a brand…"), and Conform follows it.
 */
function useResetAfterSuccess(
  formId: string,
  intent: Intent,
  lastResult: SubmissionResult<string[]> | undefined,
) {
  const navigation = useNavigation()
  const pending = useRef(false)
  useEffect(() => {
    if (navigation.state !== 'idle') {
      if (navigation.formData?.get('intent') === intent) pending.current = true
      return
    }
    if (!pending.current) return
    pending.current = false
    if (!lastResult) (document.getElementById(formId) as HTMLFormElement | null)?.reset()
  }, [navigation.state, navigation.formData, formId, intent, lastResult])
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
      <div>
        <h1 id="page-title" className="text-2xl font-bold tracking-tight">
          Companies
        </h1>
        <p className="mt-1 text-slate-700">
          The client companies whose employees take part in schemes. Each one uses a brand for its e-mails and
          pages.
        </p>
      </div>

      {notices.length ? (
        <div
          role="status"
          className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950"
        >
          {notices.map((n) => (
            <p key={n}>{n}</p>
          ))}
        </div>
      ) : null}
      <FormErrors errors={unknownErrors ?? orphanDeleteErrors} />

      {deleting ? (
        <DeleteCompanyPanel
          key={deleting.id}
          company={deleting}
          lastResult={deleteResult}
          cancelHref={href({ delete: null })}
        />
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
          <div className="overflow-x-auto rounded-xl border border-slate-200 bg-white">
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

type BrandOption = { id: string; name: string }

function CreateCompanyForm({
  brandOptions,
  lastResult,
}: {
  brandOptions: BrandOption[]
  lastResult: SubmissionResult<string[]> | undefined
}) {
  const busy = useBusy('create')
  const [form, fields] = useForm({
    id: 'create-company',
    constraint: getZodConstraint(CompanyCreateSchema),
    lastResult,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: CompanyCreateSchema }),
    // Errors clear as they are fixed, not on blur: a message vanishing under the pointer would move
    // the submit button away from a click that is already under way.
    shouldRevalidate: 'onInput',
  })
  useResetAfterSuccess(form.id, 'create', lastResult)
  return (
    <Form
      method="post"
      className="grid gap-4 sm:grid-cols-[1fr_1fr_auto] sm:items-start"
      {...getFormProps(form)}
    >
      <input type="hidden" name="intent" value="create" />
      <div className="sm:col-span-3">
        <FormErrors id={form.errorId} errors={form.errors} />
      </div>
      <Field
        label="Company name"
        inputProps={{ ...getInputProps(fields.name, { type: 'text' }), autoComplete: 'off' }}
        errors={fields.name.errors}
      />
      <SelectField
        label="Brand"
        selectProps={getSelectProps(fields.brandId)}
        options={brandOptions.map((b) => ({ value: b.id, label: b.name }))}
        placeholder="Choose a brand…"
        errors={fields.brandId.errors}
      />
      <button type="submit" className="btn btn-primary sm:mt-6" disabled={busy}>
        {busy ? 'Adding…' : 'Add company'}
      </button>
    </Form>
  )
}

function EditCompanyForm({
  company,
  brandOptions,
  lastResult,
  cancelHref,
}: {
  company: { id: string; name: string; brandId: string }
  brandOptions: BrandOption[]
  lastResult: SubmissionResult<string[]> | undefined
  cancelHref: string
}) {
  const busy = useBusy('update')
  const [form, fields] = useForm({
    id: `update-company-${company.id}`,
    constraint: getZodConstraint(CompanyUpdateSchema),
    defaultValue: { companyId: company.id, name: company.name, brandId: company.brandId },
    lastResult,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: CompanyUpdateSchema }),
    // Errors clear as they are fixed, not on blur: a message vanishing under the pointer would move
    // the submit button away from a click that is already under way.
    shouldRevalidate: 'onInput',
  })
  return (
    <Form
      method="post"
      aria-label={`Edit ${company.name}`}
      className="flex flex-col gap-4"
      {...getFormProps(form)}
    >
      <input type="hidden" name="intent" value="update" />
      <input type="hidden" name="companyId" value={company.id} />
      <FormErrors id={form.errorId} errors={form.errors} />
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          label="Company name"
          inputProps={{
            ...getInputProps(fields.name, { type: 'text' }),
            autoComplete: 'off',
            autoFocus: true,
          }}
          errors={fields.name.errors}
        />
        <SelectField
          label="Brand"
          selectProps={getSelectProps(fields.brandId)}
          options={brandOptions.map((b) => ({ value: b.id, label: b.name }))}
          placeholder="Choose a brand…"
          errors={fields.brandId.errors}
        />
      </div>
      <div className="flex gap-3">
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {busy ? 'Saving…' : 'Save company'}
        </button>
        <Link to={cancelHref} className="btn btn-secondary">
          Cancel
        </Link>
      </div>
    </Form>
  )
}

function DeleteCompanyPanel({
  company,
  lastResult,
  cancelHref,
}: {
  company: { id: string; name: string; blockedBy: string | null }
  lastResult: SubmissionResult<string[]> | undefined
  cancelHref: string
}) {
  const busy = useBusy('delete')
  const heading = useRef<HTMLHeadingElement>(null)
  const [form] = useForm({ id: 'delete-company', lastResult })
  // Opened by a link: move focus here so keyboard and screen-reader users land on the question.
  useEffect(() => heading.current?.focus(), [])
  return (
    <section aria-labelledby="delete-title" className="card flex flex-col gap-3 border-red-300">
      <h2 id="delete-title" ref={heading} tabIndex={-1} className="text-lg font-semibold text-red-900">
        {`Delete “${company.name}”?`}
      </h2>
      {company.blockedBy ? (
        <p className="text-slate-800">{company.blockedBy}</p>
      ) : (
        <p className="text-slate-800">The company is removed for good. This cannot be undone.</p>
      )}
      <FormErrors id={form.errorId} errors={form.errors} />
      <Form method="post" className="flex gap-3" {...getFormProps(form)}>
        <input type="hidden" name="intent" value="delete" />
        <input type="hidden" name="companyId" value={company.id} />
        {company.blockedBy ? null : (
          <button type="submit" className="btn btn-danger" disabled={busy}>
            {busy ? 'Deleting…' : 'Yes, delete the company'}
          </button>
        )}
        <Link to={cancelHref} className="btn btn-secondary">
          {company.blockedBy ? 'Back to the list' : 'Cancel'}
        </Link>
      </Form>
    </section>
  )
}
