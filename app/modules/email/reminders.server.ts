import { sql } from 'drizzle-orm'
import { pruneExpired } from '#app/modules/auth/session.server'
import { getDb, isDatabaseOpen, queryRows } from '#db/client'
import { getEnv, type Env } from '#app/config/env.server'
import { log } from '#app/lib/logger.server'
import { createActionCode } from '#app/modules/auth/action-codes.server'
import { actionLink } from '#app/modules/auth/auth.server'
import { formatDate } from '#app/modules/invite/schemas'
import { enqueueEmail } from './outbox.server'

/**
 * Reminder e-mails (issue 3, item 8): respondents who have not submitted hear from the scheme's brand
 * every `reminder_cadence_days` while the scheme is open, and never once it has closed.
 *
 * Claiming is one UPDATE over rows picked with FOR UPDATE SKIP LOCKED, with the "is it due?"
 * condition repeated in the UPDATE itself: if two workers (two app instances) race, one takes a row
 * and the other skips it or, having waited, re-checks it, finds it no longer due and leaves it. The
 * e-mails, the fresh invite codes and the counters are written in the same transaction as the claim,
 * so a reminder is either wholly sent to the outbox or not at all.
 */

/** Reminders per transaction; a larger backlog is taken in further batches of the same call. */
export const REMINDER_BATCH_SIZE = 50
/** How often the worker looks for due reminders. The cadence is counted in days, so this is plenty. */
export const REMINDER_POLL_MS = 10 * 60 * 1000
/** One call sends at most this many batches, so a huge backlog cannot hold a worker for long. */
const MAX_BATCHES = 20

type Claimed = {
  id: string
  relationship: 'self' | 'manager' | 'peer' | 'direct_report' | 'other'
  respondentId: string
  respondentEmail: string
  respondentName: string
  subjectName: string
  schemeName: string
  closesAt: Date
  brandId: string
}

export type ReminderResult = { sent: number; assignmentIds: string[] }

/**
 * Everything that makes an assignment due for a reminder at `at`, written once and used twice (the
 * candidate scan and the re-check in the UPDATE). The clock starts at the last reminder, else the
 * invitation, else the assignment's creation, and never before the scheme opened (nobody is reminded
 * of something the moment it opens).
 */
function dueCondition(at: ReturnType<typeof sql>) {
  return sql`
    s.status = 'open'
    AND s.opens_at <= ${at}
    AND ${at} < s.closes_at
    AND s.reminder_cadence_days > 0
    AND a.status IN ('pending', 'in_progress')
    AND greatest(coalesce(a.last_reminder_at, a.invited_at, a.created_at), s.opens_at)
        <= ${at} - make_interval(days => s.reminder_cadence_days)
    AND r.disabled_at IS NULL
    AND subj.disabled_at IS NULL
    -- An employee who never activated their account cannot sign in to answer: the activation
    -- e-mail, not a reminder, is what they need.
    AND (a.relationship <> 'self' OR r.password_hash IS NOT NULL)
    -- The guard enqueueEmail applies (one address, nothing a header could be split on), so a row
    -- is never counted as reminded without its e-mail.
    AND r.email <> '' AND r.email !~ '[[:space:],;<>]'`
}

async function sendBatch(now: Date, limit: number): Promise<string[]> {
  const env = getEnv()
  const at = sql`${now.toISOString()}::timestamptz`
  return getDb().transaction(async (tx) => {
    const claimed = await queryRows<Claimed>(
      tx,
      sql`
        WITH candidates AS (
          SELECT a.id
          FROM assignments a
          JOIN schemes s ON s.id = a.scheme_id
          JOIN users r ON r.id = a.respondent_id
          JOIN users subj ON subj.id = a.subject_id
          WHERE ${dueCondition(at)}
          ORDER BY coalesce(a.last_reminder_at, a.invited_at, a.created_at), a.id
          LIMIT ${limit}
          FOR UPDATE OF a SKIP LOCKED
        )
        UPDATE assignments a
        SET last_reminder_at = ${at}, reminders_sent = a.reminders_sent + 1
        FROM candidates c, schemes s, users r, users subj, companies co
        WHERE a.id = c.id
          AND s.id = a.scheme_id
          AND r.id = a.respondent_id
          AND subj.id = a.subject_id
          AND co.id = s.company_id
          AND ${dueCondition(at)}
        RETURNING a.id, a.relationship,
          r.id AS "respondentId", r.email AS "respondentEmail",
          coalesce(nullif(a.respondent_name, ''), nullif(r.display_name, ''), r.email) AS "respondentName",
          coalesce(nullif(subj.display_name, ''), subj.email) AS "subjectName",
          s.name AS "schemeName", s.closes_at AS "closesAt", co.brand_id AS "brandId"`,
    )
    if (!claimed.length) return []

    // A colleague signs in through their link: the reminder carries a fresh one, and the earlier ones
    // keep working (a link stays valid until they submit or the scheme closes).
    for (const row of claimed) {
      const closesAt = new Date(row.closesAt)
      let link: string
      if (row.relationship === 'self') {
        link = new URL(`/assignment/${row.id}`, env.APP_URL).toString()
      } else {
        const { code } = await createActionCode(tx, {
          kind: 'colleague_invite',
          userId: row.respondentId,
          assignmentId: row.id,
          expiresAt: closesAt,
        })
        link = actionLink('colleague_invite', code)
      }
      await enqueueEmail(tx, {
        to: row.respondentEmail,
        template: 'reminder',
        brandId: row.brandId,
        values: {
          link,
          recipientName: row.respondentName,
          schemeName: row.schemeName,
          dueDate: formatDate(closesAt),
          employeeName: row.subjectName,
          ...(row.relationship === 'self' ? {} : { colleagueName: row.respondentName }),
        },
        entity: 'assignment',
        entityId: row.id,
      })
    }
    return claimed.map((row) => row.id)
  })
}

/**
 * Queues every reminder due at `now` and returns how many were queued. Safe to call from any number
 * of workers at once: each assignment is reminded at most once per cadence period.
 */
export async function sendDueReminders(now: Date = new Date()): Promise<ReminderResult> {
  const assignmentIds: string[] = []
  for (let batch = 0; batch < MAX_BATCHES; batch++) {
    const ids = await sendBatch(now, REMINDER_BATCH_SIZE)
    assignmentIds.push(...ids)
    if (ids.length < REMINDER_BATCH_SIZE) break
  }
  if (assignmentIds.length) log.info('reminders queued', { count: assignmentIds.length })
  return { sent: assignmentIds.length, assignmentIds }
}

/**
 * Looks for due reminders every 10 minutes (first shortly after start). Rounds never overlap; the
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
        if (isDatabaseOpen()) {
          await sendDueReminders()
          await pruneExpired()
        }
      } catch (error) {
        log.error('reminder round failed', { error: error instanceof Error ? error.message : String(error) })
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
