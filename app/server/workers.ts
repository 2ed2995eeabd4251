import type { Env } from '#app/config/env.server'
import { isDatabaseDown, isDatabaseOpen, reportDatabaseFailure } from '#db/client'
import { log } from '#app/lib/logger.server'
import { pruneExpired } from '#app/modules/auth/session.server'
import { eraseStaleOutboxBodies } from '#app/modules/email/outbox.server'
import { REMINDER_POLL_MS, sendDueReminders } from '#app/modules/scheme/reminders.server'
import { compactTallies } from '#app/modules/tally/tally.server'

/**
 * The server's periodic rounds that belong to no one domain: they sit here, above the domains they
 * call, so no domain imports another's upkeep (app/modules/*: domains use lower modules only).
 */

/**
 * Looks for due reminders every 10 minutes (first shortly after start), and does the housekeeping
 * that must happen somewhere (expired sessions, outbox bodies no longer needed). Rounds never overlap; the
 * timer does not keep the process alive; stop() waits for the round in flight. Any number of app
 * instances may run one (the claim keeps them from reminding anyone twice).
 */
export function startReminderWorker(
  _env: Env,
  options: { intervalMs?: number; firstDelayMs?: number } = {},
): { stop: () => Promise<void> } {
  const intervalMs = options.intervalMs ?? REMINDER_POLL_MS
  let stopped = false
  let timer: NodeJS.Timeout | undefined
  let inFlight: Promise<void> | undefined

  const schedule = (ms: number) => {
    if (stopped) return
    timer = setTimeout(tick, ms)
    timer.unref()
  }
  const tick = () => {
    timer = undefined
    inFlight = (async () => {
      try {
        if (isDatabaseOpen() && !isDatabaseDown()) {
          await sendDueReminders()
          await pruneExpired()
          // Housekeeping that must run with or without SMTP: bodies with dead or unneeded links.
          await eraseStaleOutboxBodies()
          // The admin counts' rows since the last round, folded into one per count (ADR 010).
          await compactTallies()
        }
      } catch (error) {
        if (!reportDatabaseFailure(error))
          log.error('reminder round failed', {
            error: error instanceof Error ? error.message : String(error),
          })
      }
      inFlight = undefined
      schedule(intervalMs)
    })()
  }

  log.info('reminder worker started', { intervalMs })
  schedule(options.firstDelayMs ?? 30_000)
  return {
    stop: async () => {
      stopped = true
      if (timer) clearTimeout(timer)
      await inFlight
    },
  }
}
