import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useNonce } from '#app/components/nonce'
import type { Resources } from './catalogues'
import type { Language, Namespace } from './languages'

/** The page's language and messages, handed from the server's render to the browser's i18next. */
export type I18nBoot = { lng: Language; ns: Namespace[]; resources: Resources }

export const BOOT_ELEMENT_ID = 'i18n-boot'

/** JSON inside a <script> element: `<` is escaped so no message can close the element. */
export function serializeBoot(boot: I18nBoot) {
  return JSON.stringify(boot)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029')
}

/**
 * The page's messages as a data block (type application/json: never run; it carries the response's
 * nonce all the same, so every <script> of a page has it and none is an exception to check). On
 * the server it is written from the request's instance, which holds exactly the page's namespaces;
 * in the browser it keeps the text the document came with (hydration compares equal text), and
 * later navigations leave it alone.
 */
export function I18nBootScript() {
  const { i18n } = useTranslation()
  const nonce = useNonce()
  const [text] = useState(() =>
    typeof document === 'undefined'
      ? serializeBoot({
          lng: i18n.language as Language,
          ns: [...(i18n.options.ns as Namespace[])],
          resources: i18n.store.data as Resources,
        })
      : (document.getElementById(BOOT_ELEMENT_ID)?.textContent ?? ''),
  )
  return (
    <script
      id={BOOT_ELEMENT_ID}
      type="application/json"
      nonce={nonce}
      suppressHydrationWarning
      dangerouslySetInnerHTML={{ __html: text }}
    />
  )
}
