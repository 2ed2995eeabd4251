import { listApiKeys } from './api-key.server'
import { providerCompanyOptions } from '#app/modules/sso/provider.server'

/**
 * The API keys page's data (issue 21 §1, ADR 054): every key (never a key's value: only its
 * prefix) and the companies a key may be restricted to. The key confirmed for revoking (`?revoke=`)
 * is one of the listed.
 */
export async function loadApiKeyPage(searchParams: URLSearchParams) {
  const [keys, companyOptions] = await Promise.all([listApiKeys(), providerCompanyOptions()])
  const revokeId = searchParams.get('revoke')
  const confirmRevoke = keys.find((k) => k.id === revokeId && k.status !== 'revoked') ?? null
  return { keys, companyOptions, confirmRevoke }
}
