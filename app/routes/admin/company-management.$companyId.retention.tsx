import type { Route } from './+types/company-management.$companyId.retention'
import { dispatchIntent, intent } from '#app/lib/reply.server'
import { notFound, requireUser } from '#app/modules/auth/guards.server'
import { ROUTE_ROLES } from '#app/modules/auth/permissions'
import { getCompany } from '#app/modules/company/company.server'
import { loadRetentionPage, updateRetention } from '#app/modules/company/retention.server'
import { RetentionPage } from '#app/modules/company/components/retention-page'
import { CompanyRetentionSchema } from '#app/modules/company/schemas'
import { getFixedT } from '#app/modules/i18n/i18n.server'
import { redirectWithToast } from '#app/modules/toast/toast.server'
import type { RouteHandle } from '#app/root'
import { requireAdminForm, savedToast, savedToastWords, sayRefusal } from './admin-action.server'
import { ADMIN_HANDLE, adminTitleT } from './admin-meta'

export const handle: RouteHandle = { ...ADMIN_HANDLE, i18n: 'companies' }

export const meta: Route.MetaFunction = ({ loaderData, matches }) =>
  adminTitleT(matches, 'companies:retention.metaTitle', loaderData?.company.name ?? '')

/**
 * A company's retention (issue 21 §3, ADR 058): its settings, what the next pass would remove (the
 * dry run, by the worker's own rules, changing nothing; on request, `?dry-run=1`), the last pass and
 * the schemes on legal hold. Unknown or malformed ids are a 404.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  await requireUser(request, { roles: ROUTE_ROLES.admin })
  return (await loadRetentionPage(params.companyId, new URL(request.url).searchParams)) ?? notFound()
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const { actor, formData } = await requireAdminForm(request, context)
  const company = (await getCompany(params.companyId)) ?? notFound()
  // Saved settings lead to their dry run: what they would remove is what the admin wants to know.
  const back = `/admin/company-management/${company.id}/retention?dry-run=1`
  const t = await getFixedT(request, 'companies')
  return dispatchIntent(formData, {
    retention: intent(
      CompanyRetentionSchema,
      async ({ intent: _intent, ...input }) =>
        sayRefusal(request, 'companies', await updateRetention(actor, company.id, input)),
      ({ changed, name }) =>
        redirectWithToast(
          back,
          savedToast(changed, 'company', t('retention.toast', { name }), savedToastWords(t)),
        ),
    ),
  })
}

export default function CompanyRetention({ loaderData, actionData }: Route.ComponentProps) {
  return <RetentionPage data={loaderData} actionData={actionData} />
}
