import { afterEach } from 'vitest'
import { resetEnvCache } from '#app/config/env.server'

/**
 * Previews languages for a test as translators would (`LANGUAGES_PREVIEW`, ADR 050): both this
 * process's configuration and the built server's are read again. Every test starts without a
 * preview: it is taken back after each one.
 */
export function usePreviewLanguages(server: { build?: { resetEnvCache(): void } }) {
  const preview = (codes: string | null) => {
    if (codes === null) delete process.env.LANGUAGES_PREVIEW
    else process.env.LANGUAGES_PREVIEW = codes
    resetEnvCache()
    server.build?.resetEnvCache()
  }
  afterEach(() => preview(null))
  return preview
}
