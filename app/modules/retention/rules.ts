import crypto from 'node:crypto'

/**
 * Retention's pure rules (issue 21 §3, ADR 058): when a period has passed, and what an audit entry
 * keeps once its personal data is pseudonymised. No database, no clock of their own: every date is
 * computed from the `now` the caller was handed, so tests move time instead of waiting for it.
 */

/**
 * The instant `months` calendar months before `now` (UTC): something dated at or before it has been
 * kept for the whole period. The day of the month is kept where the earlier month has it, else its
 * last day (31 March less one month is 28 or 29 February), so "after N months" never comes early.
 */
export function retentionCutoff(now: Date, months: number): Date {
  const year = now.getUTCFullYear()
  const month = now.getUTCMonth() - months
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate()
  return new Date(
    Date.UTC(
      year,
      month,
      Math.min(now.getUTCDate(), lastDay),
      now.getUTCHours(),
      now.getUTCMinutes(),
      now.getUTCSeconds(),
      now.getUTCMilliseconds(),
    ),
  )
}

/** The same instant `months` calendar months later: when something dated `from` falls due. */
export function retentionDueAt(from: Date, months: number): Date {
  const year = from.getUTCFullYear()
  const month = from.getUTCMonth() + months
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate()
  return new Date(
    Date.UTC(
      year,
      month,
      Math.min(from.getUTCDate(), lastDay),
      from.getUTCHours(),
      from.getUTCMinutes(),
      from.getUTCSeconds(),
      from.getUTCMilliseconds(),
    ),
  )
}

/**
 * A stable pseudonym for a person's identifier (an id, an address, a name): the same value always
 * gives the same pseudonym, so the trail still shows that two entries concern one person, but the
 * value cannot be recovered from it without the server's secret (a keyed hash, not a plain one,
 * which anyone could compute over every known address).
 */
export function pseudonymOf(secret: string, value: string): string {
  const digest = crypto
    .createHmac('sha256', secret)
    .update(`retention-pseudonym:${value.trim().toLowerCase()}`)
    .digest('hex')
  return `person-${digest.slice(0, 12)}`
}

/** Details fields that identify a person: their values become pseudonyms (inner values too). */
const IDENTIFYING_KEYS = new Set([
  'email',
  'emails',
  'name',
  'names',
  'displayName',
  'phone',
  'recipient',
  'respondentName',
  'respondentEmail',
  'employeeName',
  'employeeEmail',
  'subjectName',
  'managerName',
  'managerEmail',
  'colleagueName',
  'colleagueEmail',
  'invitedEmail',
  'invitedName',
  'actorEmail',
  'actorName',
  'user',
  'userId',
  'employeeId',
  'subjectId',
  'respondentId',
  'managerId',
])

/** Details fields that hold someone's words or their device: removed, not pseudonymised. */
const FREE_TEXT_KEYS = new Set(['reason', 'note', 'comment', 'message', 'text', 'userAgent', 'ip'])

function pseudonymise(value: unknown, secret: string, identifying: boolean): unknown {
  if (Array.isArray(value)) return value.map((v) => pseudonymise(v, secret, identifying))
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {}
    for (const [key, inner] of Object.entries(value)) {
      if (FREE_TEXT_KEYS.has(key)) continue
      out[key] = pseudonymise(inner, secret, identifying || IDENTIFYING_KEYS.has(key))
    }
    return out
  }
  if (identifying && typeof value === 'string' && value.trim()) return pseudonymOf(secret, value)
  return value
}

export type AuditEntryPersonal = {
  actorId: string | null
  ip: string | null
  details: Record<string, unknown> | null
}

/**
 * What an audit entry keeps after its retention period: what happened and to which record, never
 * who. The actor becomes a pseudonym in the details (`actor`), the address it acted from goes,
 * identifying fields become pseudonyms and free text (reasons, notes) is removed.
 */
export function pseudonymisedAuditEntry(entry: AuditEntryPersonal, secret: string): AuditEntryPersonal {
  const details = (pseudonymise(entry.details ?? {}, secret, false) ?? {}) as Record<string, unknown>
  if (entry.actorId) details.actor = pseudonymOf(secret, entry.actorId)
  return { actorId: null, ip: null, details: Object.keys(details).length ? details : null }
}
