import { z } from 'zod'

export const EmailSchema = z
  .string({ error: 'Enter your e-mail address.' })
  .trim()
  .min(1, 'Enter your e-mail address.')
  .max(254, 'That e-mail address is too long.')
  .pipe(z.email('Enter a valid e-mail address.'))
  .transform((v) => v.toLowerCase())

export const SignInSchema = z.object({
  email: EmailSchema,
  password: z
    .string({ error: 'Enter your password.' })
    .min(1, 'Enter your password.')
    .max(1024, 'That password is too long.'),
  redirectTo: z.string().max(2048).optional(),
})

export const ForgotPasswordSchema = z.object({ email: EmailSchema })

/** The server's password policy; the form shows the minimum the server gives. */
export function passwordSchema(minLength: number) {
  return z
    .string({ error: 'Enter a password.' })
    .min(minLength, `Use at least ${minLength} characters.`)
    .max(256, 'Use at most 256 characters.')
}

export function newPasswordSchema(minLength: number) {
  return z
    .object({
      password: passwordSchema(minLength),
      confirmPassword: z.string({ error: 'Repeat the password.' }),
    })
    .refine((v) => v.password === v.confirmPassword, {
      path: ['confirmPassword'],
      message: 'The passwords do not match.',
    })
}

export function setupSchema(minLength: number) {
  return z
    .object({
      displayName: z
        .string({ error: 'Enter your name.' })
        .trim()
        .min(1, 'Enter your name.')
        .max(120, 'Use at most 120 characters.'),
      email: EmailSchema,
      password: passwordSchema(minLength),
      confirmPassword: z.string({ error: 'Repeat the password.' }),
    })
    .refine((v) => v.password === v.confirmPassword, {
      path: ['confirmPassword'],
      message: 'The passwords do not match.',
    })
}
