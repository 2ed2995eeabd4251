import { sql } from 'drizzle-orm'
import type { Relationship } from '#db/enums'
import { getDb, queryRows } from '#db/client'
import { responses } from '#db/schema/index'
import { keysetList, timestampKey, type KeysetRead, type Page } from '#app/lib/keyset-list.server'
import { ok, refuse, refuseNotFound, type Actor, type Outcome } from '#app/lib/outcome'
import { isUuid } from '#app/lib/ids'
import { recordAudit } from '#app/modules/audit/audit.server'
import { hit, refuseLimited, type RateLimitRule } from '#app/modules/rate-limit/rate-limit.server'
import { assignmentPhaseSql, type SchemePhase } from '#app/modules/scheme/state'
import { dayOf, reopenResponse, RESPONSE_JOINS, type Day } from './response.server'
import { REOPEN_REQUEST_MESSAGES } from './reopen-request-schemas'

/**
 * Reopen requests (issue 18 §5, ADR 039): a respondent who has submitted asks for their answers to
 * be reopened ("I need to change my answers"), while their round is open; an admin reopens them in
 * one click (the reopen of ADR 023, with the respondent's note as its reason) or declines. The
 * request lives on the response (`responses.reopen_requested_at`, `reopen_request_note`), so there
 * is at most one waiting per response, and the admins' list reads the partial index on it.
 *
 * Anonymity (ADR 024): the admins' list shows what answer management's list shows — whom the
 * feedback is about, the respondent's relationship, days rather than instants — plus the
 * respondent's own note. The dashboard names nobody for a colleague's request.
 */

/** Requests one respondent may send: enough for a few assignments and second thoughts, not a flood. */
export const REOPEN_REQUEST_LIMIT: RateLimitRule = { limit: 5, windowMs: 60 * 60 * 1000 }

export const REOPEN_REQUEST_PAGE_SIZE = 25

type RequestTarget = {
  assignmentId: string
  status: string
  relationship: Relationship
  schemeId: string
  responseId: string | null
  submittedAt: string | null
  requestedAt: string | null
  phase: SchemePhase
}

/**
 * "I need to change my answers": records the respondent's request on their submitted response.
 * Ownership is in the query (not theirs, withdrawn or unknown: 404); only a submitted response,
 * only while the round is open (the one phase rule, with a release's early end), one waiting request
 * at a time; rate limited per respondent; audited in the same transaction. The assignment row is
 * locked as the answering flow and the reopen lock it, so a request cannot slip in between a reopen
 * and its new submission.
 */
export async function requestReopen(
  actor: Actor,
  assignmentId: unknown,
  rawNote: string | null | undefined,
): Promise<Outcome<{ responseId: string }>> {
  if (!isUuid(assignmentId)) return refuseNotFound()
  const limit = await hit(`reopen-request:${actor.id}`, REOPEN_REQUEST_LIMIT)
  if (limit.limited) return refuseLimited(limit, REOPEN_REQUEST_MESSAGES.limited)
  const note = rawNote?.trim() ? rawNote.trim() : null
  return getDb().transaction(async (tx) => {
    const [row] = await queryRows<RequestTarget>(
      tx,
      sql`SELECT a.id AS "assignmentId", a.status, a.relationship, a.scheme_id AS "schemeId",
          r.id AS "responseId", r.submitted_at AS "submittedAt", r.reopen_requested_at AS "requestedAt",
          ${assignmentPhaseSql(undefined, { scheme: 's', assignment: 'a' })} AS phase
        FROM assignments a
        JOIN schemes s ON s.id = a.scheme_id
        LEFT JOIN responses r ON r.assignment_id = a.id
        WHERE a.id = ${assignmentId}::uuid AND a.respondent_id = ${actor.id}::uuid
        FOR UPDATE OF a`,
    )
    if (!row || row.status === 'revoked') return refuseNotFound()
    if (row.status !== 'submitted' || !row.responseId || !row.submittedAt)
      return refuse(REOPEN_REQUEST_MESSAGES.notSubmitted)
    if (row.phase !== 'open') return refuse(REOPEN_REQUEST_MESSAGES.closed)
    if (row.requestedAt) return refuse(REOPEN_REQUEST_MESSAGES.alreadyRequested)
    await tx
      .update(responses)
      .set({ reopenRequestedAt: sql`now()`, reopenRequestNote: note })
      .where(sql`${responses.id} = ${row.responseId}::uuid`)
    // Who asked is the actor, as for a submission; the dashboard names nobody for a colleague's.
    await recordAudit(tx, actor, {
      action: 'response.reopen_request',
      entity: 'response',
      entityId: row.responseId,
      details: {
        assignmentId: row.assignmentId,
        schemeId: row.schemeId,
        relationship: row.relationship,
        note,
      },
    })
    return ok({ responseId: row.responseId })
  })
}

/** One waiting request as the admins' list shows it: no respondent, a day rather than an instant. */
export type ReopenRequestRow = {
  id: string
  relationship: Relationship
  requested: Day
  note: string | null
  phase: SchemePhase
  schemeName: string
  companyName: string
  subjectName: string
}

type RequestRecord = Omit<ReopenRequestRow, 'requested'> & {
  name: string
  createdAt: string
  requestedAt: string
  timeZone: string
}

/**
 * The waiting requests, newest first, a keyset page at a time on (reopen_requested_at, id): one
 * statement, read from the partial index `responses_reopen_requested_index` (few rows).
 */
export async function listReopenRequests(query: {
  after?: string
  before?: string
}): Promise<Page<ReopenRequestRow>> {
  const columns = {
    name: responses.reopenRequestedAt,
    created: responses.reopenRequestedAt,
    id: responses.id,
  }
  const page = await keysetList(
    { sort: 'created-desc', after: query.after, before: query.before },
    columns,
    REOPEN_REQUEST_PAGE_SIZE,
    (read) => readRequests(read),
  )
  return {
    ...page,
    rows: page.rows.map(
      ({ name: _name, createdAt: _key, requestedAt, timeZone, ...row }): ReopenRequestRow => ({
        ...row,
        requested: dayOf(requestedAt, timeZone)!,
      }),
    ),
  }
}

function readRequests({ keyset, limit, direction }: KeysetRead) {
  return queryRows<RequestRecord>(
    getDb(),
    sql`SELECT ${responses.id} AS id, '' AS name, ${timestampKey(responses.reopenRequestedAt)} AS "createdAt",
        ${responses.reopenRequestedAt} AS "requestedAt", ${responses.reopenRequestNote} AS note,
        a.relationship, s.time_zone AS "timeZone", s.name AS "schemeName", c.name AS "companyName",
        ${assignmentPhaseSql(undefined, { scheme: 's', assignment: 'a' })} AS phase,
        coalesce(nullif(subj.display_name, ''), subj.email) AS "subjectName"
      ${RESPONSE_JOINS}
      JOIN companies c ON c.id = s.company_id
      WHERE ${responses.reopenRequestedAt} IS NOT NULL ${keyset ? sql`AND ${keyset}` : sql``}
      ORDER BY ${responses.reopenRequestedAt} ${direction}, ${responses.id} ${direction}
      LIMIT ${limit}`,
  )
}

/**
 * "Reopen" on a request: the answer management reopen (ADR 023: the respondent e-mailed a way back
 * in, the reason on the reopened questionnaire, audited), with the respondent's own note as the
 * reason; it clears the request. Refused when the request is no longer waiting.
 */
export function approveReopenRequest(actor: Actor, responseId: unknown) {
  return reopenResponse(actor, responseId, null, { request: true })
}

/**
 * "Decline" on a request: clears it, audited with the admin's optional reason, which the respondent
 * reads on their thank-you page (read from the audit log: the decision is the record).
 */
export async function declineReopenRequest(
  actor: Actor,
  responseId: unknown,
  rawReason: string | null | undefined,
): Promise<Outcome<{ subjectName: string }>> {
  if (!isUuid(responseId)) return refuseNotFound()
  const reason = rawReason?.trim() ? rawReason.trim() : null
  return getDb().transaction(async (tx) => {
    const [row] = await queryRows<{
      id: string
      requestedAt: string | null
      relationship: Relationship
      schemeId: string
      schemeName: string
      subjectName: string
    }>(
      tx,
      sql`SELECT ${responses.id} AS id, ${responses.reopenRequestedAt} AS "requestedAt", a.relationship,
          s.id AS "schemeId", s.name AS "schemeName",
          coalesce(nullif(subj.display_name, ''), subj.email) AS "subjectName"
        ${RESPONSE_JOINS}
        WHERE ${responses.id} = ${responseId}::uuid
        FOR UPDATE OF a`,
    )
    if (!row) return refuseNotFound()
    if (!row.requestedAt) return refuse(REOPEN_REQUEST_MESSAGES.requestGone)
    await tx
      .update(responses)
      .set({ reopenRequestedAt: null, reopenRequestNote: null })
      .where(sql`${responses.id} = ${row.id}::uuid`)
    await recordAudit(tx, actor, {
      action: 'response.reopen_decline',
      entity: 'response',
      entityId: row.id,
      details: {
        schemeId: row.schemeId,
        schemeName: row.schemeName,
        relationship: row.relationship,
        reason,
      },
    })
    return ok({ subjectName: row.subjectName })
  })
}

/** The list page's data: the waiting requests (one statement). */
export async function loadReopenRequests(query: { after?: string; before?: string }) {
  const page = await listReopenRequests(query)
  return { page }
}
