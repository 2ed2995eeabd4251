import type { Route } from './+types/answer-management.reopen-requests'
import { Link } from 'react-router'
import { useListHref } from '#app/components/admin-list'
import { Notices, PageHeader } from '#app/components/page-kit'
import { metaT } from '#app/modules/i18n/meta'
import { listNotices } from '#app/lib/list-page.server'
import { dispatchIntent, intent } from '#app/lib/reply.server'
import { requireUser } from '#app/modules/auth/guards.server'
import { ROUTE_ROLES } from '#app/modules/auth/permissions'
import { ReopenRequestList } from '#app/modules/response/components/reopen-request-list'
import {
  approveReopenRequest,
  declineReopenRequest,
  loadReopenRequests,
} from '#app/modules/response/reopen-request.server'
import {
  ApproveReopenRequestSchema,
  DeclineReopenRequestSchema,
  REOPEN_REQUESTS_PATH,
} from '#app/modules/response/reopen-request-schemas'
import { namedRefusals } from '#app/modules/response/messages.server'
import { requireAdminForm, toastReply } from './admin-action.server'
import { ADMIN_HANDLE, adminTitleT } from './admin-meta'
import { getFixedT } from '#app/modules/i18n/i18n.server'
import type { RouteHandle } from '#app/root'
import { useTranslation } from 'react-i18next'

export const handle: RouteHandle = { ...ADMIN_HANDLE, i18n: 'answers' }

export const meta: Route.MetaFunction = ({ matches }) =>
  adminTitleT(matches, 'answers:meta.reopenRequests', metaT(matches, 'answers:meta.list'))

/**
 * Reopen requests (issue 18 §5, ADR 039): respondents who asked to change their submitted answers,
 * newest first, keyset-paginated; "Reopen" in one click (the answer management reopen, the
 * respondent's note as its reason) or "Decline" with an optional reason. One statement per page.
 */
export async function loader({ request }: Route.LoaderArgs) {
  await requireUser(request, { roles: ROUTE_ROLES.admin })
  const url = new URL(request.url)
  const data = await loadReopenRequests({
    after: url.searchParams.get('after') || undefined,
    before: url.searchParams.get('before') || undefined,
  })
  return { ...data, notices: listNotices(data.page) }
}

export async function action({ request, context }: Route.ActionArgs) {
  const { actor, formData } = await requireAdminForm(request, context)
  const done = toastReply(REOPEN_REQUESTS_PATH)
  const t = await getFixedT(request, 'answers')
  return dispatchIntent(formData, {
    'approve-request': intent(
      ApproveReopenRequestSchema,
      ({ responseId }) => namedRefusals(request, approveReopenRequest(actor, responseId)),
      // The server found the respondent's address itself: the admin is not told who it is (ADR 024).
      ({ subjectName }) => done(t('toast.reopened'), t('toast.reopenedOnRequest', { name: subjectName })),
    ),
    'decline-request': intent(
      DeclineReopenRequestSchema,
      ({ responseId, reason }) => declineReopenRequest(actor, responseId, reason),
      ({ subjectName }) => done(t('toast.declined'), t('toast.declinedDescription', { name: subjectName })),
    ),
  })
}

export default function ReopenRequests({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation('answers')
  const href = useListHref(REOPEN_REQUESTS_PATH)
  return (
    <section aria-labelledby="page-title" className="flex max-w-4xl flex-col gap-8">
      <PageHeader title={t('requests.title')}>
        {t('requests.intro')}{' '}
        <Link className="link" to="/admin/answer-management">
          {t('requests.back')}
        </Link>
      </PageHeader>
      <Notices notices={loaderData.notices} />
      <ReopenRequestList data={loaderData} actionData={actionData} href={href} />
    </section>
  )
}
