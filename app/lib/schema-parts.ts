import { singleLine } from '#app/lib/text-rules'
import * as z from '#app/lib/zod'

/**
 * The fields the modules' form schemas share (Zod Mini: app/lib/zod.ts), each with the form's own
 * words: a required text and an e-mail address; and the states of an account the admin lists show.
 * This file reaches the browser: no server imports.
 */

/** The longest e-mail address the product takes (RFC 5321's path limit). */
export const EMAIL_MAX = 254

/**
 * A required text field: trimmed, not empty, at most `max` long, and one line of ordinary text
 * unless `rule` says otherwise (`multiLine()` for a text area).
 */
export const requiredText = (required: string, tooLong: string, max: number, rule = singleLine()) =>
  z.string({ error: required }).check(z.trim(), z.minLength(1, required), z.maxLength(max, tooLong), rule)

/**
 * An optional text field: trimmed, at most `max` long, one line; empty (Conform sends nothing for an
 * empty field) reads as null, which clears it.
 */
export const optionalText = (tooLong: string, max: number, rule = singleLine()) =>
  z.pipe(
    z.optional(z.string().check(z.trim(), z.maxLength(max, tooLong), rule)),
    z.transform((v: string | undefined) => v || null),
  )

/** An optional e-mail address, lower-cased; empty reads as null. */
export const optionalEmail = (messages: { invalid: string; tooLong: string }) =>
  z.pipe(
    z.optional(
      z.pipe(z.string().check(z.trim(), z.maxLength(EMAIL_MAX, messages.tooLong)), z.email(messages.invalid)),
    ),
    z.transform((v: string | undefined) => v?.toLowerCase() ?? null),
  )

/** A required e-mail address, lower-cased: one account per address whatever its case (users.email is stored lower-case). */
export const emailField = (messages: { required: string; invalid: string; tooLong: string }) =>
  z.pipe(
    z.pipe(
      z
        .string({ error: messages.required })
        .check(z.trim(), z.minLength(1, messages.required), z.maxLength(EMAIL_MAX, messages.tooLong)),
      z.email(messages.invalid),
    ),
    z.transform((v: string) => v.toLowerCase()),
  )

/**
 * A user account's state (an employee's or an administrator's): invited (no password yet: they have
 * not followed their link), active (has a password) or disabled (cannot sign in; disabling wins).
 * Each list offers them in its own order.
 */
export type AccountState = 'invited' | 'active' | 'disabled'
export const ACCOUNT_STATE_LABELS: Record<AccountState, string> = {
  invited: 'Invited',
  active: 'Active',
  disabled: 'Disabled',
}
