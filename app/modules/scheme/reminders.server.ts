import type { Relationship } from '#db/enums'
import { sql, type SQL } from 'drizzle-orm'
import { getDb, queryRows } from '#db/client'
import { log } from '#app/lib/logger.server'
import { respondentLink } from '#app/modules/action-code/action-code.server'
import { formatDate } from '#app/lib/dates'
import { enqueueEmail } from '#app/modules/email/outbox.server'
import { roundOpenSql, schemeOpenSql } from './state'

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
  relationship: Relationship
  respondentId: string
  respondentEmail: string
  respondentName: string
  subjectName: string
  schemeName: string
  closesAt: Date
  timeZone: string
  brandId: string
}

export type ReminderResult = { sent: number; assignmentIds: string[] }

/**
 * When an assignment's reminder clock started: the last reminder, else the invitation, else its
 * creation. Written exactly as in the partial index assignments_reminder_due_index (db/schema), so
 * the planner matches the two.
 */
const CLOCK = sql`coalesce(a.last_reminder_at, a.invited_at, a.created_at)`

/**
 * Everything that makes an assignment due for a reminder at `at`, written once and used twice (the
 * candidate scan and the re-check in the UPDATE). The clock starts at the last reminder, else the
 * invitation, else the assignment's creation, and never before the scheme opened (nobody is reminded
 * of something the moment it opens): `greatest(clock, opens_at) <= at − cadence`, written as its two
 * halves so that the assignment's half is a range of the index.
 */
function dueCondition(now: Date) {
  return sql`${schemeDue(now)} AND ${assignmentDue(now)} AND ${peopleDue}`
}

const atOf = (now: Date): SQL => sql`${now.toISOString()}::timestamptz`

/**
 * The scheme's half: open now (the one rule, scheme/state.ts), and open for at least one cadence
 * period.
 */
function schemeDue(now: Date) {
  return sql`
    ${schemeOpenSql(now, { scheme: 's' })}
    AND s.reminder_cadence_days > 0
    AND s.opens_at <= ${atOf(now)} - make_interval(days => s.reminder_cadence_days)`
}

/**
 * The assignment's half: its round still open (not ended early by a release: the rest of the one
 * rule), unfinished, its clock a cadence period old (the partial index's range).
 */
function assignmentDue(now: Date) {
  return sql`
    a.status IN ('pending', 'in_progress')
    AND ${roundOpenSql({ assignment: 'a' })}
    AND ${CLOCK} <= ${atOf(now)} - make_interval(days => s.reminder_cadence_days)`
}

/** The people: who would get the e-mail, and whose feedback it is. */
const peopleDue = sql`
    r.disabled_at IS NULL
    AND subj.disabled_at IS NULL
    -- An employee who never activated their account cannot sign in to answer: the activation
    -- e-mail, not a reminder, is what they need.
    AND (a.relationship <> 'self' OR r.password_hash IS NOT NULL)
    -- The guard enqueueEmail applies (one address, nothing a header could be split on), so a row
    -- is never counted as reminded without its e-mail.
    AND r.email <> '' AND r.email !~ '[[:space:],;<>]'`

/**
 * Candidates considered per batch: more than a batch, so that two workers racing each other (each
 * skipping the rows the other has locked) both find a full batch.
 */
const CANDIDATES_PER_BATCH = 2

async function sendBatch(now: Date, limit: number): Promise<string[]> {
  const at = atOf(now)
  const pool = limit * CANDIDATES_PER_BATCH
  /** One open scheme's due assignments (scheme `s`), earliest clock first: a range of the index. */
  const dueIn = (n: number) => sql`
    SELECT a.id, ${CLOCK} AS clock
    FROM assignments a
    JOIN users r ON r.id = a.respondent_id
    JOIN users subj ON subj.id = a.subject_id
    WHERE a.scheme_id = s.id AND ${assignmentDue(now)} AND ${peopleDue}
    ORDER BY ${CLOCK}, a.id
    LIMIT ${n}`
  return getDb().transaction(async (tx) => {
    // The candidates come from the index assignments_reminder_due_index (scheme, clock), scheme by
    // scheme, so a round reads the assignments that are due, not every unfinished one (a single
    // walk in clock order would first pass the unfinished assignments of every closed scheme):
    //  1. each open scheme's earliest due assignment (one short index probe per scheme), keeping
    //     the `pool` schemes whose earliest is earliest: any of the round's `pool` earliest due
    //     assignments belongs to one of them, since its scheme's earliest is at least as early;
    //  2. those schemes' earliest due assignments, at most `limit` each, the earliest `pool` of all.
    // Then the candidates are locked in clock order, skipping those another worker holds, and the
    // UPDATE checks again that each one is due.
    const claimed = await queryRows<Claimed>(
      tx,
      sql`
        WITH firsts AS MATERIALIZED (
          SELECT s.id, s.reminder_cadence_days, f.clock, f.id AS first_id
          FROM schemes s
          CROSS JOIN LATERAL (${dueIn(1)}) f
          WHERE ${schemeDue(now)}
          ORDER BY f.clock, f.id
          LIMIT ${pool}
        ),
        candidates AS MATERIALIZED (
          SELECT due.id
          FROM firsts s
          CROSS JOIN LATERAL (${dueIn(limit)}) due
          ORDER BY due.clock, due.id
          LIMIT ${pool}
        ),
        locked AS MATERIALIZED (
          SELECT a.id
          FROM assignments a
          WHERE a.id = ANY (ARRAY(SELECT id FROM candidates))
          ORDER BY ${CLOCK}, a.id
          LIMIT ${limit}
          FOR UPDATE SKIP LOCKED
        )
        UPDATE assignments a
        SET last_reminder_at = ${at}, reminders_sent = a.reminders_sent + 1
        FROM locked l, schemes s, users r, users subj, companies co
        WHERE a.id = l.id
          AND s.id = a.scheme_id
          AND r.id = a.respondent_id
          AND subj.id = a.subject_id
          AND co.id = s.company_id
          AND ${dueCondition(now)}
        RETURNING a.id, a.relationship,
          r.id AS "respondentId", r.email AS "respondentEmail",
          coalesce(nullif(a.respondent_name, ''), nullif(r.display_name, ''), r.email) AS "respondentName",
          coalesce(nullif(subj.display_name, ''), subj.email) AS "subjectName",
          s.name AS "schemeName", s.closes_at AS "closesAt", s.time_zone AS "timeZone",
          co.brand_id AS "brandId"`,
    )
    if (!claimed.length) return []

    // A colleague signs in through their link: the reminder carries a fresh one, and the earlier ones
    // keep working (a link stays valid until they submit or the scheme closes).
    for (const row of claimed) {
      const closesAt = new Date(row.closesAt)
      const { link, linkExpiresAt } = await respondentLink(tx, { ...row, assignmentId: row.id, closesAt })
      await enqueueEmail(tx, {
        to: row.respondentEmail,
        template: 'reminder',
        brandId: row.brandId,
        values: {
          link,
          recipientName: row.respondentName,
          schemeName: row.schemeName,
          dueDate: formatDate(closesAt, row.timeZone),
          employeeName: row.subjectName,
          ...(row.relationship === 'self' ? {} : { colleagueName: row.respondentName }),
        },
        dates: { dueDate: { at: closesAt, timeZone: row.timeZone } },
        entity: 'assignment',
        entityId: row.id,
        linkExpiresAt,
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
