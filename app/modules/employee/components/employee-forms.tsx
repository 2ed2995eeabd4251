import { getFormProps, getInputProps, getSelectProps } from '@conform-to/react'
import { Form } from 'react-router'
import {
  useConformForm,
  usePendingIntent,
  useResetAfterSuccess,
  type FormResult,
} from '#app/components/form-kit'
import { Field, FormErrors, SelectField } from '#app/components/forms'
import {
  EMPLOYEE_STATE_LABELS,
  EmployeeCreateSchema,
  EmployeeUpdateSchema,
  type EmployeeState,
} from '#app/modules/employee/schemas'

type Option = { id: string; name: string }

const choices = (options: Option[]) => options.map((o) => ({ value: o.id, label: o.name }))

const STATE_STYLES: Record<EmployeeState, string> = {
  invited: 'border-amber-300 bg-amber-50 text-amber-950',
  active: 'border-emerald-300 bg-emerald-50 text-emerald-950',
  disabled: 'border-slate-300 bg-slate-100 text-slate-800',
}

export function StateBadge({ state }: { state: EmployeeState }) {
  return (
    <span
      className={`inline-block rounded-full border px-2 py-0.5 text-xs font-semibold ${STATE_STYLES[state]}`}
    >
      {EMPLOYEE_STATE_LABELS[state]}
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
  const busy = usePendingIntent('create')
  const [form, fields] = useConformForm(EmployeeCreateSchema, { id: 'create-employee', lastResult })
  useResetAfterSuccess(form.id, 'create', lastResult)
  return (
    <Form method="post" className="flex flex-col gap-4" {...getFormProps(form)}>
      <input type="hidden" name="intent" value="create" />
      <FormErrors id={form.errorId} errors={form.errors} />
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          label="Name"
          inputProps={{ ...getInputProps(fields.name, { type: 'text' }), autoComplete: 'off' }}
          errors={fields.name.errors}
        />
        <Field
          label="E-mail address"
          inputProps={{ ...getInputProps(fields.email, { type: 'email' }), autoComplete: 'off' }}
          errors={fields.email.errors}
        />
        <SelectField
          label="Company"
          selectProps={getSelectProps(fields.companyId)}
          options={choices(companies)}
          placeholder="Choose a company…"
          errors={fields.companyId.errors}
        />
        <Field
          label="Phone (optional)"
          inputProps={{ ...getInputProps(fields.phone, { type: 'tel' }), autoComplete: 'off' }}
          errors={fields.phone.errors}
        />
      </div>
      <p className="text-sm text-slate-700">
        No e-mail is sent now: the activation e-mail goes out when a scheme they are enrolled in is launched.
      </p>
      <div>
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {busy ? 'Adding…' : 'Add employee'}
        </button>
      </div>
    </Form>
  )
}

export function EditEmployeeForm({
  employee,
  companies,
  lastResult,
}: {
  employee: { id: string; name: string; email: string; phone: string | null; companyId: string | null }
  companies: Option[]
  lastResult: FormResult
}) {
  const busy = usePendingIntent('update')
  const [form, fields] = useConformForm(EmployeeUpdateSchema, {
    id: `update-employee-${employee.id}`,
    defaultValue: {
      employeeId: employee.id,
      name: employee.name,
      email: employee.email,
      phone: employee.phone ?? '',
      companyId: employee.companyId ?? '',
    },
    lastResult,
  })
  return (
    <Form
      method="post"
      aria-labelledby="details-title"
      className="flex flex-col gap-4"
      {...getFormProps(form)}
    >
      <input type="hidden" name="intent" value="update" />
      <input type="hidden" name="employeeId" value={employee.id} />
      <FormErrors id={form.errorId} errors={form.errors} />
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          label="Name"
          inputProps={{ ...getInputProps(fields.name, { type: 'text' }), autoComplete: 'off' }}
          errors={fields.name.errors}
        />
        <Field
          label="E-mail address"
          inputProps={{ ...getInputProps(fields.email, { type: 'email' }), autoComplete: 'off' }}
          errors={fields.email.errors}
        />
        <SelectField
          label="Company"
          selectProps={getSelectProps(fields.companyId)}
          options={choices(companies)}
          placeholder="Choose a company…"
          errors={fields.companyId.errors}
        />
        <Field
          label="Phone (optional)"
          inputProps={{ ...getInputProps(fields.phone, { type: 'tel' }), autoComplete: 'off' }}
          errors={fields.phone.errors}
        />
      </div>
      <div>
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {busy ? 'Saving…' : 'Save details'}
        </button>
      </div>
    </Form>
  )
}
