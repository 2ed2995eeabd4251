import {
  ASSIGNMENT_STATUSES,
  NOMINATION_APPROVALS,
  NOMINATION_CHOOSERS,
  NOMINATION_STATUSES,
  RELATIONSHIPS,
  REPORT_RELEASES,
  SCHEME_STATUSES,
  LANGUAGE_SQL_LIST,
  type Language,
  type RetentionAnswerMode,
} from '../enums'
import { sql } from 'drizzle-orm'
import {
  boolean,
  check,
  foreignKey,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core'
import { companies } from './companies'
import { questionnaires, questions } from './questionnaires'
import { users } from './users'

export const schemeStatusEnum = pgEnum('scheme_status', SCHEME_STATUSES)
export const reportReleaseEnum = pgEnum('report_release', REPORT_RELEASES)
export const nominationChooserEnum = pgEnum('nomination_chooser', NOMINATION_CHOOSERS)
export const nominationApprovalEnum = pgEnum('nomination_approval', NOMINATION_APPROVALS)
export const nominationStatusEnum = pgEnum('nomination_status', NOMINATION_STATUSES)

export const schemes = pgTable(
  'schemes',
  {
    id: uuid().primaryKey().defaultRandom(),
    name: text().notNull(),
    companyId: uuid()
      .notNull()
      .references(() => companies.id, { onDelete: 'restrict' }),
    questionnaireId: uuid()
      .notNull()
      .references(() => questionnaires.id, { onDelete: 'restrict' }),
    opensAt: timestamp({ withTimezone: true }).notNull(),
    closesAt: timestamp({ withTimezone: true }).notNull(),
    /** The spec's maxColleagues (8) is the default and the hard ceiling. */
    maxColleagues: integer().notNull().default(8),
    /** Colleague answers appear in a report only from this many submitted colleagues (anonymity). */
    minRaters: integer().notNull().default(3),
    /**
     * The fewest colleagues each employee should invite per relationship group (issue 18 §2): shown
     * as warnings while they invite. The direct-report minimum applies only to someone with direct
     * reports recorded. 0 asks for none.
     */
    minManager: integer().notNull().default(0),
    minPeer: integer().notNull().default(0),
    minDirectReport: integer().notNull().default(0),
    minOther: integer().notNull().default(0),
    /**
     * Nomination (issue 18 §2, ADR 042): who builds each employee's list of raters, who approves it
     * before anyone is invited ('none': the employee invites directly, as before), and the last day
     * lists may be changed or sent for approval (before the answering deadline; null: until it).
     * Chooser and approval are fixed once any list or invitation exists.
     */
    nominationChooser: nominationChooserEnum().notNull().default('employee'),
    nominationApproval: nominationApprovalEnum().notNull().default('none'),
    nominationsCloseAt: timestamp({ withTimezone: true }),
    /** Days between reminders to respondents who have not submitted; 0 = no reminders. */
    reminderCadenceDays: integer().notNull().default(7),
    status: schemeStatusEnum().notNull().default('draft'),
    /**
     * The IANA zone the scheme's dates are meant in ("Europe/London"): deadlines are shown in it,
     * so 23:59 on the last day reads 23:59 rather than the UTC instant. Set by the admin (a later issue).
     */
    timeZone: text().notNull().default('UTC'),
    /** Colleague results reach reports when the scheme closes (default) or when an admin releases them. */
    reportRelease: reportReleaseEnum().notNull().default('on_close'),
    /**
     * Show the manager group on its own even below `min_raters` (DESIGN.md §8, ADR 021). Off by
     * default; managers' invitations say so when on, so it may be switched on only before the first
     * manager is invited.
     */
    showManagerBelowThreshold: boolean().notNull().default(false),
    /**
     * The employee's manager reads the released report without the employee's consent (issue 19 §2,
     * ADR 043). Employees are told so before they invite anyone, so it may be changed only before
     * the scheme's first invitation or list.
     */
    managerSeesReport: boolean().notNull().default(false),
    /**
     * The earlier scheme this one repeats (issue 19 §5, ADR 044): same company, a questionnaire of the
     * same line, opening before this one. An employee in both reads the previous release beside this one.
     */
    followsSchemeId: uuid().references((): AnyPgColumn => schemes.id, { onDelete: 'set null' }),
    /** Reports show the colleagues' view against the norm of the questionnaire line (ADR 044). */
    showNorm: boolean().notNull().default(false),
    /**
     * The languages its raters may answer in (issue 20 §3, ADR 051): codes of db/enums.ts, the
     * questionnaire's source language by default. A rater reads the questionnaire in their own
     * language when it is listed here, else in the source language.
     */
    languages: text()
      .array()
      .$type<Language[]>()
      .notNull()
      .default(sql`ARRAY['en']::text[]`),
    /** When an admin launched it (draft → open); its e-mails are held until opens_at. */
    launchedAt: timestamp({ withTimezone: true }),
    /** When it closed (at closes_at by the worker, or by an admin's "close now"). */
    closedAt: timestamp({ withTimezone: true }),
    /**
     * A legal hold (issue 21 §3, ADR 058): while set, retention leaves the scheme, its answers and
     * snapshots, and the accounts of the people in it alone. Who placed it and why are audited.
     */
    legalHoldAt: timestamp({ withTimezone: true }),
    legalHoldReason: text(),
    /** When retention anonymised or deleted its answers, and which (null: not yet). */
    retentionAppliedAt: timestamp({ withTimezone: true }),
    retentionMode: text().$type<RetentionAnswerMode>(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index().on(t.companyId),
    index().on(t.questionnaireId),
    index().on(t.status, t.closesAt),
    // Retention's due query (ADR 058): a company's closed schemes not yet retained, by when they
    // closed (closed_at; closes_at for a scheme closed before closed_at was kept).
    index('schemes_retention_due_index')
      .on(t.companyId, sql`coalesce(${t.closedAt}, ${t.closesAt})`)
      .where(sql`${t.status} = 'closed' AND ${t.retentionAppliedAt} IS NULL`),
    index().on(t.name, t.id),
    index('schemes_follows_index')
      .on(t.followsSchemeId)
      .where(sql`${t.followsSchemeId} IS NOT NULL`),
    check(
      'schemes_not_following_itself',
      sql`${t.followsSchemeId} IS NULL OR ${t.followsSchemeId} <> ${t.id}`,
    ),
    check(
      'schemes_languages',
      sql`cardinality(${t.languages}) >= 1 AND ${t.languages} <@ ARRAY[${sql.raw(LANGUAGE_SQL_LIST)}]::text[]`,
    ),
    check('schemes_max_colleagues_range', sql`${t.maxColleagues} BETWEEN 1 AND 8`),
    check('schemes_min_raters_range', sql`${t.minRaters} BETWEEN 1 AND 8`),
    check(
      'schemes_group_minimums',
      sql`${t.minManager} BETWEEN 0 AND 8 AND ${t.minPeer} BETWEEN 0 AND 8 AND ${t.minDirectReport} BETWEEN 0 AND 8
        AND ${t.minOther} BETWEEN 0 AND 8`,
    ),
    check('schemes_dates_order', sql`${t.closesAt} > ${t.opensAt}`),
    check(
      'schemes_nominations_close_order',
      sql`${t.nominationsCloseAt} IS NULL OR ${t.nominationsCloseAt} < ${t.closesAt}`,
    ),
  ],
)

export const schemeMembers = pgTable(
  'scheme_members',
  {
    schemeId: uuid()
      .notNull()
      .references(() => schemes.id, { onDelete: 'cascade' }),
    employeeId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    enrolledAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    invitedAt: timestamp({ withTimezone: true }),
    /**
     * The employee's list of raters in a scheme that approves lists (ADR 042): null until begun;
     * then draft → submitted → approved, or sent back (with the approver's comment) and submitted
     * again. Adding someone after an approval makes it a draft again; only people not yet invited
     * are invited at the next approval.
     */
    nominationStatus: nominationStatusEnum(),
    nominationSubmittedAt: timestamp({ withTimezone: true }),
    /** Who must approve the submitted list: the employee's manager at submission; null = administrators. */
    nominationApproverId: uuid().references(() => users.id, { onDelete: 'set null' }),
    nominationDecidedAt: timestamp({ withTimezone: true }),
    nominationDecidedBy: uuid().references(() => users.id, { onDelete: 'set null' }),
    /** The approver's words when sending the list back (shown to the employee until they submit again). */
    nominationComment: text(),
    /** Reminders to an approver who has not acted on the submitted list. */
    nominationRemindersSent: integer().notNull().default(0),
    nominationRemindedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.schemeId, t.employeeId] }),
    index().on(t.employeeId),
    // "Nominations waiting for you" on a manager's home page: few rows.
    index('scheme_members_nomination_approver_index')
      .on(t.nominationApproverId, t.nominationSubmittedAt)
      .where(sql`${t.nominationStatus} = 'submitted'`),
    // The admin's queue on the scheme page and the approver reminders: few rows.
    index('scheme_members_nomination_waiting_index')
      .on(t.schemeId, t.nominationSubmittedAt)
      .where(sql`${t.nominationStatus} = 'submitted'`),
  ],
)

export const relationshipEnum = pgEnum('relationship', RELATIONSHIPS)
export const assignmentStatusEnum = pgEnum('assignment_status', ASSIGNMENT_STATUSES)

export const assignments = pgTable(
  'assignments',
  {
    id: uuid().primaryKey().defaultRandom(),
    schemeId: uuid()
      .notNull()
      .references(() => schemes.id, { onDelete: 'cascade' }),
    questionnaireId: uuid()
      .notNull()
      .references(() => questionnaires.id, { onDelete: 'restrict' }),
    /** Whose feedback this is. */
    subjectId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Who answers. */
    respondentId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    relationship: relationshipEnum().notNull(),
    /** The name the employee gave the colleague when inviting them. */
    respondentName: text(),
    status: assignmentStatusEnum().notNull().default('pending'),
    dueAt: timestamp({ withTimezone: true }),
    invitedAt: timestamp({ withTimezone: true }),
    submittedAt: timestamp({ withTimezone: true }),
    remindersSent: integer().notNull().default(0),
    lastReminderAt: timestamp({ withTimezone: true }),
    /**
     * A colleague's assignment closed before it was submitted because the subject's report was
     * released (ADR 022): its link and answer page say the feedback round has ended.
     */
    closedAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index().on(t.respondentId, t.status),
    index().on(t.subjectId, t.schemeId),
    // Relationship too: the scheme list counts each scheme's self-assessments and colleague answers
    // from this index alone (an index-only scan), not from a thousand table rows per scheme.
    index().on(t.schemeId, t.status, t.relationship),
    index().on(t.questionnaireId),
    // One self-assessment per employee per scheme; one live rater assignment per colleague.
    uniqueIndex('assignments_self_unique')
      .on(t.schemeId, t.subjectId)
      .where(sql`${t.relationship} = 'self'`),
    uniqueIndex('assignments_rater_unique')
      .on(t.schemeId, t.subjectId, t.respondentId)
      .where(sql`${t.status} <> 'revoked'`),
    // The reminder worker's candidates (app/modules/scheme/reminders.server.ts): per scheme, the
    // unfinished assignments in the order their reminder clock started, so a round reads only the
    // ones that are due instead of every unfinished assignment in the database.
    index('assignments_reminder_due_index')
      .on(t.schemeId, sql`coalesce(${t.lastReminderAt}, ${t.invitedAt}, ${t.createdAt})`, t.id)
      .where(sql`${t.status} IN ('pending', 'in_progress')`),
  ],
)

export const responses = pgTable(
  'responses',
  {
    id: uuid().primaryKey().defaultRandom(),
    assignmentId: uuid()
      .notNull()
      .references(() => assignments.id, { onDelete: 'cascade' }),
    startedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    submittedAt: timestamp({ withTimezone: true }),
    /** Where the respondent stopped, so another device resumes there. */
    lastSection: integer().notNull().default(0),
    /**
     * When an admin last reopened this submitted response (answer management): with no submittedAt
     * it reads "reopened" until the respondent submits again (ADR 023).
     */
    reopenedAt: timestamp({ withTimezone: true }),
    /**
     * The admin's reason for the last reopen, shown to the respondent on the reopened questionnaire
     * until they submit again (then cleared: it is about that round only).
     */
    reopenReason: text(),
    /**
     * The respondent asked for their submitted answers to be reopened (issue 18 §5), and their
     * words; cleared when an admin reopens or declines it.
     */
    reopenRequestedAt: timestamp({ withTimezone: true }),
    reopenRequestNote: text(),
  },
  (t) => [
    uniqueIndex('responses_assignment_unique').on(t.assignmentId),
    // Answer management's list and export walk responses newest first, a page at a time (ADR 023).
    index('responses_started_index').on(t.startedAt, t.id),
    // …and its "reopened" filter: few rows, which the walk above would look for through every response.
    index('responses_reopened_index')
      .on(t.startedAt, t.id)
      .where(sql`${t.submittedAt} IS NULL AND ${t.reopenedAt} IS NOT NULL`),
    // Requests waiting for an admin: few rows.
    index('responses_reopen_requested_index')
      .on(t.reopenRequestedAt, t.id)
      .where(sql`${t.reopenRequestedAt} IS NOT NULL`),
  ],
)

export const answers = pgTable(
  'answers',
  {
    id: uuid().primaryKey().defaultRandom(),
    responseId: uuid()
      .notNull()
      .references(() => responses.id, { onDelete: 'cascade' }),
    questionId: uuid()
      .notNull()
      .references(() => questions.id, { onDelete: 'restrict' }),
    numericValue: integer(),
    textValue: text(),
    choices: jsonb().$type<string[]>(),
    notApplicable: boolean().notNull().default(false),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('answers_response_question_unique').on(t.responseId, t.questionId),
    index().on(t.questionId),
  ],
)

/**
 * The people on an employee's list of raters for a scheme that approves lists (ADR 042). A
 * nominee is a proposal: nobody is e-mailed until the list is approved, when each nominee not yet
 * invited becomes a rater assignment (`assignment_id`) in the approval's transaction.
 */
export const nominees = pgTable(
  'nominees',
  {
    id: uuid().primaryKey().defaultRandom(),
    schemeId: uuid().notNull(),
    employeeId: uuid().notNull(),
    /** Stored lower-case, like users.email. */
    email: text().notNull(),
    name: text().notNull(),
    relationship: relationshipEnum().notNull(),
    /** Who put them on the list (the employee, an admin, or the approver). */
    addedBy: uuid().references(() => users.id, { onDelete: 'set null' }),
    /** Added by the approver while reviewing: the employee sees it marked so. */
    addedByApprover: boolean().notNull().default(false),
    /** Their invitation, once the list was approved. */
    assignmentId: uuid().references(() => assignments.id, { onDelete: 'set null' }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('nominees_person_unique').on(t.schemeId, t.employeeId, t.email),
    index('nominees_assignment_index')
      .on(t.assignmentId)
      .where(sql`${t.assignmentId} IS NOT NULL`),
    foreignKey({
      columns: [t.schemeId, t.employeeId],
      foreignColumns: [schemeMembers.schemeId, schemeMembers.employeeId],
      name: 'nominees_member_fk',
    }).onDelete('cascade'),
    check('nominees_not_self', sql`${t.relationship} <> 'self'`),
    check('nominees_email_lower', sql`${t.email} = lower(${t.email})`),
  ],
)
