import { singleLine } from '#app/lib/text-rules'
import * as z from '#app/lib/zod'

/** The sign-in, password and set-up forms' schemas (Zod Mini, shared with the browser: app/lib/zod.ts). */

export const EmailSchema = z.pipe(
  z.pipe(
    z
      .string({ error: 'Enter your e-mail address.' })
      .check(
        z.trim(),
        z.minLength(1, 'Enter your e-mail address.'),
        z.maxLength(254, 'That e-mail address is too long.'),
      ),
    z.email('Enter a valid e-mail address.'),
  ),
  z.transform((v: string) => v.toLowerCase()),
)

export const SignInSchema = z.object({
  email: EmailSchema,
  password: z
    .string({ error: 'Enter your password.' })
    .check(z.minLength(1, 'Enter your password.'), z.maxLength(1024, 'That password is too long.')),
  redirectTo: z.optional(z.string().check(z.maxLength(2048))),
})

export const ForgotPasswordSchema = z.object({ email: EmailSchema })

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

/** The repeated password must equal the first, reported on the repeat field. */
function passwordsMatch() {
  return z.refine<{ password: string; confirmPassword: string }>((v) => v.password === v.confirmPassword, {
    path: ['confirmPassword'],
    message: 'The passwords do not match.',
  })
}

export function newPasswordSchema(minLength: number) {
  return z
    .object({
      password: passwordSchema(minLength),
      confirmPassword: z.string({ error: 'Repeat the password.' }),
    })
    .check(passwordsMatch())
}

export function setupSchema(minLength: number) {
  return z
    .object({
      displayName: z
        .string({ error: 'Enter your name.' })
        .check(
          z.trim(),
          z.minLength(1, 'Enter your name.'),
          z.maxLength(120, 'Use at most 120 characters.'),
          singleLine(),
        ),
      email: EmailSchema,
      password: passwordSchema(minLength),
      confirmPassword: z.string({ error: 'Repeat the password.' }),
    })
    .check(passwordsMatch())
}
