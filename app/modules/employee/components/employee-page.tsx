import { Link } from 'react-router'
import {
  formErrorsOf,
  resultFor,
  useResultForm,
  type FormResult,
  type IntentReply,
} from '#app/components/form-kit'
import { IntentForm, SubmitButton } from '#app/components/form-parts'
import { ConfirmPanel, PageHeader } from '#app/components/page-kit'
import { Card } from '#app/components/card'
import { FormErrors } from '#app/components/forms'
import type { PageData } from '#app/lib/page-data'
import type { loadEmployeePage } from '../employee-page.server'
import { EmployeeProgrammes, EmployeeRatings } from './employee-activity'
import { EditEmployeeForm, StateBadge } from './employee-forms'

/**
 * An employee's page (the route is app/routes/admin/employee-management.$uid.tsx): their details,
 * their account (disable behind a confirmation, enable, resend the activation e-mail), their
 * schemes and the feedback asked of them.
 */

const LIST = '/admin/employee-management'

/** One account change that is a single button (resend, enable), with the refusal above it. */
function AccountForm({
  id,
  intent,
  employeeId,
  lastResult,
  label,
  pendingLabel,
  tone = 'secondary',
}: {
  id: string
  intent: string
  employeeId: string
  lastResult: FormResult
  label: string
  pendingLabel: string
  tone?: 'secondary' | 'primary'
}) {
  const [form] = useResultForm(id, lastResult)
  return (
    <IntentForm form={form} intent={intent} className="flex flex-col gap-2">
      <input type="hidden" name="employeeId" value={employeeId} />
      <FormErrors id={form.errorId} errors={form.errors} />
      <div>
        <SubmitButton
          intent={intent}
          label={label}
          pendingLabel={pendingLabel}
          className={`btn btn-${tone}`}
        />
      </div>
    </IntentForm>
  )
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
  return (
    <Card id="account-title" title="Account">
      <p className="flex flex-wrap items-center gap-2 text-slate-800">
        <StateBadge state={employee.state} />
        {employee.state === 'invited'
          ? 'They have not activated their account yet (no password).'
          : employee.state === 'active'
            ? 'They have activated their account and can sign in.'
            : 'They cannot sign in.'}
      </p>
      {employee.state === 'invited' ? (
        <AccountForm
          id="resend-activation"
          intent="resend-activation"
          employeeId={employee.id}
          lastResult={resendResult}
          label="Send the activation e-mail again"
          pendingLabel="Sending…"
        />
      ) : (
        // A resend refused because the page was out of date (they activated meanwhile) still says why.
        <FormErrors errors={formErrorsOf(resendResult)} />
      )}
      {employee.state === 'disabled' ? (
        <AccountForm
          id="enable-employee"
          intent="enable"
          employeeId={employee.id}
          lastResult={enableResult}
          label="Enable the account"
          pendingLabel="Enabling…"
          tone="primary"
        />
      ) : (
        <div>
          <Link className="btn btn-danger" to="?disable=1">
            Disable the account<span className="sr-only"> of {employee.name}</span>
          </Link>
        </div>
      )}
    </Card>
  )
}

/** Whom they report to and who reports to them, each a link to that person's page. */
function ReportingLine({ employee }: { employee: PageData<typeof loadEmployeePage>['employee'] }) {
  const { manager, reports, reportCount } = employee
  return (
    <Card id="reporting-title" title="Reporting line">
      <p className="text-slate-800">
        {manager ? (
          <>
            Reports to{' '}
            <Link className="link" to={`${LIST}/${manager.id}`}>
              {manager.name}
            </Link>
            .
          </>
        ) : (
          'No manager is recorded. Enter their manager’s e-mail address in the details above.'
        )}
      </p>
      {reportCount ? (
        <div className="flex flex-col gap-2">
          <h3 className="font-semibold text-slate-900">
            {reportCount === 1 ? 'One direct report' : `${reportCount} direct reports`}
          </h3>
          <ul className="flex flex-col gap-1">
            {reports.map((r) => (
              <li key={r.id}>
                <Link className="link" to={`${LIST}/${r.id}`}>
                  {r.name}
                </Link>
                {r.jobTitle ? <span className="text-slate-700"> · {r.jobTitle}</span> : null}
              </li>
            ))}
          </ul>
          {reportCount > reports.length ? (
            <p>
              <Link className="link" to={`${LIST}?manager=${employee.id}`}>
                All {reportCount} direct reports
              </Link>
            </p>
          ) : null}
        </div>
      ) : (
        <p className="text-slate-700">Nobody reports to them.</p>
      )}
    </Card>
  )
}

export function EmployeePage({
  data,
  actionData,
}: {
  data: PageData<typeof loadEmployeePage>
  actionData: IntentReply
}) {
  const { employee, programmes, ratings, companies, confirmDisable } = data
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

      <Card id="details-title" title="Details">
        <EditEmployeeForm
          employee={employee}
          companies={companies}
          lastResult={resultFor(actionData, 'update')}
        />
      </Card>

      <ReportingLine employee={employee} />

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
