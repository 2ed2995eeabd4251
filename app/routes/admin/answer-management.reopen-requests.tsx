import type { Route } from './+types/answer-management.reopen-requests'
import { Link } from 'react-router'
import { useListHref } from '#app/components/admin-list'
import { Notices, PageHeader } from '#app/components/page-kit'
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
import { requireAdminForm, toastReply } from './admin-action.server'
import { ADMIN_HANDLE, adminTitle } from './admin-meta'

export const handle = ADMIN_HANDLE

export const meta: Route.MetaFunction = () => adminTitle('Reopen requests · Answer management')

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
  return dispatchIntent(formData, {
    'approve-request': intent(
      ApproveReopenRequestSchema,
      ({ responseId }) => approveReopenRequest(actor, responseId),
      // The server found the respondent's address itself: the admin is not told who it is (ADR 024).
      ({ subjectName }) =>
        done(
          'Answers reopened',
          `The respondent was told by e-mail and can change their answers about ${subjectName}; their note is shown to them as the reason.`,
        ),
    ),
    'decline-request': intent(
      DeclineReopenRequestSchema,
      ({ responseId, reason }) => declineReopenRequest(actor, responseId, reason),
      ({ subjectName }) =>
        done(
          'Request declined',
          `The answers about ${subjectName} stay as submitted; the respondent sees that on their page, with your reason if you gave one.`,
        ),
    ),
  })
}

export default function ReopenRequests({ loaderData, actionData }: Route.ComponentProps) {
  const href = useListHref(REOPEN_REQUESTS_PATH)
  return (
    <section aria-labelledby="page-title" className="flex max-w-4xl flex-col gap-8">
      <PageHeader title="Reopen requests">
        Respondents who submitted and asked to change their answers, without their names.{' '}
        <Link className="link" to="/admin/answer-management">
          Back to the responses
        </Link>
      </PageHeader>
      <Notices notices={loaderData.notices} />
      <ReopenRequestList data={loaderData} actionData={actionData} href={href} />
    </section>
  )
}
