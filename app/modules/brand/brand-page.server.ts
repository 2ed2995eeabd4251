import { availableLanguages } from '#app/modules/i18n/i18n.server'
import { languageOptions } from '#app/modules/i18n/languages'
import { getBrand } from './brand.server'

/**
 * Everything a brand's page shows (ADR 033): every field, the companies using it, and whether the
 * delete confirmation is open. Null for an unknown or malformed id.
 */
export async function loadBrandPage(id: string, searchParams: URLSearchParams) {
  const brand = await getBrand(id)
  if (!brand) return null
  return {
    brand,
    confirmDelete: searchParams.has('delete'),
    languages: languageOptions(availableLanguages(), brand.defaultLanguage),
  }
}
