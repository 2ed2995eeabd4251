import { redirect } from 'react-router'
import type { Route } from './+types/answer-management'
import { useListHref } from '#app/components/admin-list'
import { resultFor } from '#app/components/form-kit'
import { Notices, PageHeader } from '#app/components/page-kit'
import { dispatchIntent, intent } from '#app/lib/reply.server'
import { requireUser } from '#app/modules/auth/guards.server'
import { ROUTE_ROLES } from '#app/modules/auth/permissions'
import { loadResponseList } from '#app/modules/response/response-list.server'
import { authoriseIdentityExport } from '#app/modules/response/export.server'
import { ExportForm, ResponseList } from '#app/modules/response/components/response-list'
import { ExportIdentitiesSchema, parseResponseFilters } from '#app/modules/response/schemas'
import { REOPEN_REQUESTS_PATH } from '#app/modules/response/reopen-request-schemas'
import { Link } from 'react-router'
import { requireAdminForm } from './admin-action.server'
import { ADMIN_HANDLE, adminTitleT } from './admin-meta'
import type { RouteHandle } from '#app/root'
import { useTranslation } from 'react-i18next'

export const handle: RouteHandle = { ...ADMIN_HANDLE, i18n: 'answers' }

export const meta: Route.MetaFunction = ({ matches }) => adminTitleT(matches, 'answers:meta.list')

const PATH = '/admin/answer-management'

/**
 * The responses (DESIGN.md §7, ADR 023): filtered by scheme, company, questionnaire, subject,
 * relationship and state, all in the URL, keyset-paginated; the respondent shows as their
 * relationship only, with days rather than instants (ADR 024). Two statements whatever the data:
 * the page and the filters' choices.
 */
export async function loader({ request }: Route.LoaderArgs) {
  await requireUser(request, { roles: ROUTE_ROLES.admin })
  const { query, problems } = parseResponseFilters(new URL(request.url).searchParams)
  return await loadResponseList(query, problems)
}

/**
 * The export with names (ADR 024): the reason is recorded, then the browser is sent to the download
 * with a short-lived grant. Reopen lives on a response's page.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const { actor, formData } = await requireAdminForm(request, context)
  return dispatchIntent(formData, {
    'export-identities': intent(
      ExportIdentitiesSchema,
      (value) => authoriseIdentityExport(actor, value),
      ({ href }) => redirect(href),
    ),
  })
}

export default function AnswerManagement({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation('answers')
  const href = useListHref(PATH)
  const { query, notices, identitiesAllowed, reopenRequests } = loaderData
  return (
    <section aria-labelledby="page-title" className="flex max-w-6xl flex-col gap-8">
      <PageHeader title={t('list.title')}>{t('list.intro')}</PageHeader>
      <Notices notices={notices} />
      <p className={reopenRequests ? 'card font-medium text-slate-900' : 'text-slate-700'}>
        <Link className="link" to={REOPEN_REQUESTS_PATH}>
          {reopenRequests === 0
            ? t('list.requestsNone')
            : t('list.requestsWaiting', { count: reopenRequests })}
        </Link>
        {reopenRequests === 0 ? t('list.requestsNoneNote') : t('list.requestsWaitingNote')}
      </p>
      <ResponseList data={loaderData} path={PATH} href={href} />
      <ExportForm
        query={query}
        identitiesAllowed={identitiesAllowed}
        lastResult={resultFor(actionData, 'export-identities')}
      />
    </section>
  )
}
