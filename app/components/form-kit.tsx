import { useForm, type SubmissionResult } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { useEffect, useRef } from 'react'
import { useNavigation } from 'react-router'
import type { $ZodType, input } from 'zod/v4/core'

/**
 * The client half of the form kit (the server half is app/lib/reply.server.ts). Every admin and
 * employee form is a plain POST with an `intent` field, so it works without JavaScript; these
 * hooks add Conform's live validation and a pending state per intent; the confirmation panel and
 * the page pieces are in page-kit.tsx, the admin forms' building blocks in form-parts.tsx.
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
