/**
 * Which language an e-mail is written in, and which saved version of a template words it (issue 20
 * §3, ADR 053). Pure: no database; outbox.server.ts reads the recipient's setting, their brand's and
 * the message's brand's defaults, and the template's versions, and asks here.
 */
import { SOURCE_LANGUAGE, type Language } from '#app/modules/i18n/languages'
import { resolveLanguage } from '#app/modules/i18n/resolve'

/**
 * The recipient's language: their own setting (`users.language`), else their company's brand's
 * default, else the default of the brand the message is sent for (a colleague invited by link has
 * no company: they read the inviting employee's brand's language), else English. Only languages
 * offered now count at each step.
 */
export function emailLanguage(input: {
  userLanguage?: string | null
  userBrandLanguage?: string | null
  messageBrandLanguage?: string | null
  offered: readonly Language[]
}): Language {
  return resolveLanguage({
    userLanguage: input.userLanguage,
    brandLanguage: input.userBrandLanguage ?? input.messageBrandLanguage,
    available: input.offered,
  })
}

/** The languages to look for, in order: the recipient's, the brand's default, English (offered ones only, each once). */
export function wordingLanguages(
  language: Language,
  brandLanguage: string | null | undefined,
  offered: readonly Language[],
): Language[] {
  const order = [language, brandLanguage, SOURCE_LANGUAGE].filter(
    (code): code is Language =>
      code === SOURCE_LANGUAGE || (typeof code === 'string' && (offered as readonly string[]).includes(code)),
  )
  return [...new Set(order)]
}

/**
 * The version that words a message: the brand's own in the recipient's language, else in the
 * brand's default language, else in English; then the install default in the same order. Rows are
 * the template's versions for the brand and the install (brandId null); undefined when none fits.
 */
export function chooseWording<T extends { brandId: string | null; language: string }>(
  rows: readonly T[],
  language: Language,
  brandLanguage: string | null | undefined,
  offered: readonly Language[],
): T | undefined {
  const order = wordingLanguages(language, brandLanguage, offered)
  for (const own of [true, false])
    for (const code of order) {
      const row = rows.find((r) => (r.brandId !== null) === own && r.language === code)
      if (row) return row
    }
  return undefined
}

/**
 * The words the e-mail frame adds around a template (the button's fallback line, the footer), per
 * language. E-mail content rather than page text: the outbox renders without a request, and the
 * editor's preview in the browser uses the same renderer.
 */
export const FRAME_TEXTS: Record<
  Language,
  { copyAddress: string; sentOnBehalf: string; sentByOnBehalf: string; openLink: string }
> = {
  en: {
    copyAddress: 'If the button does not work, copy this address into your browser:',
    sentOnBehalf: 'Sent on behalf of {brand}.',
    sentByOnBehalf: 'Sent by {sender} on behalf of {brand}.',
    openLink: 'Open the link',
  },
  de: {
    copyAddress: 'Falls die Schaltfläche nicht funktioniert, kopieren Sie diese Adresse in Ihren Browser:',
    sentOnBehalf: 'Gesendet im Auftrag von {brand}.',
    sentByOnBehalf: 'Gesendet von {sender} im Auftrag von {brand}.',
    openLink: 'Link öffnen',
  },
  fr: {
    copyAddress: 'Si le bouton ne fonctionne pas, copiez cette adresse dans votre navigateur :',
    sentOnBehalf: 'Envoyé au nom de {brand}.',
    sentByOnBehalf: 'Envoyé par {sender} au nom de {brand}.',
    openLink: 'Ouvrir le lien',
  },
}
