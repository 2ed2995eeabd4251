import crypto from 'node:crypto'
import { pipeline, Readable } from 'node:stream'
import { stringify } from 'csv-stringify'
import { sql } from 'drizzle-orm'
import type { Relationship } from '#db/enums'
import { getDb, queryRows } from '#db/client'
import { responses } from '#db/schema/index'
import { getEnv } from '#app/config/env.server'
import type { Actor } from '#app/lib/outcome'
import { inPieces } from '#app/lib/stream-pieces.server'
import { recordAudit } from '#app/modules/audit/audit.server'
import { neutraliseFormula } from '#app/modules/employee/import.server'
import { filterConditions, isSelective, RESPONSE_JOINS } from './answers-admin.server'
import type { ResponseFilter } from './schemas'

/**
 * The answers as CSV (ADR 023): one row per answer, streamed in keyset batches so memory stays flat
 * whatever the number of answers (1,000,000 in tests/integration/admin/answer-export-memory.test.ts)
 * on Postgres and PGlite alike — no server-side cursor, no transaction held open. Raters appear as
 * an anonymous label ("Peer 2") that is stable within a subject and cannot be worked out from ids;
 * their names and addresses only with the explicit `identities` option, which is audited.
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

export const EXPORT_COLUMNS = [
  'scheme',
  'subject',
  'relationship group',
  'rater',
  'competency',
  'question',
  'value',
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
  relationship: Relationship
  rank: number
  respondentName: string | null
  respondentEmail: string | null
  subjectName: string
}

type BatchAnswer = {
  responseId: string
  category: string
  text: string
  kind: string
  numericValue: number | null
  textValue: string | null
  choices: string[] | null
  notApplicable: boolean
}

export type ExportOptions = { identities: boolean }

/** A stored answer's value cell and text cell. */
function cells(answer: BatchAnswer): [string, string] {
  if (answer.notApplicable) return ['N/A', '']
  if (answer.numericValue !== null) return [String(answer.numericValue), answer.textValue ?? '']
  if (answer.choices?.length) return [answer.choices.join('; '), '']
  return ['', answer.textValue ?? '']
}

/**
 * Every answer matching the filter, as CSV records (header first), read a batch of responses at a
 * time in id order: two statements per batch (the responses, then their answers).
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
          coalesce(nullif(subj.display_name, ''), subj.email) AS "subjectName",
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
      sql`SELECT ans.response_id AS "responseId", q.category, q.kind,
          CASE WHEN a.relationship = 'self' THEN q.text ELSE q.rater_text END AS text,
          ans.numeric_value AS "numericValue", ans.text_value AS "textValue", ans.choices,
          ans.not_applicable AS "notApplicable"
        FROM answers ans
        JOIN responses r ON r.id = ans.response_id
        JOIN assignments a ON a.id = r.assignment_id
        JOIN questions q ON q.id = ans.question_id
        WHERE ans.response_id = ANY(${`{${ids.join(',')}}`}::uuid[])
        ORDER BY ans.response_id, q.position`,
    )
    const byId = new Map(batch.map((r) => [r.id, r]))
    for (const answer of rows) {
      const r = byId.get(answer.responseId)!
      const label = r.relationship === 'self' ? 'Self' : `${GROUP_LABELS[r.relationship]} ${r.rank}`
      const [value, text] = cells(answer)
      const record = [
        r.scheme,
        r.subject,
        GROUP_LABELS[r.relationship],
        label,
        answer.category,
        answer.text.replace(/\{\{\s*name\s*\}\}/g, r.subjectName),
        value,
        text,
        ...(options.identities ? [r.respondentName ?? '', r.respondentEmail ?? ''] : []),
      ]
      yield record.map(neutraliseFormula)
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
    Readable.from(exportRecords(filter, options, batchSize)),
    stringify({ bom: true, record_delimiter: 'windows' }),
    inPieces(),
    // The error reaches the last stream, whose reader handles it.
    () => undefined,
  )
}

/** The file's name: the day, and "with-identities" when it holds them. */
export function exportFileName(options: ExportOptions, now = new Date()) {
  return `answers-${now.toISOString().slice(0, 10)}${options.identities ? '-with-identities' : ''}.csv`
}

/**
 * Starts an export: audited before the first byte when it holds identities (who took names and
 * addresses, with which filters). Anonymous exports are audited too, as a plain record.
 */
export async function startExport(actor: Actor, filter: ResponseFilter, options: ExportOptions) {
  await recordAudit(getDb(), {
    actorId: actor.id,
    ip: actor.ip ?? null,
    action: options.identities ? 'answers.export_identities' : 'answers.export',
    entity: 'answers',
    details: { identities: options.identities, filter },
  })
  return {
    fileName: exportFileName(options),
    body: Readable.toWeb(exportCsvStream(filter, options)) as unknown as ReadableStream,
  }
}
