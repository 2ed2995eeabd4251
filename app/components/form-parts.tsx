import { getFormProps, getInputProps, getSelectProps, type FieldMetadata } from '@conform-to/react'
import { type InputHTMLAttributes, type ReactNode } from 'react'
import { Form, type FormProps } from 'react-router'
import { usePendingIntent, type useConformForm } from '#app/components/form-kit'
import { ErrorList, Field, FormErrors, SelectField } from '#app/components/forms'

/**
 * The form kit's building blocks for admin forms: a form that posts one intent, the one-line create
 * form, a submit button with its pending words, and fields bound to Conform. Apart from the hooks
 * (form-kit.tsx) so that a page with one small form does not load them.
 */

/**
 * A Conform form posting one `intent` (the hidden field every action dispatches on); the other
 * attributes (class, aria-label, encType) are the <Form>'s own.
 */
export function IntentForm({
  form,
  intent,
  children,
  ...attributes
}: {
  form: ReturnType<typeof useConformForm>[0]
  intent: string
  children: ReactNode
} & Omit<FormProps, 'method' | 'children'>) {
  return (
    <Form method="post" {...attributes} {...getFormProps(form)}>
      <input type="hidden" name="intent" value={intent} />
      {children}
    </Form>
  )
}

/** A one-row create form: its fields and button side by side on a wide screen, its messages above. */
export function RowForm({
  form,
  intent,
  label,
  pendingLabel,
  children,
}: {
  form: ReturnType<typeof useConformForm>[0]
  intent: string
  label: string
  pendingLabel: string
  children: ReactNode
}) {
  return (
    <IntentForm form={form} intent={intent} className="grid gap-4 sm:grid-cols-[1fr_1fr_auto] sm:items-start">
      <div className="sm:col-span-3">
        <FormErrors id={form.errorId} errors={form.errors} />
      </div>
      {children}
      <SubmitButton
        intent={intent}
        label={label}
        pendingLabel={pendingLabel}
        className="btn btn-primary sm:mt-6"
      />
    </IntentForm>
  )
}

/** A form's submit button: disabled, and saying `pendingLabel`, while its intent is being posted. */
export function SubmitButton({
  intent,
  label,
  pendingLabel,
  className = 'btn btn-primary',
}: {
  intent: string
  label: string
  pendingLabel: string
  className?: string
}) {
  const busy = usePendingIntent(intent)
  return (
    <button type="submit" className={className} disabled={busy}>
      {busy ? pendingLabel : label}
    </button>
  )
}

type ConformMeta<Value, Schema extends Record<string, unknown>> = FieldMetadata<Value, Schema, string[]>

/**
 * A {@link Field} bound to one Conform field: its name, id, constraints and errors come from `meta`;
 * any other input attribute (autoComplete, placeholder, accept…) is passed as is. `className` is the
 * wrapper's, as on {@link Field}.
 */
export function ConformField<Value, Schema extends Record<string, unknown>>({
  label,
  meta,
  type = 'text',
  help,
  className,
  ...attributes
}: {
  label: ReactNode
  meta: ConformMeta<Value, Schema>
  type?: 'text' | 'email' | 'tel' | 'url' | 'number' | 'datetime-local' | 'file' | 'password'
  help?: ReactNode
  className?: string
} & Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'className'>) {
  return (
    <Field
      className={className}
      label={label}
      help={help}
      inputProps={{ ...getInputProps(meta, { type }), ...attributes }}
      errors={meta.errors}
    />
  )
}

/** A {@link SelectField} bound to one Conform field, like {@link ConformField}. */
export function ConformSelect<Value, Schema extends Record<string, unknown>>({
  label,
  meta,
  options,
  placeholder,
  help,
  disabled,
}: {
  label: ReactNode
  meta: ConformMeta<Value, Schema>
  options: ReadonlyArray<{ value: string; label: string }>
  placeholder: string
  help?: ReactNode
  disabled?: boolean
}) {
  return (
    <SelectField
      label={label}
      selectProps={disabled === undefined ? getSelectProps(meta) : { ...getSelectProps(meta), disabled }}
      options={options}
      placeholder={placeholder}
      errors={meta.errors}
      help={help}
    />
  )
}

/**
 * Checkboxes bound to one Conform field holding a list (an API key's scopes, a webhook's events): a
 * fieldset with its legend, each value as code with its explanation beside it, ticked as the
 * field's value (or the reply's) says, the field's errors below.
 */
export function ConformCheckboxGroup<Value, Schema extends Record<string, unknown>>({
  legend,
  meta,
  values,
  describe,
}: {
  legend: ReactNode
  meta: ConformMeta<Value, Schema>
  values: readonly string[]
  describe: (value: string) => ReactNode
}) {
  const initial: unknown = meta.initialValue
  const chosen = new Set(
    (Array.isArray(initial) ? initial : [initial]).filter((v): v is string => typeof v === 'string'),
  )
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="label">{legend}</legend>
      <div className="grid gap-2 sm:grid-cols-2">
        {values.map((value) => (
          <div key={value} className="flex items-start gap-2">
            <input
              type="checkbox"
              id={`${meta.id}-${value}`}
              name={meta.name}
              value={value}
              defaultChecked={chosen.has(value)}
              className="mt-1 h-4 w-4 shrink-0 accent-indigo-700"
            />
            <label htmlFor={`${meta.id}-${value}`}>
              <code>{value}</code> <span className="text-slate-700">{describe(value)}</span>
            </label>
          </div>
        ))}
      </div>
      <ErrorList id={meta.errorId} errors={meta.errors} />
    </fieldset>
  )
}
