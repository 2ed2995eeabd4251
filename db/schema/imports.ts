import { sql } from 'drizzle-orm'
import { index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core'
import { companies } from './companies'
import { schemes } from './schemes'
import { users } from './users'

/**
 * A CSV of employees on its way in (DESIGN.md §7): the upload is parsed as a stream straight into
 * `employee_import_rows`, checked there in set-based SQL, previewed from there page by page, and
 * imported from there in one transaction — the file is never held in memory whole, nor twice.
 */
export const employeeImports = pgTable(
  'employee_imports',
  {
    id: uuid().primaryKey().defaultRandom(),
    createdBy: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    fileName: text().notNull(),
    rowCount: integer().notNull().default(0),
    /** Optional enrolment of the imported employees. */
    schemeId: uuid().references(() => schemes.id, { onDelete: 'set null' }),
    /** null while previewed; set when imported (a second import of the same preview is refused). */
    importedAt: timestamp({ withTimezone: true }),
    /** { created, updated, skipped, enrolled } once imported. */
    summary: jsonb(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index().on(t.createdBy, t.createdAt)],
)

export const employeeImportRows = pgTable(
  'employee_import_rows',
  {
    importId: uuid()
      .notNull()
      .references(() => employeeImports.id, { onDelete: 'cascade' }),
    /** The row's line in the file (the header is line 1). */
    line: integer().notNull(),
    name: text().notNull().default(''),
    email: text().notNull().default(''),
    companyName: text().notNull().default(''),
    phone: text(),
    /**
     * Issue 18: the manager's address (lower-cased; '' when the cell is empty), the department and
     * the job title (null when empty: an empty cell leaves what the person has).
     */
    managerEmail: text().notNull().default(''),
    department: text(),
    jobTitle: text(),
    /** The manager's first row in the file, when they are on one (for "the manager is on line N"). */
    managerLine: integer(),
    companyId: uuid().references(() => companies.id, { onDelete: 'set null' }),
    /** An address seen on an earlier row: that row's line (the first one is kept, this one flagged). */
    duplicateOf: integer(),
    /** An unknown company's closest existing name (trigram similarity), offered as "did you mean". */
    companySuggestion: text(),
    /** Why the row cannot be imported; empty when it can. */
    errors: text()
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** After the import: created, updated or skipped. */
    outcome: text(),
  },
  (t) => [primaryKey({ columns: [t.importId, t.line] }), index().on(t.importId, t.email)],
)
