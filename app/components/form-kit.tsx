import {
  getFormProps,
  getInputProps,
  getSelectProps,
  useForm,
  type FieldMetadata,
  type SubmissionResult,
} from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { useEffect, useRef, type InputHTMLAttributes, type ReactNode } from 'react'
import { Form, useNavigation, type FormProps } from 'react-router'
import type { $ZodType, input } from 'zod/v4/core'
import { Field, FormErrors, SelectField } from '#app/components/forms'

/**
 * The client half of the form kit (the server half is app/lib/reply.server.ts). Every admin and
 * employee form is a plain POST with an `intent` field, so it works without JavaScript; these
 * hooks add Conform's live validation and a pending state per intent; the confirmation panel and
 * the page pieces are in page-kit.tsx.
 */

export type FormResult = SubmissionResult<string[]> | undefined

/** What an action returns through the kit: the intent it answered and Conform's result. */
export type IntentReply = { intent: string; result: SubmissionResult<string[]> } | undefined

/** The result of the action, if it answered this intent. */
export function resultFor(actionData: IntentReply, intent: string): FormResult {
  return actionData?.intent === intent ? actionData.result : undefined
}

/** The form-level messages of a result (those not tied to one field). */
export function formErrorsOf(result: FormResult) {
  return result?.error?.[''] ?? undefined
}

/** The fields of a form made by {@link useConformForm}, for a component that draws some of them. */
export type ConformFields = ReturnType<typeof useConformForm>[1]

/** A Conform form validated by the same Zod schema as the server, live as the person types. */
export function useConformForm<Schema extends $ZodType>(
  schema: Schema,
  options: {
    id: string
    lastResult: FormResult
    defaultValue?: Partial<input<Schema>>
    /** When a field is first checked (Conform's default: on submit); afterwards it is rechecked as typed. */
    shouldValidate?: 'onSubmit' | 'onBlur' | 'onInput'
  },
) {
  return useForm({
    id: options.id,
    constraint: getZodConstraint(schema),
    defaultValue: options.defaultValue as never,
    lastResult: options.lastResult,
    shouldValidate: options.shouldValidate,
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
    // Errors clear as they are fixed, not on blur: a message vanishing under the pointer would move
    // the submit button away from a click that is already under way.
    shouldRevalidate: 'onInput',
  })
}

/**
 * A form with no fields of its own to check (a button and hidden values): Conform only carries the
 * server's answer to it, so its messages have an id to be announced by.
 */
export function useResultForm(id: string, lastResult: FormResult) {
  return useForm({ id, lastResult })
}

/** Whether a form with this intent is being submitted right now. */
export function usePendingIntent(intent: string) {
  const navigation = useNavigation()
  return navigation.state !== 'idle' && navigation.formData?.get('intent') === intent
}

/**
 * Empties a form that stays on screen once its submission succeeded (the action redirected back
 * here, so there is no result); a refused one keeps what was typed. A native reset puts every
 * control back to its markup default, and Conform follows it.
 */
export function useResetAfterSuccess(formId: string, intent: string, lastResult: FormResult) {
  const navigation = useNavigation()
  const pending = useRef(false)
  useEffect(() => {
    if (navigation.state !== 'idle') {
      if (navigation.formData?.get('intent') === intent) pending.current = true
      return
    }
    if (!pending.current) return
    pending.current = false
    if (!lastResult) (document.getElementById(formId) as HTMLFormElement | null)?.reset()
  }, [navigation.state, navigation.formData, formId, intent, lastResult])
}

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
