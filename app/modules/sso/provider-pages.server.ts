import { getEnv } from '#app/config/env.server'
import { SSO_CALLBACK_PATH } from '#app/lib/identity-provider-values'
import { listNotices } from '#app/lib/list-page.server'
import {
  environmentProvider,
  getIdentityProvider,
  listIdentityProviders,
  providerCompanyOptions,
} from './provider.server'
import type { ProviderListQuery } from './schemas'

/** The redirect URI every provider is told: the same for all of them (ADR 049). */
export const redirectUri = () => `${getEnv().APP_URL}${SSO_CALLBACK_PATH}`

/**
 * The identity providers page's data (the page-props rule, ADR 033): one page of providers, the
 * companies the create form offers, the provider set by variables (if any) and the redirect URI.
 */
export async function loadProviderList(query: ProviderListQuery) {
  const [page, companyOptions] = await Promise.all([listIdentityProviders(query), providerCompanyOptions()])
  return {
    query: { q: query.q, sort: query.sort },
    page,
    notices: listNotices(page),
    companyOptions,
    environment: environmentProvider(),
    redirectUri: redirectUri(),
  }
}

/**
 * Everything one provider's page shows: its settings (never its secret), the companies the form
 * offers, how many accounts are linked to its issuer, and whether the delete confirmation is open.
 * Null for an unknown or malformed id.
 */
export async function loadProviderPage(id: string, searchParams: URLSearchParams) {
  const provider = await getIdentityProvider(id)
  if (!provider) return null
  return { provider, confirmDelete: searchParams.has('delete'), redirectUri: redirectUri() }
}
