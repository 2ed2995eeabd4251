import { data } from 'react-router'
import type { Route } from './+types/answer-management.$responseId'
import { dispatchIntent, intent } from '#app/lib/reply.server'
import { notFound, requireUser } from '#app/modules/auth/guards.server'
import { ROUTE_ROLES } from '#app/modules/auth/permissions'
import { ResponsePage } from '#app/modules/response/components/response-page'
import { loadResponsePage } from '#app/modules/response/response-page.server'
import { getResponseView, reopenResponse, revealRespondent } from '#app/modules/response/response.server'
import { ReopenSchema, RevealSchema } from '#app/modules/response/schemas'
import { redirectWithToast } from '#app/modules/toast/toast.server'
import { namedRefusals } from '#app/modules/response/messages.server'
import { requireAdminForm } from './admin-action.server'
import { ADMIN_HANDLE, adminTitle } from './admin-meta'
import { getFixedT, languageOf } from '#app/modules/i18n/i18n.server'
import { metaT } from '#app/modules/i18n/meta'
import type { RouteHandle } from '#app/root'

export const handle: RouteHandle = { ...ADMIN_HANDLE, i18n: 'answers' }

export const meta: Route.MetaFunction = ({ loaderData, matches }) =>
  adminTitle(
    loaderData
      ? `${metaT(matches, 'answers:meta.responseAbout')} ${loaderData.view.header.subjectName} · ${metaT(matches, 'answers:meta.list')}`
      : metaT(matches, 'answers:meta.response'),
  )

const LIST = '/admin/answer-management'

/**
 * One response read-only, and reopen when submitted. Who answered a colleague's questionnaire is
 * not part of the page (ADR 024): "reveal who answered" asks for a reason, records it, and shows the
 * name in its own reply only — reload the page and it is gone. Strict confidentiality removes it.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  const { user } = await requireUser(request, { roles: ROUTE_ROLES.admin })
  // The questionnaire's wording in the admin's language where the scheme offers it (ADR 051).
  return (await loadResponsePage(params.responseId, languageOf(request, user))) ?? notFound()
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const { actor, formData } = await requireAdminForm(request, context)
  const t = await getFixedT(request, 'answers')
  // An unknown response is the not-found page for every post, like the page itself.
  if (!(await getResponseView(params.responseId))) notFound()
  return dispatchIntent(formData, {
    reveal: intent(
      RevealSchema,
      ({ reason }) => revealRespondent(actor, params.responseId, reason),
      // Shown in this reply only: the page's own data never holds it.
      (revealed) =>
        data({
          intent: 'reveal' as const,
          result: { status: 'success' as const, initialValue: null },
          revealed,
        }),
    ),
    reopen: intent(
      ReopenSchema,
      ({ reason }) => namedRefusals(request, reopenResponse(actor, params.responseId, reason)),
      ({ subjectName }) =>
        redirectWithToast(`${LIST}/${params.responseId}`, {
          kind: 'success',
          title: t('toast.reopened'),
          // The server found the respondent's address itself: the admin is not told who it is.
          description: t('toast.reopenedDescription', { name: subjectName }),
        }),
    ),
  })
}

export default function AnswerManagementResponse({ loaderData, actionData }: Route.ComponentProps) {
  return <ResponsePage data={loaderData} actionData={actionData} />
}
