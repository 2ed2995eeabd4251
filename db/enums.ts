/**
 * The values of every Postgres enum, as plain constant arrays: db/schema builds its `pgEnum`s from
 * them, and the app derives its unions (`Role`, `Relationship`, …) from them, so a value added here
 * reaches both. No drizzle import: client bundles may import this file.
 */
export const ROLES = ['admin', 'employee', 'colleague'] as const
export type Role = (typeof ROLES)[number]

export const ACTION_CODE_KINDS = [
  'verify_email',
  'reset_password',
  'activate_account',
  'colleague_invite',
  'setup_admin',
  'sign_in_link',
] as const
export type ActionCodeKind = (typeof ACTION_CODE_KINDS)[number]

/**
 * What erasing a person does with the answers they gave about others (ADR 056): removed, or kept
 * only as anonymous contributions inside reports already released.
 */
export const ERASURE_RATER_ANSWERS = ['delete', 'keep_anonymous'] as const
export type ErasureRaterAnswers = (typeof ERASURE_RATER_ANSWERS)[number]

/**
 * What retention (issue 21 §3, ADR 058) does with a scheme's answers and report snapshots once its
 * company's period has passed: anonymise keeps the released aggregates without comments or any link
 * to a rater; delete removes the answers and the scheme's snapshots.
 */
export const RETENTION_ANSWER_MODES = ['anonymise', 'delete'] as const
export type RetentionAnswerMode = (typeof RETENTION_ANSWER_MODES)[number]

export const SCHEME_STATUSES = ['draft', 'open', 'closed'] as const
export type SchemeStatus = (typeof SCHEME_STATUSES)[number]

/** When a scheme's reports show colleague results: when it closes, or when an admin releases them. */
export const REPORT_RELEASES = ['on_close', 'by_admin'] as const
export type ReportRelease = (typeof REPORT_RELEASES)[number]

export const RELATIONSHIPS = ['self', 'manager', 'peer', 'direct_report', 'other'] as const
export type Relationship = (typeof RELATIONSHIPS)[number]

export const ASSIGNMENT_STATUSES = ['pending', 'in_progress', 'submitted', 'revoked'] as const
export type AssignmentStatus = (typeof ASSIGNMENT_STATUSES)[number]

export const EMAIL_TEMPLATE_KEYS = [
  'activate_account',
  'colleague_invite',
  'reminder',
  'reset_password',
  'verify_email',
  'response_ready',
  'setup_admin',
  'programme_open',
  'admin_invite',
  'response_reopened',
  'sign_in_link',
  'nomination_submitted',
  'nomination_sent_back',
  'nomination_approved',
  'nomination_reminder',
  'plan_check_in',
  'report_shared',
] as const
export type EmailTemplateKey = (typeof EMAIL_TEMPLATE_KEYS)[number]

export const OUTBOX_STATUSES = ['queued', 'sending', 'sent', 'failed'] as const
export type OutboxStatus = (typeof OUTBOX_STATUSES)[number]

export const QUESTIONNAIRE_STATUSES = ['draft', 'published', 'archived'] as const
export type QuestionnaireStatus = (typeof QUESTIONNAIRE_STATUSES)[number]

export const QUESTION_KINDS = ['scale', 'single', 'multi', 'text', 'textarea'] as const
export type QuestionKind = (typeof QUESTION_KINDS)[number]

/** Who released a report: an administrator, or the scheme clock when a scheme releasing on close closed. */
export const RELEASE_MODES = ['admin', 'clock'] as const
export type ReleaseMode = (typeof RELEASE_MODES)[number]

/**
 * Who builds an employee's list of raters in a scheme (issue 18 §2, ADR 042): the employee, an
 * administrator only, or the employee with administrators free to change it.
 */
export const NOMINATION_CHOOSERS = ['employee', 'admin', 'employee_admin_edits'] as const
export type NominationChooser = (typeof NOMINATION_CHOOSERS)[number]

/** Who approves a list before anyone on it is invited: nobody (direct invitations), the manager, an admin. */
export const NOMINATION_APPROVALS = ['none', 'manager', 'admin'] as const
export type NominationApproval = (typeof NOMINATION_APPROVALS)[number]

/** Where an employee's list stands in a scheme that approves lists (null on the membership: not begun). */
export const NOMINATION_STATUSES = ['draft', 'submitted', 'sent_back', 'approved'] as const
export type NominationStatus = (typeof NOMINATION_STATUSES)[number]

/**
 * What a development plan's focus area makes of its competency or question (issue 19 §1, ADR 043):
 * a strength to use more, or an area to develop.
 */
export const FOCUS_STANCES = ['strength', 'develop'] as const
export type FocusStance = (typeof FOCUS_STANCES)[number]

/** What a focus area points at in the report: a competency (a questionnaire category) or one question. */
export const FOCUS_KINDS = ['category', 'question'] as const
export type FocusKind = (typeof FOCUS_KINDS)[number]

/**
 * The portal's languages (issue 20 §3, ADR 050): users.language and brands.default_language are
 * checked against these. What each one is (its name, Intl locale, whether it is shipped) is
 * app/modules/i18n/languages.ts, which must describe every code here.
 */
export const LANGUAGE_CODES = ['en', 'de', 'fr'] as const
export type Language = (typeof LANGUAGE_CODES)[number]

/** `'en', 'de', 'fr'`: the codes as an SQL list, for the check constraints (fixed literals, never input). */
export const LANGUAGE_SQL_LIST = LANGUAGE_CODES.map((c) => `'${c}'`).join(', ')

/**
 * The REST API's scopes (issue 21 §1, ADR 054): `<resource>:<read|write>` strings, checked by the
 * schema and by every endpoint. Reports and answers are read-only: the API never writes either.
 */
export const API_SCOPES = [
  'companies:read',
  'companies:write',
  'employees:read',
  'employees:write',
  'schemes:read',
  'schemes:write',
  'reports:read',
  'answers:read',
] as const
export type ApiScope = (typeof API_SCOPES)[number]
/** The scopes as Postgres reads them in a CHECK: `'companies:read', …`. */
export const API_SCOPE_SQL_LIST = API_SCOPES.map((s) => `'${s}'`).join(', ')

/**
 * The events a webhook endpoint may ask for (issue 21 §2, ADR 057), each written where its change
 * is made, in the same transaction (app/modules/webhook/events.server.ts). A payload carries ids and
 * states only, never answers, comments or who rated whom.
 */
export const WEBHOOK_EVENTS = [
  'employee.created',
  'employee.updated',
  'scheme.launched',
  'scheme.closed',
  'assignment.submitted',
  'nomination.approved',
  'report.released',
] as const
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number]
/** The events as Postgres reads them in a CHECK (fixed literals, never input). */
export const WEBHOOK_EVENT_SQL_LIST = WEBHOOK_EVENTS.map((e) => `'${e}'`).join(', ')

/** Where one delivery of an event to one endpoint stands: waiting, being sent, done, given up. */
export const WEBHOOK_DELIVERY_STATUSES = ['queued', 'sending', 'delivered', 'failed'] as const
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number]
