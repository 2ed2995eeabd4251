import { startTransition, StrictMode } from 'react'
import { hydrateRoot } from 'react-dom/client'
import { HydratedRouter } from 'react-router/dom'
import { installReloadGuard } from '#app/lib/reload-guard'

// A deploy replaces hashed chunks; a tab still on the old build reloads (at most once in 10 s).
installReloadGuard(window)

startTransition(() => {
  hydrateRoot(
    document,
    <StrictMode>
      <HydratedRouter />
    </StrictMode>,
  )
})
