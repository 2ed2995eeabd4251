import { startTransition, StrictMode } from 'react'
import { hydrateRoot } from 'react-dom/client'
import { I18nextProvider } from 'react-i18next'
import { HydratedRouter } from 'react-router/dom'
import { installReloadGuard } from '#app/lib/reload-guard'
import { createClientI18n, readBoot } from '#app/modules/i18n/i18n.client'

// A deploy replaces hashed chunks; a tab still on the old build reloads (at most once in 10 s).
installReloadGuard(window)

// The page's language and messages came with the document: i18next is ready before hydrating.
const i18n = createClientI18n(readBoot(document))

startTransition(() => {
  hydrateRoot(
    document,
    <I18nextProvider i18n={i18n}>
      <StrictMode>
        <HydratedRouter />
      </StrictMode>
    </I18nextProvider>,
  )
})
