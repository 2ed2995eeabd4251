import { sql, type SQL } from 'drizzle-orm'
import { getDb, queryRows, type Tx } from '#db/client'
import type { ReleaseMode } from '#db/enums'
import { getEnv } from '#app/config/env.server'
import { ok, refuse, type Actor, type Outcome } from '#app/lib/outcome'
import { log } from '#app/lib/logger.server'
import { enqueueEmails } from '#app/modules/email/outbox.server'

/**
 * Report releases (docs/decisions/022-report-release.md). A release fixes an employee's colleague
 * results: it copies the subject's submitted colleague answers into report_release_* (copies, not
 * references), closes their colleagues' unfinished assignments (the links then say the feedback
 * round has ended), writes an audit entry and queues the "your report is ready" e-mail — all in one
 * transaction. The report reads only the latest release's copies (report.server.ts).
 *
 * Every kind of release is the same set-based statement (`releaseStatement`) over a different set of
 * subjects, plus the outbox inserts: a fixed number of statements however many participants.
 */

export type Released = {
  releaseId: string
  schemeId: string
  subjectId: string
  raters: number
  closedAssignments: number
}

type ReleasedRow = {
  release_id: string
  scheme_id: string
  subject_id: string
  raters: number
  closed: number
  email: string
  subject_name: string
  scheme_name: string
  brand_id: string | null
  self_response_id: string
}

/**
 * The subjects a release may take: employees enrolled in the scheme whose self-assessment is
 * submitted. `filter` narrows it (a scheme, a subject, the clock's rule) on `self` and `s`.
 */
function releaseStatement(input: { filter: SQL; actorId: string | null; mode: ReleaseMode; now: Date }): SQL {
  const at = sql`${input.now.toISOString()}::timestamptz`
  // The clock releases a subject at most once (a partial unique index): two app instances racing
  // both try, the second waits on the first's index entry and then does nothing.
  const conflict =
    input.mode === 'clock' ? sql`ON CONFLICT (scheme_id, subject_id) WHERE mode = 'clock' DO NOTHING` : sql``
  return sql`WITH subjects AS (
      SELECT self.scheme_id, self.subject_id, sr.id AS self_response_id
      FROM assignments self
      JOIN responses sr ON sr.assignment_id = self.id AND sr.submitted_at IS NOT NULL
      JOIN schemes s ON s.id = self.scheme_id
      JOIN scheme_members m ON m.scheme_id = self.scheme_id AND m.employee_id = self.subject_id
      WHERE self.relationship = 'self' AND self.status = 'submitted' AND s.status <> 'draft'
        AND ${input.filter}
    ),
    rel AS (
      INSERT INTO report_releases (scheme_id, subject_id, released_at, released_by, mode)
      SELECT scheme_id, subject_id, ${at}, ${input.actorId}::uuid, ${input.mode}::release_mode FROM subjects
      ${conflict}
      RETURNING id, scheme_id, subject_id, released_at
    ),
    src AS MATERIALIZED (
      SELECT gen_random_uuid() AS id, rel.id AS release_id, r.id AS response_id, a.relationship,
        row_number() OVER (PARTITION BY rel.id ORDER BY random())::int AS rater_key
      FROM rel
      JOIN assignments a
        ON a.scheme_id = rel.scheme_id AND a.subject_id = rel.subject_id
        AND a.relationship <> 'self' AND a.status = 'submitted'
      JOIN responses r ON r.assignment_id = a.id AND r.submitted_at IS NOT NULL
    ),
    copied_responses AS (
      INSERT INTO report_release_responses (id, release_id, relationship, rater_key)
      SELECT id, release_id, relationship, rater_key FROM src
    ),
    copied_answers AS (
      INSERT INTO report_release_answers
        (release_id, release_response_id, question_id, numeric_value, text_value, choices, not_applicable, source_answer_id)
      SELECT src.release_id, src.id, an.question_id, an.numeric_value, an.text_value, an.choices,
        an.not_applicable, an.id
      FROM src JOIN answers an ON an.response_id = src.response_id
    ),
    closed AS (
      UPDATE assignments a SET closed_at = rel.released_at
      FROM rel
      WHERE a.scheme_id = rel.scheme_id AND a.subject_id = rel.subject_id
        AND a.relationship <> 'self' AND a.status IN ('pending', 'in_progress') AND a.closed_at IS NULL
      RETURNING a.scheme_id, a.subject_id
    ),
    counts AS (
      SELECT rel.id AS release_id,
        (SELECT count(*) FROM src WHERE src.release_id = rel.id)::int AS raters,
        (SELECT count(*) FROM closed c WHERE c.scheme_id = rel.scheme_id AND c.subject_id = rel.subject_id)::int AS closed
      FROM rel
    ),
    audited AS (
      INSERT INTO audit_log (actor_id, action, entity, entity_id, details)
      SELECT ${input.actorId}::uuid, 'report.release', 'report_release', rel.id::text,
        jsonb_build_object('by', ${input.mode}::text, 'schemeId', rel.scheme_id, 'subjectId', rel.subject_id,
          'raters', counts.raters, 'closedAssignments', counts.closed)
      FROM rel JOIN counts ON counts.release_id = rel.id
    )
    SELECT rel.id AS release_id, rel.scheme_id, rel.subject_id, counts.raters, counts.closed,
      u.email, u.display_name AS subject_name, s.name AS scheme_name, co.brand_id,
      subjects.self_response_id
    FROM rel
    JOIN counts ON counts.release_id = rel.id
    JOIN subjects ON subjects.scheme_id = rel.scheme_id AND subjects.subject_id = rel.subject_id
    JOIN users u ON u.id = rel.subject_id
    JOIN schemes s ON s.id = rel.scheme_id
    JOIN companies co ON co.id = s.company_id`
}

/** Runs a release statement and queues each employee's "your report is ready" e-mail in `tx`. */
async function release(tx: Tx, input: Parameters<typeof releaseStatement>[0]): Promise<Released[]> {
  const rows = await queryRows<ReleasedRow>(tx, releaseStatement(input))
  const appUrl = getEnv().APP_URL
  await enqueueEmails(
    tx,
    rows.map((r) => ({
      to: r.email,
      template: 'response_ready' as const,
      brandId: r.brand_id,
      values: {
        recipientName: r.subject_name,
        employeeName: r.subject_name,
        schemeName: r.scheme_name,
        link: new URL(`/user/response-${r.self_response_id}`, appUrl).toString(),
      },
      entity: 'report_release',
      entityId: r.release_id,
      linkExpiresAt: null,
    })),
  )
  return rows.map((r) => ({
    releaseId: r.release_id,
    schemeId: r.scheme_id,
    subjectId: r.subject_id,
    raters: Number(r.raters),
    closedAssignments: Number(r.closed),
  }))
}

type SchemeForRelease = { id: string; name: string; status: string }

async function schemeOf(tx: Tx, schemeId: string): Promise<SchemeForRelease | undefined> {
  const [row] = await queryRows<SchemeForRelease>(
    tx,
    sql`SELECT id, name, status FROM schemes WHERE id = ${schemeId}`,
  )
  return row
}

const NOT_LAUNCHED = 'This scheme has not been launched, so there is no report to release.'

/**
 * An admin releases (or releases again) one participant's report: a new snapshot of their submitted
 * colleague answers, which replaces the previous one.
 */
export async function releaseParticipant(
  actor: Actor,
  schemeId: string,
  subjectId: string,
  now = new Date(),
): Promise<Outcome<Released & { schemeName: string }>> {
  return getDb().transaction(async (tx): Promise<Outcome<Released & { schemeName: string }>> => {
    const scheme = await schemeOf(tx, schemeId)
    if (!scheme) return refuse('This scheme no longer exists.')
    if (scheme.status === 'draft') return refuse(NOT_LAUNCHED)
    const [released] = await release(tx, {
      filter: sql`self.scheme_id = ${schemeId} AND self.subject_id = ${subjectId}`,
      actorId: actor.id,
      mode: 'admin',
      now,
    })
    if (!released)
      return refuse(
        'This participant has not submitted their self-assessment yet, so there is no report to release.',
      )
    return ok({ ...released, schemeName: scheme.name })
  })
}

/** An admin releases every report of the scheme whose self-assessment is in (one statement). */
export async function releaseScheme(
  actor: Actor,
  schemeId: string,
  now = new Date(),
): Promise<Outcome<{ released: number; schemeName: string }>> {
  return getDb().transaction(async (tx): Promise<Outcome<{ released: number; schemeName: string }>> => {
    const scheme = await schemeOf(tx, schemeId)
    if (!scheme) return refuse('This scheme no longer exists.')
    if (scheme.status === 'draft') return refuse(NOT_LAUNCHED)
    const released = await release(tx, {
      filter: sql`self.scheme_id = ${schemeId}`,
      actorId: actor.id,
      mode: 'admin',
      now,
    })
    if (!released.length)
      return refuse(
        'No participant has submitted their self-assessment yet, so there is no report to release.',
      )
    return ok({ released: released.length, schemeName: scheme.name })
  })
}

/**
 * Release on close: every participant (self-assessment in) of a closed scheme that releases on
 * close and has no release yet. Idempotent and race-safe (the clock's partial unique index). The
 * scheme clock calls it after closeDueSchemes; "close now" calls it inside its own transaction with
 * the scheme's id.
 */
export async function releaseOnClose(
  now: Date = new Date(),
  options: { tx?: Tx; schemeId?: string } = {},
): Promise<Released[]> {
  const filter = sql`s.status = 'closed' AND s.report_release = 'on_close'
    ${options.schemeId ? sql`AND s.id = ${options.schemeId}` : sql``}
    AND NOT EXISTS (
      SELECT 1 FROM report_releases rr WHERE rr.scheme_id = self.scheme_id AND rr.subject_id = self.subject_id
    )`
  const run = (tx: Tx) => release(tx, { filter, actorId: null, mode: 'clock', now })
  const released = options.tx ? await run(options.tx) : await getDb().transaction(run)
  if (released.length) log.info('reports released as their schemes closed', { count: released.length })
  return released
}
