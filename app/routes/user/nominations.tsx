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
  whoseList,
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
import { redirectWithToast } from '#app/modules/toast/toast.server'
import type { RouteHandle } from '#app/root'

// `invite`: the colleague fields and the outlook; `home`: the relationship labels.
export const handle: RouteHandle = { layout: 'user', transition: true, i18n: ['invite', 'home'] }

export const meta: Route.MetaFunction = ({ loaderData }) => [
  {
    title:
      loaderData?.state === 'ready' && loaderData.standing !== 'employee'
        ? `Feedback list of ${loaderData.employee.displayName || loaderData.employee.email} · Panorama`
        : 'Your feedback list · Panorama',
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
  const page = await loadNominationPage(target.value, user.id, query)
  if (!page.ok) notFound()
  return page.value
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
  const whose = whoseList(target.standing, employeeName)
  const back = (schemeId: string) => pageHref(target, schemeId)
  return dispatchIntent(formData, {
    add: intent(
      AddNomineeSchema,
      (v) => addNominee(actor, { ...v, employeeId }),
      (added, v) =>
        redirectWithToast(back(v.schemeId), {
          kind: 'success',
          title: `${added.name} added to ${whose}`,
          description: 'Nobody is contacted until the list is approved.',
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
            title: `${added.length} ${added.length === 1 ? 'colleague' : 'colleagues'} added to ${whose}`,
            description: 'Nobody is contacted until the list is approved.',
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
        redirectWithToast(back(v.schemeId), { kind: 'success', title: `${removed.name} taken off ${whose}` }),
    ),
    submit: intent(
      ListStepSchema,
      (v) => submitList(actor, { ...v, employeeId }),
      (sent, v) =>
        redirectWithToast(back(v.schemeId), {
          kind: 'success',
          title: `The list was sent to ${sent.approverName} for approval`,
          description: 'Nobody on it is contacted until it is approved.',
        }),
    ),
    withdraw: intent(
      ListStepSchema,
      (v) => withdrawList(actor, { ...v, employeeId }),
      (_, v) =>
        redirectWithToast(back(v.schemeId), {
          kind: 'success',
          title: 'The list was taken back',
          description: 'Change it, then send it for approval again.',
        }),
    ),
    approve: intent(
      ListStepSchema,
      (v) => approveList(actor, { ...v, employeeId }),
      (approved, v) =>
        redirectWithToast(back(v.schemeId), {
          kind: 'success',
          title: `${possessiveTitle(whose)} is approved`,
          description: `${approved.invited} ${approved.invited === 1 ? 'invitation was' : 'invitations were'} sent.`,
        }),
    ),
    'send-back': intent(
      SendBackSchema,
      (v) => sendBackList(actor, { ...v, employeeId }),
      (_, v) =>
        redirectWithToast(back(v.schemeId), {
          kind: 'success',
          title: `${possessiveTitle(whose)} was sent back`,
          description: `${employeeName} has been e-mailed your comment.`,
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

function possessiveTitle(text: string) {
  return text.charAt(0).toUpperCase() + text.slice(1)
}

export default function Nominations({ loaderData, actionData }: Route.ComponentProps) {
  return <NominationPage loaderData={loaderData} actionData={actionData} />
}
