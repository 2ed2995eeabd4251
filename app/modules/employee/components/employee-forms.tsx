import { FilterSelect } from '#app/components/admin-list'
import { getFormProps, getInputProps, getSelectProps } from '@conform-to/react'
import { Form, Link } from 'react-router'
import {
  useConformForm,
  usePendingIntent,
  useResetAfterSuccess,
  type FormResult,
} from '#app/components/form-kit'
import { Field, FormErrors, SelectField } from '#app/components/forms'
import {
  EMPLOYEE_SORT_LABELS,
  EMPLOYEE_SORTS,
  EMPLOYEE_STATE_LABELS,
  EMPLOYEE_STATES,
  EmployeeCreateSchema,
  EmployeeUpdateSchema,
  type EmployeeListQuery,
  type EmployeeState,
} from '#app/modules/employee/schemas'

type Option = { id: string; name: string }
type SchemeOption = { id: string; name: string; companyName: string }

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

/** The list's search, filters and sort: a GET form, so every state is a link. */
export function EmployeeFilters({
  path,
  query,
  companies,
  schemes,
  schemesNeedCompany,
}: {
  path: string
  query: Pick<EmployeeListQuery, 'q' | 'company' | 'scheme' | 'state' | 'sort'>
  companies: Option[]
  schemes: SchemeOption[]
  /** Too many schemes to list at once: the company filter narrows them. */
  schemesNeedCompany: boolean
}) {
  const filtered = Boolean(query.q || query.company || query.scheme || query.state)
  return (
    <Form
      key={`${query.q}|${query.company}|${query.scheme}|${query.state}|${query.sort}`}
      method="get"
      role="search"
      aria-label="Search employees"
      className="grid gap-3 sm:grid-cols-2 lg:grid-cols-[2fr_1fr_1fr_1fr_1fr_auto] lg:items-end"
    >
      <div className="flex flex-col gap-1">
        <label htmlFor="employees-search" className="label">
          Search by name or e-mail
        </label>
        <input
          id="employees-search"
          type="search"
          name="q"
          defaultValue={query.q}
          maxLength={100}
          className="input"
        />
      </div>
      <FilterSelect
        id="employees-company"
        name="company"
        label="Company"
        value={query.company}
        anyLabel="All companies"
        options={companies.map((c) => ({ value: c.id, label: c.name }))}
      />
      <div className="flex flex-col gap-1">
        <label htmlFor="employees-scheme" className="label">
          Scheme
        </label>
        <select
          id="employees-scheme"
          name="scheme"
          defaultValue={query.scheme}
          className="input"
          aria-describedby={schemesNeedCompany ? 'employees-scheme-help' : undefined}
        >
          <option value="">Any scheme</option>
          {schemes.map((s) => (
            <option key={s.id} value={s.id}>
              {s.name} ({s.companyName})
            </option>
          ))}
        </select>
        {schemesNeedCompany ? (
          <p id="employees-scheme-help" className="text-xs text-slate-600">
            Choose a company first to list its schemes.
          </p>
        ) : null}
      </div>
      <FilterSelect
        id="employees-state"
        name="state"
        label="State"
        value={query.state}
        anyLabel="Any state"
        options={EMPLOYEE_STATES.map((s) => ({ value: s, label: EMPLOYEE_STATE_LABELS[s] }))}
      />
      <FilterSelect
        id="employees-sort"
        name="sort"
        label="Sort by"
        value={query.sort}
        options={EMPLOYEE_SORTS.map((s) => ({ value: s, label: EMPLOYEE_SORT_LABELS[s] }))}
      />
      <div className="flex flex-wrap items-center gap-3">
        <button type="submit" className="btn btn-secondary">
          Show
        </button>
        {filtered ? (
          <Link className="link" to={`${path}?${new URLSearchParams({ sort: query.sort })}`}>
            Clear filters
          </Link>
        ) : null}
      </div>
    </Form>
  )
}
