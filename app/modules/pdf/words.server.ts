import type { TFunction } from 'i18next'
import { createServerI18n } from '#app/modules/i18n/i18n.server'
import type { Language } from '#app/modules/i18n/languages'

/**
 * The PDFs' own words (namespace `pdf`: the cover, the running header and footer, the document's
 * title, the refusals) in the reader's language (ADR 050): the language the download's request
 * resolves to, which is also the one the printed page is rendered in (render.server.ts).
 */
export function pdfT(language: Language): TFunction<'pdf'> {
  return createServerI18n(language, ['pdf']).getFixedT(language, 'pdf') as TFunction<'pdf'>
}
