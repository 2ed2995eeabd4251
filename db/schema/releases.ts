import { RELEASE_MODES } from '../enums'
import { sql } from 'drizzle-orm'
import {
  boolean,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core'
import { questions } from './questionnaires'
import { relationshipEnum, schemes } from './schemes'
import { users } from './users'

export const releaseModeEnum = pgEnum('release_mode', RELEASE_MODES)

/**
 * A report release (ADR 022): the moment an employee's colleague results were fixed. The report reads
 * the latest release of its (scheme, subject) and only the copies below, never live answers, so
 * nothing submitted, reopened or edited afterwards changes what the employee reads.
 */
export const reportReleases = pgTable(
  'report_releases',
  {
    id: uuid().primaryKey().defaultRandom(),
    schemeId: uuid()
      .notNull()
      .references(() => schemes.id, { onDelete: 'cascade' }),
    subjectId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    releasedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    /** The administrator who released it; null when the clock released it as the scheme closed. */
    releasedBy: uuid().references(() => users.id, { onDelete: 'set null' }),
    mode: releaseModeEnum().notNull(),
    /**
     * Whether the release shows colleagues' results: it copied at least `min_raters` responses. A
     * release below the threshold releases the self-assessment alone (issue 15): the employee sees
     * no colleague figure and their colleagues' invitations stay open.
     */
    colleaguesShown: boolean().notNull().default(true),
    /**
     * Whether the report may show rater groups besides all colleagues. Off when, compared with the
     * earlier releases the employee has seen, the groups would let a few colleagues' answers be
     * worked out (release-rule.ts, ADR 025).
     */
    groupsShown: boolean().notNull().default(true),
    /**
     * The colleague side of the report as this release fixed it, computed once when it was made
     * (released-figures.server.ts, ADR 037): aggregates per question and relationship group, group
     * sizes, comments in their keyed order — never an answer or response id. Null when the release
     * shows no colleague figure (below its threshold, or the self-assessment alone), and for a
     * release made before it existed until the report is first read.
     */
    colleagueFigures: jsonb(),
  },
  (t) => [
    // The report's read: the latest release of a subject in a scheme.
    index('report_releases_latest_index').on(t.schemeId, t.subjectId, t.releasedAt.desc(), t.id.desc()),
    index().on(t.subjectId),
    index().on(t.releasedBy),
    // The clock releases a subject at most once, however many app instances race (ON CONFLICT).
    uniqueIndex('report_releases_clock_unique')
      .on(t.schemeId, t.subjectId)
      .where(sql`${t.mode} = 'clock'`),
  ],
)

/**
 * One colleague's submitted response as released: its relationship and a number that is stable
 * within the release. Deliberately no assignment, response or respondent reference.
 */
export const reportReleaseResponses = pgTable(
  'report_release_responses',
  {
    id: uuid().primaryKey().defaultRandom(),
    releaseId: uuid()
      .notNull()
      .references(() => reportReleases.id, { onDelete: 'cascade' }),
    relationship: relationshipEnum().notNull(),
    /** 1…n within the release, in a random order. */
    raterKey: integer().notNull(),
    /**
     * The response it was copied from (no foreign key, never read by a page): only the release rule
     * uses it, to tell which responses two releases share (ADR 025). Null only for copies made
     * before it existed whose source could not be found.
     */
    sourceResponseId: uuid(),
    /** A fingerprint of the copied answers (`answersFingerprint`), to tell an edited response. */
    contentHash: text(),
  },
  (t) => [uniqueIndex('report_release_responses_key_unique').on(t.releaseId, t.raterKey)],
)

/** A copy of one released answer (copies, not references: a later edit of the answer changes nothing). */
export const reportReleaseAnswers = pgTable(
  'report_release_answers',
  {
    id: uuid().primaryKey().defaultRandom(),
    releaseId: uuid()
      .notNull()
      .references(() => reportReleases.id, { onDelete: 'cascade' }),
    releaseResponseId: uuid()
      .notNull()
      .references(() => reportReleaseResponses.id, { onDelete: 'cascade' }),
    questionId: uuid()
      .notNull()
      .references(() => questions.id, { onDelete: 'restrict' }),
    numericValue: integer(),
    textValue: text(),
    choices: jsonb().$type<string[]>(),
    notApplicable: boolean().notNull().default(false),
    /** The answer it was copied from, only to keep the comments' keyed order (ADR 006); no reference. */
    sourceAnswerId: uuid().notNull(),
  },
  (t) => [
    index('report_release_answers_release_question_index').on(t.releaseId, t.questionId),
    index().on(t.releaseResponseId),
    index().on(t.questionId),
  ],
)
