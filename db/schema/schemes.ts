import { sql } from 'drizzle-orm'
import {
  boolean,
  check,
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
} from 'drizzle-orm/pg-core'
import { companies } from './companies'
import { questionnaires, questions } from './questionnaires'
import { users } from './users'

export const schemeStatusEnum = pgEnum('scheme_status', ['draft', 'open', 'closed'])

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
    /** Days between reminders to respondents who have not submitted; 0 = no reminders. */
    reminderCadenceDays: integer().notNull().default(7),
    status: schemeStatusEnum().notNull().default('draft'),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index().on(t.companyId),
    index().on(t.questionnaireId),
    index().on(t.status, t.closesAt),
    index().on(t.name, t.id),
    check('schemes_max_colleagues_range', sql`${t.maxColleagues} BETWEEN 1 AND 8`),
    check('schemes_min_raters_range', sql`${t.minRaters} BETWEEN 1 AND 8`),
    check('schemes_dates_order', sql`${t.closesAt} > ${t.opensAt}`),
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
  },
  (t) => [primaryKey({ columns: [t.schemeId, t.employeeId] }), index().on(t.employeeId)],
)

export const relationshipEnum = pgEnum('relationship', ['self', 'manager', 'peer', 'direct_report', 'other'])
export const assignmentStatusEnum = pgEnum('assignment_status', [
  'pending',
  'in_progress',
  'submitted',
  'revoked',
])

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
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index().on(t.respondentId, t.status),
    index().on(t.subjectId, t.schemeId),
    index().on(t.schemeId, t.status),
    index().on(t.questionnaireId),
    // One self-assessment per employee per scheme; one live rater assignment per colleague.
    uniqueIndex('assignments_self_unique')
      .on(t.schemeId, t.subjectId)
      .where(sql`${t.relationship} = 'self'`),
    uniqueIndex('assignments_rater_unique')
      .on(t.schemeId, t.subjectId, t.respondentId)
      .where(sql`${t.status} <> 'revoked'`),
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
  },
  (t) => [uniqueIndex('responses_assignment_unique').on(t.assignmentId)],
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
