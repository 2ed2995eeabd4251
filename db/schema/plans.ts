import { FOCUS_KINDS, FOCUS_STANCES } from '../enums'
import { sql } from 'drizzle-orm'
import {
  boolean,
  check,
  date,
  foreignKey,
  index,
  integer,
  pgEnum,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core'
import { questions } from './questionnaires'
import { responses, schemeMembers } from './schemes'
import { users } from './users'

export const focusStanceEnum = pgEnum('focus_stance', FOCUS_STANCES)
export const focusKindEnum = pgEnum('focus_kind', FOCUS_KINDS)

/**
 * An employee's development plan for one scheme (issue 19 §1, ADR 043), made from their released
 * report (`response_id`: their self response, the report's id). One per membership. Its text is the
 * employee's: administrators see it only when it is shared with the coach, a manager only through a
 * report share that includes it.
 */
export const developmentPlans = pgTable(
  'development_plans',
  {
    id: uuid().primaryKey().defaultRandom(),
    schemeId: uuid().notNull(),
    employeeId: uuid().notNull(),
    responseId: uuid()
      .notNull()
      .references(() => responses.id, { onDelete: 'cascade' }),
    /** Shared with the programme's coach (the consultancy's administrators); null: private. */
    sharedWithCoachAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('development_plans_member_unique').on(t.schemeId, t.employeeId),
    uniqueIndex('development_plans_response_unique').on(t.responseId),
    index().on(t.employeeId),
    foreignKey({
      columns: [t.schemeId, t.employeeId],
      foreignColumns: [schemeMembers.schemeId, schemeMembers.employeeId],
      name: 'development_plans_member_fk',
    }).onDelete('cascade'),
  ],
)

/**
 * One to three focus areas of a plan: a competency (a category of the report's questionnaire) or a
 * question of it, a strength to use or an area to develop, what the employee will do, the support
 * they need and the date they check in. `check_in_sent_for` is the target date whose reminder went
 * out: a reminder is due when the target date has come and differs from it, so a new date gets its
 * own reminder and two workers claiming at once send one (plan.server.ts, sendPlanCheckIns).
 */
export const planFocusAreas = pgTable(
  'plan_focus_areas',
  {
    id: uuid().primaryKey().defaultRandom(),
    planId: uuid()
      .notNull()
      .references(() => developmentPlans.id, { onDelete: 'cascade' }),
    position: integer().notNull(),
    kind: focusKindEnum().notNull(),
    /** The competency: the category's name (kind 'category'), or the question's category. */
    category: text().notNull(),
    questionId: uuid().references(() => questions.id, { onDelete: 'cascade' }),
    stance: focusStanceEnum().notNull().default('develop'),
    actions: text().notNull().default(''),
    support: text().notNull().default(''),
    targetDate: date({ mode: 'string' }),
    checkInSentFor: date({ mode: 'string' }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // Positions are renumbered when one is removed, so they are ordered, not unique.
    index().on(t.planId, t.position),
    index().on(t.questionId),
    // The check-in worker's candidates: few rows, those whose date has not had its reminder yet.
    index('plan_focus_areas_check_in_due_index')
      .on(t.targetDate)
      .where(sql`${t.targetDate} IS NOT NULL AND ${t.checkInSentFor} IS DISTINCT FROM ${t.targetDate}`),
    check('plan_focus_areas_position_range', sql`${t.position} BETWEEN 1 AND 3`),
    check('plan_focus_areas_target', sql`(${t.kind} = 'question') = (${t.questionId} IS NOT NULL)`),
  ],
)

/**
 * An employee's consent to let their manager read their released report of a scheme (issue 19 §2,
 * ADR 043), and with it their plan when `include_plan`. A grant names the manager of the moment: a
 * manager who no longer is loses access without anyone revoking. Revoking sets `revoked_at`; a new
 * grant is a new row, so the history stays (and the audit log has each step with who and when).
 */
export const reportShares = pgTable(
  'report_shares',
  {
    id: uuid().primaryKey().defaultRandom(),
    schemeId: uuid().notNull(),
    employeeId: uuid().notNull(),
    managerId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    includePlan: boolean().notNull().default(true),
    grantedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    revokedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    // One live grant per report.
    uniqueIndex('report_shares_live_unique')
      .on(t.schemeId, t.employeeId)
      .where(sql`${t.revokedAt} IS NULL`),
    // "Shared with you" on a manager's home page.
    index('report_shares_manager_live_index')
      .on(t.managerId)
      .where(sql`${t.revokedAt} IS NULL`),
    foreignKey({
      columns: [t.schemeId, t.employeeId],
      foreignColumns: [schemeMembers.schemeId, schemeMembers.employeeId],
      name: 'report_shares_member_fk',
    }).onDelete('cascade'),
  ],
)
