import { parse, type Submission, type SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data } from 'react-router'
import type { $ZodType, input, output } from 'zod/v4/core'
import { isStorableText, TEXT_MESSAGES } from '#app/lib/text-rules'

/**
 * The posted form, or an empty one when the body is not a form at all (JSON, a broken multipart):
 * the action then answers its usual 400 "fill in the fields" instead of a 500.
 */
export async function readFormData(request: Request): Promise<FormData> {
  try {
    return await request.formData()
  } catch {
    return new FormData()
  }
}

export const UNREADABLE_FORM_MESSAGE = 'This form could not be read. Reload the page and try again.'

/** The action's answer to a post it cannot read (no form body, no or an unknown intent): a 400. */
export function unreadableForm() {
  const result: SubmissionResult<string[]> = { status: 'error', error: { '': [UNREADABLE_FORM_MESSAGE] } }
  return data({ intent: 'unknown' as const, result }, { status: 400 })
}

/** The form-level message for the first field holding text Postgres cannot store. */
export const unstorableFormMessage = (name: string) =>
  `The field “${name.slice(0, 60)}” holds a character that cannot be saved (a null byte, or half of a character pair). Remove it and try again.`

/** Beside a field sent twice or as a list: what the person (or the hand-made request) did wrong. */
export const MISSHAPEN_FIELD_MESSAGE = 'This field takes one value, sent once.'

export type MisshapenField = { name: string; reason: 'repeated' | 'list' | 'reserved' }

/** The form-level message for the first misshapen field (the names are the form's own, so short). */
export function misshapenFormMessage({ name, reason }: MisshapenField) {
  const field = `“${name.slice(0, 60)}”`
  const what =
    reason === 'repeated'
      ? `The field ${field} was sent more than once.`
      : reason === 'list'
        ? `The field ${field} was sent as a list or group of values, and it takes a single value.`
        : `This form was sent with a control field (${field}) it does not use.`
  return `${what} Reload the page and try again.`
}

// Conform's own control fields: the server's forms never post them, and Conform would parse their
// JSON (a malformed one throws).
const CONFORM_RESERVED = new Set(['__intent__', '__state__'])
// Where a Conform name ("tags[0]", "address.city") leaves its top-level field.
const PATH_START = /[.[]/

const topOf = (name: string) => name.split(PATH_START, 1)[0]!

type Def = {
  type: string
  innerType?: $ZodType
  in?: $ZodType
  options?: $ZodType[]
  shape?: Record<string, $ZodType>
}
const defOf = (schema: $ZodType) => schema._zod.def as unknown as Def

/** A field schema that takes one plain value (not a list or an object), under its wrappers. */
function isPlainValue(schema: $ZodType, depth = 0): boolean {
  const def = defOf(schema)
  if (depth > 20) return true
  if (def.innerType) return isPlainValue(def.innerType, depth + 1)
  if (def.type === 'pipe' && def.in) return isPlainValue(def.in, depth + 1)
  return !['array', 'tuple', 'set', 'object', 'record', 'map'].includes(def.type)
}

/** The top-level fields a form schema declares as lists or objects (Conform reads "tags[0]", "tags" twice). */
function structuredFields(schema: $ZodType): Set<string> {
  const found = new Set<string>()
  const visit = (s: $ZodType, depth: number): void => {
    const def = defOf(s)
    if (depth > 20) return
    if (def.innerType) return visit(def.innerType, depth + 1)
    if (def.type === 'pipe' && def.in) return visit(def.in, depth + 1)
    if (def.type === 'union' && def.options) return def.options.forEach((o) => visit(o, depth + 1))
    if (def.type !== 'object' || !def.shape) return
    for (const [key, field] of Object.entries(def.shape)) if (!isPlainValue(field)) found.add(key)
  }
  visit(schema, 0)
  return found
}

/**
 * The fields a form posted in a shape they cannot take: a plain field sent twice, a plain field
 * under a list's or object's name ("name[0]", "name.x"), or one of Conform's control fields.
 * `lists` says which top-level fields legitimately carry several values (a multiple choice's boxes).
 */
export function misshapenFields(
  formData: FormData,
  lists: (name: string) => boolean = () => false,
): MisshapenField[] {
  const seen = new Set<string>()
  const bad = new Map<string, MisshapenField['reason']>()
  for (const name of formData.keys()) {
    const top = topOf(name)
    if (!lists(top) && !bad.has(top)) {
      if (CONFORM_RESERVED.has(top)) bad.set(top, 'reserved')
      else if (name !== top) bad.set(top, 'list')
      else if (seen.has(name)) bad.set(top, 'repeated')
    }
    seen.add(name)
  }
  return [...bad].map(([name, reason]) => ({ name, reason }))
}

/**
 * `parseWithZod` for actions: every action parses its form through here. A field sent twice, or in a
 * list's or object's shape, is bad input (400) rather than a value the schema and the page were
 * never meant to see: Conform reads "accentColor" posted twice as ["#…", "#…"], the schema refuses
 * it, and the page that shows the refusal got that list back as the field's value, where a component
 * expecting a string failed with a 500. Fields the schema declares as lists or objects keep working.
 * A refused field is reported beside itself and at the top of the form, and only its first plain
 * value goes back to the page; the other fields are checked as usual so every message shows at once.
 */
export function parseForm<Schema extends $ZodType>(
  formData: FormData,
  options: { schema: Schema },
): Submission<input<Schema>, string[], output<Schema>> {
  const lists = structuredFields(options.schema)
  const bad = misshapenFields(formData, (name) => lists.has(name))
  if (!bad.length) return withUnstorableRefused(formData, parseWithZod(formData, options))

  const refused = new Set(bad.map((b) => b.name))
  const clean = new FormData()
  for (const [name, value] of formData.entries()) {
    const top = topOf(name)
    if (refused.has(top) && (CONFORM_RESERVED.has(top) || name !== top || clean.has(name))) continue
    clean.append(name, value)
  }
  const checked = parseWithZod(clean, options)
  const error: Record<string, string[] | null> = checked.status === 'success' ? {} : { ...checked.error }
  error[''] = [misshapenFormMessage(bad[0]!), ...(error[''] ?? [])]
  for (const { name, reason } of bad) if (reason !== 'reserved') error[name] = [MISSHAPEN_FIELD_MESSAGE]
  return withUnstorableRefused(
    clean,
    parse(clean, { resolve: () => ({ error }) }) as Submission<input<Schema>, string[], output<Schema>>,
  )
}

/**
 * The text rule's backstop for every form (app/lib/text-rules.ts): a value Postgres cannot store (a
 * NUL; a lone surrogate cannot come through a form's encoding, but the rule is one) is refused
 * beside its field, whatever the schema says of that field. Free-text fields already refuse it with
 * their own message; this catches the rest (a password, a hidden field, a field the form does not
 * have), so no form anywhere can carry such a value to a query or a jsonb column.
 */
function withUnstorableRefused<S extends Submission<unknown, string[], unknown>>(
  formData: FormData,
  submission: S,
): S {
  const unstorable = [...formData.entries()].filter(
    ([, value]) => typeof value === 'string' && !isStorableText(value),
  )
  if (!unstorable.length) return submission
  const error: Record<string, string[] | null> =
    submission.status === 'success' ? {} : { ...submission.error }
  const flagged = unstorable.map(([name]) => name).filter((name) => !error[name]?.length)
  if (!flagged.length) return submission
  for (const name of flagged) error[name] = [TEXT_MESSAGES.unstorable]
  // Also at the top of the form, as for a misshapen field: the field may be one the page hides.
  error[''] = [...(error[''] ?? []), unstorableFormMessage(flagged[0]!)]
  return parse(formData, { resolve: () => ({ error }) }) as S
}
