import { TIMINGS } from '#app/config/constants'

/**
 * After a deploy, a tab still running the old build asks for chunks that no longer exist. Reloading
 * fetches the new build, but if the chunk is missing for another reason (CDN down, offline) a reload
 * fails the same way, and an unguarded reload loops. So: reload at most once per window (spec §9:
 * 10 s), remembering the last reload in sessionStorage, which survives the reload but not the tab.
 */

export const RELOAD_STORAGE_KEY = 'panorama:last-reload'

const CHUNK_ERROR_PATTERNS = [
  /Failed to fetch dynamically imported module/i, // Chrome
  /error loading dynamically imported module/i, // Firefox
  /Importing a module script failed/i, // Safari
  /Failed to load module script/i, // Chrome, when a missing chunk is answered with the HTML 404 page
  /Unable to preload CSS/i, // Vite's CSS preloader
  /Failed to (?:fetch|load) (?:the )?manifest/i, // Vite / React Router manifest requests
  /Unable to discover routes/i, // React Router's lazy route discovery after a manifest mismatch
  /Loading (?:CSS )?chunk [\w-]+ failed/i, // webpack-style chunk loaders in third-party code
]

export function isChunkLoadError(error: unknown): boolean {
  if (error == null) return false
  const name = typeof error === 'object' ? (error as { name?: unknown }).name : undefined
  if (name === 'ChunkLoadError') return true
  const message =
    typeof error === 'string'
      ? error
      : typeof error === 'object'
        ? (error as { message?: unknown }).message
        : undefined
  return typeof message === 'string' && CHUNK_ERROR_PATTERNS.some((pattern) => pattern.test(message))
}

export interface ReloadGuardOptions {
  storage: Pick<Storage, 'getItem' | 'setItem'> | null | undefined
  reload: () => void
  now?: () => number
  windowMs?: number
}

export interface ReloadGuard {
  /** Reloads and answers true unless a reload happened within the window (or cannot be recorded). */
  tryReload(): boolean
}

export function createReloadGuard({
  storage,
  reload,
  now = () => Date.now(),
  windowMs = TIMINGS.reloadGuardMs,
}: ReloadGuardOptions): ReloadGuard {
  return {
    tryReload() {
      const at = now()
      try {
        if (!storage) return false
        const last = Number(storage.getItem(RELOAD_STORAGE_KEY))
        // A stamp from the future (the clock was set back) does not block; garbage reads as NaN.
        const elapsed = at - last
        if (Number.isFinite(last) && last > 0 && elapsed >= 0 && elapsed < windowMs) return false
        storage.setItem(RELOAD_STORAGE_KEY, String(at))
      } catch {
        // Storage disabled or full: the reload could not be remembered, so the page after it could
        // reload again at once. A page left showing its error beats a reload loop.
        return false
      }
      reload()
      return true
    },
  }
}

type ReloadWindow = Pick<Window, 'addEventListener' | 'removeEventListener'> & {
  location: Pick<Location, 'reload'>
  readonly sessionStorage: Pick<Storage, 'getItem' | 'setItem'>
}

/**
 * Reloads on Vite's `vite:preloadError` and on unhandled rejections carrying a chunk error.
 * When the guard declines, the error is left to propagate so the error page shows it.
 * Returns a function that removes the listeners.
 */
export function installReloadGuard(
  win: ReloadWindow,
  options: { now?: () => number; windowMs?: number } = {},
): () => void {
  let storage: Pick<Storage, 'getItem' | 'setItem'> | null
  try {
    // Reading window.sessionStorage itself throws where storage is blocked.
    storage = win.sessionStorage
  } catch {
    storage = null
  }
  const guard = createReloadGuard({ storage, reload: () => win.location.reload(), ...options })

  const onPreloadError = (event: Event) => {
    // Vite rethrows the payload unless the event is cancelled; cancel only when reloading.
    if (guard.tryReload()) event.preventDefault()
  }
  const onRejection = (event: Event) => {
    const { reason } = event as PromiseRejectionEvent
    if (isChunkLoadError(reason) && guard.tryReload()) event.preventDefault()
  }
  win.addEventListener('vite:preloadError', onPreloadError)
  win.addEventListener('unhandledrejection', onRejection)
  return () => {
    win.removeEventListener('vite:preloadError', onPreloadError)
    win.removeEventListener('unhandledrejection', onRejection)
  }
}
