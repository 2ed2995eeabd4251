/**
 * Identity error codes (the spec's catalogue, in the hosted provider's `auth/…` form) and the one
 * wording the product shows for each. Wrong password and unknown user deliberately read the same.
 */
export const AUTH_ERROR_MESSAGES = {
  'auth/invalid-credential': 'That e-mail address and password do not match an account.',
  'auth/wrong-password': 'That e-mail address and password do not match an account.',
  'auth/user-not-found': 'That e-mail address and password do not match an account.',
  'auth/email-already-in-use': 'An account with this e-mail address already exists.',
  'auth/too-many-requests': 'Too many attempts. Please wait a few minutes and try again.',
  'auth/expired-action-code': 'This link has expired or has already been used. Please ask for a new one.',
  'auth/invalid-action-code':
    'This link is not valid. Please check that you copied all of it, or ask for a new one.',
  'auth/weak-password': 'This password is too weak.',
  'auth/user-disabled': 'That e-mail address and password do not match an account.',
  'auth/requires-recent-login': 'Please sign in again to continue.',
  'auth/invalid-id-token': 'Your session has ended. Please sign in again.',
  'auth/id-token-expired': 'Your session has ended. Please sign in again.',
  'auth/session-expired': 'Your session has ended. Please sign in again.',
  'auth/captcha-check-failed': 'We could not confirm that you are a person. Please try again.',
  'auth/network-request-failed': 'The network did not answer. Check your connection and try again.',
  'auth/timeout': 'The server took too long to answer. Please try again.',
  'auth/invalid-email': 'Enter a valid e-mail address.',
  'auth/cross-site-request': 'This request came from another site and was refused.',
  // Said only after the right password (or a live link): it tells nothing to someone guessing.
  'auth/sso-required':
    'Your organisation signs you in through its own sign-in service, not with a password here. Enter your work e-mail address on the sign-in page and continue from there, or ask your administrator.',
} as const

export type AuthErrorCode = keyof typeof AUTH_ERROR_MESSAGES

export const GENERIC_AUTH_MESSAGE = 'Something went wrong. Please try again.'

export function authErrorMessage(code: string | undefined | null): string {
  if (code && Object.hasOwn(AUTH_ERROR_MESSAGES, code)) return AUTH_ERROR_MESSAGES[code as AuthErrorCode]
  return GENERIC_AUTH_MESSAGE
}

export function weakPasswordMessage(minLength: number) {
  return `Use at least ${minLength} characters.`
}

export class AuthError extends Error {
  constructor(public readonly code: AuthErrorCode) {
    super(AUTH_ERROR_MESSAGES[code])
    this.name = 'AuthError'
  }
}
