import { sql } from 'drizzle-orm'
import { getDb, queryRows, type Tx } from '#db/client'
import { isUuid } from '#app/lib/ids'
import { ok, refuseNotFound, type Outcome } from '#app/lib/outcome'
import { escapeLike } from '#app/lib/keyset.server'
import { searchTerm } from '#app/lib/text-rules'
import * as z from '#app/lib/zod'
import { getEnv } from '#app/config/env.server'
import type { Role } from '#app/modules/auth/permissions'
import { hit, refuseLimited, type RateLimitRule } from '#app/modules/rate-limit/rate-limit.server'
import {
  DIRECTORY_MAX_RESULTS,
  DIRECTORY_MESSAGES,
  DIRECTORY_MIN_QUERY,
  DIRECTORY_QUERY_MAX,
  type DirectoryAnswer,
  type DirectoryPerson,
} from './directory'

/**
 * The colleague directory (issue 18 §3): the people an employee's list of raters may name, found by
 * a few letters of their name, e-mail address, department or job title. The answer never carries an
 * address (the page must not become a way to read the client's addresses out): the list builder
 * posts the person's id and `resolveDirectoryPerson` finds the address on the server.
 *
 * Who may be named: employees of the same company as the list's employee, not disabled, not the
 * employee themself — never an administrator, an outside colleague or another company's employee.
 */

/**
 * The route's query: whose list (`employee`; an employee's own when left out) and the search term,
 * without control characters, trimmed and clipped like every list's search box: a type-ahead falls
 * back rather than failing with a 400.
 */
export const DirectoryQuerySchema = z.object({
  employee: z.catch(z.optional(z.string().check(z.maxLength(100))), undefined),
  q: z.catch(
    z.pipe(
      z.optional(z.string()),
      z.transform((v: string | undefined) => searchTerm(v ?? '', DIRECTORY_QUERY_MAX)),
    ),
    '',
  ),
})

/** Searches per person and minute: typing sends one per pause (DIRECTORY_SEARCHES_PER_MINUTE). */
export const directoryLimit = (): RateLimitRule => ({
  limit: getEnv().DIRECTORY_SEARCHES_PER_MINUTE,
  windowMs: 60_000,
})
export const directoryLimitKey = (actorId: string) => `directory:${actorId}`

/** Who searches: the employee themself, their manager, or an administrator. */
export type DirectoryActor = { id: string; role: Role }

/**
 * The people whose name, address, department or title contains `q` (at least 3 letters after
 * trimming; fewer answer nothing with a hint), among those `employeeId`'s list may name: at most 8,
 * names starting with `q` first, then by name.
 *
 * The actor may search for the list of `employeeId` when they are that employee, that employee's
 * manager (users.manager_id) or an administrator; anything else, and an id that is not an
 * employee's, is not found. Every search counts against the actor's rate limit, refused or not, so
 * that guessing ids costs the same as searching.
 *
 * One statement: the access check finds the list's employee (and their company), and the search
 * joins to it. One LIKE on `users.directory_text` (name, address, department and title, stored
 * lower-cased): Postgres reads the matches through its trigram index (users_directory_trgm), ANDed
 * with the company's index when that narrows them, or reads the company's people and filters:
 * never the users table whole (tests/integration/perf/directory-plan.test.ts).
 */
export async function searchDirectory(
  actor: DirectoryActor,
  input: { employeeId: string; q: string },
): Promise<Outcome<DirectoryAnswer>> {
  const limited = await hit(directoryLimitKey(actor.id), directoryLimit())
  if (limited.limited) return refuseLimited(limited, DIRECTORY_MESSAGES.limited)
  if (!isUuid(input.employeeId)) return refuseNotFound()
  const q = searchTerm(input.q, DIRECTORY_QUERY_MAX)
  const searching = [...q].length >= DIRECTORY_MIN_QUERY
  // users.directory_text is name, address, department and title lower-cased by Postgres when the
  // row is written; the pattern is lower-cased by Postgres too, so both fold letters alike.
  const pattern = `%${escapeLike(q)}%`
  const prefix = `${escapeLike(q)}%`
  const rows = await queryRows<{
    id: string | null
    name: string | null
    department: string | null
    job_title: string | null
  }>(
    getDb(),
    sql`WITH owner AS (
      SELECT e.id, e.company_id FROM users e
      WHERE e.id = ${input.employeeId}::uuid AND e.role = 'employee'
        ${actor.role === 'admin' ? sql`` : sql`AND (e.id = ${actor.id}::uuid OR e.manager_id = ${actor.id}::uuid)`}
    )
    SELECT p.id, p.name, p.department, p.job_title
    FROM owner o
    LEFT JOIN LATERAL (
      SELECT u.id, u.display_name AS name, u.department, u.job_title
      FROM users u
      WHERE ${searching ? sql`true` : sql`false`}
        AND u.directory_text LIKE lower(${pattern})
        -- (An employee without a company on record has nobody to name.)
        AND u.company_id = o.company_id AND u.role = 'employee' AND u.disabled_at IS NULL AND u.id <> o.id
      ORDER BY u.display_name ILIKE ${prefix} DESC, lower(u.display_name), u.id
      LIMIT ${DIRECTORY_MAX_RESULTS}
    ) p ON true`,
  )
  // No row: no such employee, or not the actor's to search for.
  if (!rows.length) return refuseNotFound()
  const people: DirectoryPerson[] = rows
    .filter((r) => r.id !== null)
    .map((r) => ({ id: r.id!, name: r.name ?? '', department: r.department, jobTitle: r.job_title }))
  return ok({ people, hint: searching ? null : DIRECTORY_MESSAGES.tooShort })
}

/**
 * The person a list posted by id (`personId`), with the address the invitation goes to, when the
 * list of `employeeId` may name them (the same rules as the search: an enabled employee of the same
 * company, not the employee themself); else null. The caller has checked who may change the list.
 */
export async function resolveDirectoryPerson(
  tx: Tx,
  input: { employeeId: string; personId: string },
): Promise<{ id: string; email: string; name: string } | null> {
  if (!isUuid(input.employeeId) || !isUuid(input.personId)) return null
  const [row] = await queryRows<{ id: string; email: string; name: string }>(
    tx,
    sql`SELECT p.id, p.email, coalesce(nullif(p.display_name, ''), p.email) AS name
      FROM users p JOIN users e ON e.id = ${input.employeeId}::uuid
      WHERE p.id = ${input.personId}::uuid AND p.id <> e.id
        AND e.role = 'employee' AND e.company_id IS NOT NULL AND p.company_id = e.company_id
        AND p.role = 'employee' AND p.disabled_at IS NULL`,
  )
  return row ?? null
}
