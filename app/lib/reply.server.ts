import type { SubmissionResult } from '@conform-to/react'
import { data } from 'react-router'
import type { $ZodType, output } from 'zod/v4/core'
import { parseForm, unreadableForm } from '#app/lib/form-data.server'
import { refusalStatus, type Outcome, type Refusal } from '#app/lib/outcome'

/**
 * The one way an action answers a form (the server half of the form kit; the client half is
 * app/components/form-kit.tsx): `{ intent, result }` with Conform's submission result, 400 for bad
 * input, the refusal's own status (404 thrown as the not-found page, 429 with Retry-After).
 */

/** What the kit needs of a Conform submission: its reply, with extra messages or without. */
type Replying = {
  reply: (options?: {
    formErrors?: string[]
    fieldErrors?: Record<string, string[]>
    hideFields?: string[]
  }) => SubmissionResult<string[]>
}

/** What a reply leaves out of the values it sends back: secrets typed into the form. */
export type ReplyOptions = { hideFields?: string[] }

/** Bad input: the submission's own field messages, 400. */
export function replyInvalid<Intent extends string>(
  intent: Intent,
  submission: Replying,
  options: ReplyOptions = {},
) {
  return data({ intent, result: submission.reply({ hideFields: options.hideFields }) }, { status: 400 })
}

/** A refusal from a domain module: its messages on the form; a 404 is thrown as the not-found page. */
export function replyRefused<Intent extends string>(
  intent: Intent,
  submission: Replying,
  refusal: Refusal,
  options: ReplyOptions = {},
) {
  const status = refusalStatus(refusal)
  if (status === 404) throw new Response('Page Not Found', { status: 404, statusText: 'Not Found' })
  return data(
    {
      intent,
      result: submission.reply({
        formErrors: refusal.formErrors,
        fieldErrors: refusal.fieldErrors,
        hideFields: options.hideFields,
      }),
    },
    {
      status,
      headers: status === 429 ? { 'Retry-After': String(refusal.retryAfterSeconds) } : undefined,
    },
  )
}

/**
 * One intent of an action from start to end: parse the form with the schema, run the change, and
 * either reply with what was wrong or hand the value to `done` (usually a redirect with a toast; a
 * reply that must not outlive the request, like a revealed name, can be data instead).
 */
export async function submitIntent<Intent extends string, Schema extends $ZodType, T, Done = Response>(
  formData: FormData,
  intent: Intent,
  schema: Schema,
  run: (value: output<Schema>) => Promise<Outcome<T>>,
  done: (result: T, value: output<Schema>) => Done | Promise<Done>,
  options: ReplyOptions = {},
) {
  const submission = parseForm<Schema>(formData, { schema })
  if (submission.status !== 'success') return replyInvalid(intent, submission, options)
  const outcome = await run(submission.value)
  if (!outcome.ok) return replyRefused(intent, submission, outcome, options)
  return done(outcome.value, submission.value)
}

/**
 * The status and headers of a refused form's reply: 400, or 429 with the refusal's Retry-After (the
 * one place a rate-limited form is answered; a 404 is the caller's to throw).
 */
export function refusedInit(refusal: Pick<Refusal, 'notFound' | 'retryAfterSeconds'>) {
  const status = refusalStatus({ ok: false, ...refusal })
  return {
    status,
    headers: status === 429 ? { 'Retry-After': String(refusal.retryAfterSeconds) } : undefined,
  }
}

/**
 * A route's `headers` export for a form that may be rate limited: React Router keeps an action's
 * headers only when the route passes them on, and a 429's Retry-After must reach the browser.
 */
export function passRetryAfter({ actionHeaders }: { actionHeaders: Headers }): HeadersInit {
  const retryAfter = actionHeaders.get('Retry-After')
  return retryAfter ? { 'Retry-After': retryAfter } : new Headers()
}

/**
 * What a module that reads a whole form (several intents, extra checks such as an upload) answers
 * the route with: done, with what to say; or the form's result, refused (its refusal gives the
 * status) or invalid (400). The route alone turns it into HTTP with {@link replyAnswer}.
 */
export type FormAnswer<Intent extends string, Done> =
  | { ok: true; intent: Intent; value: Done }
  | { ok: false; intent: Intent | 'unknown'; result: SubmissionResult<string[]>; refusal?: Refusal }

/**
 * A module's {@link FormAnswer} from a change's outcome: `done` makes the success's value; a refusal
 * goes on the form (its submission's reply, hiding the secrets typed) — or, for a form with no fields
 * to parse (a bare button), as the form's own message.
 */
export function formAnswer<Intent extends string, T, Done>(
  intent: Intent,
  submission: Replying | null,
  outcome: Outcome<T>,
  done: (value: T) => Done,
  hideFields?: string[],
): FormAnswer<Intent, Done> {
  if (outcome.ok) return { ok: true, intent, value: done(outcome.value) }
  const { formErrors, fieldErrors } = outcome
  const result = submission
    ? submission.reply({ formErrors, fieldErrors, hideFields })
    : ({ status: 'error', error: { '': formErrors ?? [] } } satisfies SubmissionResult<string[]>)
  return { ok: false, intent, result, refusal: outcome }
}

/** The reply to a module's {@link FormAnswer}: `done` for a success, else the result with its status. */
export function replyAnswer<Intent extends string, Done, R>(
  answer: FormAnswer<Intent, Done>,
  done: (value: Done) => R,
) {
  if (answer.ok) return done(answer.value)
  if (answer.refusal?.notFound) throw new Response('Page Not Found', { status: 404, statusText: 'Not Found' })
  return data(
    { intent: answer.intent, result: answer.result },
    answer.refusal ? refusedInit(answer.refusal) : { status: 400 },
  )
}

/** One row of an action's intent table: the schema, the change, and what a success answers. */
export function intent<Schema extends $ZodType, T, Done = Response>(
  schema: Schema,
  run: (value: output<Schema>) => Promise<Outcome<T>>,
  done: (result: T, value: output<Schema>) => Done | Promise<Done>,
  /** `hideFields`: fields whose typed value never comes back in a refusal (a secret). */
  options: ReplyOptions = {},
) {
  return (formData: FormData, name: string) => submitIntent(formData, name, schema, run, done, options)
}

type IntentRow = (formData: FormData, name: string) => Promise<unknown>

/**
 * Answers a form from a table of intents (`{ update: intent(Schema, run, done), … }`), chosen by
 * its `intent` field, so a page with many forms names each intent once; a missing or unknown
 * intent is the usual unreadable form (400).
 */
export function dispatchIntent<Table extends Record<string, IntentRow>>(formData: FormData, table: Table) {
  const name = formData.get('intent')
  if (typeof name !== 'string' || !Object.hasOwn(table, name)) return unreadableForm()
  return table[name]!(formData, name) as ReturnType<Table[keyof Table]>
}
