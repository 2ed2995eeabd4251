import type { FocusKind, FocusStance } from '#db/enums'
import { sql } from 'drizzle-orm'
import { getDb, queryRows, type Tx } from '#db/client'
import { getEnv } from '#app/config/env.server'
import { formatDate } from '#app/lib/dates'
import { isUuid } from '#app/lib/ids'
import { ok, refuse, refuseField, refuseNotFound, type Actor, type Outcome } from '#app/lib/outcome'
import { recordAudit } from '#app/modules/audit/audit.server'
import { enqueueEmail } from '#app/modules/email/outbox.server'
import {
  addDays,
  focusTitle,
  MAX_FOCUS_AREAS,
  PLAN_MESSAGES,
  planHref,
  sharedHref,
  splitFocus,
  TARGET_MAX_DAYS,
} from './schemas'
import { focusAreasWords, PLAN_NOTE } from '#app/modules/email/value-words'

/**
 * Development plans and report shares (issue 19 §1–2, ADR 043). A plan belongs to an employee's
 * membership of a scheme and is made from their released report, which the pages name by its self
 * response (`rid`, as /user/response-:rid does). Ownership is in every query: an employee reaches
 * their own plan only; a manager reaches a report only while they are the employee's manager and
 * either the employee's live consent or the scheme's "the manager sees the report at release" lets
 * them; administrators read a plan's text only when it is shared with the coach.
 */

export type FocusArea = {
  id: string
  position: number
  kind: FocusKind
  category: string
  questionId: string | null
  questionText: string | null
  stance: FocusStance
  actions: string
  support: string
  /** "2026-09-30", or null. */
  targetDate: string | null
}

export type PlanShare = {
  managerId: string
  managerName: string
  includePlan: boolean
  grantedAt: string
  /** The same instant, for a page to write in its reader's language (in the scheme's zone). */
  grantedIso: string
  /** False once the person shared with is no longer the employee's manager: they lost access. */
  stillManager: boolean
}

/** Everything the plan page, the report page's plan card and the plan's changes read, in one row. */
type ContextRow = {
  response_id: string
  scheme_id: string
  employee_id: string
  questionnaire_id: string
  scheme_name: string
  time_zone: string
  manager_sees_report: boolean
  brand_id: string | null
  employee_name: string
  ready: boolean
  manager_id: string | null
  manager_name: string | null
  manager_email: string | null
  plan_id: string | null
  shared_with_coach_at: string | null
  areas: FocusArea[]
  share_manager_id: string | null
  share_manager_name: string | null
  share_include_plan: boolean | null
  share_granted_at: string | null
}

/** A plan's focus areas as JSON, in their order, with the question's wording. */
const AREAS_JSON = sql`(SELECT coalesce(json_agg(json_build_object(
    'id', fa.id, 'position', fa.position, 'kind', fa.kind, 'category', fa.category,
    'questionId', fa.question_id, 'questionText', q.text, 'stance', fa.stance,
    'actions', fa.actions, 'support', fa.support, 'targetDate', fa.target_date
  ) ORDER BY fa.position, fa.created_at), '[]'::json)
  FROM plan_focus_areas fa LEFT JOIN questions q ON q.id = fa.question_id
  WHERE fa.plan_id = p.id)`

/**
 * The latest release of the report, and whether it shows colleagues' figures (the report's own gate:
 * shown by the release, and at least the scheme's threshold of colleagues in it).
 */
const LATEST_RELEASE = sql`LEFT JOIN LATERAL (
    SELECT rr.released_at, rr.colleagues_shown,
      (SELECT count(*) FROM report_release_responses x WHERE x.release_id = rr.id)::int AS raters
    FROM report_releases rr
    WHERE rr.scheme_id = a.scheme_id AND rr.subject_id = a.subject_id
    ORDER BY rr.released_at DESC, rr.id DESC
    LIMIT 1
  ) rel ON true`

const READY = sql`(r.submitted_at IS NOT NULL AND coalesce(rel.colleagues_shown, false)
    AND coalesce(rel.raters, 0) >= s.min_raters)`

async function contextRow(
  tx: Tx,
  rid: string,
  owner: string | null,
  options: { lock?: boolean } = {},
): Promise<ContextRow | undefined> {
  if (!isUuid(rid)) return undefined
  const [row] = await queryRows<ContextRow>(
    tx,
    sql`
    SELECT r.id AS response_id, a.scheme_id, a.subject_id AS employee_id, a.questionnaire_id,
      s.name AS scheme_name, s.time_zone, s.manager_sees_report,
      (SELECT c.brand_id FROM companies c WHERE c.id = s.company_id) AS brand_id,
      coalesce(nullif(u.display_name, ''), u.email) AS employee_name,
      ${READY} AS ready,
      m.id AS manager_id, coalesce(nullif(m.display_name, ''), m.email) AS manager_name,
      m.email AS manager_email,
      p.id AS plan_id, p.shared_with_coach_at,
      ${AREAS_JSON} AS areas,
      sh.manager_id AS share_manager_id,
      (SELECT coalesce(nullif(x.display_name, ''), x.email) FROM users x WHERE x.id = sh.manager_id)
        AS share_manager_name,
      sh.include_plan AS share_include_plan, sh.granted_at AS share_granted_at
    FROM responses r
    JOIN assignments a ON a.id = r.assignment_id AND a.relationship = 'self'
    JOIN schemes s ON s.id = a.scheme_id
    JOIN users u ON u.id = a.subject_id
    LEFT JOIN users m ON m.id = u.manager_id AND m.disabled_at IS NULL
    LEFT JOIN development_plans p ON p.scheme_id = a.scheme_id AND p.employee_id = a.subject_id
    LEFT JOIN report_shares sh ON sh.scheme_id = a.scheme_id AND sh.employee_id = a.subject_id
      AND sh.revoked_at IS NULL
    ${LATEST_RELEASE}
    WHERE r.id = ${rid} ${owner ? sql`AND a.subject_id = ${owner}` : sql``}
    ${options.lock ? sql`FOR UPDATE OF r` : sql``}`,
  )
  return row
}

export type PlanContext = {
  responseId: string
  schemeId: string
  schemeName: string
  timeZone: string
  /** The report is released with colleagues' figures: a plan can be made and the report shared. */
  ready: boolean
  /** The scheme lets the manager read the released report without consent. */
  managerSeesReport: boolean
  manager: { id: string; name: string } | null
  hasPlan: boolean
  sharedWithCoach: boolean
  areas: FocusArea[]
  share: PlanShare | null
  /** "2026-11-26": today in the scheme's time zone, the earliest check-in date. */
  today: string
}

function toContext(row: ContextRow, now: Date): PlanContext {
  return {
    responseId: row.response_id,
    schemeId: row.scheme_id,
    schemeName: row.scheme_name,
    timeZone: row.time_zone,
    ready: row.ready,
    managerSeesReport: row.manager_sees_report,
    manager: row.manager_id ? { id: row.manager_id, name: row.manager_name ?? '' } : null,
    hasPlan: Boolean(row.plan_id),
    sharedWithCoach: Boolean(row.shared_with_coach_at),
    areas: (row.areas ?? []).map((a) => ({
      ...a,
      targetDate: a.targetDate ? String(a.targetDate).slice(0, 10) : null,
    })),
    share: row.share_manager_id
      ? {
          managerId: row.share_manager_id,
          managerName: row.share_manager_name ?? '',
          includePlan: row.share_include_plan !== false,
          grantedAt: formatDate(row.share_granted_at!, row.time_zone),
          grantedIso: new Date(row.share_granted_at!).toISOString(),
          stillManager: row.share_manager_id === row.manager_id,
        }
      : null,
    today: localDate(now, row.time_zone),
  }
}

/** "2026-11-26": the calendar date at `now` in a time zone. */
export function localDate(now: Date, timeZone: string): string {
  try {
    return new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    }).format(now)
  } catch {
    return now.toISOString().slice(0, 10)
  }
}

/** The employee's own plan context for a report of theirs (null: not theirs, or no such report). */
export async function loadPlanContext(rid: string, employeeId: string, now = new Date()) {
  const row = await contextRow(getDb(), rid, employeeId)
  return row ? toContext(row, now) : null
}

/** What the report page carries of the plan (its `.data` too): nothing about relationships. */
export type PlanBeside = {
  responseId: string
  ready: boolean
  /** The focus areas the viewer may read: the employee theirs; an admin only coach-shared ones. */
  areas: FocusArea[]
  focusAreaCount: number
  sharedWithCoach: boolean
  /** For the employee: who reads their report and plan (the page says it in the reader's language). */
  sharing:
    | { kind: 'shared'; managerName: string; grantedIso: string; timeZone: string; includePlan: boolean }
    | { kind: 'manager-sees' | 'private' }
    | null
}

/**
 * What the report page shows of the plan, by viewer: the employee their own; an administrator the
 * focus areas only when the plan is shared with the coach (otherwise only how many there are). One
 * statement.
 */
export async function loadPlanBeside(
  rid: string,
  viewer: { id: string; role: string },
  now = new Date(),
): Promise<PlanBeside | null> {
  const row = await contextRow(getDb(), rid, viewer.role === 'admin' ? null : viewer.id)
  if (!row) return null
  const context = toContext(row, now)
  const admin = viewer.role === 'admin'
  const share = context.share?.stillManager ? context.share : null
  return {
    responseId: context.responseId,
    ready: context.ready,
    areas: admin && !context.sharedWithCoach ? [] : context.areas,
    focusAreaCount: context.areas.length,
    sharedWithCoach: context.sharedWithCoach,
    sharing: admin
      ? null
      : share
        ? {
            kind: 'shared',
            managerName: share.managerName,
            grantedIso: share.grantedIso,
            timeZone: context.timeZone,
            includePlan: share.includePlan,
          }
        : { kind: context.managerSeesReport ? 'manager-sees' : 'private' },
  }
}

type Change = { tx: Tx; context: PlanContext; row: ContextRow }

/** A change to an employee's own plan or share: their report, locked, released with colleagues. */
async function ownChange<T>(
  actor: Actor,
  rid: string,
  run: (change: Change) => Promise<Outcome<T>>,
  options: { needsReady?: boolean; now?: Date } = {},
): Promise<Outcome<T>> {
  return getDb().transaction(async (tx) => {
    const row = await contextRow(tx, rid, actor.id, { lock: true })
    if (!row) return refuseNotFound()
    if (options.needsReady !== false && !row.ready) return refuse(PLAN_MESSAGES.notReleased)
    return run({ tx, context: toContext(row, options.now ?? new Date()), row })
  })
}

/** The plan's id, made on the first focus area. */
async function ensurePlan(tx: Tx, row: ContextRow): Promise<string> {
  if (row.plan_id) return row.plan_id
  const [made] = await queryRows<{ id: string }>(
    tx,
    sql`INSERT INTO development_plans (scheme_id, employee_id, response_id)
      VALUES (${row.scheme_id}, ${row.employee_id}, ${row.response_id})
      ON CONFLICT (scheme_id, employee_id) DO UPDATE SET updated_at = now()
      RETURNING id`,
  )
  return made!.id
}

/**
 * Adds a competency (a category of the report's questionnaire) or one of its scale questions as a
 * focus area. Refused with a message: a fourth area, one already chosen, or anything not in this
 * report's questionnaire.
 */
export async function addFocusArea(
  actor: Actor,
  rid: string,
  input: { focus: string; stance?: FocusStance },
): Promise<Outcome<{ title: string }>> {
  return ownChange(actor, rid, async ({ tx, context, row }) => {
    const { kind, ref } = splitFocus(input.focus)
    if (kind === 'question' && !isUuid(ref)) return refuseField('focus', PLAN_MESSAGES.notInReport)
    const [target] = await queryRows<{ category: string; text: string | null }>(
      tx,
      kind === 'question'
        ? sql`SELECT category, text FROM questions
            WHERE id = ${ref} AND questionnaire_id = ${row.questionnaire_id} AND kind = 'scale'`
        : sql`SELECT category, NULL AS text FROM questions
            WHERE category = ${ref} AND questionnaire_id = ${row.questionnaire_id} LIMIT 1`,
    )
    if (!target) return refuseField('focus', PLAN_MESSAGES.notInReport)
    const taken = context.areas.some((a) =>
      kind === 'question' ? a.questionId === ref : a.kind === 'category' && a.category === ref,
    )
    if (taken) return refuseField('focus', PLAN_MESSAGES.alreadyChosen)
    if (context.areas.length >= MAX_FOCUS_AREAS) return refuseField('focus', PLAN_MESSAGES.tooMany)
    const planId = await ensurePlan(tx, row)
    await tx.execute(sql`INSERT INTO plan_focus_areas (plan_id, position, kind, category, question_id, stance)
      VALUES (${planId}, ${context.areas.length + 1}, ${kind}, ${target.category},
        ${kind === 'question' ? ref : null}, ${input.stance ?? 'develop'})`)
    return ok({ title: target.text ?? target.category })
  })
}

export type PlanAreaInput = {
  id: string
  stance: FocusStance
  actions: string
  support: string
  targetDate?: string | undefined
}

/**
 * Saves the whole plan as the form holds it (the autosave and the plain "Save plan" post the same
 * fields). A check-in date must be from today on (in the scheme's time zone) and within two years,
 * except a date already saved, which may since have passed. One UPDATE for every area.
 */
export async function savePlan(
  actor: Actor,
  rid: string,
  areas: PlanAreaInput[],
  now = new Date(),
): Promise<Outcome<{ savedAt: string }>> {
  return ownChange(
    actor,
    rid,
    async ({ tx, context, row }) => {
      const known = new Map(context.areas.map((a) => [a.id, a]))
      if (areas.some((a) => !known.has(a.id)) || new Set(areas.map((a) => a.id)).size !== areas.length)
        return refuse(PLAN_MESSAGES.stale)
      const fieldErrors: Record<string, string[]> = {}
      areas.forEach((a, i) => {
        const date = a.targetDate || null
        if (!date || date === known.get(a.id)!.targetDate) return
        if (date < context.today) fieldErrors[`areas[${i}].targetDate`] = [PLAN_MESSAGES.datePast]
        else if (date > addDays(context.today, TARGET_MAX_DAYS))
          fieldErrors[`areas[${i}].targetDate`] = [PLAN_MESSAGES.dateFar]
      })
      if (Object.keys(fieldErrors).length) return { ok: false, fieldErrors }
      if (areas.length) {
        const values = JSON.stringify(
          areas.map((a) => ({
            id: a.id,
            stance: a.stance,
            actions: a.actions,
            support: a.support,
            target_date: a.targetDate || null,
          })),
        )
        await tx.execute(sql`UPDATE plan_focus_areas fa
          SET stance = v.stance::focus_stance, actions = v.actions, support = v.support,
            target_date = v.target_date
          FROM json_to_recordset(${values}::json)
            AS v(id uuid, stance text, actions text, support text, target_date date)
          WHERE fa.id = v.id AND fa.plan_id = ${row.plan_id}`)
        await tx.execute(sql`UPDATE development_plans SET updated_at = now() WHERE id = ${row.plan_id}`)
      }
      return ok({ savedAt: now.toISOString() })
    },
    { now },
  )
}

/** Removes a focus area; the ones after it move up. */
export async function removeFocusArea(
  actor: Actor,
  rid: string,
  areaId: string,
): Promise<Outcome<{ title: string }>> {
  return ownChange(actor, rid, async ({ tx, context, row }) => {
    const area = context.areas.find((a) => a.id === areaId)
    if (!area) return refuse(PLAN_MESSAGES.stale)
    await tx.execute(sql`DELETE FROM plan_focus_areas WHERE id = ${areaId} AND plan_id = ${row.plan_id}`)
    await tx.execute(sql`UPDATE plan_focus_areas SET position = position - 1
      WHERE plan_id = ${row.plan_id} AND position > ${area.position}`)
    return ok({ title: focusTitle(area) })
  })
}

/**
 * Shares the released report (and the plan, when `includePlan`) with the employee's manager of the
 * moment: a new grant, audited, and an e-mail to the manager. Sharing again with a changed choice
 * replaces the grant (the old one is revoked, both audited).
 */
export async function shareReport(
  actor: Actor,
  rid: string,
  input: { includePlan: boolean },
): Promise<Outcome<{ managerName: string }>> {
  return ownChange(actor, rid, async ({ tx, context, row }) => {
    const manager = context.manager
    if (!manager || !row.manager_email) return refuse(PLAN_MESSAGES.noManager)
    const live = context.share
    if (live && live.managerId === manager.id && live.includePlan === input.includePlan)
      return ok({ managerName: manager.name })
    if (live) await revokeLive(tx, actor, row, 'replaced')
    await tx.execute(sql`INSERT INTO report_shares (scheme_id, employee_id, manager_id, include_plan)
      VALUES (${row.scheme_id}, ${row.employee_id}, ${manager.id}, ${input.includePlan})`)
    await recordAudit(tx, actor, {
      action: 'report.share',
      entity: 'report',
      entityId: row.response_id,
      details: { schemeId: row.scheme_id, managerId: manager.id, includePlan: input.includePlan },
    })
    if (live?.managerId !== manager.id)
      await enqueueEmail(tx, {
        to: row.manager_email,
        template: 'report_shared',
        brandId: row.brand_id,
        values: {
          recipientName: manager.name,
          employeeName: row.employee_name,
          schemeName: row.scheme_name,
          planNote: input.includePlan ? PLAN_NOTE.en : '',
          link: new URL(sharedHref(row.response_id), getEnv().APP_URL).toString(),
        },
        words: input.includePlan ? { planNote: PLAN_NOTE } : undefined,
        entity: 'report',
        entityId: row.response_id,
        linkExpiresAt: null,
      })
    return ok({ managerName: manager.name })
  })
}

async function revokeLive(tx: Tx, actor: Actor, row: ContextRow, reason: 'revoked' | 'replaced') {
  await tx.execute(sql`UPDATE report_shares SET revoked_at = now()
    WHERE scheme_id = ${row.scheme_id} AND employee_id = ${row.employee_id} AND revoked_at IS NULL`)
  await recordAudit(tx, actor, {
    action: 'report.unshare',
    entity: 'report',
    entityId: row.response_id,
    details: { schemeId: row.scheme_id, managerId: row.share_manager_id, reason },
  })
}

/** Stops sharing: the manager loses access at once. */
export async function revokeShare(actor: Actor, rid: string): Promise<Outcome<{ managerName: string }>> {
  return ownChange(
    actor,
    rid,
    async ({ tx, context, row }) => {
      if (!context.share) return refuse(PLAN_MESSAGES.notShared)
      await revokeLive(tx, actor, row, 'revoked')
      return ok({ managerName: context.share.managerName })
    },
    { needsReady: false },
  )
}

/** Shares the plan's text with the programme's coach (its administrators), or stops; audited. */
export async function setCoachShare(
  actor: Actor,
  rid: string,
  share: boolean,
): Promise<Outcome<{ shared: boolean }>> {
  return ownChange(
    actor,
    rid,
    async ({ tx, row }) => {
      if (!row.plan_id) return refuse('Add a focus area first: there is no plan to share yet.')
      await tx.execute(sql`UPDATE development_plans
        SET shared_with_coach_at = ${share ? sql`now()` : sql`NULL`} WHERE id = ${row.plan_id}`)
      await recordAudit(tx, actor, {
        action: share ? 'plan.share-coach' : 'plan.unshare-coach',
        entity: 'development_plan',
        entityId: row.plan_id,
        details: { schemeId: row.scheme_id },
      })
      return ok({ shared: share })
    },
    { needsReady: false },
  )
}

/** Who may read a report as its employee's manager: consent, or the scheme's setting. */
const MANAGER_MAY_READ = (viewerId: string) => sql`u.manager_id = ${viewerId}::uuid AND ${READY}
  AND (sh.id IS NOT NULL OR s.manager_sees_report)`

export type SharedAccess = {
  responseId: string
  employeeName: string
  schemeName: string
  /** The employee consented (else the scheme's setting lets the manager read it). */
  consented: boolean
  grantedAt: string | null
  /** The same instant, and the scheme's zone, for a page to write in its reader's language. */
  grantedIso: string | null
  timeZone: string
  /** The plan's focus areas, when the share includes the plan. */
  areas: FocusArea[] | null
}

/**
 * A report a manager may read (/user/shared/:rid): only while they are the employee's manager, and
 * only with a live share to them or the scheme's "the manager sees the report at release". Null
 * otherwise — revoked, never shared, no longer their manager, not released: the same 404.
 */
export async function loadSharedAccess(rid: string, viewerId: string): Promise<SharedAccess | null> {
  if (!isUuid(rid)) return null
  const [row] = await queryRows<{
    response_id: string
    employee_name: string
    scheme_name: string
    time_zone: string
    consented: boolean
    granted_at: string | null
    areas: FocusArea[] | null
  }>(
    getDb(),
    sql`
    SELECT r.id AS response_id, coalesce(nullif(u.display_name, ''), u.email) AS employee_name,
      s.name AS scheme_name, s.time_zone, (sh.id IS NOT NULL) AS consented, sh.granted_at,
      CASE WHEN sh.include_plan THEN ${AREAS_JSON} END AS areas
    FROM responses r
    JOIN assignments a ON a.id = r.assignment_id AND a.relationship = 'self'
    JOIN schemes s ON s.id = a.scheme_id
    JOIN users u ON u.id = a.subject_id
    LEFT JOIN report_shares sh ON sh.scheme_id = a.scheme_id AND sh.employee_id = a.subject_id
      AND sh.revoked_at IS NULL AND sh.manager_id = ${viewerId}
    LEFT JOIN development_plans p ON p.scheme_id = a.scheme_id AND p.employee_id = a.subject_id
    ${LATEST_RELEASE}
    WHERE r.id = ${rid} AND ${MANAGER_MAY_READ(viewerId)}`,
  )
  if (!row) return null
  return {
    responseId: row.response_id,
    employeeName: row.employee_name,
    schemeName: row.scheme_name,
    consented: row.consented,
    grantedAt: row.granted_at ? formatDate(row.granted_at, row.time_zone) : null,
    grantedIso: row.granted_at ? new Date(row.granted_at).toISOString() : null,
    timeZone: row.time_zone,
    areas: row.areas
      ? row.areas.map((a) => ({ ...a, targetDate: a.targetDate ? String(a.targetDate).slice(0, 10) : null }))
      : null,
  }
}

export type SharedWithYou = {
  responseId: string
  href: string
  employeeName: string
  schemeName: string
  consented: boolean
  includesPlan: boolean
  since: string
  /** The same instant, and the scheme's zone, for a page to write in its reader's language. */
  sinceIso: string
  timeZone: string
}

/** The most reports "Shared with you" lists (a manager of a very large team sees the newest). */
const SHARED_SHOWN = 50

/**
 * "Shared with you" on a manager's home page: their direct reports' released reports they may read,
 * newest release first. One statement, through the index on users.manager_id.
 */
export async function listSharedWithYou(
  viewerId: string,
  /** The reader's Intl locale for the dates; English by default. */
  locale?: string,
): Promise<SharedWithYou[]> {
  const rows = await queryRows<{
    response_id: string
    employee_name: string
    scheme_name: string
    time_zone: string
    consented: boolean
    include_plan: boolean | null
    since: string
  }>(
    getDb(),
    sql`
    SELECT r.id AS response_id, coalesce(nullif(u.display_name, ''), u.email) AS employee_name,
      s.name AS scheme_name, s.time_zone, (sh.id IS NOT NULL) AS consented, sh.include_plan,
      coalesce(sh.granted_at, rel.released_at) AS since
    FROM users u
    JOIN assignments a ON a.subject_id = u.id AND a.relationship = 'self'
    JOIN responses r ON r.assignment_id = a.id
    JOIN schemes s ON s.id = a.scheme_id
    LEFT JOIN report_shares sh ON sh.scheme_id = a.scheme_id AND sh.employee_id = a.subject_id
      AND sh.revoked_at IS NULL AND sh.manager_id = ${viewerId}
    ${LATEST_RELEASE}
    WHERE ${MANAGER_MAY_READ(viewerId)}
    ORDER BY since DESC, r.id
    LIMIT ${SHARED_SHOWN}`,
  )
  return rows.map((r) => ({
    responseId: r.response_id,
    href: sharedHref(r.response_id),
    employeeName: r.employee_name,
    schemeName: r.scheme_name,
    consented: r.consented,
    includesPlan: r.include_plan === true,
    since: formatDate(r.since, r.time_zone, locale),
    sinceIso: new Date(r.since).toISOString(),
    timeZone: r.time_zone,
  }))
}

/** Check-ins claimed per round: a bound on one transaction, the next round takes the rest. */
const CHECK_IN_BATCH = 200

/**
 * Sends the check-in reminders whose date has come (in the scheme's time zone): one e-mail per plan
 * and date, in the scheme's brand, linking to the plan. Each focus area is claimed by setting
 * `check_in_sent_for` to its date in the statement that selects it (FOR UPDATE SKIP LOCKED), in the
 * transaction that writes the e-mails: two workers never send one twice, and a crash sends none.
 * A date changed later is a new date, and gets its own reminder. Disabled accounts are claimed but
 * not e-mailed.
 */
export async function sendPlanCheckIns(now: Date = new Date()): Promise<number> {
  return getDb().transaction(async (tx) => {
    const claimed = await queryRows<{
      plan_id: string
      target_date: string
      kind: FocusKind
      category: string
      question_text: string | null
      stance: FocusStance
      response_id: string
      scheme_name: string
      brand_id: string | null
      email: string
      name: string
      disabled: boolean
    }>(
      tx,
      sql`
      WITH due AS (
        SELECT fa.id FROM plan_focus_areas fa
        JOIN development_plans p ON p.id = fa.plan_id
        JOIN schemes s ON s.id = p.scheme_id
        WHERE fa.target_date IS NOT NULL AND fa.check_in_sent_for IS DISTINCT FROM fa.target_date
          AND fa.target_date <= (${now.toISOString()}::timestamptz AT TIME ZONE s.time_zone)::date
        ORDER BY fa.target_date, fa.id
        LIMIT ${CHECK_IN_BATCH}
        FOR UPDATE OF fa SKIP LOCKED
      ), claimed AS (
        UPDATE plan_focus_areas fa SET check_in_sent_for = fa.target_date
        FROM due WHERE fa.id = due.id
        RETURNING fa.plan_id, fa.target_date, fa.kind, fa.category, fa.question_id, fa.stance, fa.position
      )
      SELECT c.plan_id, c.target_date::text AS target_date, c.kind, c.category, q.text AS question_text,
        c.stance, p.response_id, s.name AS scheme_name,
        (SELECT co.brand_id FROM companies co WHERE co.id = s.company_id) AS brand_id,
        u.email, coalesce(nullif(u.display_name, ''), u.email) AS name,
        (u.disabled_at IS NOT NULL) AS disabled
      FROM claimed c
      JOIN development_plans p ON p.id = c.plan_id
      JOIN schemes s ON s.id = p.scheme_id
      JOIN users u ON u.id = p.employee_id
      LEFT JOIN questions q ON q.id = c.question_id
      ORDER BY c.plan_id, c.target_date, c.position`,
    )
    const mails = new Map<string, typeof claimed>()
    for (const row of claimed) {
      if (row.disabled) continue
      const key = `${row.plan_id}|${row.target_date}`
      mails.set(key, [...(mails.get(key) ?? []), row])
    }
    for (const rows of mails.values()) {
      const first = rows[0]!
      await enqueueEmail(tx, {
        to: first.email,
        template: 'plan_check_in',
        brandId: first.brand_id,
        values: {
          recipientName: first.name,
          schemeName: first.scheme_name,
          targetDate: formatDate(`${first.target_date}T12:00:00Z`, 'UTC'),
          link: new URL(planHref(first.response_id), getEnv().APP_URL).toString(),
        },
        words: {
          focusAreas: focusAreasWords(
            rows.map((r) => ({
              title: focusTitle({ kind: r.kind, category: r.category, questionText: r.question_text }),
              stance: r.stance,
            })),
          ),
        },
        dates: { targetDate: { at: `${first.target_date}T12:00:00Z`, timeZone: 'UTC' } },
        entity: 'development_plan',
        entityId: first.plan_id,
        linkExpiresAt: null,
      })
    }
    return mails.size
  })
}

/** One of an employee's plans as their data export carries it (ADR 055): its text and who reads it. */
export type OwnPlan = {
  schemeName: string
  /** The report the plan was made from (/user/response-:rid). */
  reportId: string
  createdAt: string
  updatedAt: string
  /** Shared with the programme's coach (the consultancy's administrators) since then; null: not. */
  sharedWithCoachAt: string | null
  /** The scheme lets the employee's manager read the released report (and not the plan) without consent. */
  managerSeesReport: boolean
  focusAreas: Omit<FocusArea, 'id' | 'questionId'>[]
}

/** An employee's consent to let a manager read a report (every grant, revoked ones too). */
export type OwnReportShare = {
  schemeName: string
  reportId: string
  managerName: string
  includesPlan: boolean
  grantedAt: string
  revokedAt: string | null
}

/**
 * Every plan of one employee and every report share they granted, in one statement (their data
 * export, ADR 055): the manager named as the plan page names them, never their address.
 */
export async function listOwnPlans(
  employeeId: string,
): Promise<{ plans: OwnPlan[]; reportShares: OwnReportShare[] }> {
  type PlanRow = Omit<OwnPlan, 'focusAreas'> & { focusAreas: FocusArea[] }
  const [row] = await queryRows<{ plans: PlanRow[] | null; shares: OwnReportShare[] | null }>(
    getDb(),
    sql`
    SELECT
      (SELECT json_agg(json_build_object(
          'schemeName', s.name, 'reportId', p.response_id, 'createdAt', p.created_at,
          'updatedAt', p.updated_at, 'sharedWithCoachAt', p.shared_with_coach_at,
          'managerSeesReport', s.manager_sees_report, 'focusAreas', ${AREAS_JSON}
        ) ORDER BY p.created_at, p.id)
        FROM development_plans p JOIN schemes s ON s.id = p.scheme_id
        WHERE p.employee_id = ${employeeId}) AS plans,
      (SELECT json_agg(json_build_object(
          'schemeName', s.name, 'reportId', r.id,
          'managerName', coalesce(nullif(m.display_name, ''), m.email),
          'includesPlan', sh.include_plan, 'grantedAt', sh.granted_at, 'revokedAt', sh.revoked_at
        ) ORDER BY sh.granted_at, sh.id)
        FROM report_shares sh
        JOIN schemes s ON s.id = sh.scheme_id
        JOIN users m ON m.id = sh.manager_id
        LEFT JOIN assignments a ON a.scheme_id = sh.scheme_id AND a.subject_id = sh.employee_id
          AND a.relationship = 'self'
        LEFT JOIN responses r ON r.assignment_id = a.id
        WHERE sh.employee_id = ${employeeId}) AS shares`,
  )
  return {
    plans: (row?.plans ?? []).map((p) => ({
      ...p,
      focusAreas: p.focusAreas.map((area) => ({
        position: area.position,
        kind: area.kind,
        category: area.category,
        questionText: area.questionText,
        stance: area.stance,
        actions: area.actions,
        support: area.support,
        targetDate: area.targetDate ? String(area.targetDate).slice(0, 10) : null,
      })),
    })),
    reportShares: row?.shares ?? [],
  }
}
