import { getFixedT } from '#app/modules/i18n/i18n.server'
import { AUTH_ERROR_MESSAGES, type AuthErrorCode } from './errors'
import { TOO_MANY_CODES, WRONG_CODE, WRONG_SETUP_CODE } from './totp.server'

/**
 * An identity error in the language of the request (ADR 050): actions write their refusals with
 * this. Modules keep answering codes (`auth/…`); AUTH_ERROR_MESSAGES stays the English wording,
 * which the English catalogue (auth:errors) must equal.
 */
export async function translatedAuthError(
  request: Request,
  code: string | null | undefined,
): Promise<string> {
  const t = await getFixedT(request, 'auth')
  return code && Object.hasOwn(AUTH_ERROR_MESSAGES, code)
    ? t(`errors.${code as AuthErrorCode}`)
    : t('errors.generic')
}

/** The second factor's refusals (totp.server.ts's English constants) and their namespaces and keys. */
const SECOND_FACTOR_KEYS = new Map<string, ['second-factor' | 'auth', string]>([
  [WRONG_CODE, ['second-factor', 'wrongCode']],
  [WRONG_SETUP_CODE, ['second-factor', 'wrongSetUpCode']],
  [TOO_MANY_CODES, ['auth', 'errors.auth/too-many-requests']],
])

/**
 * A second-factor refusal in the language of the request (ADR 050). The module answers its English
 * constants; a message it has no key for yet is passed on as it is.
 */
export async function translatedSecondFactorMessage(request: Request, message: string): Promise<string> {
  const found = SECOND_FACTOR_KEYS.get(message)
  if (!found) return message
  const [namespace, key] = found
  const t = await getFixedT(request, namespace)
  return t(key)
}

/** "2 tries left before you need to sign in again.", as a plural of the request's language. */
export async function triesLeftMessage(request: Request, count: number): Promise<string> {
  const t = await getFixedT(request, 'second-factor')
  return t('triesLeft', { count })
}
