import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { formErrorsOf, useConformForm, type FormResult } from '#app/components/form-kit'
import { ConformField, IntentForm, SubmitButton } from '#app/components/form-parts'
import { Card } from '#app/components/card'
import { FormErrors } from '#app/components/forms'
import { formatDate } from '#app/lib/dates'
import type { PageData } from '#app/lib/page-data'
import { useIntlLocale } from '#app/modules/i18n/use-intl-locale'
import type { loadEmployeePage } from '../employee-page.server'
import { EmployeeEraseSchema } from '../schemas'

type Erasure = PageData<typeof loadEmployeePage>['erasure']

/**
 * The danger zone of an employee's page (ADR 056): erasing the person, irreversibly. The
 * confirmation says what goes and what their company keeps, and asks for their address, typed.
 */
export function ErasePerson({
  employee,
  erasure,
  lastResult,
}: {
  employee: { id: string; name: string; email: string }
  erasure: Erasure
  lastResult: FormResult
}) {
  const { t } = useTranslation('employees')
  const locale = useIntlLocale()
  const [form, fields] = useConformForm(EmployeeEraseSchema, { id: 'erase-person', lastResult })
  const page = `/admin/employee-management/${employee.id}`
  if (erasure.erasedAt)
    return (
      <Card id="erase-title" title={t('erase.title')}>
        <FormErrors errors={formErrorsOf(lastResult)} />
        <p className="text-slate-800">
          {t('erase.done', { date: formatDate(erasure.erasedAt, 'UTC', locale) })}
        </p>
      </Card>
    )
  return (
    <Card id="erase-title" title={t('erase.title')}>
      <p className="text-slate-800">{t('erase.intro')}</p>
      {/* Open when asked for, and when a refusal comes back (the form was posted without ?erase=1). */}
      {erasure.confirm || lastResult ? (
        <IntentForm
          form={form}
          intent="erase"
          className="flex flex-col gap-3 rounded border border-red-300 p-4"
        >
          <input type="hidden" name="employeeId" value={employee.id} />
          <h3 className="font-semibold text-red-900">{t('erase.confirmTitle', { name: employee.name })}</h3>
          <ul className="list-disc pl-6 text-slate-800">
            <li>{t('erase.account')}</li>
            <li>{t('erase.reports', { count: erasure.reports })}</li>
            {erasure.givenKeep || !erasure.givenDelete ? (
              <li>{t('erase.givenKeep', { count: erasure.givenKeep })}</li>
            ) : null}
            {erasure.givenDelete ? <li>{t('erase.givenDelete', { count: erasure.givenDelete })}</li> : null}
            <li>{t('erase.audit')}</li>
          </ul>
          <p className="font-semibold text-red-900">{t('erase.irreversible')}</p>
          <FormErrors id={form.errorId} errors={form.errors} />
          <ConformField
            label={t('erase.typeEmail', { email: employee.email })}
            meta={fields.confirmEmail}
            type="email"
            autoComplete="off"
          />
          <div className="flex gap-3">
            <SubmitButton
              intent="erase"
              label={t('erase.confirm')}
              pendingLabel={t('erase.erasing')}
              className="btn btn-danger"
            />
            <Link className="btn btn-secondary" to={page}>
              {t('erase.cancel')}
            </Link>
          </div>
        </IntentForm>
      ) : (
        <div>
          <Link className="btn btn-danger" to="?erase=1">
            {t('erase.open')}
            <span className="sr-only">{t('erase.openOf', { name: employee.name })}</span>
          </Link>
        </div>
      )}
    </Card>
  )
}
