import type { Route } from './+types/employee-management.$uid'
import { unreadableForm } from '#app/lib/form-data.server'
import { dispatchIntent, intent, passRetryAfter } from '#app/lib/reply.server'
import type { Outcome } from '#app/lib/outcome'
import { notFound, requireUser } from '#app/modules/auth/guards.server'
import { ROUTE_ROLES } from '#app/modules/auth/permissions'
import { EmployeePage } from '#app/modules/employee/components/employee-page'
import { loadEmployeePage } from '#app/modules/employee/employee-page.server'
import { erasePerson } from '#app/modules/employee/erasure.server'
import {
  disableEmployee,
  enableEmployee,
  getEmployee,
  resendActivation,
  updateEmployee,
} from '#app/modules/employee/employee.server'
import {
  EmployeeDisableSchema,
  EmployeeEnableSchema,
  EmployeeEraseSchema,
  EmployeeResendSchema,
  EmployeeUpdateSchema,
} from '#app/modules/employee/schemas'
import { getFixedT } from '#app/modules/i18n/i18n.server'
import { redirectWithToast } from '#app/modules/toast/toast.server'
import type { RouteHandle } from '#app/root'
import { requireAdminForm, savedToast, savedToastWords, sayRefusal } from './admin-action.server'
import { ADMIN_HANDLE, adminNamedTitleT } from './admin-meta'

export const handle: RouteHandle = { ...ADMIN_HANDLE, i18n: 'employees' }

export const meta: Route.MetaFunction = ({ loaderData, matches }) =>
  adminNamedTitleT(
    matches,
    'employees:metaEmployee',
    loaderData ? loaderData.employee.name || loaderData.employee.email : undefined,
  )

// A 429's Retry-After reaches the browser only when the route passes it on.
export const headers: Route.HeadersFunction = passRetryAfter

const LIST = '/admin/employee-management'

/**
 * One employee: their details (edit), their account (disable / enable behind a confirmation,
 * resend the activation e-mail), their schemes with their report and colleagues, and the feedback
 * asked of them. An unknown or malformed uid, an admin's or a colleague's, is the 404 page.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  await requireUser(request, { roles: ROUTE_ROLES.admin })
  return (await loadEmployeePage(params.uid, new URL(request.url).searchParams)) ?? notFound()
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const { actor, formData } = await requireAdminForm(request, context)
  const employee = (await getEmployee(params.uid)) ?? notFound()
  const page = `${LIST}/${employee.id}`
  // The form's hidden id must name this page's employee: a form from another tab cannot act here.
  const sameEmployee = formData.get('employeeId') === null || formData.get('employeeId') === employee.id
  if (!sameEmployee) return unreadableForm()
  const t = await getFixedT(request, 'employees')
  const said = <T,>(outcome: Outcome<T>) => sayRefusal(request, 'employees', outcome)
  return dispatchIntent(formData, {
    update: intent(
      EmployeeUpdateSchema,
      async ({ employeeId, ...input }) => said(await updateEmployee(actor, employeeId, input)),
      ({ changed }, input) =>
        redirectWithToast(
          page,
          savedToast(changed, 'employee', t('toast.updatedText', { name: input.name }), savedToastWords(t)),
        ),
    ),
    disable: intent(
      EmployeeDisableSchema,
      async ({ employeeId }) => said(await disableEmployee(actor, employeeId)),
      ({ name, changed, sessionsEnded }) =>
        redirectWithToast(page, {
          kind: changed ? 'success' : 'info',
          title: t(changed ? 'toast.disabled' : 'toast.alreadyDisabled'),
          description: changed
            ? t('toast.disabledText', { name, sessions: sessionsEnded })
            : t('toast.alreadyDisabledText', { name }),
        }),
    ),
    enable: intent(
      EmployeeEnableSchema,
      async ({ employeeId }) => said(await enableEmployee(actor, employeeId)),
      ({ name, changed }) =>
        redirectWithToast(page, {
          kind: changed ? 'success' : 'info',
          title: t(changed ? 'toast.enabled' : 'toast.alreadyEnabled'),
          description: t(changed ? 'toast.enabledText' : 'toast.notDisabledText', { name }),
        }),
    ),
    // Irreversible (ADR 056): the typed address is the confirmation; a second erasure is refused.
    erase: intent(
      EmployeeEraseSchema,
      async ({ employeeId, confirmEmail }) => said(await erasePerson(actor, employeeId, confirmEmail)),
      ({ sessionsEnded, raterAnswersKept, raterAnswersDeleted }) =>
        redirectWithToast(page, {
          kind: 'success',
          title: t('toast.erased'),
          description: t('toast.erasedText', {
            sessions: sessionsEnded,
            kept: raterAnswersKept,
            deleted: raterAnswersDeleted,
          }),
        }),
    ),
    'resend-activation': intent(
      EmployeeResendSchema,
      async ({ employeeId }) => said(await resendActivation(actor, employeeId)),
      ({ name, email }) =>
        redirectWithToast(page, {
          kind: 'success',
          title: t('toast.resent'),
          description: t('toast.resentText', { name, email }),
        }),
    ),
  })
}

export default function EmployeeDetailPage({ loaderData, actionData }: Route.ComponentProps) {
  return <EmployeePage data={loaderData} actionData={actionData} />
}
