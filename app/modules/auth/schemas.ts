import { emailField, requiredText } from '#app/lib/schema-parts'
import * as z from '#app/lib/zod'

/** The sign-in, password and set-up forms' schemas (Zod Mini, shared with the browser: app/lib/zod.ts). */

export const EmailSchema = emailField({
  required: 'Enter your e-mail address.',
  invalid: 'Enter a valid e-mail address.',
  tooLong: 'That e-mail address is too long.',
})

export const SignInSchema = z.object({
  email: EmailSchema,
  password: z
    .string({ error: 'Enter your password.' })
    .check(z.minLength(1, 'Enter your password.'), z.maxLength(1024, 'That password is too long.')),
  redirectTo: z.optional(z.string().check(z.maxLength(2048))),
})

export const ForgotPasswordSchema = z.object({ email: EmailSchema })

/**
 * The sign-in page's first step when identity providers are set up (ADR 049): the address alone.
 * Its domain decides: its organisation's provider, or the password form.
 */
export const CONTINUE_INTENT = 'continue'
export const ContinueSchema = z.object({
  intent: z.literal(CONTINUE_INTENT),
  email: EmailSchema,
  redirectTo: z.optional(z.string().check(z.maxLength(2048))),
})

/** The sign-in page's second form, offered after a refusal: a one-time sign-in link by e-mail. */
export const SIGN_IN_LINK_INTENT = 'sign-in-link'
export const SignInLinkSchema = z.object({ email: EmailSchema })

/** The server's password policy; the form shows the minimum the server gives. */
export function passwordSchema(minLength: number) {
  return z
    .string({ error: 'Enter a password.' })
    .check(
      z.minLength(minLength, `Use at least ${minLength} characters.`),
      z.maxLength(256, 'Use at most 256 characters.'),
    )
}

/** The repeated password must equal the first (`password`, or the form's `field`), reported on the repeat field. */
export function passwordsMatch<Field extends string = 'password'>(field = 'password' as Field) {
  return z.refine<Record<Field | 'confirmPassword', string>>((v) => v[field] === v.confirmPassword, {
    path: ['confirmPassword'],
    message: 'The passwords do not match.',
  })
}

/** A new password and its repeat; the object holding them checks `passwordsMatch()`. */
const newPasswordFields = (minLength: number) => ({
  password: passwordSchema(minLength),
  confirmPassword: z.string({ error: 'Repeat the password.' }),
})

export function newPasswordSchema(minLength: number) {
  return z.object(newPasswordFields(minLength)).check(passwordsMatch())
}

export function setupSchema(minLength: number) {
  return z
    .object({
      displayName: requiredText('Enter your name.', 'Use at most 120 characters.', 120),
      email: EmailSchema,
      ...newPasswordFields(minLength),
    })
    .check(passwordsMatch())
}

// ---- the second factor (ADR 048) ----

/** Six digits (spaces allowed, as some apps show "123 456"). */
export const TOTP_CODE_PATTERN = /^\d{6}$/
/** A recovery code: 16 base32 letters and digits, hyphens or spaces anywhere, any case. */
export const RECOVERY_CODE_PATTERN = /^[a-z2-7]{16}$/

const compact = (value: string) => value.replace(/[\s-]/g, '')

/** What the second step accepts: a current code from the app, or one recovery code. */
export const secondFactorCode = z
  .string({ error: 'Enter the code from your authenticator app, or a recovery code.' })
  .check(
    // One check, so a long paste gets one message (the length bound keeps the patterns cheap).
    z.refine(
      (value) =>
        value.length <= 64 &&
        (TOTP_CODE_PATTERN.test(compact(value)) || RECOVERY_CODE_PATTERN.test(compact(value).toLowerCase())),
      'That is not a code: enter the six digits from your app, or a recovery code.',
    ),
  )

/** Setting up: only the app's six digits prove it was set up right. */
export const setUpCode = z
  .string({ error: 'Enter the six-digit code your authenticator app shows.' })
  .check(
    z.refine(
      (value) => value.length <= 64 && TOTP_CODE_PATTERN.test(compact(value)),
      'Enter the six digits your authenticator app shows.',
    ),
  )

/** The sign-in's second step: its forms, told apart by `intent`. */
export const SECOND_FACTOR_INTENTS = ['verify', 'confirm', 'continue', 'cancel'] as const

export const SecondFactorSchema = z.object({
  intent: z.literal('verify'),
  code: secondFactorCode,
  redirectTo: z.optional(z.string().check(z.maxLength(2048))),
})

export const SetUpCodeSchema = z.object({ intent: z.literal('confirm'), code: setUpCode })

/** The profile's two-factor forms (admins), told apart by `intent` like the other profile forms. */
export const TWO_FACTOR_INTENTS = [
  'two-factor-start',
  'two-factor-confirm',
  'two-factor-cancel',
  'two-factor-codes',
  'two-factor-disable',
] as const
export type TwoFactorIntent = (typeof TWO_FACTOR_INTENTS)[number]

export const TwoFactorConfirmSchema = z.object({ intent: z.literal('two-factor-confirm'), code: setUpCode })

export const RecoveryCodesSchema = z.object({ intent: z.literal('two-factor-codes'), code: secondFactorCode })

export const DisableTwoFactorSchema = z.object({
  intent: z.literal('two-factor-disable'),
  currentPassword: z
    .string({ error: 'Enter your current password.' })
    .check(z.minLength(1, 'Enter your current password.'), z.maxLength(1024, 'That password is too long.')),
  code: secondFactorCode,
})
