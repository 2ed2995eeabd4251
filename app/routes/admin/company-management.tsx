import type { Route } from './+types/company-management'
import { UnknownIntentErrors, useListHref } from '#app/components/admin-list'
import { formErrorsOf, resultFor } from '#app/components/form-kit'
import { ConfirmPanel, Notices, PageHeader } from '#app/components/page-kit'
import { listHref as listHrefOf } from '#app/lib/list-page.server'
import { dispatchIntent, intent } from '#app/lib/reply.server'
import { requireUser } from '#app/modules/auth/guards.server'
import { ROUTE_ROLES } from '#app/modules/auth/permissions'
import { createCompany, deleteCompany, updateCompany } from '#app/modules/company/company.server'
import { loadCompanyList } from '#app/modules/company/company-list.server'
import { AddCompany, CompanyList } from '#app/modules/company/components/company-list'
import {
  CompanyCreateSchema,
  CompanyDeleteSchema,
  CompanyUpdateSchema,
  parseCompanyListQuery,
} from '#app/modules/company/schemas'
import { redirectWithToast } from '#app/modules/toast/toast.server'
import { requireAdminForm, savedToast, toastReply } from './admin-action.server'
import { ADMIN_HANDLE, adminTitle } from './admin-meta'

export const handle = ADMIN_HANDLE

export const meta: Route.MetaFunction = () => adminTitle('Company management')

const PATH = '/admin/company-management'

/**
 * The companies page: a searchable, sortable, keyset-paginated list, a create form, an inline edit
 * form (`?edit=<id>`) and a delete confirmation (`?delete=<id>`). Every state lives in the URL and
 * every form is a plain POST, so the page works without JavaScript; Conform adds live validation.
 */
export async function loader({ request }: Route.LoaderArgs) {
  await requireUser(request, { roles: ROUTE_ROLES.admin })
  const { searchParams } = new URL(request.url)
  const query = parseCompanyListQuery(searchParams)
  return await loadCompanyList(query, { edit: searchParams.get('edit'), delete: searchParams.get('delete') })
}

export async function action({ request, context }: Route.ActionArgs) {
  const { actor, formData } = await requireAdminForm(request, context)
  // Back to the list as it was (search, sort, page), without the edit or delete state.
  const back = listHrefOf(request, PATH, ['edit', 'delete'])
  const done = toastReply(back)
  return dispatchIntent(formData, {
    create: intent(
      CompanyCreateSchema,
      (input) => createCompany(actor, input),
      (_, input) => done('Company created', `“${input.name}” was added.`),
    ),
    update: intent(
      CompanyUpdateSchema,
      ({ companyId, ...input }) => updateCompany(actor, companyId, input),
      ({ changed }, input) =>
        redirectWithToast(back, savedToast(changed, 'company', `“${input.name}” was updated.`)),
    ),
    delete: intent(
      CompanyDeleteSchema,
      ({ companyId }) => deleteCompany(actor, companyId),
      ({ name }) => done('Company deleted', `“${name}” was deleted.`),
    ),
  })
}

export default function CompanyManagement({ loaderData, actionData }: Route.ComponentProps) {
  const { brandOptions, deleting, notices } = loaderData
  const href = useListHref(PATH)
  const deleteResult = resultFor(actionData, 'delete')
  return (
    <section aria-labelledby="page-title" className="flex max-w-5xl flex-col gap-8">
      <PageHeader title="Companies">
        The client companies whose employees take part in schemes. Each one uses a brand for its e-mails and
        pages.
      </PageHeader>
      <Notices notices={notices} />
      {/* A refused delete posted without the confirmation on screen (a stale tab) still shows its reason. */}
      <UnknownIntentErrors
        actionData={actionData}
        fallback={!deleting ? formErrorsOf(deleteResult) : undefined}
      />
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
      <AddCompany brandOptions={brandOptions} actionData={actionData} />
      <CompanyList data={loaderData} path={PATH} href={href} actionData={actionData} />
    </section>
  )
}
