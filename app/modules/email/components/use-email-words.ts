import { useTranslation } from 'react-i18next'
import type { OutboxStatus } from '#db/enums'
import type { TemplateKey } from '../templates'
import { possessive } from '#app/lib/words'
import { useIntlLocale } from '#app/modules/i18n/use-intl-locale'
import { languageNameIn } from '../language-name'

/**
 * The e-mail pages' words (namespace `email`): `t`, the page's Intl locale, and the names the
 * pages repeat — a template's label and description, a message's state, a language's name — in
 * the reader's language. `owner(name)` fills a message's `{owner}`: in English the name's possessive
 * ("Acme’s"), in other languages the name itself (their messages say "of {owner}").
 */
export function useEmailWords() {
  const { t, i18n } = useTranslation('email')
  const locale = useIntlLocale()
  return {
    t,
    locale,
    templateLabel: (key: TemplateKey) => t(`templates.${key}.label`),
    templateDescription: (key: TemplateKey) => t(`templates.${key}.description`),
    stateLabel: (status: OutboxStatus) => t(`states.${status}`),
    languageName: (code: string) => languageNameIn(code, locale),
    owner: (name: string) => (i18n.language === 'en' ? possessive(name) : name),
  }
}
