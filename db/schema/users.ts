import { ACTION_CODE_KINDS, LANGUAGE_SQL_LIST, ROLES } from '../enums'
import { sql } from 'drizzle-orm'
import {
  check,
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
import { companies } from './companies'
import { files } from './files'
import { assignments } from './schemes'

export const roleEnum = pgEnum('role', ROLES)

export const users = pgTable(
  'users',
  {
    id: uuid().primaryKey().defaultRandom(),
    /** Stored lower-case; the unique index makes the address one account. */
    email: text().notNull(),
    emailVerifiedAt: timestamp({ withTimezone: true }),
    displayName: text().notNull().default(''),
    photoFileId: uuid().references(() => files.id, { onDelete: 'set null' }),
    phone: text(),
    /** argon2id; null for colleagues (they sign in by invite link) and not-yet-activated employees. */
    passwordHash: text(),
    role: roleEnum().notNull(),
    companyId: uuid().references(() => companies.id, { onDelete: 'restrict' }),
    /**
     * The employee's manager: another employee of the same company (issue 18; the rules live in
     * app/modules/employee/org.server.ts: same company, no cycle). Null for colleagues and admins.
     */
    managerId: uuid(),
    /** Department or team, as the client names it (free text, filterable). */
    department: text(),
    jobTitle: text(),
    /**
     * What the colleague directory's type-ahead matches (issue 18 §3, ADR 042): name, address,
     * department and title, lower-cased once when written, so a search is one LIKE per row (or one
     * trigram index) instead of four ILIKEs.
     */
    directoryText: text().generatedAlwaysAs(
      sql`lower(display_name || ' ' || email || ' ' || coalesce(department, '') || ' ' || coalesce(job_title, ''))`,
    ),
    /** The language the portal speaks to them in (ADR 050); null = their brand's default, else the browser's. */
    language: text(),
    disabledAt: timestamp({ withTimezone: true }),
    /** When an administrator erased the person (ADR 056): the row is a placeholder that names no one. */
    erasedAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('users_email_unique').on(t.email),
    index().on(t.role, t.displayName),
    // Name and e-mail search (`ILIKE '%x%'`) on the admin lists: trigram indexes (ADR 011).
    index('users_display_name_trgm').using('gin', t.displayName.op('gin_trgm_ops')),
    index('users_email_trgm').using('gin', t.email.op('gin_trgm_ops')),
    // The colleague directory's type-ahead (issue 18 §3): employees only.
    index('users_directory_trgm')
      .using('gin', t.directoryText.op('gin_trgm_ops'))
      .where(sql`${t.role} = 'employee'`),
    index().on(t.companyId),
    // Whether a photo is still someone's, when an erasure (ADR 056, retention ADR 058) deletes files.
    index('users_photo_file_index')
      .on(t.photoFileId)
      .where(sql`${t.photoFileId} IS NOT NULL`),
    // A manager's reports (nominations suggest the manager; "Nominations waiting for you").
    index().on(t.managerId),
    // The employee list's department filter within a company.
    index().on(t.companyId, t.department),
    foreignKey({ columns: [t.managerId], foreignColumns: [t.id], name: 'users_manager_id_fk' }).onDelete(
      'set null',
    ),
    check('users_manager_not_self', sql`${t.managerId} <> ${t.id}`),
    check('users_email_lower', sql`${t.email} = lower(${t.email})`),
    check('users_language', sql`${t.language} IN (${sql.raw(LANGUAGE_SQL_LIST)})`),
  ],
)

/** Lucia-guide sessions: the browser holds `id.secret`, the database only SHA-256(secret). */
export const sessions = pgTable(
  'sessions',
  {
    id: text().primaryKey(),
    secretHash: text().notNull(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    lastSeenAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    ip: text(),
    userAgent: text(),
    /**
     * How the session was opened: `sso` through an identity provider, `password` otherwise (a
     * password, an e-mailed link). Admins signed in through SSO may rely on the provider's MFA
     * instead of TOTP (ADR 048), so the guard must tell the two apart.
     */
    signInMethod: text().notNull().default('password'),
  },
  (t) => [
    index().on(t.userId),
    index().on(t.expiresAt),
    check('sessions_sign_in_method', sql`${t.signInMethod} IN ('password', 'sso')`),
  ],
)

/**
 * A TOTP authenticator (ADR 048), one per user: the secret encrypted at rest (app/lib/encryption.server.ts,
 * bound to the user), `confirmedAt` null while enrolment waits for the first good code. The last time
 * step used makes every code single-use: a code is accepted only for a later step.
 */
export const totpCredentials = pgTable('totp_credentials', {
  userId: uuid()
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  secret: text().notNull(),
  confirmedAt: timestamp({ withTimezone: true }),
  lastUsedStep: integer(),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
})

/** Recovery codes of a TOTP enrolment: shown once, stored as SHA-256 only, each usable once. */
export const recoveryCodes = pgTable(
  'recovery_codes',
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text().notNull(),
    usedAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex().on(t.userId, t.codeHash)],
)

/**
 * The state between a good password and the second factor (ADR 048): not a session, it opens no
 * page but /sign-in/second-factor. The browser holds `id.secret` in its own short-lived cookie, the
 * table only SHA-256(secret), as for sessions. `step` says what is asked: a code (`verify`) or, for an
 * admin who must have a second factor and has none, enrolment (`enrol`); `enrolledAt` marks an
 * enrolment confirmed whose recovery codes are on screen, waiting for "Continue".
 */
export const secondFactorChallenges = pgTable(
  'second_factor_challenges',
  {
    id: text().primaryKey(),
    secretHash: text().notNull(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    step: text().notNull(),
    signInMethod: text().notNull().default('password'),
    attempts: integer().notNull().default(0),
    enrolledAt: timestamp({ withTimezone: true }),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index().on(t.userId),
    index().on(t.expiresAt),
    check('second_factor_challenges_step', sql`${t.step} IN ('verify', 'enrol')`),
    check('second_factor_challenges_sign_in_method', sql`${t.signInMethod} IN ('password', 'sso')`),
  ],
)

export const actionCodeKindEnum = pgEnum('action_code_kind', ACTION_CODE_KINDS)

/** One-time codes behind e-mailed links: stored hashed, single use, expiring. */
export const actionCodes = pgTable(
  'action_codes',
  {
    id: uuid().primaryKey().defaultRandom(),
    kind: actionCodeKindEnum().notNull(),
    codeHash: text().notNull(),
    userId: uuid().references(() => users.id, { onDelete: 'cascade' }),
    assignmentId: uuid().references(() => assignments.id, { onDelete: 'cascade' }),
    /** verify_email: the new address waiting to be confirmed. */
    email: text(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    usedAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex().on(t.codeHash), index().on(t.userId, t.kind), index().on(t.assignmentId)],
)

/** Fixed-window counters for rate limits, shared by every app instance. */
export const rateLimits = pgTable('rate_limits', {
  key: text().primaryKey(),
  windowStart: timestamp({ withTimezone: true }).notNull(),
  count: integer().notNull(),
  /** Slowed-down keys (the sign-in slow-down): the earliest time of the next turn. */
  nextAt: timestamp({ withTimezone: true }),
})
