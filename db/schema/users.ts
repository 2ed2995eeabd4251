import { ACTION_CODE_KINDS, ROLES } from '../enums'
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
    disabledAt: timestamp({ withTimezone: true }),
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
    // A manager's reports (nominations suggest the manager; "Nominations waiting for you").
    index().on(t.managerId),
    // The employee list's department filter within a company.
    index().on(t.companyId, t.department),
    foreignKey({ columns: [t.managerId], foreignColumns: [t.id], name: 'users_manager_id_fk' }).onDelete(
      'set null',
    ),
    check('users_manager_not_self', sql`${t.managerId} <> ${t.id}`),
    check('users_email_lower', sql`${t.email} = lower(${t.email})`),
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
  },
  (t) => [index().on(t.userId), index().on(t.expiresAt)],
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
