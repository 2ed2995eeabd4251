import { data } from 'react-router'
import type { Route } from './+types/nominations'
import { readFormData } from '#app/lib/form-data.server'
import { dispatchIntent, intent, passRetryAfter } from '#app/lib/reply.server'
import { notFound, requireUser } from '#app/modules/auth/guards.server'
import { ROUTE_ROLES } from '#app/modules/auth/permissions'
import {
  addNominee,
  addPastedNominees,
  approveList,
  removeNominee,
  resolveListTarget,
  sendBackList,
  submitList,
  withdrawList,
} from '#app/modules/nomination/nomination.server'
import { loadNominationPage, pageHref } from '#app/modules/nomination/nomination-page.server'
import {
  AddNomineeSchema,
  ListStepSchema,
  NominationQuerySchema,
  PasteSchema,
  RemoveNomineeSchema,
  SendBackSchema,
} from '#app/modules/nomination/schemas'
import { NominationPage } from '#app/modules/nomination/components/nomination-page'
import { getFixedT, requestLanguage } from '#app/modules/i18n/i18n.server'
import { metaT } from '#app/modules/i18n/meta'
import { whoseIn } from '#app/modules/invite/invite-page.server'
import { redirectWithToast } from '#app/modules/toast/toast.server'
import type { RouteHandle } from '#app/root'

// `invite`: the colleague fields and the outlook; `home`: the relationship and status labels.
export const handle: RouteHandle = {
  layout: 'user',
  transition: true,
  i18n: ['nomination', 'invite', 'home'],
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => [
  {
    title:
      (loaderData?.state === 'ready' ? loaderData.title : null) ?? metaT(matches, 'nomination:metaTitle'),
  },
]

export const headers: Route.HeadersFunction = passRetryAfter

function readQuery(request: Request) {
  return NominationQuerySchema.parse(Object.fromEntries(new URL(request.url).searchParams))
}

/**
 * An employee's list of raters in a scheme that approves lists (issue 18 §3, ADR 042): built by
 * the employee (or an admin for them), approved or sent back by the manager or an admin.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const { user } = await requireUser(request, { roles: ROUTE_ROLES['user/nominations'] })
  const query = readQuery(request)
  const target = await resolveListTarget(user, query.employee)
  if (!target.ok) notFound()
  const t = await getFixedT(request, 'nomination')
  const page = await loadNominationPage(target.value, user.id, query, {
    language: await requestLanguage(request),
    t,
    tInvite: await getFixedT(request, 'invite'),
  })
  if (!page.ok) notFound()
  const title =
    page.value.state === 'ready' && page.value.standing !== 'employee'
      ? t('metaTitleFor', { name: page.value.employee.displayName || page.value.employee.email })
      : null
  return { ...page.value, title }
}

export async function action({ request, context }: Route.ActionArgs) {
  const { user } = await requireUser(request, { roles: ROUTE_ROLES['user/nominations'] })
  const query = readQuery(request)
  const resolved = await resolveListTarget(user, query.employee)
  if (!resolved.ok || !resolved.value) notFound()
  const target = resolved.value
  const formData = await readFormData(request)
  const actor = { id: user.id, role: user.role, ip: context.ip || null }
  const employeeId = target.employee.id
  const employeeName = target.employee.displayName || target.employee.email
  const t = await getFixedT(request, 'nomination')
  const own = target.standing === 'employee'
  const whoseWords = { whose: whoseIn(await requestLanguage(request), employeeName) }
  const whose = own ? t('whose.own') : t('whose.other', whoseWords)
  const whoseTitle = own ? t('whose.ownTitle') : t('whose.otherTitle', whoseWords)
  const back = (schemeId: string) => pageHref(target, schemeId)
  return dispatchIntent(formData, {
    add: intent(
      AddNomineeSchema,
      (v) => addNominee(actor, { ...v, employeeId }),
      (added, v) =>
        redirectWithToast(back(v.schemeId), {
          kind: 'success',
          title: t('toast.added', { name: added.name, whose }),
          description: t('toast.nobodyContacted'),
        }),
    ),
    paste: intent(
      PasteSchema,
      (v) => addPastedNominees(actor, { ...v, employeeId }),
      async (outcome, v): Promise<Response | ReturnType<typeof pasteProblems>> => {
        const added = outcome.results.filter((r) => r.ok)
        const refused = outcome.results.filter((r) => !r.ok)
        if (!refused.length)
          return redirectWithToast(back(v.schemeId), {
            kind: 'success',
            title: t('toast.pasted', { count: added.length, whose }),
            description: t('toast.nobodyContacted'),
          })
        return pasteProblems(
          added.length,
          refused.map((r) => ({ line: r.line, message: r.ok ? '' : r.message })),
        )
      },
    ),
    remove: intent(
      RemoveNomineeSchema,
      (v) => removeNominee(actor, { ...v, employeeId }),
      (removed, v) =>
        redirectWithToast(back(v.schemeId), {
          kind: 'success',
          title: t('toast.removed', { name: removed.name, whose }),
        }),
    ),
    submit: intent(
      ListStepSchema,
      (v) => submitList(actor, { ...v, employeeId }),
      (sent, v) =>
        redirectWithToast(back(v.schemeId), {
          kind: 'success',
          title: t('toast.submitted', { name: sent.approverName }),
          description: t('toast.submittedText'),
        }),
    ),
    withdraw: intent(
      ListStepSchema,
      (v) => withdrawList(actor, { ...v, employeeId }),
      (_, v) =>
        redirectWithToast(back(v.schemeId), {
          kind: 'success',
          title: t('toast.withdrawn'),
          description: t('toast.withdrawnText'),
        }),
    ),
    approve: intent(
      ListStepSchema,
      (v) => approveList(actor, { ...v, employeeId }),
      (approved, v) =>
        redirectWithToast(back(v.schemeId), {
          kind: 'success',
          title: t('toast.approved', { whose: whoseTitle }),
          description: t('toast.approvedText', { count: approved.invited }),
        }),
    ),
    'send-back': intent(
      SendBackSchema,
      (v) => sendBackList(actor, { ...v, employeeId }),
      (_, v) =>
        redirectWithToast(back(v.schemeId), {
          kind: 'success',
          title: t('toast.sentBack', { whose: whoseTitle }),
          description: t('toast.sentBackText', { name: employeeName }),
        }),
    ),
  })
}

/** Some pasted lines could not be added: which and why, with only those lines left in the box. */
function pasteProblems(added: number, problems: { line: string; message: string }[]) {
  return data({
    intent: 'paste' as const,
    result: { status: 'error' as const, error: {} },
    paste: { added, problems, text: problems.map((p) => p.line).join('\n') },
  })
}

export default function Nominations({ loaderData, actionData }: Route.ComponentProps) {
  return <NominationPage loaderData={loaderData} actionData={actionData} />
}
