import { emailField, requiredText } from '#app/lib/schema-parts'
import * as z from '#app/lib/zod'
import { passwordSchema, passwordsMatch } from '#app/modules/auth/schemas'
import { LANGUAGE_CODES, LANGUAGE_NOT_OFFERED } from '#app/modules/i18n/languages'

/**
 * The four forms of /user/edit-profile, told apart by `intent`, shared by Conform in the browser and
 * the action on the server (Zod Mini: app/lib/zod.ts). This file reaches the browser: no server imports. Conform turns an empty
 * field into `undefined` before these run, so "optional" means "left blank".
 */

export const PROFILE_INTENTS = ['profile', 'photo', 'password', 'email', 'language'] as const
export type ProfileIntent = (typeof PROFILE_INTENTS)[number]

export const DISPLAY_NAME_MAX = 120
export const PHONE_MIN = 6
export const PHONE_MAX = 30
/** The same ceiling file.server.ts enforces on every image (repeated here because this file reaches the browser). */
export const PHOTO_MAX_BYTES = 2 * 1024 * 1024
export const PHOTO_ACCEPT = 'image/png,image/jpeg,image/webp'

export const PHONE_MESSAGE =
  'Enter a phone number such as +44 20 7946 0958: digits, spaces, +, - and brackets, with at least 6 digits.'
export const PHONE_TOO_LONG = `Use at most ${PHONE_MAX} characters for the phone number.`

// International numbers as people write them: an optional leading +, then digits, spaces, hyphens and
// brackets ("+44 (0)20 7946-0958"). E.164 allows at most 15 digits; extensions and the national
// "(0)" push the written form past that, hence a length cap rather than a digit cap.
const PHONE_CHARS = /^\+?[0-9 ()-]+$/

/** Why a (trimmed, non-empty) phone number is refused, or null when it is fine. */
export function phoneProblem(value: string): string | null {
  if (value.length > PHONE_MAX) return PHONE_TOO_LONG
  const digits = value.replace(/\D/g, '').length
  if (value.length < PHONE_MIN || !PHONE_CHARS.test(value) || digits < PHONE_MIN) return PHONE_MESSAGE
  return null
}

const displayName = requiredText(
  'Enter your name.',
  `Use at most ${DISPLAY_NAME_MAX} characters for your name.`,
  DISPLAY_NAME_MAX,
)

/** An optional phone number: kept as written, runs of spaces collapsed; a blank field clears it (null). */
export const phoneSchema = z.pipe(
  z.optional(
    z
      .pipe(
        z.string(),
        // Stored as the person wrote it, with runs of spaces collapsed; a blank-looking field clears it.
        z.transform((v: string) => v.trim().replace(/\s+/g, ' ')),
      )
      .check(
        z.superRefine((value: string, ctx) => {
          const problem = value ? phoneProblem(value) : null
          if (problem) ctx.addIssue({ code: 'custom', message: problem })
        }),
      ),
  ),
  z.transform((v: string | undefined) => v || null),
)

const currentPassword = z
  .string({ error: 'Enter your current password.' })
  .check(z.minLength(1, 'Enter your current password.'), z.maxLength(1024, 'That password is too long.'))

export const ProfileSchema = z.object({
  intent: z.literal('profile'),
  displayName,
  phone: phoneSchema,
})

export const PhotoSchema = z
  .object({
    intent: z.literal('photo'),
    // The browser's claim about the type is not trusted: the server checks the bytes (file.server.ts).
    photo: z.optional(z.file().check(z.maxSize(PHOTO_MAX_BYTES, 'The photo must be 2 MB or smaller.'))),
    // Sent by the "Remove photo" button (its name and value), so removing needs no JavaScript.
    remove: z.optional(z.literal('true')),
  })
  .check(z.refine((v) => v.remove || v.photo, { path: ['photo'], message: 'Choose a photo to upload.' }))

export function changePasswordSchema(minLength: number) {
  return z
    .object({
      intent: z.literal('password'),
      currentPassword,
      newPassword: passwordSchema(minLength),
      confirmPassword: z.string({ error: 'Repeat the new password.' }),
    })
    .check(
      passwordsMatch('newPassword'),
      z.refine((v) => v.newPassword !== v.currentPassword, {
        path: ['newPassword'],
        message: 'Choose a password different from your current one.',
      }),
    )
}

export const ChangeEmailSchema = z.object({
  intent: z.literal('email'),
  newEmail: emailField({
    required: 'Enter the new e-mail address.',
    invalid: 'Enter a valid e-mail address, like name@example.com.',
    tooLong: 'That e-mail address is too long.',
  }),
  currentPassword,
})

/**
 * The portal's language for this person (ADR 050): one of the known languages, or blank for "use the
 * default" (their brand's, else their browser's). Whether it is offered (shipped, or previewed) is
 * the server's check (profile-action.server.ts): this file reaches the browser.
 */
export const LanguageSchema = z.object({
  intent: z.literal('language'),
  language: z.pipe(
    z.optional(z.enum(LANGUAGE_CODES, { error: LANGUAGE_NOT_OFFERED })),
    z.transform((v) => v ?? null),
  ),
})

export type ProfileInput = z.output<typeof ProfileSchema>
export type ChangePasswordInput = z.output<ReturnType<typeof changePasswordSchema>>
export type ChangeEmailInput = z.output<typeof ChangeEmailSchema>
