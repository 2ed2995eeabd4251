import { useId, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes } from 'react'
import { useTranslation } from 'react-i18next'

export type ListOfErrors = Array<string | null | undefined> | null | undefined

/**
 * The words of a form's messages in the reader's language. Schemas and actions keep answering
 * English sentences (Zod runs in the browser and on the server alike, and the tests read them); each
 * slice's catalogue translates its own under a top-level `validation` table keyed by the English
 * sentence (ADR 052). The tables of every namespace the page has loaded are searched; a sentence no
 * table has shows as written.
 */
export function useFormMessage() {
  const { i18n } = useTranslation()
  return (message: string) => {
    const tables = Object.values(i18n.store?.data?.[i18n.language] ?? {}).map(
      (messages) => (messages as { validation?: Record<string, unknown> }).validation,
    )
    return sentenceIn(tables, message, new Intl.NumberFormat(i18n.language).format)
  }
}

/**
 * A sentence's translation in the first table that has it; else a sentence built with values ("Use
 * at least 12 characters.", "The invitation to Ann was sent … resend it in 15 minutes."), held with
 * `{n}` in each value's place, the values carried over in order, each itself looked up ("15
 * minutes" → "15 Minuten") and a number written anew by `number` ("10,000" → "10.000"); else the
 * sentence itself.
 */
export function sentenceIn(
  tables: Array<Record<string, unknown> | undefined>,
  message: string,
  number?: (n: number) => string,
): string {
  for (const table of tables) if (typeof table?.[message] == 'string') return table[message] as string
  for (const table of tables)
    for (const [sentence, said] of Object.entries(table ?? {})) {
      const values =
        typeof said == 'string' &&
        sentence.includes('{n}') &&
        RegExp(`^${sentence.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replaceAll('{n}', '(.+?)')}$`, 's').exec(
          message,
        )
      let i = 0
      if (values)
        return said.replace(/\{n\}/g, () => {
          const value = values[++i]!
          return number && /^\d{1,3}(,\d{3})*(\.\d+)?$/.test(value)
            ? number(+value.replaceAll(',', ''))
            : sentenceIn(tables, value, number)
        })
    }
  return message
}

export function ErrorList({ id, errors }: { id?: string; errors?: ListOfErrors }) {
  const say = useFormMessage()
  const list = errors?.filter(Boolean)
  if (!list?.length) return null
  return (
    <ul id={id} className="field-error flex flex-col gap-1">
      {list.map((e) => (
        <li key={e}>{say(e!)}</li>
      ))}
    </ul>
  )
}

/** What a labelled control is told besides the control itself. */
type LabelledProps = {
  label: ReactNode
  errors?: ListOfErrors
  help?: ReactNode
  className?: string
}

/**
 * A label, the control it names (drawn by `control` with its id and the aria attributes that point
 * at its help text and errors), the help text and the errors.
 */
function Labelled({
  id: givenId,
  label,
  errors,
  help,
  className,
  control,
}: LabelledProps & {
  id: string | undefined
  control: (attributes: {
    id: string
    'aria-invalid': true | undefined
    'aria-describedby': string | undefined
  }) => ReactNode
}) {
  const fallbackId = useId()
  const id = givenId ?? fallbackId
  const errorId = errors?.filter(Boolean).length ? `${id}-error` : undefined
  const helpId = help ? `${id}-help` : undefined
  return (
    <div className={className ?? 'flex flex-col gap-1'}>
      <label htmlFor={id} className="label">
        {label}
      </label>
      {control({
        id,
        'aria-invalid': errorId ? true : undefined,
        'aria-describedby': [helpId, errorId].filter(Boolean).join(' ') || undefined,
      })}
      {help ? (
        <p id={helpId} className="text-sm text-slate-600">
          {help}
        </p>
      ) : null}
      <ErrorList id={errorId} errors={errors} />
    </div>
  )
}

/** A labelled input with its help text and errors wired through aria-describedby. */
export function Field({
  inputProps,
  ...labelled
}: LabelledProps & { inputProps: InputHTMLAttributes<HTMLInputElement> }) {
  return (
    <Labelled
      {...labelled}
      id={inputProps.id}
      control={(attributes) => <input {...inputProps} {...attributes} className="input" />}
    />
  )
}

/** A labelled <select> with a "choose" placeholder, help text and errors, like {@link Field}. */
export function SelectField({
  selectProps,
  options,
  placeholder,
  ...labelled
}: LabelledProps & {
  selectProps: SelectHTMLAttributes<HTMLSelectElement>
  options: ReadonlyArray<{ value: string; label: string }>
  placeholder: string
}) {
  return (
    <Labelled
      {...labelled}
      id={selectProps.id}
      control={(attributes) => (
        <select {...selectProps} {...attributes} className="input">
          <option value="">{placeholder}</option>
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      )}
    />
  )
}

/** Form-level errors (not tied to one field), announced to screen readers. */
export function FormErrors({ id, errors }: { id?: string; errors?: ListOfErrors }) {
  const say = useFormMessage()
  const list = errors?.filter(Boolean)
  if (!list?.length) return null
  return (
    <div id={id} role="alert" className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-900">
      {list.map((e) => (
        <p key={e}>{say(e!)}</p>
      ))}
    </div>
  )
}
