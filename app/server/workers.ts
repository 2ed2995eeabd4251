import type { Env } from '#app/config/env.server'
import { isDatabaseDown, isDatabaseOpen, reportDatabaseFailure } from '#db/client'
import { startPollingWorker, type PollingWorker } from '#app/lib/polling-worker.server'
import { pruneExpired } from '#app/modules/auth/session.server'
import { pruneSsoStates } from '#app/modules/sso/sign-in.server'
import { eraseStaleOutboxBodies } from '#app/modules/email/outbox.server'
import { sendApproverReminders } from '#app/modules/nomination/nomination.server'
import { sendPlanCheckIns } from '#app/modules/plan/plan.server'
import { REMINDER_POLL_MS, sendDueReminders } from '#app/modules/scheme/reminders.server'
import { compactTallies } from '#app/modules/tally/tally.server'
import { pruneWebhookDeliveries } from '#app/modules/webhook/delivery.server'
import {
  RETENTION_POLL_MS,
  runRetentionPass,
  withRetentionLock,
} from '#app/modules/retention/retention.server'

/**
 * The server's periodic rounds that belong to no one domain: they sit here, above the domains they
 * call, so no domain imports another's upkeep (app/modules/*: domains use lower modules only).
 */

/**
 * Looks for due reminders every 10 minutes (first shortly after start), and does the housekeeping
 * that must happen somewhere (expired sessions, outbox bodies no longer needed, the tallies' fold).
 * lib/polling-worker.server.ts runs the rounds: never overlapping; stop() waits for the one in
 * flight. Any number of app instances may run one (the claim keeps them from reminding anyone twice).
 */
export function startReminderWorker(
  _env: Env,
  options: { intervalMs?: number; firstDelayMs?: number } = {},
): PollingWorker {
  return startPollingWorker({
    name: 'reminder worker',
    intervalMs: options.intervalMs ?? REMINDER_POLL_MS,
    firstDelayMs: options.firstDelayMs ?? 30_000,
    when: () => isDatabaseOpen() && !isDatabaseDown(),
    onError: reportDatabaseFailure,
    round: async () => {
      await sendDueReminders()
      // Managers who have not acted on a list of raters waiting for their approval (ADR 042).
      await sendApproverReminders()
      // Development plans' check-ins on the dates their employees chose (ADR 043), claimed once.
      await sendPlanCheckIns()
      await pruneExpired()
      // Sign-ins through an organisation's provider that never came back (ADR 049).
      await pruneSsoStates()
      // Housekeeping that must run with or without SMTP: bodies with dead or unneeded links.
      await eraseStaleOutboxBodies()
      // The admin counts' rows since the last round, folded into one per count (ADR 010).
      await compactTallies()
      // The webhook delivery log keeps a month of finished deliveries (ADR 057).
      await pruneWebhookDeliveries()
    },
  })
}

/**
 * Retention (issue 21 §3, ADR 058): a pass every hour (the first a few minutes after start), each
 * company's due schemes, accounts and audit entries in short batches. Every instance may run the
 * worker; the advisory lock lets one pass run at a time and the others skip their round. `now` is
 * the clock the pass reads: tests pass their own.
 */
export function startRetentionWorker(
  options: { intervalMs?: number; firstDelayMs?: number; now?: () => Date } = {},
): PollingWorker {
  return startPollingWorker({
    name: 'retention worker',
    intervalMs: options.intervalMs ?? RETENTION_POLL_MS,
    firstDelayMs: options.firstDelayMs ?? 5 * 60_000,
    now: options.now,
    when: () => isDatabaseOpen() && !isDatabaseDown(),
    onError: reportDatabaseFailure,
    round: async (now) => {
      await withRetentionLock(() => runRetentionPass(now))
    },
  })
}
