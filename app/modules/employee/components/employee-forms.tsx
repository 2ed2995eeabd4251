import { useTranslation } from 'react-i18next'
import {
  useConformForm,
  useResetAfterSuccess,
  type ConformFields,
  type FormResult,
} from '#app/components/form-kit'
import { ConformField, ConformSelect, IntentForm, SubmitButton } from '#app/components/form-parts'
import { FormErrors } from '#app/components/forms'
import { choicesOf } from '#app/components/choices'
import {
  EMPLOYEE_SORTS,
  EMPLOYEE_STATES,
  EmployeeCreateSchema,
  EmployeeUpdateSchema,
  type EmployeeSort,
  type EmployeeState,
} from '#app/modules/employee/schemas'

type Option = { id: string; name: string }

const STATE_TONES: Record<EmployeeState, string> = {
  invited: 'border border-amber-300 bg-amber-50 text-amber-950',
  active: 'border border-emerald-300 bg-emerald-50 text-emerald-950',
  disabled: 'border border-slate-300 bg-slate-100 text-slate-800',
}

/** The list's state and sort words in the page's language (the sorts are the kit's name sorts). */
export function useEmployeeWords() {
  const { t } = useTranslation('employees')
  const { t: common } = useTranslation('common')
  const stateLabels = Object.fromEntries(EMPLOYEE_STATES.map((s) => [s, t(`states.${s}`)])) as Record<
    EmployeeState,
    string
  >
  const sortLabels = Object.fromEntries(
    EMPLOYEE_SORTS.map((s) => [s, common(`kit.nameSort.${s}`)]),
  ) as Record<EmployeeSort, string>
  return { stateLabels, sortLabels }
}

/** An employee's account state as a badge, in the page's language. */
export function StateBadge({ state }: { state: EmployeeState }) {
  const { t } = useTranslation('employees')
  return (
    <span className={`inline-block rounded-full px-2 py-0.5 text-xs font-semibold ${STATE_TONES[state]}`}>
      {t(`states.${state}`)}
    </span>
  )
}

export function CreateEmployeeForm({
  companies,
  lastResult,
}: {
  companies: Option[]
  lastResult: FormResult
}) {
  const [form, fields] = useConformForm(EmployeeCreateSchema, { id: 'create-employee', lastResult })
  useResetAfterSuccess(form.id, 'create', lastResult)
  const { t } = useTranslation('employees')
  return (
    <IntentForm form={form} intent="create" className="flex flex-col gap-4">
      <FormErrors id={form.errorId} errors={form.errors} />
      <EmployeeFields fields={fields} companies={companies} />
      <p className="text-sm text-slate-700">{t('form.noEmailNow')}</p>
      <div>
        <SubmitButton intent="create" label={t('form.add')} pendingLabel={t('form.adding')} />
      </div>
    </IntentForm>
  )
}

export function EditEmployeeForm({
  employee,
  companies,
  lastResult,
}: {
  employee: {
    id: string
    name: string
    email: string
    phone: string | null
    companyId: string | null
    department: string | null
    jobTitle: string | null
    manager: { email: string } | null
  }
  companies: Option[]
  lastResult: FormResult
}) {
  const [form, fields] = useConformForm(EmployeeUpdateSchema, {
    id: `update-employee-${employee.id}`,
    defaultValue: {
      employeeId: employee.id,
      name: employee.name,
      email: employee.email,
      phone: employee.phone ?? '',
      companyId: employee.companyId ?? '',
      department: employee.department ?? '',
      jobTitle: employee.jobTitle ?? '',
      managerEmail: employee.manager?.email ?? '',
    },
    lastResult,
  })
  const { t } = useTranslation('employees')
  return (
    <IntentForm form={form} intent="update" aria-labelledby="details-title" className="flex flex-col gap-4">
      <input type="hidden" name="employeeId" value={employee.id} />
      <FormErrors id={form.errorId} errors={form.errors} />
      <EmployeeFields fields={fields} companies={companies} />
      <div>
        <SubmitButton intent="update" label={t('form.save')} pendingLabel={t('form.saving')} />
      </div>
    </IntentForm>
  )
}

/** The details an employee is created and edited with: the same fields in both forms. */
function EmployeeFields({ fields, companies }: { fields: ConformFields; companies: Option[] }) {
  const { t } = useTranslation('employees')
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <ConformField label={t('form.name')} meta={fields.name} autoComplete="off" />
      <ConformField label={t('form.email')} meta={fields.email} type="email" autoComplete="off" />
      <ConformSelect
        label={t('form.company')}
        meta={fields.companyId}
        options={choicesOf(companies)}
        placeholder={t('form.chooseCompany')}
      />
      <ConformField label={t('form.phone')} meta={fields.phone} type="tel" autoComplete="off" />
      <ConformField label={t('form.jobTitle')} meta={fields.jobTitle} autoComplete="off" />
      <ConformField label={t('form.department')} meta={fields.department} autoComplete="off" />
      <ConformField
        label={t('form.manager')}
        meta={fields.managerEmail}
        type="email"
        autoComplete="off"
        help={t('form.managerHelp')}
        className="sm:col-span-2"
      />
    </div>
  )
}
