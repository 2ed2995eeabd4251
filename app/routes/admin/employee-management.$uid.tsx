import { getFormProps, useForm } from '@conform-to/react'
import { Form, Link } from 'react-router'
import type { Route } from './+types/employee-management.$uid'
import {
  ConfirmPanel,
  formErrorsOf,
  PageHeader,
  resultFor,
  usePendingIntent,
  type FormResult,
} from '#app/components/form-kit'
import { possessive } from '#app/lib/words'
import { FormErrors } from '#app/components/forms'
import { unreadableForm } from '#app/lib/form-data.server'
import { submitIntent } from '#app/lib/reply.server'
import { notFound, requireUser } from '#app/modules/auth/guards.server'
import { ROUTE_ROLES } from '#app/modules/auth/permissions'
import { EmployeeProgrammes, EmployeeRatings } from '#app/modules/employee/components/employee-activity'
import { EditEmployeeForm, StateBadge } from '#app/modules/employee/components/employee-forms'
import {
  disableEmployee,
  companyOptions,
  enableEmployee,
  getEmployee,
  getEmployeeActivity,
  resendActivation,
  updateEmployee,
} from '#app/modules/employee/employee.server'
import {
  EmployeeDetailQuerySchema,
  EmployeeDisableSchema,
  EmployeeEnableSchema,
  EmployeeResendSchema,
  EmployeeUpdateSchema,
} from '#app/modules/employee/schemas'
import { redirectWithToast } from '#app/modules/toast/toast.server'
import type { RouteHandle } from '#app/root'

export const handle: RouteHandle = { layout: 'admin', transition: true }

export const meta: Route.MetaFunction = ({ loaderData }) => [
  {
    title: loaderData
      ? `${loaderData.employee.name || loaderData.employee.email} · Employees · Panorama admin`
      : 'Employee · Panorama admin',
  },
]

// React Router keeps an action's headers only when the route passes them on: a 429's Retry-After.
export const headers: Route.HeadersFunction = ({ actionHeaders }) => {
  const retryAfter = actionHeaders.get('Retry-After')
  return retryAfter ? { 'Retry-After': retryAfter } : new Headers()
}

const LIST = '/admin/employee-management'

/**
 * One employee: their details (edit), their account (disable / enable behind a confirmation,
 * resend the activation e-mail), their schemes with their report and colleagues, and the feedback
 * asked of them. An unknown or malformed uid, an admin's or a colleague's, is the 404 page.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  await requireUser(request, { roles: ROUTE_ROLES.admin })
  const employee = await getEmployee(params.uid)
  if (!employee) notFound()
  const query = EmployeeDetailQuerySchema.parse(Object.fromEntries(new URL(request.url).searchParams))
  const [activity, companies] = await Promise.all([getEmployeeActivity(employee.id), companyOptions()])
  return {
    employee,
    ...activity,
    companies,
    confirmDisable: query.disable === '1' && employee.state !== 'disabled',
  }
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const { user } = await requireUser(request, { roles: ROUTE_ROLES.admin })
  const employee = await getEmployee(params.uid)
  if (!employee) notFound()
  const formData = await request.formData().catch(() => null)
  if (!formData) return unreadableForm()
  const actor = { id: user.id, ip: context.ip || null }
  const page = `${LIST}/${employee.id}`
  // The form's hidden id must name this page's employee: a form from another tab cannot act here.
  const sameEmployee = formData.get('employeeId') === null || formData.get('employeeId') === employee.id
  if (!sameEmployee) return unreadableForm()
  const intent = formData.get('intent')

  if (intent === 'update')
    return submitIntent(
      formData,
      intent,
      EmployeeUpdateSchema,
      ({ employeeId, ...input }) => updateEmployee(actor, employeeId, input),
      ({ changed }, input) =>
        redirectWithToast(
          page,
          changed.length
            ? {
                kind: 'success',
                title: 'Employee saved',
                description: `${possessive(input.name)} details were updated.`,
              }
            : {
                kind: 'info',
                title: 'Nothing to save',
                description: 'The employee already had those details.',
              },
        ),
    )

  if (intent === 'disable')
    return submitIntent(
      formData,
      intent,
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
    )

  if (intent === 'enable')
    return submitIntent(
      formData,
      intent,
      EmployeeEnableSchema,
      ({ employeeId }) => enableEmployee(actor, employeeId),
      ({ name, changed }) =>
        redirectWithToast(page, {
          kind: changed ? 'success' : 'info',
          title: changed ? 'Employee enabled' : 'Already enabled',
          description: changed ? `${name} can sign in again.` : `${name} was not disabled.`,
        }),
    )

  if (intent === 'resend-activation')
    return submitIntent(
      formData,
      intent,
      EmployeeResendSchema,
      ({ employeeId }) => resendActivation(actor, employeeId),
      ({ name, email }) =>
        redirectWithToast(page, {
          kind: 'success',
          title: 'Activation e-mail sent',
          description: `A new activation link is on its way to ${name} at ${email}; earlier links no longer work.`,
        }),
    )

  return unreadableForm()
}

function AccountActions({
  employee,
  resendResult,
  enableResult,
}: {
  employee: { id: string; name: string; state: 'invited' | 'active' | 'disabled' }
  resendResult: FormResult
  enableResult: FormResult
}) {
  const resending = usePendingIntent('resend-activation')
  const enabling = usePendingIntent('enable')
  const [resendForm] = useForm({ id: 'resend-activation', lastResult: resendResult })
  const [enableForm] = useForm({ id: 'enable-employee', lastResult: enableResult })
  return (
    <section aria-labelledby="account-title" className="card flex flex-col gap-4">
      <h2 id="account-title" className="text-lg font-semibold">
        Account
      </h2>
      <p className="flex flex-wrap items-center gap-2 text-slate-800">
        <StateBadge state={employee.state} />
        {employee.state === 'invited'
          ? 'They have not activated their account yet (no password).'
          : employee.state === 'active'
            ? 'They have activated their account and can sign in.'
            : 'They cannot sign in.'}
      </p>
      {employee.state === 'invited' ? (
        <Form method="post" className="flex flex-col gap-2" {...getFormProps(resendForm)}>
          <input type="hidden" name="intent" value="resend-activation" />
          <input type="hidden" name="employeeId" value={employee.id} />
          <FormErrors id={resendForm.errorId} errors={resendForm.errors} />
          <div>
            <button type="submit" className="btn btn-secondary" disabled={resending}>
              {resending ? 'Sending…' : 'Send the activation e-mail again'}
            </button>
          </div>
        </Form>
      ) : (
        // A resend refused because the page was out of date (they activated meanwhile) still says why.
        <FormErrors errors={formErrorsOf(resendResult)} />
      )}
      {employee.state === 'disabled' ? (
        <Form method="post" className="flex flex-col gap-2" {...getFormProps(enableForm)}>
          <input type="hidden" name="intent" value="enable" />
          <input type="hidden" name="employeeId" value={employee.id} />
          <FormErrors id={enableForm.errorId} errors={enableForm.errors} />
          <div>
            <button type="submit" className="btn btn-primary" disabled={enabling}>
              {enabling ? 'Enabling…' : 'Enable the account'}
            </button>
          </div>
        </Form>
      ) : (
        <div>
          <Link className="btn btn-danger" to="?disable=1">
            Disable the account<span className="sr-only"> of {employee.name}</span>
          </Link>
        </div>
      )}
    </section>
  )
}

export default function EmployeeDetailPage({ loaderData, actionData }: Route.ComponentProps) {
  const { employee, programmes, ratings, companies, confirmDisable } = loaderData
  const name = employee.name || employee.email
  const unknownErrors = actionData?.intent === 'unknown' ? formErrorsOf(actionData.result) : undefined
  const disableResult = resultFor(actionData, 'disable')
  return (
    <section aria-labelledby="page-title" className="flex max-w-5xl flex-col gap-8">
      <PageHeader title={name}>
        {employee.companyName ? `${employee.companyName} · ` : ''}
        <Link className="link" to={LIST}>
          All employees
        </Link>
      </PageHeader>
      <FormErrors errors={unknownErrors ?? (!confirmDisable ? formErrorsOf(disableResult) : undefined)} />

      {confirmDisable ? (
        <ConfirmPanel
          id="disable-employee"
          title={`Disable ${name}?`}
          intent="disable"
          fields={{ employeeId: employee.id }}
          confirmLabel="Yes, disable the account"
          pendingLabel="Disabling…"
          cancelHref={`${LIST}/${employee.id}`}
          lastResult={disableResult}
        >
          <p className="text-slate-800">
            They will be signed out everywhere at once and cannot sign in until the account is enabled again.
            Their answers and reports are kept.
          </p>
        </ConfirmPanel>
      ) : null}

      <section aria-labelledby="details-title" className="card flex flex-col gap-4">
        <h2 id="details-title" className="text-lg font-semibold">
          Details
        </h2>
        <EditEmployeeForm
          employee={employee}
          companies={companies}
          lastResult={resultFor(actionData, 'update')}
        />
      </section>

      <AccountActions
        employee={{ id: employee.id, name, state: employee.state }}
        resendResult={resultFor(actionData, 'resend-activation')}
        enableResult={resultFor(actionData, 'enable')}
      />

      <EmployeeProgrammes employeeId={employee.id} employeeName={name} programmes={programmes} />
      <EmployeeRatings employeeName={name} ratings={ratings} />
    </section>
  )
}
