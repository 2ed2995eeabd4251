import crypto from 'node:crypto'
import { pipeline, Readable } from 'node:stream'
import { stringify } from 'csv-stringify'
import { sql } from 'drizzle-orm'
import type { Relationship } from '#db/enums'
import { getDb, queryRows } from '#db/client'
import { responses } from '#db/schema/index'
import { getEnv } from '#app/config/env.server'
import { ok, refuse, type Actor, type Outcome } from '#app/lib/outcome'
import { inPieces } from '#app/lib/stream-pieces.server'
import { recordAudit } from '#app/modules/audit/audit.server'
import { scaleLabel, scaleRange, type AnswerQuestion } from '#app/modules/assignment/answer-schemas'
import { neutraliseFormula } from '#app/modules/employee/import.server'
import { dayOf, filterConditions, isSelective, RESPONSE_JOINS } from './response.server'
import { ANSWERS_ADMIN_MESSAGES, EXPORT_PATH, parseResponseFilters, type ResponseFilter } from './schemas'

/**
 * The answers as CSV (ADR 023): one row per answer, streamed in keyset batches so memory stays flat
 * whatever the number of answers (1,000,000 in tests/integration/admin/answer-export-memory.test.ts)
 * on Postgres and PGlite alike — no server-side cursor, no transaction held open. Raters appear as
 * an anonymous label ("Peer 2") that is stable within a subject and cannot be worked out from ids;
 * their names and addresses only through a short-lived grant that an admin obtains by giving a
 * reason, which is audited, and never under strict confidentiality (ADR 024).
 */

/** Responses per batch: with a questionnaire of about twenty questions, ≈ 10,000 rows at a time. */
export const EXPORT_BATCH = 500

const GROUP_LABELS: Record<Relationship, string> = {
  self: 'Self',
  manager: 'Manager',
  peer: 'Peer',
  direct_report: 'Direct report',
  other: 'Other colleague',
}

/**
 * One row per answer, in columns a spreadsheet or a statistics package can group by (ADR 023):
 * `question key` is the question's id, the same on the self and the colleague rows of one question;
 * `question` is its self wording ("I listen…"), the same on every row, so the wording a colleague
 * read (with the subject's name) never splits one question in two. Subjects are told apart by id
 * and e-mail, since two people may share a name. Dates are days in the scheme's time zone.
 */
export const EXPORT_COLUMNS = [
  'scheme',
  'subject',
  'subject id',
  'subject e-mail',
  'relationship group',
  'rater',
  'submitted on',
  'question key',
  'section',
  'competency',
  'question',
  'kind',
  'scale min',
  'scale max',
  'value',
  'value label',
  'text',
] as const
export const IDENTITY_COLUMNS = ['respondent name', 'respondent e-mail'] as const

/**
 * The key that orders a subject's raters into labels: derived from the server's secret, so knowing
 * the assignment ids (an employee's invite page holds their colleagues') does not tell whose label
 * is whose. The same secret gives the same labels in every export.
 */
function labelKey() {
  return crypto
    .createHmac('sha256', `answer-export:${getEnv().SESSION_SECRET}`)
    .update('rater-labels')
    .digest('hex')
}

type BatchResponse = {
  id: string
  scheme: string
  subject: string
  subjectId: string
  subjectEmail: string
  relationship: Relationship
  rank: number
  submittedAt: string | null
  timeZone: string
  respondentName: string | null
  respondentEmail: string | null
}

type BatchAnswer = {
  responseId: string
  questionId: string
  section: string
  category: string
  text: string
  kind: string
  options: AnswerQuestion['options'] | null
  numericValue: number | null
  textValue: string | null
  choices: string[] | null
  notApplicable: boolean
}

export type ExportOptions = { identities: boolean }

/** A stored answer's value, value label and text cells. */
function cells(answer: BatchAnswer): [string, string, string] {
  if (answer.notApplicable) return ['N/A', '', '']
  if (answer.numericValue !== null)
    return [
      String(answer.numericValue),
      answer.kind === 'scale' ? (scaleLabel(answer.options ?? {}, answer.numericValue) ?? '') : '',
      answer.textValue ?? '',
    ]
  if (answer.choices?.length) return [answer.choices.join('; '), '', '']
  return ['', '', answer.textValue ?? '']
}

/** A scale question's bounds (the rule answering uses); empty for the other kinds. */
function bounds(answer: BatchAnswer): [string, string] {
  if (answer.kind !== 'scale') return ['', '']
  const { min, max } = scaleRange(answer.options ?? {})
  return [String(min), String(max)]
}

/**
 * Every answer matching the filter, as records (header first; the CSV adds its formula guard, the
 * NDJSON its keys), read a batch of responses at a time in id order: two statements per batch (the
 * responses, then their answers).
 */
export async function* exportRecords(
  filter: ResponseFilter,
  options: ExportOptions,
  batchSize = EXPORT_BATCH,
): AsyncGenerator<string[]> {
  yield [...EXPORT_COLUMNS, ...(options.identities ? IDENTITY_COLUMNS : [])]
  const key = labelKey()
  let after: string | null = null
  for (;;) {
    // The label: the rater's place among the subject's raters of the same group in this scheme,
    // in the keyed order — counted over all of them, so a filter never renumbers anyone.
    const batch: BatchResponse[] = await queryRows<BatchResponse>(
      getDb(),
      sql`SELECT ${responses.id} AS id, s.name AS scheme, a.relationship,
          coalesce(nullif(subj.display_name, ''), subj.email) AS subject,
          subj.id AS "subjectId", subj.email AS "subjectEmail",
          ${responses.submittedAt} AS "submittedAt", s.time_zone AS "timeZone",
          CASE WHEN a.relationship = 'self' THEN 1 ELSE 1 + (
            SELECT count(*) FROM assignments o
            JOIN responses ro ON ro.assignment_id = o.id
            WHERE o.subject_id = a.subject_id AND o.scheme_id = a.scheme_id
              AND o.relationship = a.relationship AND o.status <> 'revoked'
              AND md5(${key} || o.id::text) < md5(${key} || a.id::text)
          ) END::int AS rank,
          ${options.identities ? sql`coalesce(nullif(a.respondent_name, ''), nullif(resp.display_name, ''), resp.email)` : sql`NULL`} AS "respondentName",
          ${options.identities ? sql`resp.email` : sql`NULL`} AS "respondentEmail"
        ${RESPONSE_JOINS}
        ${options.identities ? sql`JOIN users resp ON resp.id = a.respondent_id` : sql``}
        WHERE ${
          isSelective(filter)
            ? // A few matches (a scheme, a company, a subject): gather them, then take the batch.
              sql`${responses.id} IN (SELECT id FROM (SELECT ${responses.id} AS id ${RESPONSE_JOINS}
                WHERE ${filterConditions(filter)} ${after ? sql`AND ${responses.id} > ${after}::uuid` : sql``}
                OFFSET 0) pick ORDER BY id LIMIT ${batchSize})`
            : sql`${filterConditions(filter)} ${after ? sql`AND ${responses.id} > ${after}::uuid` : sql``}`
        }
        ORDER BY ${responses.id}
        LIMIT ${batchSize}`,
    )
    if (!batch.length) return
    const ids = batch.map((r) => r.id)
    const rows = await queryRows<BatchAnswer>(
      getDb(),
      sql`SELECT ans.response_id AS "responseId", q.id AS "questionId", q.section, q.category,
          q.kind, q.text, q.options,
          ans.numeric_value AS "numericValue", ans.text_value AS "textValue", ans.choices,
          ans.not_applicable AS "notApplicable"
        FROM answers ans
        JOIN questions q ON q.id = ans.question_id
        WHERE ans.response_id = ANY(${`{${ids.join(',')}}`}::uuid[])
        ORDER BY ans.response_id, q.position`,
    )
    const byId = new Map(batch.map((r) => [r.id, r]))
    const submittedOn = new Map(batch.map((r) => [r.id, dayOf(r.submittedAt, r.timeZone)?.date ?? '']))
    for (const answer of rows) {
      const r = byId.get(answer.responseId)!
      const label = r.relationship === 'self' ? 'Self' : `${GROUP_LABELS[r.relationship]} ${r.rank}`
      const [value, valueLabel, text] = cells(answer)
      const record = [
        r.scheme,
        r.subject,
        r.subjectId,
        r.subjectEmail,
        GROUP_LABELS[r.relationship],
        label,
        submittedOn.get(r.id)!,
        answer.questionId,
        answer.section,
        answer.category,
        answer.text,
        answer.kind,
        ...bounds(answer),
        value,
        valueLabel,
        text,
        ...(options.identities ? [r.respondentName ?? '', r.respondentEmail ?? ''] : []),
      ]
      yield record
    }
    if (batch.length < batchSize) return
    after = batch[batch.length - 1]!.id
  }
}

/**
 * The CSV bytes: UTF-8 with a BOM (Excel reads accents right), CRLF line ends; in 64 KiB pieces,
 * not a chunk per row. Joined with pipeline(), not pipe(): a query failing half-way errors the
 * stream that is read (the download is cut off and logged) instead of an unwatched one upstream,
 * which would end the process.
 */
export function exportCsvStream(filter: ResponseFilter, options: ExportOptions, batchSize = EXPORT_BATCH) {
  return pipeline(
    Readable.from(forSpreadsheets(exportRecords(filter, options, batchSize))),
    stringify({ bom: true, record_delimiter: 'windows' }),
    inPieces(),
    // The error reaches the last stream, whose reader handles it.
    () => undefined,
  )
}

/** A cell a spreadsheet would run as a formula gets its apostrophe: the CSV's guard, not the JSON's. */
async function* forSpreadsheets(records: AsyncIterable<string[]>) {
  for await (const record of records) yield record.map(neutraliseFormula)
}

/** The NDJSON keys: the columns in snake case ("subject e-mail" → `subject_email`). */
export const NDJSON_KEYS = [...EXPORT_COLUMNS, ...IDENTITY_COLUMNS].map((column) =>
  column.replace('e-mail', 'email').replaceAll(' ', '_'),
)
const NUMERIC_KEYS = new Set(['scale_min', 'scale_max'])
const KIND_CELL = EXPORT_COLUMNS.indexOf('kind')

/**
 * The same records as newline-delimited JSON (issue 21 §1): one object per answer, the columns as
 * keys, an empty cell null, the scale's bounds and a scale answer's value as numbers — for programs
 * rather than spreadsheets (no BOM, no formula guard). Streamed the same way, in 64 KiB pieces.
 */
export function exportNdjsonStream(filter: ResponseFilter, options: ExportOptions, batchSize = EXPORT_BATCH) {
  async function* lines() {
    let header = true
    for await (const record of exportRecords(filter, options, batchSize)) {
      if (header) {
        header = false
        continue
      }
      const object: Record<string, string | number | null> = {}
      record.forEach((cell, i) => {
        const key = NDJSON_KEYS[i]!
        const numeric = NUMERIC_KEYS.has(key) || (key === 'value' && record[KIND_CELL] === 'scale')
        object[key] = cell === '' ? null : numeric && /^-?\d+(\.\d+)?$/.test(cell) ? Number(cell) : cell
      })
      yield `${JSON.stringify(object)}\n`
    }
  }
  return pipeline(Readable.from(lines()), inPieces(), () => undefined)
}

export type ExportFormat = 'csv' | 'ndjson'

/** The file's name: the day, and "with-identities" when it holds them. */
export function exportFileName(options: ExportOptions, now = new Date(), format: ExportFormat = 'csv') {
  return `answers-${now.toISOString().slice(0, 10)}${options.identities ? '-with-identities' : ''}.${format}`
}

// ---------------------------------------------------------------------------------------------
// Exports with names (ADR 024).

/** How long the download link of an authorised export with names works. */
export const IDENTITY_GRANT_TTL_MS = 5 * 60 * 1000

const FILTER_KEYS = ['q', 'scheme', 'company', 'questionnaire', 'relationship', 'state'] as const

function grantSignature(adminId: string, expires: number, filter: ResponseFilter) {
  const filters = JSON.stringify(FILTER_KEYS.map((k) => filter[k]))
  return crypto
    .createHmac('sha256', `answer-export-identities:${getEnv().SESSION_SECRET}`)
    .update(`${adminId}\n${expires}\n${filters}`)
    .digest('base64url')
}

/**
 * Whether a grant lets this admin download names with exactly these filters now. Bound to the
 * admin and the filters, so a link passed on or edited is refused; it expires within minutes.
 */
export function checkIdentityGrant(adminId: string, filter: ResponseFilter, grant: string, now = Date.now()) {
  const match = /^(\d{1,15})\.([\w-]{43})$/.exec(grant)
  if (!match) return false
  const expires = Number(match[1])
  if (expires <= now) return false
  const expected = Buffer.from(grantSignature(adminId, expires, filter))
  const given = Buffer.from(match[2]!)
  return expected.length === given.length && crypto.timingSafeEqual(expected, given)
}

/** The download address of an export, with the filters and (for names) the grant. */
export function exportHref(filter: ResponseFilter, grant?: string) {
  const params = new URLSearchParams()
  for (const k of FILTER_KEYS) if (filter[k]) params.set(k, filter[k])
  if (grant) params.set('identities', grant)
  const query = params.toString()
  return query ? `${EXPORT_PATH}?${query}` : EXPORT_PATH
}

/**
 * Authorises one export with respondents' names: the reason and the filters go to the audit log
 * before anything is read, and the answer is the download address with a grant for this admin and
 * these filters. Refused under strict confidentiality, and for filters the list would not apply.
 */
export async function authoriseIdentityExport(
  actor: Actor,
  form: Partial<Record<(typeof FILTER_KEYS)[number], string>> & { reason: string },
  now = Date.now(),
): Promise<Outcome<{ href: string }>> {
  if (getEnv().STRICT_CONFIDENTIALITY) return refuse(ANSWERS_ADMIN_MESSAGES.strict)
  const params = new URLSearchParams()
  for (const k of FILTER_KEYS) if (form[k]) params.set(k, form[k])
  const { query, problems } = parseResponseFilters(params)
  if (problems.length) return refuse(...problems)
  const filter: ResponseFilter = {
    q: query.q,
    scheme: query.scheme,
    company: query.company,
    questionnaire: query.questionnaire,
    relationship: query.relationship,
    state: query.state,
  }
  await recordAudit(getDb(), actor, {
    action: 'answers.export_identities',
    entity: 'answers',
    details: { identities: true, filter, reason: form.reason },
  })
  const expires = now + IDENTITY_GRANT_TTL_MS
  return ok({ href: exportHref(filter, `${expires}.${grantSignature(actor.id, expires, filter)}`) })
}

/**
 * Starts an export. Without a grant: anonymous, and recorded in the audit log as a plain export.
 * With one: names and addresses, once the grant is checked (its authorisation was the audited act,
 * reason and all). Strict confidentiality refuses every grant, even one made before it was set.
 */
export async function startExport(
  actor: Actor,
  filter: ResponseFilter,
  grant: string | null,
  format: ExportFormat = 'csv',
): Promise<Outcome<{ fileName: string; body: ReadableStream }>> {
  const identities = grant !== null
  if (identities) {
    if (getEnv().STRICT_CONFIDENTIALITY) return refuse(ANSWERS_ADMIN_MESSAGES.strict)
    if (!checkIdentityGrant(actor.id, filter, grant)) return refuse(ANSWERS_ADMIN_MESSAGES.grantInvalid)
  } else {
    await recordAudit(getDb(), actor, {
      action: 'answers.export',
      entity: 'answers',
      details: { identities: false, filter, ...(format === 'csv' ? {} : { format }) },
    })
  }
  return ok({
    fileName: exportFileName({ identities }, new Date(), format),
    body: Readable.toWeb(
      (format === 'ndjson' ? exportNdjsonStream : exportCsvStream)(filter, { identities }),
    ) as unknown as ReadableStream,
  })
}
