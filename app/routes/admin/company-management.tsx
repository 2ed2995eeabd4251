import { useTranslation } from 'react-i18next'
import type { Route } from './+types/company-management'
import { UnknownIntentErrors, useListHref } from '#app/components/admin-list'
import { formErrorsOf, resultFor } from '#app/components/form-kit'
import { useFormMessage } from '#app/components/forms'
import { ConfirmPanel, Notices, PageHeader } from '#app/components/page-kit'
import { listHref as listHrefOf } from '#app/lib/list-page.server'
import type { Outcome } from '#app/lib/outcome'
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
import { getFixedT } from '#app/modules/i18n/i18n.server'
import { redirectWithToast } from '#app/modules/toast/toast.server'
import type { RouteHandle } from '#app/root'
import { requireAdminForm, savedToast, savedToastWords, sayRefusal, toastReply } from './admin-action.server'
import { ADMIN_HANDLE, adminTitleT } from './admin-meta'

export const handle: RouteHandle = { ...ADMIN_HANDLE, i18n: 'companies' }

export const meta: Route.MetaFunction = ({ matches }) => adminTitleT(matches, 'companies:metaTitle')

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
  const t = await getFixedT(request, 'companies')
  const said = <T,>(outcome: Outcome<T>) => sayRefusal(request, 'companies', outcome)
  return dispatchIntent(formData, {
    create: intent(
      CompanyCreateSchema,
      async (input) => said(await createCompany(actor, input)),
      (_, input) => done(t('toast.created'), t('toast.createdText', { name: input.name })),
    ),
    update: intent(
      CompanyUpdateSchema,
      async ({ companyId, ...input }) => said(await updateCompany(actor, companyId, input)),
      ({ changed }, input) =>
        redirectWithToast(
          back,
          savedToast(changed, 'company', t('toast.updatedText', { name: input.name }), savedToastWords(t)),
        ),
    ),
    delete: intent(
      CompanyDeleteSchema,
      async ({ companyId }) => said(await deleteCompany(actor, companyId)),
      ({ name }) => done(t('toast.deleted'), t('toast.deletedText', { name })),
    ),
  })
}

export default function CompanyManagement({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation('companies')
  const say = useFormMessage()
  const { brandOptions, deleting, notices } = loaderData
  const href = useListHref(PATH)
  const deleteResult = resultFor(actionData, 'delete')
  return (
    <section aria-labelledby="page-title" className="flex max-w-5xl flex-col gap-8">
      <PageHeader title={t('title')}>{t('intro')}</PageHeader>
      <Notices notices={notices.map(say)} />
      {/* A refused delete posted without the confirmation on screen (a stale tab) still shows its reason. */}
      <UnknownIntentErrors
        actionData={actionData}
        fallback={!deleting ? formErrorsOf(deleteResult) : undefined}
      />
      {deleting ? (
        <ConfirmPanel
          key={deleting.id}
          id="delete-company"
          title={t('delete.title', { name: deleting.name })}
          intent="delete"
          fields={{ companyId: deleting.id }}
          confirmLabel={t('delete.confirm')}
          pendingLabel={t('delete.pending')}
          cancelHref={href({ delete: null })}
          lastResult={deleteResult}
          blockedBy={deleting.inUse ? t('inUse', deleting.inUse) : null}
        >
          <p className="text-slate-800">{t('delete.text')}</p>
        </ConfirmPanel>
      ) : null}
      <AddCompany brandOptions={brandOptions} actionData={actionData} />
      <CompanyList data={loaderData} path={PATH} href={href} actionData={actionData} />
    </section>
  )
}
