/**
 * A failed sign-in through an organisation's provider, in words a person can act on (ADR 049), and
 * the status its page answers with. Browser-safe: the page draws these.
 */

export type SsoFailureView = {
  failure: string
  providerName: string | null
  email?: string | null
}

const START_AGAIN = 'Start again from the sign-in page.'

/** The failures the page tells apart; anything else reads as an expired sign-in. */
export const SSO_FAILURE_KEYS = [
  'unreachable',
  'misconfigured',
  'refused',
  'invalid-token',
  'denied',
  'provider-error',
  'provider-gone',
  'unverified-email',
  'domain-not-served',
  'unknown-user',
  'too-many',
  'expired',
] as const
export type SsoFailureKey = (typeof SSO_FAILURE_KEYS)[number]

/** How long a sign-in through an organisation may take, as the expired page says it. */
export const SSO_SIGN_IN_MINUTES = 10

/**
 * The page's words in the reader's language (ADR 050): the catalogue key (auth namespace) and its
 * ICU values (sso namespace). The English catalogue equals {@link ssoFailureText}, which stays the English source.
 */
export function ssoFailureMessage({ failure, providerName, email }: SsoFailureView) {
  const key: SsoFailureKey = (SSO_FAILURE_KEYS as readonly string[]).includes(failure)
    ? (failure as SsoFailureKey)
    : 'expired'
  return {
    title: `${key}.title`,
    body: `${key}.body`,
    values: {
      named: providerName ? 'yes' : 'no',
      provider: providerName ?? '',
      hasEmail: email ? 'yes' : 'no',
      email: email ?? '',
      minutes: SSO_SIGN_IN_MINUTES,
    },
  }
}

/** The heading and the explanation of a failure. */
export function ssoFailureText({ failure, providerName, email }: SsoFailureView): {
  title: string
  body: string
} {
  const provider = providerName ? `“${providerName}”` : 'Your organisation’s sign-in'
  const at = providerName ? `at “${providerName}”` : 'at your organisation’s sign-in'
  switch (failure) {
    case 'unreachable':
      return {
        title: 'Your organisation’s sign-in did not answer',
        body: `${provider} did not answer in time. It may be down for a moment: try again in a few minutes. If it keeps happening, tell your administrator.`,
      }
    case 'misconfigured':
      return {
        title: 'Sign-in is not set up correctly',
        body: `${provider} is not set up correctly for Panorama (it did not accept Panorama’s connection details, or answered as another service). Tell your administrator: the provider’s settings need checking.`,
      }
    case 'refused':
      return {
        title: 'The sign-in was not accepted',
        body: `${provider} did not accept this sign-in: it may have been used already or taken too long. ${START_AGAIN}`,
      }
    case 'invalid-token':
      return {
        title: 'The sign-in failed a security check',
        body: `The answer from ${provider} failed Panorama’s security checks, so it was not used. ${START_AGAIN} If it keeps happening, tell your administrator.`,
      }
    case 'denied':
      return {
        title: 'Sign-in cancelled',
        body: `The sign-in was cancelled ${at}, or Panorama was not allowed to use your details. ${START_AGAIN}`,
      }
    case 'provider-error':
      return {
        title: 'The sign-in could not be completed',
        body: `${provider} could not complete the sign-in. ${START_AGAIN} If it keeps happening, tell your administrator.`,
      }
    case 'provider-gone':
      return {
        title: 'This sign-in is no longer set up',
        body: `Your organisation’s sign-in is no longer set up for Panorama. ${START_AGAIN}`,
      }
    case 'unverified-email':
      return {
        title: 'We could not tell who you are',
        body: `${provider} did not confirm an e-mail address for you, so Panorama cannot tell which account is yours. Ask your administrator.`,
      }
    case 'domain-not-served':
      return {
        title: 'That address cannot sign in here',
        body: `${provider} signed you in${email ? ` as ${email}` : ''}, but that address is not one it signs in to Panorama. Sign in with your work address, or ask your administrator.`,
      }
    case 'unknown-user':
      return {
        title: 'No account to sign in to',
        body: `${provider} signed you in${email ? ` as ${email}` : ''}, but there is no Panorama account for you that can sign in this way. If you were asked to give feedback on a colleague, use the link in your invitation e-mail. Otherwise ask your administrator to add you.`,
      }
    case 'too-many':
      return {
        title: 'Too many attempts',
        body: 'Too many sign-in attempts came from your network. Please wait a few minutes and try again.',
      }
    case 'expired':
    case 'invalid-callback':
    default:
      return {
        title: 'This sign-in has expired',
        body: `This sign-in has expired or was already used. A sign-in through your organisation must be finished within ${SSO_SIGN_IN_MINUTES} minutes, in the browser where it started. ${START_AGAIN}`,
      }
  }
}

/** The HTTP status of a failure's page: never a 500 (the provider's trouble is a gateway's). */
export function ssoFailureStatus(failure: string): number {
  switch (failure) {
    case 'unreachable':
      return 503
    case 'misconfigured':
      return 502
    case 'unverified-email':
    case 'domain-not-served':
    case 'unknown-user':
      return 403
    case 'too-many':
      return 429
    default:
      return 400
  }
}
