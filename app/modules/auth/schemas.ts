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
