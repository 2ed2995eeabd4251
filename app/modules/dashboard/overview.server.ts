import { sql } from 'drizzle-orm'
import type { TFunction } from 'i18next'
import { getDb, queryRows } from '#db/client'
import { schemePhaseSql, type SchemePhase } from '#app/modules/scheme/state'
import { withArticle } from '#app/lib/words'

/**
 * What the dashboard shows besides its counts (DESIGN.md §7): the running programmes with their
 * progress, the latest changes from the audit log, and — on a fresh install — a checklist that ticks
 * itself off. Three statements, each bounded by a LIMIT or by EXISTS, so the page costs the same at
 * 100,000 employees as on the demo data.
 */

/** How many running programmes the dashboard lists (the scheme page lists them all). */
export const DASHBOARD_SCHEMES = 8
export const DASHBOARD_ACTIVITY = 10

export type SchemeProgress = {
  id: string
  name: string
  companyName: string
  phase: SchemePhase
  opensAt: string
  closesAt: string
  timeZone: string
  enrolled: number
  selfSubmitted: number
  invited: number
  answered: number
}

/**
 * Open and upcoming schemes, soonest deadline first, each with its progress counted in one pass
 * over its assignments (the (scheme_id, status) index); a scheme holds at most a few thousand.
 */
export async function listRunningSchemes(now?: Date): Promise<SchemeProgress[]> {
  const phase = schemePhaseSql(now)
  const rows = await queryRows<Record<string, unknown>>(
    getDb(),
    sql`
    SELECT schemes.id, schemes.name, c.name AS company_name, ${phase} AS phase, schemes.opens_at,
           schemes.closes_at, schemes.time_zone, p.enrolled, p.self_submitted, p.invited, p.answered
    -- The schemes to show first (the (status, closes_at) index), then the progress of those only.
    FROM (
      SELECT * FROM schemes
      WHERE schemes.status = 'open' AND ${phase} IN ('open', 'upcoming')
      ORDER BY schemes.closes_at, schemes.id
      LIMIT ${DASHBOARD_SCHEMES}
    ) schemes
    JOIN companies c ON c.id = schemes.company_id
    CROSS JOIN LATERAL (
      SELECT count(*) FILTER (WHERE a.relationship = 'self')::int AS enrolled,
             count(*) FILTER (WHERE a.relationship = 'self' AND a.status = 'submitted')::int AS self_submitted,
             count(*) FILTER (WHERE a.relationship <> 'self' AND a.status <> 'revoked')::int AS invited,
             count(*) FILTER (WHERE a.relationship <> 'self' AND a.status = 'submitted')::int AS answered
      FROM assignments a WHERE a.scheme_id = schemes.id
    ) p
    ORDER BY schemes.closes_at, schemes.id`,
  )
  return rows.map((r) => ({
    id: String(r.id),
    name: String(r.name),
    companyName: String(r.company_name),
    phase: r.phase as SchemePhase,
    opensAt: new Date(r.opens_at as string).toISOString(),
    closesAt: new Date(r.closes_at as string).toISOString(),
    timeZone: String(r.time_zone),
    enrolled: Number(r.enrolled),
    selfSubmitted: Number(r.self_submitted),
    invited: Number(r.invited),
    answered: Number(r.answered),
  }))
}

export type Activity = {
  id: string
  at: string
  actor: string | null
  action: string
  entity: string
  entityId: string | null
  /** The reason an admin gave for seeing who answered (ADR 024), shown with the entry. */
  reason: string | null
  /** The scheme of a revealed response. */
  scheme: string | null
}

/** Entries whose reason the dashboard shows: every look at who answered (ADR 024). */
const REVEALING_ACTIONS = ['response.reveal', 'answers.export_identities']

/**
 * The latest audit entries (the audit_log.at index), with who did them — except a colleague's
 * submission, which reads "A colleague submitted feedback" without its assignment: a name beside
 * the exact time would tell which response in answer management is theirs (ADR 024). A colleague's
 * request to reopen their answers is told the same way (ADR 039).
 */
export async function recentActivity(): Promise<Activity[]> {
  const rows = await queryRows<Record<string, unknown>>(
    getDb(),
    sql`
    SELECT l.id, l.at, l.action, l.entity, CASE WHEN hidden THEN NULL ELSE l.entity_id END AS entity_id,
      CASE WHEN hidden THEN 'A colleague' ELSE coalesce(nullif(u.display_name, ''), u.email) END AS actor,
      CASE WHEN l.action IN (${sql.join(
        REVEALING_ACTIONS.map((a) => sql`${a}`),
        sql`, `,
      )}) THEN left(l.details->>'reason', 201) END AS reason,
      CASE WHEN l.action = 'response.reveal' THEN l.details->>'schemeName' END AS scheme
    FROM audit_log l LEFT JOIN users u ON u.id = l.actor_id
    CROSS JOIN LATERAL (SELECT l.action IN ('assignment.submit', 'response.reopen_request')
      AND coalesce(l.details->>'relationship', '') <> 'self' AS hidden) h
    ORDER BY l.at DESC, l.id DESC
    LIMIT ${DASHBOARD_ACTIVITY}`,
  )
  return rows.map((r) => ({
    id: String(r.id),
    at: new Date(r.at as string).toISOString(),
    actor: (r.actor as string | null) ?? null,
    action: String(r.action),
    entity: String(r.entity),
    entityId: (r.entity_id as string | null) ?? null,
    reason: (r.reason as string | null) ?? null,
    scheme: (r.scheme as string | null) ?? null,
  }))
}

export const SETUP_STEPS = [
  { key: 'brand', label: 'Create a brand (logo, colours, sender name)', href: '/admin/brand-management' },
  { key: 'company', label: 'Add the client company', href: '/admin/company-management' },
  { key: 'questionnaire', label: 'Publish a questionnaire', href: '/admin/questionnaire-management' },
  { key: 'scheme', label: 'Create a scheme', href: '/admin/scheme-management' },
  { key: 'employees', label: 'Add or import employees', href: '/admin/employee-management' },
  { key: 'launch', label: 'Launch the scheme', href: '/admin/scheme-management' },
] as const
export type SetupStep = (typeof SETUP_STEPS)[number]['key']

/** Which getting-started steps are done: one statement of EXISTS checks, each stopping at its first row. */
export async function setupProgress(): Promise<Record<SetupStep, boolean>> {
  const [row] = await queryRows<Record<SetupStep, boolean>>(
    getDb(),
    sql`
    SELECT EXISTS (SELECT 1 FROM brands) AS brand,
           EXISTS (SELECT 1 FROM companies) AS company,
           EXISTS (SELECT 1 FROM questionnaires WHERE status = 'published') AS questionnaire,
           EXISTS (SELECT 1 FROM schemes) AS scheme,
           EXISTS (SELECT 1 FROM users WHERE role = 'employee') AS employees,
           EXISTS (SELECT 1 FROM schemes WHERE status <> 'draft') AS launch`,
  )
  return Object.fromEntries(SETUP_STEPS.map((s) => [s.key, Boolean(row?.[s.key])])) as Record<
    SetupStep,
    boolean
  >
}

/** A reason as the dashboard quotes it: the first 200 characters. */
const quoted = (reason: string) => `“${reason.length > 200 ? `${reason.slice(0, 200)}…` : reason}”`

/** An audit action in words ("company.create" → "created a company"). */
export function describeAction(
  action: string,
  entity: string,
  extra: { reason?: string | null; scheme?: string | null } = {},
): string {
  if (action === 'response.reveal')
    return `revealed who answered a response${extra.scheme ? ` in ${extra.scheme}` : ''}${extra.reason ? `: ${quoted(extra.reason)}` : ''}`
  if (action === 'answers.export_identities')
    return `exported answers with respondents’ names${extra.reason ? `: ${quoted(extra.reason)}` : ''}`
  if (action === 'answers.export') return 'exported answers'
  if (action === 'response.reopen') return 'reopened a response'
  if (action === 'response.reopen_request') return 'asked for their answers to be reopened'
  if (action === 'response.reopen_decline') return 'declined a request to reopen answers'
  const [, verb = action] = action.split('.')
  const noun = entity.replaceAll('_', ' ')
  const a = withArticle(noun)
  const words: Record<string, string> = {
    create: `created ${a}`,
    update: `changed ${a}`,
    delete: `deleted ${a}`,
    submit: 'submitted feedback',
    invited: 'invited an administrator',
    invite_resent: 'sent an invitation again',
    disabled: `disabled ${a}`,
    enabled: `enabled ${a}`,
    sessions_ended: 'ended sessions',
    revoke: 'withdrew an invitation',
    resend: 'sent an invitation again',
    launched: 'launched a scheme',
    closed: 'closed a scheme',
    reopened: 'reopened a scheme',
    imported: 'imported employees',
  }
  if (action.startsWith('invite.') && verb === 'create') return 'invited a colleague'
  return words[verb] ?? `${action.replaceAll('_', ' ').replace('.', ': ')}`
}

/** The verbs {@link describeAction} words with the entity's noun (admin-dashboard:activity.verbs). */
const ACTIVITY_VERBS = ['create', 'update', 'delete', 'disabled', 'enabled'] as const
/** The verbs it words alone. */
const ACTIVITY_PHRASES = [
  'submit',
  'invited',
  'invite_resent',
  'sessions_ended',
  'revoke',
  'resend',
  'launched',
  'closed',
  'reopened',
  'imported',
] as const
/** Whole actions it words alone, before the verb is looked at. */
const ACTIVITY_ACTIONS: Record<string, string> = {
  'answers.export': 'export',
  'response.reopen': 'reopen',
  'response.reopen_request': 'reopenRequest',
  'response.reopen_decline': 'reopenDecline',
}

/**
 * {@link describeAction} in a language (the dashboard's loader passes its page's `t`): the same
 * sentences, from admin-dashboard:activity (the catalogue test compares the English with it). An
 * entity the catalogue does not name reads as its noun; an action it does not know, as its code.
 */
export function describeActionIn(
  t: TFunction<'admin-dashboard'>,
  action: string,
  entity: string,
  extra: { reason?: string | null; scheme?: string | null } = {},
): string {
  const said = (key: string, values: Record<string, string> = {}) =>
    t(`activity.${key}` as never, values as never) as unknown as string
  const why = {
    hasReason: extra.reason ? 'yes' : 'no',
    reason: extra.reason ? quoted(extra.reason) : '',
  }
  if (action === 'response.reveal')
    return said('actions.reveal', {
      hasScheme: extra.scheme ? 'yes' : 'no',
      scheme: extra.scheme ?? '',
      ...why,
    })
  if (action === 'answers.export_identities') return said('actions.exportIdentities', why)
  if (ACTIVITY_ACTIONS[action]) return said(`actions.${ACTIVITY_ACTIONS[action]}`)
  const [, verb = action] = action.split('.')
  if (action.startsWith('invite.') && verb === 'create') return said('actions.inviteColleague')
  if ((ACTIVITY_VERBS as readonly string[]).includes(verb)) {
    const thing = ENTITY_KEYS.includes(entity)
      ? said(`things.${entity}`)
      : withArticle(entity.replaceAll('_', ' '))
    return said(`verbs.${verb}`, { thing })
  }
  if ((ACTIVITY_PHRASES as readonly string[]).includes(verb)) return said(`phrases.${verb}`)
  if ((ACTIVITY_CODES as readonly string[]).includes(action)) return said(`codes.${action}`)
  return describeAction(action, entity, extra)
}

/**
 * The actions {@link describeAction} shows as their code ("user: language changed"): the English
 * says the code, the other languages word it (admin-dashboard:activity.codes).
 */
export const ACTIVITY_CODES = [
  'admin.created_by_setup',
  'admin.created_from_env',
  'assignment.updated',
  'auth.account_activated',
  'auth.email_verified',
  'auth.password_reset',
  'auth.password_reset_requested',
  'auth.recovery_codes_replaced',
  'auth.second_factor_disabled',
  'auth.second_factor_enabled',
  'auth.second_factor_failed',
  'auth.sign_in_link_requested',
  'auth.signed_in_with_link',
  'auth.signed_in_with_second_factor',
  'auth.signed_in_with_sso',
  'auth.sso_failed',
  'auth.sso_linked',
  'cohort.pdf_download',
  'email_outbox.retry',
  'email_template.restore',
  'email_template.test',
  'employee.activation_resent',
  'employee.created_by_sso',
  'employee.disable',
  'employee.enable',
  'employee_import.discard',
  'employee_import.import',
  'employee_import.upload',
  'nomination.add',
  'nomination.approve',
  'nomination.remove',
  'nomination.send_back',
  'nomination.withdraw',
  'questionnaire.archive',
  'questionnaire.duplicate',
  'questionnaire.import',
  'questionnaire.new_version',
  'questionnaire.publish',
  'questionnaire.revert_to_draft',
  'report.pdf_download',
  'report.release',
  'report.share',
  'report.unshare',
  'scheme.close',
  'scheme.enrol',
  'scheme.extend',
  'scheme.launch',
  'scheme.remind',
  'scheme.reopen',
  'scheme.reports_zip_download',
  'scheme.unenrol',
  'user.email_change_requested',
  'user.language_changed',
  'user.password_changed',
  'user.photo_removed',
  'user.photo_updated',
  'user.profile_updated',
  'webhook.redeliver',
  'webhook.rotate_secret',
] as const

/** The entities admin-dashboard:activity.things names (with their article, in each language). */
export const ENTITY_KEYS = [
  'answers',
  'assignment',
  'brand',
  'company',
  'development_plan',
  'email_outbox',
  'email_template',
  'employee',
  'employee_import',
  'identity_provider',
  'nomination',
  'nominee',
  'questionnaire',
  'report',
  'report_release',
  'response',
  'scheme',
  'scheme_member',
  'user',
  'webhook_endpoint',
]
