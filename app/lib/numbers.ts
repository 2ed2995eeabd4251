/**
 * Numbers as people read them, in the reader's language (an Intl locale: `intlLocale(language)` of
 * app/modules/i18n/languages.ts, ADR 050; 'en-GB' when none is given, as the portal has always
 * written them): "1,500" / "1.500" / "1 500", "3.5" / "3,5". Formatters are built once per locale
 * and shape, so a long table costs one each.
 */
export const DEFAULT_NUMBER_LOCALE = 'en-GB'

const formatters = new Map<string, Intl.NumberFormat>()

function formatter(locale: string, fractionDigits: number | null) {
  const key = `${locale}|${fractionDigits ?? ''}`
  let f = formatters.get(key)
  if (!f) {
    f = new Intl.NumberFormat(
      locale,
      fractionDigits === null
        ? undefined
        : { minimumFractionDigits: fractionDigits, maximumFractionDigits: fractionDigits },
    )
    formatters.set(key, f)
  }
  return f
}

/** A count: "1,500" (en), "1.500" (de), "1 500" (fr, with a narrow no-break space). */
export function formatCount(value: number, locale = DEFAULT_NUMBER_LOCALE): string {
  return formatter(locale, null).format(value)
}

/** A score with a fixed number of decimals: "3.5" (en), "3,5" (de, fr). */
export function formatScore(value: number, fractionDigits = 1, locale = DEFAULT_NUMBER_LOCALE): string {
  return formatter(locale, fractionDigits).format(value)
}
