/**
 * The modes of the e-mail action handler (/verification?mode=…), shared by its route, its domain
 * module (verification.server.ts) and its page (components/verification-page.tsx).
 */
export const VERIFICATION_MODES = [
  'verifyEmail',
  'resetPassword',
  'activate',
  'invite',
  'setup',
  'signIn',
] as const
export type VerificationMode = (typeof VERIFICATION_MODES)[number]

export const VERIFICATION_TITLES: Record<VerificationMode, string> = {
  verifyEmail: 'Confirm your e-mail address',
  resetPassword: 'Choose a new password',
  activate: 'Activate your account',
  invite: 'Give feedback',
  setup: 'Create the first admin account',
  signIn: 'Sign in with your link',
}

/** The page's heading and tab title, in English (the catalogue's auth:verification.titles equal these). */
export const verificationTitle = (mode: VerificationMode | null) =>
  mode ? VERIFICATION_TITLES[mode] : 'Verification'

/** The heading's key in the verification namespace (ADR 050). */
export const verificationTitleKey = (mode: VerificationMode | null) => `titles.${mode ?? 'none'}` as const
