import {
  useConformForm,
  useResetAfterSuccess,
  type ConformFields,
  type FormResult,
} from '#app/components/form-kit'
import { ConformField, ConformSelect, IntentForm, SubmitButton } from '#app/components/form-parts'
import { FormErrors } from '#app/components/forms'
import { stateBadge } from '#app/components/state-badge'
import { choicesOf } from '#app/components/choices'
import {
  EMPLOYEE_STATE_LABELS,
  EmployeeCreateSchema,
  EmployeeUpdateSchema,
  type EmployeeState,
} from '#app/modules/employee/schemas'

type Option = { id: string; name: string }

export const StateBadge = stateBadge<EmployeeState>(EMPLOYEE_STATE_LABELS, {
  invited: 'border border-amber-300 bg-amber-50 text-amber-950',
  active: 'border border-emerald-300 bg-emerald-50 text-emerald-950',
  disabled: 'border border-slate-300 bg-slate-100 text-slate-800',
})

export function CreateEmployeeForm({
  companies,
  lastResult,
}: {
  companies: Option[]
  lastResult: FormResult
}) {
  const [form, fields] = useConformForm(EmployeeCreateSchema, { id: 'create-employee', lastResult })
  useResetAfterSuccess(form.id, 'create', lastResult)
  return (
    <IntentForm form={form} intent="create" className="flex flex-col gap-4">
      <FormErrors id={form.errorId} errors={form.errors} />
      <EmployeeFields fields={fields} companies={companies} />
      <p className="text-sm text-slate-700">
        No e-mail is sent now: the activation e-mail goes out when a scheme they are enrolled in is launched.
      </p>
      <div>
        <SubmitButton intent="create" label="Add employee" pendingLabel="Adding…" />
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
  return (
    <IntentForm form={form} intent="update" aria-labelledby="details-title" className="flex flex-col gap-4">
      <input type="hidden" name="employeeId" value={employee.id} />
      <FormErrors id={form.errorId} errors={form.errors} />
      <EmployeeFields fields={fields} companies={companies} />
      <div>
        <SubmitButton intent="update" label="Save details" pendingLabel="Saving…" />
      </div>
    </IntentForm>
  )
}

/** The details an employee is created and edited with: the same fields in both forms. */
function EmployeeFields({ fields, companies }: { fields: ConformFields; companies: Option[] }) {
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <ConformField label="Name" meta={fields.name} autoComplete="off" />
      <ConformField label="E-mail address" meta={fields.email} type="email" autoComplete="off" />
      <ConformSelect
        label="Company"
        meta={fields.companyId}
        options={choicesOf(companies)}
        placeholder="Choose a company…"
      />
      <ConformField label="Phone (optional)" meta={fields.phone} type="tel" autoComplete="off" />
      <ConformField label="Job title (optional)" meta={fields.jobTitle} autoComplete="off" />
      <ConformField label="Department or team (optional)" meta={fields.department} autoComplete="off" />
      <ConformField
        label="Manager’s e-mail address (optional)"
        meta={fields.managerEmail}
        type="email"
        autoComplete="off"
        help="An employee of the same company. Their manager is suggested when they choose who gives feedback."
        className="sm:col-span-2"
      />
    </div>
  )
}
