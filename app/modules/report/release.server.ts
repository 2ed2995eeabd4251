import { sql, type SQL } from 'drizzle-orm'
import { getDb, queryRows, type Tx } from '#db/client'
import type { ReleaseMode, Relationship } from '#db/enums'
import { getEnv } from '#app/config/env.server'
import { ok, refuse, type Actor, type Outcome, type Refusal } from '#app/lib/outcome'
import { log } from '#app/lib/logger.server'
import { enqueueEmails } from '#app/modules/email/outbox.server'
import {
  judgeRelease,
  reasonInEnglish,
  verdictReason,
  type ReleaseReason,
  type ReleaseSnapshot,
  type ReleaseVerdict,
  type SnapshotResponse,
} from './release-rule'
import type { RaterGroup } from './rater-groups'
import { storeReleasedFigures } from './released-figures.server'
import { threshold } from './threshold'
import { enqueueWebhookEvents } from '#app/modules/webhook/events.server'

/**
 * Report releases (ADR 022, ADR 025). A release fixes an employee's colleague results: it copies the
 * subject's submitted colleague answers into report_release_* (copies, not references), writes an
 * audit entry and, when it shows colleagues' results, closes their colleagues' unfinished
 * assignments, computes the report's colleague figures from the copies (released-figures.server.ts)
 * and queues the "your report is ready" e-mail — all in one transaction. The report reads only the
 * latest release's stored figures (report.server.ts).
 *
 * Every release goes through the rule between releases (release-rule.ts): the subjects' rows are
 * locked (scheme_members FOR UPDATE, in one order), what would be copied is read with its
 * colleagues' assignments held FOR SHARE (a reopen waits), each subject is judged, and one
 * set-based statement releases the subjects the rule allows. So two administrators releasing at
 * once make one release: the second finds nothing changed. A fixed number of statements however
 * many participants.
 */

export type Released = {
  releaseId: string
  schemeId: string
  subjectId: string
  raters: number
  /** The release shows colleagues' results (else it released the self-assessment alone). */
  colleaguesShown: boolean
  groupsShown: boolean
  closedAssignments: number
  /** A "your report is ready" e-mail was queued (only when colleagues' results are shown). */
  emailed: boolean
}

/**
 * A fingerprint of one response's answers, aggregated over `alias` (answers, or the copies in
 * report_release_answers, which have the same columns): two responses with the same answers have
 * the same fingerprint. Migration 0016 backfilled older copies with this very expression.
 */
export function answersFingerprint(alias: string): SQL {
  const a = sql.raw(alias)
  return sql`md5(coalesce(string_agg(
    ${a}.question_id::text || ':' || coalesce(${a}.numeric_value::text, '') || ':' || coalesce(${a}.choices::text, '')
      || ':' || ${a}.not_applicable::text || ':' || coalesce(${a}.text_value, ''),
    E'\n' ORDER BY ${a}.question_id), ''))`
}

/** A Postgres array literal of ids or booleans (values checked by the callers: uuids, true/false). */
const pgArray = (values: readonly (string | boolean)[]) => `{${values.join(',')}}`

type SubjectRow = {
  scheme_id: string
  subject_id: string
  min_raters: number
  show_manager: boolean
  email: string
  subject_name: string
  scheme_name: string
  brand_id: string | null
  self_response_id: string
}

/** Everything the rule needs about one report. */
export type ReportState = {
  schemeId: string
  subjectId: string
  minRaters: number
  showManager: boolean
  previous: ReleaseSnapshot[]
  /** The colleague responses that a release made now would copy, with their response ids. */
  candidate: (SnapshotResponse & { responseId: string })[]
  subject: { email: string; name: string; schemeName: string; brandId: string | null; selfResponseId: string }
}

/**
 * The reports `filter` picks (on `self`, `s` and `m`) whose self-assessment is in, with their
 * releases so far and what would be copied now. `lock` takes the subjects' membership rows FOR
 * UPDATE (in one order, so two releases never deadlock) and their colleagues' submitted assignments
 * FOR SHARE; without it this is a read for a confirmation page. Three statements.
 */
async function loadStates(tx: Tx, filter: SQL, lock: boolean): Promise<ReportState[]> {
  const subjects = await queryRows<SubjectRow>(
    tx,
    sql`SELECT self.scheme_id, self.subject_id, s.min_raters, s.show_manager_below_threshold AS show_manager,
        u.email, u.display_name AS subject_name, s.name AS scheme_name, co.brand_id, sr.id AS self_response_id
      FROM assignments self
      JOIN responses sr ON sr.assignment_id = self.id AND sr.submitted_at IS NOT NULL
      JOIN schemes s ON s.id = self.scheme_id
      JOIN scheme_members m ON m.scheme_id = self.scheme_id AND m.employee_id = self.subject_id
      JOIN users u ON u.id = self.subject_id
      JOIN companies co ON co.id = s.company_id
      WHERE self.relationship = 'self' AND self.status = 'submitted' AND s.status <> 'draft' AND ${filter}
      ORDER BY self.scheme_id, self.subject_id
      ${lock ? sql`FOR UPDATE OF m` : sql``}`,
  )
  if (!subjects.length) return []
  const schemeIds = pgArray(subjects.map((s) => s.scheme_id))
  const subjectIds = pgArray(subjects.map((s) => s.subject_id))
  const pairs = sql`(SELECT * FROM unnest(${schemeIds}::uuid[], ${subjectIds}::uuid[]))`
  const candidates = await queryRows<{
    scheme_id: string
    subject_id: string
    response_id: string
    relationship: Relationship
    hash: string
  }>(
    tx,
    sql`SELECT a.scheme_id, a.subject_id, r.id AS response_id, a.relationship,
        (SELECT ${answersFingerprint('an')} FROM answers an WHERE an.response_id = r.id) AS hash
      FROM assignments a
      JOIN responses r ON r.assignment_id = a.id AND r.submitted_at IS NOT NULL
      WHERE (a.scheme_id, a.subject_id) IN ${pairs}
        AND a.relationship <> 'self' AND a.status = 'submitted'
      ORDER BY a.id
      ${lock ? sql`FOR SHARE OF a` : sql``}`,
  )
  const releases = await queryRows<{
    scheme_id: string
    subject_id: string
    release_id: string
    colleagues_shown: boolean
    groups_shown: boolean
    source: string | null
    hash: string | null
    relationship: Relationship | null
  }>(
    tx,
    sql`SELECT rr.scheme_id, rr.subject_id, rr.id AS release_id, rr.colleagues_shown, rr.groups_shown,
        coalesce(x.source_response_id::text, 'copy:' || x.id::text) AS source, x.content_hash AS hash,
        x.relationship
      FROM report_releases rr
      LEFT JOIN report_release_responses x ON x.release_id = rr.id
      WHERE (rr.scheme_id, rr.subject_id) IN ${pairs}
      ORDER BY rr.released_at, rr.id`,
  )
  const key = (schemeId: string, subjectId: string) => `${schemeId}/${subjectId}`
  const states = new Map<string, ReportState>()
  for (const s of subjects)
    states.set(key(s.scheme_id, s.subject_id), {
      schemeId: s.scheme_id,
      subjectId: s.subject_id,
      minRaters: Number(s.min_raters),
      showManager: s.show_manager === true,
      previous: [],
      candidate: [],
      subject: {
        email: s.email,
        name: s.subject_name,
        schemeName: s.scheme_name,
        brandId: s.brand_id,
        selfResponseId: s.self_response_id,
      },
    })
  for (const c of candidates)
    states.get(key(c.scheme_id, c.subject_id))?.candidate.push({
      source: c.response_id,
      responseId: c.response_id,
      hash: c.hash,
      relationship: c.relationship as RaterGroup,
    })
  const byRelease = new Map<string, ReleaseSnapshot & { responses: SnapshotResponse[] }>()
  for (const r of releases) {
    let release = byRelease.get(r.release_id)
    if (!release) {
      release = { responses: [], colleaguesShown: r.colleagues_shown, groupsShown: r.groups_shown }
      byRelease.set(r.release_id, release)
      states.get(key(r.scheme_id, r.subject_id))?.previous.push(release)
    }
    if (r.source && r.relationship)
      release.responses.push({
        source: r.source,
        hash: r.hash ?? `unknown:${r.source}`,
        relationship: r.relationship as RaterGroup,
      })
  }
  return [...states.values()]
}

export function verdictOf(state: ReportState): ReleaseVerdict {
  return judgeRelease({
    previous: state.previous,
    candidate: state.candidate,
    minRaters: state.minRaters,
    showManager: state.showManager,
  })
}

type Decision = { state: ReportState; colleaguesShown: boolean; groupsShown: boolean }

/**
 * Releases the decided reports in one set-based statement (release rows, copies of exactly the
 * judged responses, closed invitations when colleagues' results are shown, audit entries), then
 * queues the "report ready" e-mails of the releases that show colleagues' results.
 */
async function insertReleases(
  tx: Tx,
  decisions: Decision[],
  input: { actorId: string | null; mode: ReleaseMode; now: Date },
): Promise<Released[]> {
  if (!decisions.length) return []
  const at = sql`${input.now.toISOString()}::timestamptz`
  const conflict =
    input.mode === 'clock' ? sql`ON CONFLICT (scheme_id, subject_id) WHERE mode = 'clock' DO NOTHING` : sql``
  const responseIds = decisions.flatMap((d) => d.state.candidate.map((c) => c.responseId))
  const rows = await queryRows<{
    release_id: string
    scheme_id: string
    subject_id: string
    raters: number
    closed: number
    colleagues_shown: boolean
    groups_shown: boolean
  }>(
    tx,
    sql`WITH chosen AS (
        SELECT * FROM unnest(
          ${pgArray(decisions.map((d) => d.state.schemeId))}::uuid[],
          ${pgArray(decisions.map((d) => d.state.subjectId))}::uuid[],
          ${pgArray(decisions.map((d) => d.colleaguesShown))}::boolean[],
          ${pgArray(decisions.map((d) => d.groupsShown))}::boolean[]
        ) AS c(scheme_id, subject_id, colleagues_shown, groups_shown)
      ),
      rel AS (
        INSERT INTO report_releases (scheme_id, subject_id, released_at, released_by, mode, colleagues_shown, groups_shown)
        SELECT scheme_id, subject_id, ${at}, ${input.actorId}::uuid, ${input.mode}::release_mode,
          colleagues_shown, groups_shown
        FROM chosen
        ${conflict}
        RETURNING id, scheme_id, subject_id, released_at, colleagues_shown, groups_shown
      ),
      src AS MATERIALIZED (
        SELECT gen_random_uuid() AS id, rel.id AS release_id, r.id AS response_id, a.relationship,
          row_number() OVER (PARTITION BY rel.id ORDER BY random())::int AS rater_key
        FROM rel
        JOIN assignments a
          ON a.scheme_id = rel.scheme_id AND a.subject_id = rel.subject_id
          AND a.relationship <> 'self' AND a.status = 'submitted'
        JOIN responses r ON r.assignment_id = a.id AND r.submitted_at IS NOT NULL
        WHERE r.id = ANY(${pgArray(responseIds)}::uuid[])
      ),
      copied_responses AS (
        INSERT INTO report_release_responses (id, release_id, relationship, rater_key, source_response_id, content_hash)
        SELECT src.id, src.release_id, src.relationship, src.rater_key, src.response_id,
          (SELECT ${answersFingerprint('an')} FROM answers an WHERE an.response_id = src.response_id)
        FROM src
      ),
      copied_answers AS (
        INSERT INTO report_release_answers
          (release_id, release_response_id, question_id, numeric_value, text_value, choices, not_applicable, source_answer_id)
        SELECT src.release_id, src.id, an.question_id, an.numeric_value, an.text_value, an.choices,
          an.not_applicable, an.id
        FROM src JOIN answers an ON an.response_id = src.response_id
      ),
      closed AS (
        -- Only a release that shows colleagues' results ends the round; one that releases the
        -- self-assessment alone leaves the invitations open so the report can still fill.
        UPDATE assignments a SET closed_at = rel.released_at
        FROM rel
        WHERE rel.colleagues_shown AND a.scheme_id = rel.scheme_id AND a.subject_id = rel.subject_id
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
            'raters', counts.raters, 'closedAssignments', counts.closed,
            'colleaguesShown', rel.colleagues_shown, 'groupsShown', rel.groups_shown)
        FROM rel JOIN counts ON counts.release_id = rel.id
      )
      SELECT rel.id AS release_id, rel.scheme_id, rel.subject_id, counts.raters, counts.closed,
        rel.colleagues_shown, rel.groups_shown
      FROM rel JOIN counts ON counts.release_id = rel.id`,
  )
  // The webhooks' report.released (ADR 057): whose report, in which scheme, and whether colleagues'
  // results are in it; never a figure, an answer or a rater.
  await enqueueWebhookEvents(
    tx,
    rows.map((r) => ({
      type: 'report.released' as const,
      schemeId: r.scheme_id,
      data: {
        release_id: r.release_id,
        scheme_id: r.scheme_id,
        employee_id: r.subject_id,
        state: 'released',
        colleagues_shown: r.colleagues_shown,
      },
      at: input.now,
    })),
  )
  const stateOf = new Map(decisions.map((d) => [`${d.state.schemeId}/${d.state.subjectId}`, d.state]))
  const appUrl = getEnv().APP_URL
  const mailed = rows.filter((r) => r.colleagues_shown)
  // The colleague side of each report, computed once here and never on a page view (ADR 037).
  await storeReleasedFigures(
    tx,
    mailed.map((r) => {
      const state = stateOf.get(`${r.scheme_id}/${r.subject_id}`)!
      return {
        releaseId: r.release_id,
        selfResponseId: state.subject.selfResponseId,
        minRaters: state.minRaters,
      }
    }),
  )
  await enqueueEmails(
    tx,
    mailed.map((r) => {
      const { subject } = stateOf.get(`${r.scheme_id}/${r.subject_id}`)!
      return {
        to: subject.email,
        template: 'response_ready' as const,
        brandId: subject.brandId,
        values: {
          recipientName: subject.name,
          employeeName: subject.name,
          schemeName: subject.schemeName,
          link: new URL(`/user/response-${subject.selfResponseId}`, appUrl).toString(),
        },
        entity: 'report_release',
        entityId: r.release_id,
        linkExpiresAt: null,
      }
    }),
  )
  return rows.map((r) => ({
    releaseId: r.release_id,
    schemeId: r.scheme_id,
    subjectId: r.subject_id,
    raters: Number(r.raters),
    colleaguesShown: r.colleagues_shown,
    groupsShown: r.groups_shown,
    closedAssignments: Number(r.closed),
    emailed: r.colleagues_shown,
  }))
}

type SchemeForRelease = { id: string; name: string; status: string; min_raters: number }

async function schemeOf(tx: Tx, schemeId: string): Promise<SchemeForRelease | undefined> {
  const [row] = await queryRows<SchemeForRelease>(
    tx,
    sql`SELECT id, name, status, min_raters FROM schemes WHERE id = ${schemeId}`,
  )
  return row
}

/**
 * The refusals of a release, as whole sentences with their numbers written `{n}` (ADR 052): the
 * scheme page's `validation` table (scheme-page) translates each by its English, so a sentence with
 * a count is held once per English plural form.
 */
export const RELEASE_MESSAGES = {
  gone: 'This scheme no longer exists.',
  notLaunched: 'This scheme has not been launched, so there is no report to release.',
  noSelf: 'This participant has not submitted their self-assessment yet, so there is no report to release.',
  nobody: 'No participant has submitted their self-assessment yet, so there is no report to release.',
  belowThreshold: {
    one: 'Only {n} answer of the {n} needed is in, so the report cannot show colleagues’ results yet. Wait for {n} more, or release the self-assessment alone.',
    other:
      'Only {n} answers of the {n} needed are in, so the report cannot show colleagues’ results yet. Wait for {n} more, or release the self-assessment alone.',
  },
  enoughSince:
    'Enough colleagues have answered since you opened this ({n}): the report would now show their results. Open the release again to see what it would do.',
  againOnly: {
    one: 'No report is waiting for its first release. {n} released report has changed enough to be released again: open the release again and include it.',
    other:
      'No report is waiting for its first release. {n} released reports have changed enough to be released again: open the release again and include them.',
  },
  noneBoth:
    'No report can be released now: {n} below the {n} answers needed (release those one by one to release the self-assessment alone); {n} already released and unchanged, or changed too little.',
  noneBelow:
    'No report can be released now: {n} below the {n} answers needed (release those one by one to release the self-assessment alone).',
  noneUnchanged: 'No report can be released now: {n} already released and unchanged, or changed too little.',
} as const

/** A sentence of {@link RELEASE_MESSAGES} with its numbers, in order, in place of its `{n}`. */
function filled(sentence: string, ...values: number[]) {
  let i = 0
  return sentence.replace(/\{n\}/g, () => values[i++]!.toLocaleString('en-GB'))
}

/** The English form of a sentence held per plural form. */
const byCount = (forms: { one: string; other: string }, count: number) =>
  count === 1 ? forms.one : forms.other

/**
 * A release refused by the rule between releases: its English sentence, and the reason it says, for
 * the scheme page to write in the reader's language (scheme-page:release.reason.*).
 */
export type ReleaseRefusal = Refusal & { reason?: ReleaseReason }

type ReleaseOutcome = Outcome<Released & { schemeName: string }> | ReleaseRefusal

const refuseFor = (reason: ReleaseReason): ReleaseRefusal => ({ ...refuse(reasonInEnglish(reason)), reason })

/** What "release" would do for one participant now: for the confirmation panel (read only). */
export async function previewRelease(schemeId: string, subjectId: string): Promise<ReleaseVerdict | null> {
  const [state] = await loadStates(
    getDb(),
    sql`self.scheme_id = ${schemeId} AND self.subject_id = ${subjectId}`,
    false,
  )
  return state ? verdictOf(state) : null
}

export type ReleaseKind = 'full' | 'self-only'

/**
 * An admin releases (or releases again) one participant's report, under the rule between releases.
 * `kind` is what the admin confirmed: below the threshold only 'self-only' releases (the
 * self-assessment alone, invitations left open), and a confirmation made for one kind is refused
 * when the answers have moved to the other since.
 */
export async function releaseParticipant(
  actor: Actor,
  schemeId: string,
  subjectId: string,
  options: { kind?: ReleaseKind; now?: Date } = {},
): Promise<ReleaseOutcome> {
  return getDb().transaction(async (tx): Promise<ReleaseOutcome> => {
    const scheme = await schemeOf(tx, schemeId)
    if (!scheme) return refuse(RELEASE_MESSAGES.gone)
    if (scheme.status === 'draft') return refuse(RELEASE_MESSAGES.notLaunched)
    const [state] = await loadStates(
      tx,
      sql`self.scheme_id = ${schemeId} AND self.subject_id = ${subjectId}`,
      true,
    )
    if (!state) return refuse(RELEASE_MESSAGES.noSelf)
    const verdict = verdictOf(state)
    const t = threshold(state.minRaters)
    if (verdict.kind === 'self-only' && options.kind !== 'self-only')
      return refuse(
        filled(
          byCount(RELEASE_MESSAGES.belowThreshold, verdict.answered),
          verdict.answered,
          t,
          verdict.needed,
        ),
      )
    if (verdict.kind === 'release' && options.kind === 'self-only')
      return refuse(filled(RELEASE_MESSAGES.enoughSince, verdict.answered))
    const reason = verdictReason(verdict, state.minRaters)
    if (reason) return refuseFor(reason)
    const [released] = await insertReleases(
      tx,
      [
        {
          state,
          colleaguesShown: verdict.kind === 'release',
          groupsShown: verdict.kind === 'release' ? verdict.groupsShown : true,
        },
      ],
      { actorId: actor.id, mode: 'admin', now: options.now ?? new Date() },
    )
    if (!released) return refuse(RELEASE_MESSAGES.noSelf)
    return ok({ ...released, schemeName: scheme.name })
  })
}

export type SchemeReleasePlan = {
  /** Never released, enough answers: "release all" releases them. */
  first: number
  /** Released before, and changed enough to be released again (only when asked). */
  again: number
  /** Never released, below the threshold: left for the admin to decide one by one. */
  belowThreshold: number
  /** Released before and unchanged, or changed too little: left as they are. */
  unchangedOrTooFew: number
}

function planOf(states: ReportState[], includeReleased: boolean) {
  const plan: SchemeReleasePlan = { first: 0, again: 0, belowThreshold: 0, unchangedOrTooFew: 0 }
  const decisions: Decision[] = []
  for (const state of states) {
    const verdict = verdictOf(state)
    if (verdict.kind === 'self-only') plan.belowThreshold++
    else if (verdict.kind !== 'release') plan.unchangedOrTooFew++
    else if (verdict.first) {
      // Colleagues' results never released (perhaps the self-assessment alone was): nothing to compare.
      plan.first++
      decisions.push({ state, colleaguesShown: true, groupsShown: verdict.groupsShown })
    } else {
      // Colleagues' results released before: a new release is compared with them (the rule holds).
      plan.again++
      if (includeReleased) decisions.push({ state, colleaguesShown: true, groupsShown: verdict.groupsShown })
    }
  }
  return { plan, decisions }
}

/** What "release all reports" would do now: for its confirmation (read only). */
export async function previewSchemeRelease(schemeId: string): Promise<SchemeReleasePlan> {
  return planOf(await loadStates(getDb(), sql`self.scheme_id = ${schemeId}`, false), false).plan
}

/**
 * An admin releases the scheme's reports: those never released that have enough answers, and —
 * only when asked — those released before that have changed enough since (the rule between
 * releases). Reports below the threshold are left for the admin to decide one by one.
 */
export async function releaseScheme(
  actor: Actor,
  schemeId: string,
  options: { includeReleased?: boolean; now?: Date } = {},
): Promise<Outcome<{ released: number; plan: SchemeReleasePlan; schemeName: string }>> {
  return getDb().transaction(async (tx) => {
    const scheme = await schemeOf(tx, schemeId)
    if (!scheme) return refuse(RELEASE_MESSAGES.gone)
    if (scheme.status === 'draft') return refuse(RELEASE_MESSAGES.notLaunched)
    const states = await loadStates(tx, sql`self.scheme_id = ${schemeId}`, true)
    if (!states.length) return refuse(RELEASE_MESSAGES.nobody)
    const { plan, decisions } = planOf(states, options.includeReleased === true)
    if (!decisions.length) {
      const needed = threshold(scheme.min_raters)
      const { again, belowThreshold: below, unchangedOrTooFew: unchanged } = plan
      return refuse(
        again
          ? filled(byCount(RELEASE_MESSAGES.againOnly, again), again)
          : below && unchanged
            ? filled(RELEASE_MESSAGES.noneBoth, below, needed, unchanged)
            : below
              ? filled(RELEASE_MESSAGES.noneBelow, below, needed)
              : filled(RELEASE_MESSAGES.noneUnchanged, unchanged),
      )
    }
    const released = await insertReleases(tx, decisions, {
      actorId: actor.id,
      mode: 'admin',
      now: options.now ?? new Date(),
    })
    return ok({ released: released.length, plan, schemeName: scheme.name })
  })
}

/**
 * Release on close: every participant (self-assessment in) of a closed scheme that releases on
 * close, once: never when the clock released them already or when a release shows colleagues'
 * results already (an early one for a debrief). Below the threshold it releases the
 * self-assessment alone (the scheme is closed: no more answers come). Idempotent and race-safe
 * (the row locks, then the clock's partial unique index). The scheme clock calls it after
 * closeDueSchemes; "close now" calls it inside its own transaction with the scheme's id.
 */
export async function releaseOnClose(
  now: Date = new Date(),
  options: { tx?: Tx; schemeId?: string } = {},
): Promise<Released[]> {
  const filter = sql`s.status = 'closed' AND s.report_release = 'on_close'
    ${options.schemeId ? sql`AND s.id = ${options.schemeId}` : sql``}
    AND NOT EXISTS (
      SELECT 1 FROM report_releases rr WHERE rr.scheme_id = self.scheme_id AND rr.subject_id = self.subject_id
        AND (rr.mode = 'clock' OR rr.colleagues_shown)
    )`
  const run = async (tx: Tx) => {
    const decisions: Decision[] = []
    for (const state of await loadStates(tx, filter, true)) {
      const verdict = verdictOf(state)
      if (verdict.kind === 'release')
        decisions.push({ state, colleaguesShown: true, groupsShown: verdict.groupsShown })
      else if (verdict.kind === 'self-only')
        decisions.push({ state, colleaguesShown: false, groupsShown: true })
    }
    return insertReleases(tx, decisions, { actorId: null, mode: 'clock', now })
  }
  const released = options.tx ? await run(options.tx) : await getDb().transaction(run)
  if (released.length) log.info('reports released as their schemes closed', { count: released.length })
  return released
}
