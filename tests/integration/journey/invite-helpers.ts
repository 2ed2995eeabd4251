import pg from 'pg'
import { and, eq, ne, sql } from 'drizzle-orm'
import { getDb, getHandle } from '#db/client'
import { actionCodes, assignments, auditLog, emailOutbox, users } from '#db/schema/index'
import { createCompany, createScheme, createUser, enrolEmployee } from '#db/factories'
import { EVENTS_CHANNEL, type PanoramaEvent } from '#app/modules/realtime/events.server'

/**
 * Shared by the colleague-invite tests: a fresh employee enrolled in a fresh open scheme (so counts
 * in one test never see another's rows), and readers for what an invitation writes.
 */

export async function enrolledEmployee(
  options: { maxColleagues?: number; status?: 'draft' | 'open' | 'closed'; closesAt?: Date; opensAt?: Date } = {},
) {
  const company = await createCompany({})
  const scheme = await createScheme({
    companyId: company.id,
    ...(options.maxColleagues ? { maxColleagues: options.maxColleagues } : {}),
    ...(options.status ? { status: options.status } : {}),
    ...(options.closesAt
      ? { closesAt: options.closesAt, opensAt: new Date(options.closesAt.getTime() - 86_400_000 * 30) }
      : {}),
    ...(options.opensAt ? { opensAt: options.opensAt } : {}),
  })
  const employee = await createUser({ role: 'employee', companyId: company.id })
  await enrolEmployee(scheme, employee.id)
  return { company, scheme, employee }
}

/** Live (not revoked) rater assignments about an employee in a scheme. */
export async function liveRaters(schemeId: string, employeeId: string) {
  return getDb()
    .select()
    .from(assignments)
    .where(
      and(
        eq(assignments.schemeId, schemeId),
        eq(assignments.subjectId, employeeId),
        ne(assignments.relationship, 'self'),
        ne(assignments.status, 'revoked'),
      ),
    )
}

export async function ratersOf(employeeId: string) {
  return getDb()
    .select()
    .from(assignments)
    .where(and(eq(assignments.subjectId, employeeId), ne(assignments.relationship, 'self')))
}

/** Everything an invitation writes, counted: a test that refuses expects all of these unchanged. */
export async function footprint() {
  const count = async (query: Promise<{ n: number }[]>) => Number((await query)[0]!.n)
  const db = getDb()
  return {
    assignments: await count(db.select({ n: sql<number>`count(*)::int` }).from(assignments)),
    outbox: await count(db.select({ n: sql<number>`count(*)::int` }).from(emailOutbox)),
    codes: await count(db.select({ n: sql<number>`count(*)::int` }).from(actionCodes)),
    audit: await count(db.select({ n: sql<number>`count(*)::int` }).from(auditLog)),
    users: await count(db.select({ n: sql<number>`count(*)::int` }).from(users)),
  }
}

export async function outboxFor(assignmentId: string) {
  return getDb()
    .select()
    .from(emailOutbox)
    .where(and(eq(emailOutbox.entity, 'assignment'), eq(emailOutbox.entityId, assignmentId)))
    .orderBy(emailOutbox.createdAt)
}

export async function codesFor(assignmentId: string) {
  return getDb()
    .select()
    .from(actionCodes)
    .where(eq(actionCodes.assignmentId, assignmentId))
    .orderBy(actionCodes.createdAt)
}

export async function auditFor(assignmentId: string) {
  return getDb()
    .select({ action: auditLog.action, actorId: auditLog.actorId, details: auditLog.details })
    .from(auditLog)
    .where(and(eq(auditLog.entity, 'assignment'), eq(auditLog.entityId, assignmentId)))
    .orderBy(auditLog.at)
}

/** The /verification link inside an outbox message, as a path the test server answers. */
export function invitePathIn(text: string): string {
  const match = /https?:\/\/[^\s"<>]+\/verification\?mode=invite&(?:amp;)?code=[\w-]+/.exec(text)
  if (!match) throw new Error('no invite link in the message')
  const url = new URL(match[0].replaceAll('&amp;', '&'))
  return url.pathname + url.search
}

/**
 * Listens on the events channel the way the live /user page does (PGlite's own listen, or a
 * dedicated Postgres connection), collecting what is published.
 */
export async function listenForEvents() {
  const events: PanoramaEvent[] = []
  const handle = getHandle()
  if (handle.kind === 'pglite') {
    const unsubscribe = await handle.pglite!.listen(EVENTS_CHANNEL, (payload) => {
      events.push(JSON.parse(payload) as PanoramaEvent)
    })
    return { events, stop: () => unsubscribe() }
  }
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL })
  await client.connect()
  client.on('notification', (message) => {
    if (message.channel === EVENTS_CHANNEL && message.payload)
      events.push(JSON.parse(message.payload) as PanoramaEvent)
  })
  await client.query(`LISTEN ${EVENTS_CHANNEL}`)
  return { events, stop: () => client.end() }
}

/** Waits a little for notifications to arrive (they travel through the database asynchronously). */
export async function eventually<T>(
  read: () => T,
  check: (value: T) => boolean,
  timeoutMs = 3_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = read()
    if (check(value) || Date.now() > deadline) return value
    await new Promise((r) => setTimeout(r, 25))
  }
}
