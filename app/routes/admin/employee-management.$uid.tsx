import type { Route } from './+types/employee-management.$uid'
import { unreadableForm } from '#app/lib/form-data.server'
import { dispatchIntent, intent, passRetryAfter } from '#app/lib/reply.server'
import { possessive } from '#app/lib/words'
import { notFound, requireUser } from '#app/modules/auth/guards.server'
import { ROUTE_ROLES } from '#app/modules/auth/permissions'
import { EmployeePage } from '#app/modules/employee/components/employee-page'
import { loadEmployeePage } from '#app/modules/employee/employee-page.server'
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
  EmployeeResendSchema,
  EmployeeUpdateSchema,
} from '#app/modules/employee/schemas'
import { redirectWithToast } from '#app/modules/toast/toast.server'
import { requireAdminForm, savedToast } from './admin-action.server'
import { ADMIN_HANDLE, adminTitle } from './admin-meta'

export const handle = ADMIN_HANDLE

export const meta: Route.MetaFunction = ({ loaderData }) =>
  adminTitle(loaderData ? `${loaderData.employee.name || loaderData.employee.email} · Employees` : 'Employee')

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
  return dispatchIntent(formData, {
    update: intent(
      EmployeeUpdateSchema,
      ({ employeeId, ...input }) => updateEmployee(actor, employeeId, input),
      ({ changed }, input) =>
        redirectWithToast(
          page,
          savedToast(changed, 'employee', `${possessive(input.name)} details were updated.`),
        ),
    ),
    disable: intent(
      EmployeeDisableSchema,
      ({ employeeId }) => disableEmployee(actor, employeeId),
      ({ name, changed, sessionsEnded }) =>
        redirectWithToast(page, {
          kind: changed ? 'success' : 'info',
          title: changed ? 'Employee disabled' : 'Already disabled',
          description: changed
            ? `${name} can no longer sign in${sessionsEnded ? `; ${sessionsEnded === 1 ? 'their session was' : `their ${sessionsEnded} sessions were`} ended` : ''}.`
            : `${name} was already disabled.`,
        }),
    ),
    enable: intent(
      EmployeeEnableSchema,
      ({ employeeId }) => enableEmployee(actor, employeeId),
      ({ name, changed }) =>
        redirectWithToast(page, {
          kind: changed ? 'success' : 'info',
          title: changed ? 'Employee enabled' : 'Already enabled',
          description: changed ? `${name} can sign in again.` : `${name} was not disabled.`,
        }),
    ),
    'resend-activation': intent(
      EmployeeResendSchema,
      ({ employeeId }) => resendActivation(actor, employeeId),
      ({ name, email }) =>
        redirectWithToast(page, {
          kind: 'success',
          title: 'Activation e-mail sent',
          description: `A new activation link is on its way to ${name} at ${email}; earlier links no longer work.`,
        }),
    ),
  })
}

export default function EmployeeDetailPage({ loaderData, actionData }: Route.ComponentProps) {
  return <EmployeePage data={loaderData} actionData={actionData} />
}
