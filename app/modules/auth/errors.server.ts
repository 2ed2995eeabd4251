import { getFixedT } from '#app/modules/i18n/i18n.server'
import { AUTH_ERROR_MESSAGES, type AuthErrorCode } from './errors'

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
