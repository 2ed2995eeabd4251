import { useId, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes } from 'react'

export type ListOfErrors = Array<string | null | undefined> | null | undefined

export function ErrorList({ id, errors }: { id?: string; errors?: ListOfErrors }) {
  const list = errors?.filter(Boolean)
  if (!list?.length) return null
  return (
    <ul id={id} className="field-error flex flex-col gap-1">
      {list.map((e) => (
        <li key={e}>{e}</li>
      ))}
    </ul>
  )
}

/** A labelled input with its help text and errors wired through aria-describedby. */
export function Field({
  label,
  inputProps,
  errors,
  help,
  className,
}: {
  label: ReactNode
  inputProps: InputHTMLAttributes<HTMLInputElement>
  errors?: ListOfErrors
  help?: ReactNode
  className?: string
}) {
  const fallbackId = useId()
  const id = inputProps.id ?? fallbackId
  const errorId = errors?.filter(Boolean).length ? `${id}-error` : undefined
  const helpId = help ? `${id}-help` : undefined
  return (
    <div className={className ?? 'flex flex-col gap-1'}>
      <label htmlFor={id} className="label">
        {label}
      </label>
      <input
        {...inputProps}
        id={id}
        className="input"
        aria-invalid={errorId ? true : undefined}
        aria-describedby={[helpId, errorId].filter(Boolean).join(' ') || undefined}
      />
      {help ? (
        <p id={helpId} className="text-sm text-slate-600">
          {help}
        </p>
      ) : null}
      <ErrorList id={errorId} errors={errors} />
    </div>
  )
}

/** A labelled <select> with a "choose" placeholder, help text and errors, like {@link Field}. */
export function SelectField({
  label,
  selectProps,
  options,
  placeholder,
  errors,
  help,
  className,
}: {
  label: ReactNode
  selectProps: SelectHTMLAttributes<HTMLSelectElement>
  options: ReadonlyArray<{ value: string; label: string }>
  placeholder: string
  errors?: ListOfErrors
  help?: ReactNode
  className?: string
}) {
  const fallbackId = useId()
  const id = selectProps.id ?? fallbackId
  const errorId = errors?.filter(Boolean).length ? `${id}-error` : undefined
  const helpId = help ? `${id}-help` : undefined
  return (
    <div className={className ?? 'flex flex-col gap-1'}>
      <label htmlFor={id} className="label">
        {label}
      </label>
      <select
        {...selectProps}
        id={id}
        className="input"
        aria-invalid={errorId ? true : undefined}
        aria-describedby={[helpId, errorId].filter(Boolean).join(' ') || undefined}
      >
        <option value="">{placeholder}</option>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      {help ? (
        <p id={helpId} className="text-sm text-slate-600">
          {help}
        </p>
      ) : null}
      <ErrorList id={errorId} errors={errors} />
    </div>
  )
}

/** Form-level errors (not tied to one field), announced to screen readers. */
export function FormErrors({ id, errors }: { id?: string; errors?: ListOfErrors }) {
  const list = errors?.filter(Boolean)
  if (!list?.length) return null
  return (
    <div id={id} role="alert" className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-900">
      {list.map((e) => (
        <p key={e}>{e}</p>
      ))}
    </div>
  )
}
