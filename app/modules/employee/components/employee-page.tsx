import { useTranslation } from 'react-i18next'
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
import { richT } from '#app/modules/i18n/rich'
import type { loadEmployeePage } from '../employee-page.server'
import { EmployeeProgrammes, EmployeeRatings } from './employee-activity'
import { EditEmployeeForm, StateBadge } from './employee-forms'
import { ErasePerson } from './erase-person'

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
  const { t } = useTranslation('employees')
  return (
    <Card id="account-title" title={t('page.account')}>
      <p className="flex flex-wrap items-center gap-2 text-slate-800">
        <StateBadge state={employee.state} />
        {t(`page.${employee.state}`)}
      </p>
      {employee.state === 'invited' ? (
        <AccountForm
          id="resend-activation"
          intent="resend-activation"
          employeeId={employee.id}
          lastResult={resendResult}
          label={t('page.resend')}
          pendingLabel={t('page.sending')}
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
          label={t('page.enable')}
          pendingLabel={t('page.enabling')}
          tone="primary"
        />
      ) : (
        <div>
          <Link className="btn btn-danger" to="?disable=1">
            {t('page.disable')}
            <span className="sr-only">{t('page.disableOf', { name: employee.name })}</span>
          </Link>
        </div>
      )}
    </Card>
  )
}

/** Whom they report to and who reports to them, each a link to that person's page. */
function ReportingLine({ employee }: { employee: PageData<typeof loadEmployeePage>['employee'] }) {
  const { t } = useTranslation('employees')
  const { manager, reports, reportCount } = employee
  return (
    <Card id="reporting-title" title={t('page.reportingLine')}>
      <p className="text-slate-800">
        {manager
          ? richT(t, 'page.reportsTo', {
              link: (
                <Link className="link" to={`${LIST}/${manager.id}`}>
                  {manager.name}
                </Link>
              ),
            })
          : t('page.noManager')}
      </p>
      {reportCount ? (
        <div className="flex flex-col gap-2">
          <h3 className="font-semibold text-slate-900">{t('page.directReports', { count: reportCount })}</h3>
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
                {t('page.allDirectReports', { count: reportCount })}
              </Link>
            </p>
          ) : null}
        </div>
      ) : (
        <p className="text-slate-700">{t('page.nobodyReports')}</p>
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
  const { t } = useTranslation('employees')
  const { employee, programmes, ratings, companies, confirmDisable } = data
  const name = employee.name || employee.email
  const unknownErrors = actionData?.intent === 'unknown' ? formErrorsOf(actionData.result) : undefined
  const disableResult = resultFor(actionData, 'disable')
  return (
    <section aria-labelledby="page-title" className="flex max-w-5xl flex-col gap-8">
      <PageHeader title={name}>
        {employee.companyName ? `${employee.companyName} · ` : ''}
        <Link className="link" to={LIST}>
          {t('page.allEmployees')}
        </Link>
      </PageHeader>
      <FormErrors errors={unknownErrors ?? (!confirmDisable ? formErrorsOf(disableResult) : undefined)} />

      {confirmDisable ? (
        <ConfirmPanel
          id="disable-employee"
          title={t('page.disableTitle', { name })}
          intent="disable"
          fields={{ employeeId: employee.id }}
          confirmLabel={t('page.disableConfirm')}
          pendingLabel={t('page.disabling')}
          cancelHref={`${LIST}/${employee.id}`}
          lastResult={disableResult}
        >
          <p className="text-slate-800">{t('page.disableText')}</p>
        </ConfirmPanel>
      ) : null}

      <Card id="details-title" title={t('page.details')}>
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

      <ErasePerson
        employee={{ id: employee.id, name, email: employee.email }}
        erasure={data.erasure}
        lastResult={resultFor(actionData, 'erase')}
      />
    </section>
  )
}
