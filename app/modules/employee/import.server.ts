import path from 'node:path'
import { PassThrough, pipeline, Readable } from 'node:stream'
import type { ReadableStream as NodeWebReadableStream } from 'node:stream/web'
import busboy from 'busboy'
import { parse, CsvError, type Info } from 'csv-parse'
import { stringify } from 'csv-stringify'
import { and, eq, sql } from 'drizzle-orm'
import { getDb, queryRows, type Tx } from '#db/client'
import { employeeImportRows, employeeImports } from '#db/schema/index'
import { refuseNotFound, ok, refuse, refuseField, type Actor, type Outcome } from '#app/lib/outcome'
import { clipText, withoutControlCharacters } from '#app/lib/text-rules'
import { recordAudit } from '#app/modules/audit/audit.server'
import { queueDeliveriesSql } from '#app/modules/webhook/events.server'
import { enrolEmployees } from '#app/modules/scheme/enrol.server'
import { schemePhaseSql } from '#app/modules/scheme/state'
import {
  FILE_PROBLEMS,
  headerKey,
  IMPORT_COLUMNS,
  IMPORT_HEADER_ALIASES,
  IMPORT_MAX_BYTES,
  IMPORT_MAX_ROWS,
  IMPORT_PAGE_SIZE,
  DEPARTMENT_MAX,
  JOB_TITLE_MAX,
  rowProblemTexts,
  type ProblemWords,
  type ImportColumn,
  type ImportRowsPage,
  type ImportSchemeOption,
  type ImportSummary,
  type ImportView,
  type ImportViewQuery,
  type RowOutcome,
  type RowProblem,
} from './import-schemas'
import { EMAIL_MAX, EMAIL_PATTERN_SQL, EMPLOYEE_NAME_MAX } from './schemas'
import { isUuid } from '#app/lib/ids'
import { lockReportingLines } from './org.server'
import { PG_ERROR, pgErrorCode } from '#app/lib/pg-error'

/**
 * The CSV import of employees (ADR 012). The upload is read as a stream — the multipart body
 * through busboy, the file through csv-parse — straight into employee_import_rows in batches, so
 * the file is never held in memory whole; every row is then checked in one set-based statement;
 * the preview pages through the staged rows; the import writes the valid ones in one transaction
 * with one INSERT … ON CONFLICT from the staging table, idempotent on the e-mail address.
 */

/** Staged rows per INSERT: 10 parameters a row, far below Postgres's 65,535. */
const INSERT_BATCH = 1000
/** A line longer than this is not an employee: the parser stops instead of buffering it. */
const MAX_RECORD_BYTES = 64 * 1024
/** Previews nobody imported are removed after this long (imported ones stay: they are the record). */
const PREVIEW_RETENTION = sql`interval '7 days'`
/** Problems found while reading the file; the set-based check keeps them when it runs again. */
const PARSE_PROBLEMS: RowProblem[] = ['too_many_values']

// ---------------------------------------------------------------------------------------------
// Reading the file.

class FileProblem extends Error {}

type StagedRow = typeof employeeImportRows.$inferInsert

/** Comma or semicolon, whichever the header line uses more (outside quotes). */
export function sniffDelimiter(head: Buffer): ',' | ';' {
  const text = head.toString('utf8')
  const end = text.indexOf('\n')
  const line = end === -1 ? text : text.slice(0, end)
  let commas = 0
  let semicolons = 0
  let quoted = false
  for (const ch of line) {
    if (ch === '"') quoted = !quoted
    else if (!quoted && ch === ',') commas++
    else if (!quoted && ch === ';') semicolons++
  }
  return semicolons > commas ? ';' : ','
}

/**
 * The records of a CSV stream, parsed as they arrive. The first line is looked at before the
 * parser starts (to choose the delimiter), then handed to it with the rest.
 */
async function* csvRecords(input: Readable): AsyncGenerator<{ record: string[]; info: Info }> {
  const chunks = input[Symbol.asyncIterator]() as AsyncIterator<Buffer>
  const head: Buffer[] = []
  let size = 0
  let ended = false
  for (;;) {
    const { value, done } = await chunks.next()
    if (done) {
      ended = true
      break
    }
    head.push(value)
    size += value.length
    if (value.includes(0x0a) || size > MAX_RECORD_BYTES) break
  }
  const first = Buffer.concat(head)
  const parser = parse({
    delimiter: sniffDelimiter(first),
    bom: true,
    trim: true,
    relax_quotes: true,
    relax_column_count: true,
    skip_empty_lines: true,
    skip_records_with_empty_values: true,
    max_record_size: MAX_RECORD_BYTES,
    info: true,
  })
  const feed = Readable.from(
    (async function* () {
      if (first.length) yield first
      if (ended) return
      for (;;) {
        const { value, done } = await chunks.next()
        if (done) return
        yield value
      }
    })(),
  )
  feed.on('error', (error) => parser.destroy(error))
  feed.pipe(parser)
  for await (const item of parser as AsyncIterable<{ record: string[]; info: Info }>) yield item
}

const CSV_REASONS: Record<string, string> = {
  CSV_QUOTE_NOT_CLOSED: 'a quotation mark is opened and never closed',
  CSV_INVALID_CLOSING_QUOTE: 'a quotation mark closes a value but more text follows it',
  CSV_MAX_RECORD_SIZE: 'the line is far too long',
  CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE: 'a quotation mark closes a value but more text follows it',
}

type Header = Partial<Record<ImportColumn, number>> & { width: number }

function matchHeader(cells: string[]): Header {
  const header: Header = { width: cells.length }
  for (const [index, cell] of cells.entries()) {
    const column = IMPORT_HEADER_ALIASES[headerKey(cell)]
    if (!column) continue
    if (header[column] !== undefined) throw new FileProblem(FILE_PROBLEMS.duplicateHeader(cell))
    header[column] = index
  }
  if (header.name === undefined || header.email === undefined || header.company === undefined) {
    const found = withoutControlCharacters(cells.join(', ')).slice(0, 200)
    throw new FileProblem(FILE_PROBLEMS.header(found ? `“${found}”` : '(empty)'))
  }
  return header
}

/**
 * A cell as stored: control characters other than line breaks and tabs are kept for the check to
 * report, but NUL (which Postgres refuses) becomes U+FFFD; a leading apostrophe before = + - @ is
 * removed (it is how this product's own CSV files neutralise formulas, so a downloaded error report
 * can be fixed and uploaded again).
 */
function cell(record: string[], index: number | undefined) {
  if (index === undefined) return ''
  const raw = clipText((record[index] ?? '').replaceAll('\u0000', '\uFFFD'), 1000)
  return /^'[=+\-@\t\r]/.test(raw) ? raw.slice(1) : raw
}

function stagedRow(importId: string, record: string[], line: number, header: Header): StagedRow {
  const phone = cell(record, header.phone).trim().replace(/\s+/g, ' ')
  const department = cell(record, header.department).trim()
  const jobTitle = cell(record, header.job_title).trim()
  const extra = record.slice(header.width).some((v) => v !== '')
  return {
    importId,
    line,
    name: cell(record, header.name).trim(),
    email: cell(record, header.email).trim().toLowerCase(),
    companyName: cell(record, header.company).trim(),
    phone: phone || null,
    managerEmail: cell(record, header.manager_email).trim().toLowerCase(),
    // Empty is null: an empty cell leaves what the person has.
    department: department || null,
    jobTitle: jobTitle || null,
    errors: extra ? ['too_many_values'] : [],
  }
}

/** Reads the file into the staging table; throws FileProblem for a file that cannot be used. */
async function stageRows(importId: string, input: Readable): Promise<number> {
  const db = getDb()
  let header: Header | null = null
  let rows = 0
  let batch: StagedRow[] = []
  try {
    for await (const { record, info } of csvRecords(input)) {
      if (!header) {
        header = matchHeader(record)
        continue
      }
      if (++rows > IMPORT_MAX_ROWS) throw new FileProblem(FILE_PROBLEMS.tooManyRows)
      batch.push(stagedRow(importId, record, info.lines, header))
      if (batch.length >= INSERT_BATCH) {
        await db.insert(employeeImportRows).values(batch)
        batch = []
      }
    }
  } catch (error) {
    if (error instanceof CsvError) {
      const line = Number((error as CsvError & { lines?: number }).lines) || rows + 2
      throw new FileProblem(FILE_PROBLEMS.unreadable(line, CSV_REASONS[error.code] ?? 'it is not valid CSV'))
    }
    throw error
  }
  if (!header) throw new FileProblem(FILE_PROBLEMS.empty)
  if (batch.length) await db.insert(employeeImportRows).values(batch)
  return rows
}

// The control characters a one-line name must not hold (TEXT_MESSAGES.singleLine), as a Postgres
// bracket expression built from the characters themselves (NUL never reaches the table).
const CONTROL_CLASS = `[${String.fromCharCode(1)}-${String.fromCharCode(0x1f)}${String.fromCharCode(0x7f)}-${String.fromCharCode(0x9f)}]`

/**
 * How alike an unknown company's name must be to an existing one (pg_trgm's similarity, 0–1) for the
 * preview to ask "did you mean …?". pg_trgm's own default threshold: a typo ("Globex Logistcs",
 * 0.74) or a shortened name ("Acme" for "Acme Widgets", 0.38) is offered; a different company
 * sharing a word ("Globex Logistics" for "Globex Corporation", 0.24) is not.
 */
export const COMPANY_SUGGESTION_MIN = 0.3
/**
 * Suggestions are looked for for the first this-many distinct unknown names of a file (in line
 * order). similarity() compares each name with every company (≈ 10–20 µs a pair here; a trigram
 * index does not prune names that share most of their words), so without a cap a file whose 5,000
 * company cells are all unknown took 19 s against 200 companies and hit the statement timeout. A
 * file with more unknown names than this has a wrong column, not typos; its later rows still say
 * the company is unknown, without a guess.
 */
export const COMPANY_SUGGESTIONS_MAX = 100

/**
 * Every row's problems, in one statement however many rows: the product's own rules for names,
 * addresses and phones (schemas.ts, profile-schemas.ts) written in SQL, the company looked up by
 * name (case-insensitive, as company names are unique) with the closest existing name offered for
 * an unknown one (once per distinct name, not per row), a repeated address (the first row keeps it,
 * later ones are flagged with that row's line), and addresses that belong to an administrator or to
 * another company's employee. Issue 18 adds the department and job title (length, one line) and
 * what can be said of a row's manager on its own: a valid address, not the row's own, and an
 * employee of the row's company — on the first row of the file that has their address (its line is
 * kept) or, when no row has it, already. Then, when some valid row names a manager, checkManagers
 * follows the managers (circles, managers whose own row cannot be imported). Run on upload and
 * again inside the import's transaction (accounts may have changed meanwhile).
 */
async function checkRows(tx: Tx, importId: string) {
  const [result] = await queryRows<{ named: boolean | null }>(
    tx,
    sql`
    WITH staged AS (
      SELECT line, email, company_name, manager_email FROM employee_import_rows WHERE import_id = ${importId}::uuid
    ),
    matched AS (
      SELECT s.line, s.email, s.company_name, s.manager_email, c.id AS company_id
      FROM staged s
      LEFT JOIN companies c ON s.company_name <> '' AND lower(c.name) = lower(s.company_name)
    ),
    firsts AS MATERIALIZED (
      SELECT email, min(line) AS first_line FROM staged WHERE email <> '' GROUP BY email HAVING count(*) > 1
    ),
    suggested AS MATERIALIZED (
      SELECT u.company_name, (
          SELECT c.name FROM companies c
          WHERE similarity(c.name, u.company_name) >= ${COMPANY_SUGGESTION_MIN}
          ORDER BY similarity(c.name, u.company_name) DESC, lower(c.name), c.id
          LIMIT 1
        ) AS suggestion
      FROM (
        SELECT company_name FROM matched WHERE company_id IS NULL AND company_name <> ''
        GROUP BY company_name ORDER BY min(line) LIMIT ${COMPANY_SUGGESTIONS_MAX}
      ) u
    ),
    checked AS (
      UPDATE employee_import_rows t SET
        company_id = m.company_id,
        duplicate_of = CASE WHEN f.first_line < t.line THEN f.first_line END,
        company_suggestion = sg.suggestion,
        manager_line = mh.line,
        errors = ARRAY(SELECT e FROM unnest(t.errors) e WHERE e = ANY(string_to_array(${PARSE_PROBLEMS.join(',')}, ',')))
          || array_remove(ARRAY[
            CASE WHEN strpos(t.name || t.email || t.company_name || coalesce(t.phone, '') || t.manager_email
                || coalesce(t.department, '') || coalesce(t.job_title, ''), ${'\uFFFD'}) > 0
              THEN 'not_utf8' END,
            CASE
              WHEN t.name = '' THEN 'name_missing'
              WHEN char_length(t.name) > ${EMPLOYEE_NAME_MAX} THEN 'name_too_long'
              WHEN t.name ~ ${CONTROL_CLASS} THEN 'name_control' END,
            CASE
              WHEN t.email = '' THEN 'email_missing'
              WHEN char_length(t.email) > ${EMAIL_MAX} THEN 'email_too_long'
              WHEN t.email !~ ${EMAIL_PATTERN_SQL} THEN 'email_invalid'
              WHEN f.first_line < t.line THEN 'email_duplicate'
              WHEN EXISTS (
                SELECT 1 FROM users u
                WHERE u.email = t.email
                  AND (u.role = 'admin'
                    OR (u.role = 'employee' AND m.company_id IS NOT NULL AND u.company_id IS DISTINCT FROM m.company_id))
              ) THEN 'email_unavailable' END,
            CASE
              WHEN t.company_name = '' THEN 'company_missing'
              WHEN m.company_id IS NULL THEN 'company_unknown' END,
            CASE
              WHEN t.phone IS NULL THEN NULL
              WHEN char_length(t.phone) > 30 THEN 'phone_too_long'
              WHEN char_length(t.phone) < 6 OR t.phone !~ '^\\+?[0-9 ()-]+$'
                OR char_length(regexp_replace(t.phone, '[^0-9]', '', 'g')) < 6 THEN 'phone_invalid' END,
            CASE
              WHEN t.manager_email = '' THEN NULL
              WHEN char_length(t.manager_email) > ${EMAIL_MAX} OR t.manager_email !~ ${EMAIL_PATTERN_SQL}
                THEN 'manager_invalid'
              WHEN t.manager_email = t.email THEN 'manager_self'
              -- The row's own company is missing or unknown: that is said already.
              WHEN m.company_id IS NULL THEN NULL
              -- On a row of the file: that row's company (a problem of that row is checkManagers's).
              WHEN mh.line IS NOT NULL THEN
                CASE WHEN mh.company_id IS DISTINCT FROM m.company_id AND mh.company_id IS NOT NULL
                  THEN 'manager_other_company' END
              -- Only already: an employee of this company, or (whoever else has the address) unknown.
              WHEN NOT EXISTS (
                SELECT 1 FROM users mu
                WHERE mu.email = t.manager_email AND mu.role = 'employee' AND mu.company_id = m.company_id
              ) THEN 'manager_unknown' END,
            CASE
              WHEN t.department IS NULL THEN NULL
              WHEN char_length(t.department) > ${DEPARTMENT_MAX} THEN 'department_too_long'
              WHEN t.department ~ ${CONTROL_CLASS} THEN 'department_control' END,
            CASE
              WHEN t.job_title IS NULL THEN NULL
              WHEN char_length(t.job_title) > ${JOB_TITLE_MAX} THEN 'job_title_too_long'
              WHEN t.job_title ~ ${CONTROL_CLASS} THEN 'job_title_control' END
          ]::text[], NULL)
      FROM matched m
      LEFT JOIN firsts f ON f.email = m.email
      LEFT JOIN suggested sg ON sg.company_name = m.company_name
      -- The manager's first row in the file, looked up by the (import_id, email) index row by row:
      -- a join of two CTEs is planned from guesses (the staging table is rarely analysed) and was
      -- planned as a nested loop, 10,000 × 10,000 comparisons.
      LEFT JOIN LATERAL (
        SELECT h.line, (SELECT c.id FROM companies c WHERE lower(c.name) = lower(h.company_name)) AS company_id
        FROM employee_import_rows h
        WHERE m.manager_email <> '' AND h.import_id = ${importId}::uuid AND h.email = m.manager_email
        ORDER BY h.line LIMIT 1
      ) mh ON true
      WHERE t.import_id = ${importId}::uuid AND t.line = m.line
      RETURNING t.manager_email <> '' AND cardinality(t.errors) = 0 AS named
    )
    SELECT bool_or(named) AS named FROM checked`,
  )
  if (!result?.named) return
  // Each round refuses rows; one whose person already exists then keeps their current manager,
  // which can close a circle the round did not see: another round looks again (rarely needed).
  await withHashJoins(tx, async () => {
    for (let again = true; again;) again = (await checkManagers(tx, importId)) > 0
  })
}

/**
 * Runs statements that join CTEs with hash joins only. The planner sizes a CTE from guesses (the
 * staging table is rarely analysed, and its filters multiply into "1 row"), and a nested loop
 * over two CTEs of 10,000 rows is 100 million comparisons: a 10,000-row chain of managers hit the
 * 15 s statement timeout. Lookups that must stay by index are written as correlated subqueries,
 * which this does not change. Two statements around the work (SET LOCAL lasts to the transaction's
 * end otherwise).
 */
async function withHashJoins<T>(tx: Tx, work: () => Promise<T>): Promise<T> {
  await tx.execute(sql`SET LOCAL enable_nestloop = off`)
  const result = await work()
  await tx.execute(sql`SET LOCAL enable_nestloop TO DEFAULT`)
  return result
}

/**
 * Doubling steps. After n steps each node knows where 2^n steps from it lead: 2^20 is more nodes
 * than a company's whole chain of managers can hold, 2^14 more than a file's rows.
 */
const CIRCLE_STEPS = 20
const CHAIN_STEPS = 14

/**
 * Follows the managers, in one statement whatever the row count (ADR 040). The graph is the one the
 * import would leave: each valid row that names a manager points at that manager; everyone else in
 * reach — the file's other people, and the existing employees above them — keeps their current
 * manager. A row is refused with manager_cycle when following managers from it comes back to it,
 * and with manager_has_problems when its manager is on a row of the file that cannot be imported
 * (transitively, a circle included). Both walks are pointer doubling over CTEs (each step one hash
 * join over the nodes), not a walk from every row: a chain of 10,000 managers costs 20 joins, not
 * 50 million steps. Only the existing employees above the file's managers are read (a recursive
 * walk up users.manager_id by index), never a whole company.
 *
 * Returns how many rows it refused whose person already exists: refused, they keep their current
 * manager, which may close a circle this round could not see, so the caller looks again.
 */
async function checkManagers(tx: Tx, importId: string): Promise<number> {
  const circleSteps = Array.from(
    { length: CIRCLE_STEPS },
    (_, i) => sql`, ${sql.raw(`j${i + 1}`)} AS MATERIALIZED (
      SELECT a.node, b.next FROM ${sql.raw(`j${i}`)} a JOIN ${sql.raw(`j${i}`)} b ON b.node = a.next)`,
  )
  const chainSteps = Array.from(
    { length: CHAIN_STEPS },
    (_, i) => sql`, ${sql.raw(`c${i + 1}`)} AS MATERIALIZED (
      SELECT a.node, b.up, a.bad OR b.bad AS bad
      FROM ${sql.raw(`c${i}`)} a JOIN ${sql.raw(`c${i}`)} b ON b.node = a.up)`,
  )
  const [result] = await queryRows<{ existing: number }>(
    tx,
    sql`
    WITH RECURSIVE
    -- Each address's first row (the one that counts).
    f AS MATERIALIZED (
      SELECT DISTINCT ON (email) line, email, manager_email, errors
      FROM employee_import_rows WHERE import_id = ${importId}::uuid AND email <> ''
      ORDER BY email, line
    ),
    -- What the file sets: valid rows naming a manager.
    fe AS MATERIALIZED (
      SELECT email, manager_email AS mgr FROM f WHERE cardinality(errors) = 0 AND manager_email <> ''
    ),
    -- Everyone in reach: those rows, their managers, and the existing managers above them.
    v(node) AS (
      SELECT node FROM (SELECT email AS node FROM fe UNION SELECT mgr FROM fe) s
      UNION
      SELECT up.email FROM (
        SELECT (SELECT (SELECT m.email FROM users m WHERE m.id = u.manager_id) FROM users u WHERE u.email = v.node)
          AS email
        FROM v WHERE NOT EXISTS (SELECT 1 FROM fe WHERE fe.email = v.node)
      ) up
      WHERE up.email IS NOT NULL
    ),
    -- Each one's manager after the import; nobody's is themselves (a top of the chart points at
    -- itself, so the doubling stays there).
    nx AS MATERIALIZED (
      SELECT v.node, coalesce(
          fe.mgr,
          (SELECT (SELECT m.email FROM users m WHERE m.id = u.manager_id) FROM users u WHERE u.email = v.node),
          v.node
        ) AS next
      FROM v LEFT JOIN fe ON fe.email = v.node
    ),
    j0 AS MATERIALIZED (SELECT node, next FROM nx)
    ${sql.join(circleSteps, sql``)},
    -- 2^20 steps from anyone lands on the top of their chart, or in a circle; every node of a
    -- circle is landed on (2^20 steps round a circle is a rotation of it).
    circle AS MATERIALIZED (
      SELECT DISTINCT j.next AS node FROM ${sql.raw(`j${CIRCLE_STEPS}`)} j
      JOIN nx ON nx.node = j.next AND nx.next <> nx.node
    ),
    -- Along the file's rows: up = the manager's row (or the row itself where the file's chain
    -- ends), bad = that row cannot be imported or is in a circle.
    c0 AS MATERIALIZED (
      SELECT f.email AS node, coalesce(t.email, f.email) AS up,
        (t.email IS NOT NULL AND (cardinality(t.errors) > 0 OR ct.node IS NOT NULL)) AS bad
      FROM f
      LEFT JOIN f t ON cardinality(f.errors) = 0 AND f.manager_email <> '' AND t.email = f.manager_email
      LEFT JOIN circle ct ON ct.node = t.email
    )
    ${sql.join(chainSteps, sql``)},
    refused AS (
      UPDATE employee_import_rows r
      SET errors = r.errors || ARRAY[CASE WHEN ct.node IS NOT NULL THEN 'manager_cycle' ELSE 'manager_has_problems' END]
      FROM fe
      JOIN ${sql.raw(`c${CHAIN_STEPS}`)} c ON c.node = fe.email
      LEFT JOIN circle ct ON ct.node = fe.email
      WHERE r.import_id = ${importId}::uuid AND r.email = fe.email AND cardinality(r.errors) = 0
        AND (ct.node IS NOT NULL OR c.bad)
      RETURNING r.email
    )
    SELECT count(*) FILTER (WHERE EXISTS (SELECT 1 FROM users u WHERE u.email = refused.email))::int AS existing
    FROM refused`,
  )
  return Number(result?.existing ?? 0)
}

/** A file name as shown on the page: no folders, no control characters, not too long. */
function cleanFileName(name: string | undefined) {
  // Browsers send a quotation mark in a file name as %22 (the HTML multipart rules).
  const base = path.basename((name ?? '').replaceAll('%22', '"').replaceAll('\\', '/'))
  return clipText(withoutControlCharacters(base).trim(), 200) || 'upload.csv'
}

export type UploadResult = { importId: string; rows: number; problemRows: number }

/**
 * The upload form's POST (multipart): the `intent` field, then the file. Nothing of a refused file
 * is kept. The body is never read whole: busboy hands the file part over as a stream.
 */
export async function uploadEmployeeCsv(actor: Actor, request: Request): Promise<Outcome<UploadResult>> {
  const contentType = request.headers.get('content-type') ?? ''
  if (!request.body || !/^multipart\/form-data/i.test(contentType)) return refuse(FILE_PROBLEMS.notCsv)
  let parser: busboy.Busboy
  try {
    parser = busboy({
      headers: { 'content-type': contentType },
      defParamCharset: 'utf8',
      limits: { files: 1, fileSize: IMPORT_MAX_BYTES, fields: 5, fieldSize: 1024, parts: 8 },
    })
  } catch {
    return refuse(FILE_PROBLEMS.notCsv)
  }

  let intent: string | undefined
  let task: Promise<Outcome<UploadResult>> | undefined
  const finished = new Promise<void>((resolve, reject) => {
    parser.on('field', (name, value) => {
      if (name === 'intent' && intent === undefined) intent = value
    })
    parser.on('file', (name, stream, info) => {
      // A body that stops short (no closing boundary, a connection cut mid-upload) makes busboy
      // destroy the part it is reading with that error: a part without an 'error' listener would
      // end the process. The parser's own 'error' below says what went wrong; receiveFile also
      // stops reading its part on it.
      stream.on('error', () => undefined)
      // Only the form's one file, after its intent; anything else is read past.
      if (task || name !== 'file' || intent !== 'upload') {
        stream.resume()
        return
      }
      task = receiveFile(actor, stream, info.filename)
      // Whatever happens to the file, the rest of the body is read so the parser can finish.
      task.catch(() => undefined).finally(() => stream.resume())
    })
    parser.on('close', resolve)
    parser.on('error', reject)
  })
  const body = Readable.fromWeb(request.body as NodeWebReadableStream<Uint8Array>)
  let bodyFailed = false
  body.on('error', (error) => {
    bodyFailed = true
    parser.destroy(error)
  })
  body.pipe(parser)
  let broken: unknown = null
  await finished.catch((error: unknown) => {
    broken = error ?? new Error('multipart parse failed')
  })
  if (broken) {
    // Nothing of a broken body is kept, whatever got staged. (When the client hung up, nobody reads
    // this answer; the request still ends cleanly.)
    const outcome = await task?.catch(() => undefined)
    if (outcome?.ok) await discardImport(outcome.value.importId)
    // A body that stopped short (a cancelled upload, a dropped connection, no closing boundary) is
    // "did not arrive whole"; a part busboy cannot read at all (a malformed header) is "not CSV".
    const cutOff = bodyFailed || /unexpected end/i.test(broken instanceof Error ? broken.message : '')
    return refuse(cutOff ? FILE_PROBLEMS.incomplete : FILE_PROBLEMS.notCsv)
  }
  const outcome = task ? await task : undefined
  if (!outcome)
    return intent === 'upload' ? refuseField('file', FILE_PROBLEMS.missing) : refuse(FILE_PROBLEMS.notCsv)
  if (!outcome.ok) return outcome
  await recordUpload(actor, outcome.value)
  return outcome
}

async function receiveFile(
  actor: Actor,
  stream: Readable & { truncated?: boolean },
  fileName: string | undefined,
): Promise<Outcome<UploadResult>> {
  const db = getDb()
  // The stream is read through a pass-through of our own: when reading stops early (a refused
  // file), that one is destroyed and busboy's stream is still drained to its end.
  const gate = new PassThrough()
  stream.pipe(gate)
  stream.on('limit', () => gate.destroy(new FileProblem(FILE_PROBLEMS.tooLarge)))
  // pipe() does not pass a source's error on: a part cut off mid-file would leave the reader below
  // waiting for the rest for ever.
  stream.on('error', (error) => gate.destroy(error))
  const [created] = await db
    .insert(employeeImports)
    .values({ createdBy: actor.id, fileName: cleanFileName(fileName) })
    .returning({ id: employeeImports.id })
  const importId = created!.id
  try {
    const rows = await stageRows(importId, gate)
    if (!rows) throw new FileProblem(FILE_PROBLEMS.empty)
    const problemRows = await db.transaction(async (tx) => {
      await checkRows(tx, importId)
      const [counted] = await queryRows<{ n: number }>(
        tx,
        sql`SELECT count(*)::int AS n FROM employee_import_rows
            WHERE import_id = ${importId}::uuid AND cardinality(errors) > 0`,
      )
      await tx.update(employeeImports).set({ rowCount: rows }).where(eq(employeeImports.id, importId))
      // Housekeeping, once a file is in (a refused upload writes nothing): previews nobody imported
      // for a week.
      await tx.execute(
        sql`DELETE FROM employee_imports WHERE imported_at IS NULL AND created_at < now() - ${PREVIEW_RETENTION}`,
      )
      return Number(counted?.n ?? 0)
    })
    return ok({ importId, rows, problemRows })
  } catch (error) {
    stream.unpipe(gate)
    gate.destroy()
    await discardImport(importId)
    const problem =
      error instanceof FileProblem ? error : stream.truncated ? new FileProblem(FILE_PROBLEMS.tooLarge) : null
    if (problem) return refuseField('file', problem.message)
    throw error
  }
}

async function recordUpload(actor: Actor, value: UploadResult) {
  await recordAudit(getDb(), actor, {
    action: 'employee_import.upload',
    entity: 'employee_import',
    entityId: value.importId,
    details: { rows: value.rows, problemRows: value.problemRows },
  })
}

async function discardImport(importId: string) {
  await getDb().delete(employeeImports).where(eq(employeeImports.id, importId))
}

// ---------------------------------------------------------------------------------------------
// The preview and the summary.

/** The import's header, its counts and the schemes it may enrol into, in one query. */
export async function getImportView(importId: unknown): Promise<ImportView | null> {
  if (!isUuid(importId)) return null
  type Row = {
    id: string
    file_name: string
    created_at: string
    row_count: number
    imported_at: string | null
    summary: ImportSummary | null
    problem_rows: number
    has_org_data: boolean
    existing_rows: number
    colleague_rows: number
    problem_counts: Record<string, number> | null
    schemes: ImportSchemeOption[] | null
  }
  const [row] = await queryRows<Row>(
    getDb(),
    sql`SELECT i.id, i.file_name, i.row_count, i.summary,
        to_char(i.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS created_at,
        to_char(i.imported_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS imported_at,
        rc.problem_rows, rc.has_org_data,
        acc.existing_rows, acc.colleague_rows,
        (SELECT json_object_agg(code, n) FROM (
          SELECT e AS code, count(*)::int AS n FROM employee_import_rows r, unnest(r.errors) e
          WHERE r.import_id = i.id GROUP BY e) p) AS problem_counts,
        (SELECT json_agg(json_build_object('id', s.id, 'name', s.name, 'companyName', s.company_name)
            ORDER BY lower(s.company_name), lower(s.name), s.id)
          FROM (
            SELECT schemes.id, schemes.name, c.name AS company_name
            FROM schemes JOIN companies c ON c.id = schemes.company_id
            WHERE ${schemePhaseSql()} = 'draft'
              AND schemes.company_id IN (
                SELECT DISTINCT r.company_id FROM employee_import_rows r
                WHERE r.import_id = i.id AND cardinality(r.errors) = 0)
            LIMIT 200
          ) s) AS schemes
      FROM employee_imports i
      CROSS JOIN LATERAL (
        SELECT count(*) FILTER (WHERE cardinality(r.errors) > 0)::int AS problem_rows,
          coalesce(bool_or(r.manager_email <> '' OR r.department IS NOT NULL OR r.job_title IS NOT NULL), false)
            AS has_org_data
        FROM employee_import_rows r WHERE r.import_id = i.id
      ) rc
      CROSS JOIN LATERAL (
        SELECT count(*)::int AS existing_rows, count(*) FILTER (WHERE u.role = 'colleague')::int AS colleague_rows
        FROM employee_import_rows r JOIN users u ON u.email = r.email
        WHERE r.import_id = i.id AND cardinality(r.errors) = 0
      ) acc
      WHERE i.id = ${importId}::uuid`,
  )
  if (!row) return null
  return {
    id: row.id,
    fileName: row.file_name,
    createdAt: row.created_at,
    rows: Number(row.row_count),
    problemRows: Number(row.problem_rows),
    existingRows: Number(row.existing_rows),
    colleagueRows: Number(row.colleague_rows),
    problemCounts: (row.problem_counts ?? {}) as Partial<Record<RowProblem, number>>,
    hasOrgData: Boolean(row.has_org_data),
    importedAt: row.imported_at,
    summary: row.summary,
    schemes: row.schemes ?? [],
  }
}

/** A staged row as SQL reads it back: the file's columns and what checking it found. */
type CheckedRow = {
  line: number
  name: string
  email: string
  company_name: string
  phone: string | null
  manager_email: string
  department: string | null
  job_title: string | null
  errors: string[]
  duplicate_of: number | null
  company_suggestion: string | null
  manager_line: number | null
}

/** What is wrong with a row read back, in words. */
function problemsOf(row: CheckedRow, say?: ProblemWords) {
  return rowProblemTexts(
    {
      errors: row.errors,
      companyName: row.company_name,
      duplicateOf: row.duplicate_of === null ? null : Number(row.duplicate_of),
      companySuggestion: row.company_suggestion,
      managerLine: row.manager_line === null ? null : Number(row.manager_line),
    },
    say,
  )
}

/** One page of the staged rows (all, or those with problems), by line, in one query. */
export async function getImportRows(
  importId: string,
  query: ImportViewQuery,
  say?: ProblemWords,
): Promise<ImportRowsPage> {
  const backwards = query.before !== undefined
  const rows = await queryRows<
    CheckedRow & {
      outcome: RowOutcome | null
      account_role: 'employee' | 'colleague' | 'admin' | null
      account_name: string | null
      company: string | null
    }
  >(
    getDb(),
    sql`SELECT r.line, r.name, r.email, r.company_name, r.phone, r.manager_email, r.department, r.job_title,
        r.errors, r.outcome, r.duplicate_of, r.company_suggestion, r.manager_line, u.role AS account_role, u.display_name AS account_name, c.name AS company
      FROM employee_import_rows r
      LEFT JOIN users u ON u.email = r.email
      LEFT JOIN companies c ON c.id = r.company_id
      WHERE r.import_id = ${importId}::uuid
        ${query.show === 'problems' ? sql`AND cardinality(r.errors) > 0` : sql``}
        ${backwards ? sql`AND r.line < ${query.before}` : query.after !== undefined ? sql`AND r.line > ${query.after}` : sql``}
      ORDER BY r.line ${backwards ? sql`DESC` : sql`ASC`}
      LIMIT ${IMPORT_PAGE_SIZE + 1}`,
  )
  const more = rows.length > IMPORT_PAGE_SIZE
  const page = rows.slice(0, IMPORT_PAGE_SIZE)
  if (backwards) page.reverse()
  const first = page[0]
  const last = page[page.length - 1]
  return {
    rows: page.map((r) => ({
      line: Number(r.line),
      name: r.name,
      email: r.email,
      companyName: r.company_name,
      phone: r.phone,
      managerEmail: r.manager_email,
      department: r.department,
      jobTitle: r.job_title,
      problems: problemsOf(r, say),
      outcome: r.outcome,
      account: r.account_role ? { role: r.account_role, name: r.account_name ?? '' } : null,
      company: r.company,
    })),
    next: last && (backwards || more) ? Number(last.line) : null,
    prev: first && (backwards ? more : query.after !== undefined) ? Number(first.line) : null,
  }
}

// ---------------------------------------------------------------------------------------------
// The import.

export const IMPORT_MESSAGES = {
  done: 'This file has already been imported. Upload it again to import it once more.',
  schemeGone: 'That scheme no longer exists. Choose another one, or none.',
  schemeLaunched:
    'That scheme has been launched, so people are added to it from its own page (where they are sent their e-mails). Choose a draft scheme, or none.',
  schemeOtherCompany: (company: string) =>
    `None of the rows to import are employees of ${company}, the company of that scheme. Choose another scheme, or none.`,
  nothing: 'No row of this file can be imported. Fix the file and upload it again.',
  changed:
    'An account or a company this file refers to changed while it was being imported, so nothing was imported. Upload the file again to see its rows as they are now.',
} as const

/**
 * Imports the valid rows in one transaction: one INSERT … ON CONFLICT (email) from the staging
 * table creates new employees; existing people keep their name and phone unless `updateNames` is
 * set (then this company's employees take the file's); never another company's employee, never an
 * administrator (the conflict's WHERE leaves those alone, whatever happened since the preview). A
 * colleague's account becomes an employee's — keeping its name likewise, and its rater assignments,
 * which an employee may hold too — and its link-opened sessions end. Then, optionally, the imported
 * people are enrolled into a draft scheme of their company (enrolEmployees, set-based). No e-mail is
 * sent: activation goes out at launch.
 */
export async function runImport(
  actor: Actor,
  importId: string,
  schemeId: string | null,
  { updateNames = false }: { updateNames?: boolean } = {},
): Promise<Outcome<ImportSummary>> {
  try {
    return await importInOneTransaction(actor, importId, schemeId, { updateNames })
  } catch (error) {
    // A manager's row that an account created since the check took over (an administrator's, say),
    // or a company deleted meanwhile: the rows pointing at it cannot be written. Nothing was; the
    // next preview says why.
    if (pgErrorCode(error) === PG_ERROR.foreignKeyViolation) return refuse(IMPORT_MESSAGES.changed)
    throw error
  }
}

/**
 * How rows are written: `updateNames` (the page's checkbox); `keepPhones` leaves every existing
 * phone as it is (the REST API's rows carry none); `nothingIsFine` answers an import with no valid
 * row with its counts instead of refusing it (the API reports each row's problem instead).
 */
type ImportOptions = { updateNames: boolean; keepPhones?: boolean; nothingIsFine?: boolean }

async function importInOneTransaction(
  actor: Actor,
  importId: string,
  schemeId: string | null,
  { updateNames, keepPhones = false, nothingIsFine = false }: ImportOptions,
): Promise<Outcome<ImportSummary>> {
  return getDb().transaction(async (tx): Promise<Outcome<ImportSummary>> => {
    const preview = await lockPreview(tx, importId)
    if (!preview.ok) return preview
    // Changes to reporting lines take turns (org.server.ts): two files checked apart, or a file and
    // an admin's edit, could otherwise close a circle of managers together.
    await lockReportingLines(tx)

    await checkRows(tx, importId)
    const [valid] = await queryRows<{ n: number }>(
      tx,
      sql`SELECT count(*)::int AS n FROM employee_import_rows
          WHERE import_id = ${importId}::uuid AND cardinality(errors) = 0`,
    )
    if (!Number(valid?.n) && !nothingIsFine) return refuse(IMPORT_MESSAGES.nothing)

    let scheme: { name: string; companyName: string } | null = null
    if (schemeId) {
      const [row] = await queryRows<{
        name: string
        company_name: string
        phase: string
        importable: number
      }>(
        tx,
        sql`SELECT schemes.name, c.name AS company_name, ${schemePhaseSql()} AS phase,
            (SELECT count(*) FROM employee_import_rows r
              WHERE r.import_id = ${importId}::uuid AND cardinality(r.errors) = 0
                AND r.company_id = schemes.company_id)::int AS importable
          FROM schemes JOIN companies c ON c.id = schemes.company_id
          WHERE schemes.id = ${schemeId}::uuid
          FOR UPDATE OF schemes`,
      )
      if (!row) return refuseField('schemeId', IMPORT_MESSAGES.schemeGone)
      if (row.phase !== 'draft') return refuseField('schemeId', IMPORT_MESSAGES.schemeLaunched)
      if (!Number(row.importable))
        return refuseField('schemeId', IMPORT_MESSAGES.schemeOtherCompany(row.company_name))
      scheme = { name: row.name, companyName: row.company_name }
    }

    // Created or updated, in one statement; a colleague's account that becomes an employee's loses
    // its sessions (every statement of a WITH sees the rows as they were before it): a session a
    // colleague opened from an e-mailed link must not become an employee's session unannounced.
    // The employee signs in with their own password once activated.
    // Managers (issue 18) are written by the same INSERT: each row's id is known before it is
    // written (the account's, or a new one drawn here), so a manager on another row — new or not,
    // earlier or later — is that row's id; otherwise the existing employee's. The foreign key is
    // checked at the statement's end, when every row is in. (A second UPDATE of the 10,000 rows
    // just written cost 1.8 s: every index of users, the trigram ones included, took new entries.)
    await withHashJoins(tx, () =>
      tx.execute(sql`
      WITH src AS MATERIALIZED (
        SELECT r.email, r.name, r.phone, r.company_id, r.department, r.job_title, r.manager_email,
          coalesce((SELECT u.id FROM users u WHERE u.email = r.email), gen_random_uuid()) AS id
        FROM employee_import_rows r
        WHERE r.import_id = ${importId}::uuid AND cardinality(r.errors) = 0
      ),
      placed AS (
        SELECT s.*, CASE WHEN s.manager_email <> '' THEN coalesce(m.id, (
            SELECT u.id FROM users u
            WHERE u.email = s.manager_email AND u.role = 'employee' AND u.company_id = s.company_id
          )) END AS manager_id
        FROM src s LEFT JOIN src m ON s.manager_email <> '' AND m.email = s.manager_email
      ),
      colleagues AS (
        SELECT u.id FROM users u JOIN src ON src.email = u.email WHERE u.role = 'colleague'
      ),
      ended AS (
        DELETE FROM sessions WHERE user_id IN (SELECT id FROM colleagues) RETURNING 1
      ),
      written AS (
        INSERT INTO users (id, email, display_name, phone, role, company_id, department, job_title, manager_id)
        SELECT id, email, name, phone, 'employee', company_id, department, job_title, manager_id FROM placed
        ON CONFLICT (email) DO UPDATE SET
          display_name = CASE WHEN ${updateNames} THEN EXCLUDED.display_name ELSE users.display_name END,
          phone = CASE WHEN ${updateNames} AND NOT ${keepPhones} THEN EXCLUDED.phone ELSE users.phone END,
          -- Issue 18: taken whether or not names are updated (they are not renames); an empty cell
          -- (null) leaves what the person has.
          department = coalesce(EXCLUDED.department, users.department),
          job_title = coalesce(EXCLUDED.job_title, users.job_title),
          manager_id = coalesce(EXCLUDED.manager_id, users.manager_id),
          role = 'employee',
          company_id = EXCLUDED.company_id,
          updated_at = now()
        WHERE users.role = 'colleague'
          OR (users.role = 'employee' AND users.company_id = EXCLUDED.company_id
            AND ((${updateNames}
                AND (users.display_name IS DISTINCT FROM EXCLUDED.display_name
                  OR (NOT ${keepPhones} AND users.phone IS DISTINCT FROM EXCLUDED.phone)))
              OR users.department IS DISTINCT FROM coalesce(EXCLUDED.department, users.department)
              OR users.job_title IS DISTINCT FROM coalesce(EXCLUDED.job_title, users.job_title)
              OR users.manager_id IS DISTINCT FROM coalesce(EXCLUDED.manager_id, users.manager_id)))
        RETURNING users.id, users.email, users.company_id, users.disabled_at, (xmax = 0) AS inserted
      ),
      -- Each account created or changed is an event for the webhooks that want it (ADR 057), in
      -- this same statement: ids and states, never the file's names or addresses.
      hooked AS (${queueDeliveriesSql(sql`SELECT
          CASE WHEN w.inserted THEN 'employee.created' ELSE 'employee.updated' END AS type,
          w.company_id, jsonb_build_object('employee_id', w.id, 'enabled', w.disabled_at IS NULL) AS data,
          now() AS at
        FROM written w`)})
      UPDATE employee_import_rows r
      SET outcome = CASE WHEN w.inserted THEN 'created' ELSE 'updated' END
      FROM written w
      WHERE r.import_id = ${importId}::uuid AND r.email = w.email AND cardinality(r.errors) = 0`),
    )

    // The other valid rows: this company's employee already had those details (unchanged), or the
    // address was taken by another account since the check (skipped, with the reason).
    await tx.execute(sql`
      UPDATE employee_import_rows r SET
        outcome = CASE WHEN cardinality(r.errors) = 0 AND EXISTS (
            SELECT 1 FROM users u WHERE u.email = r.email AND u.role = 'employee' AND u.company_id = r.company_id
          ) THEN 'unchanged' ELSE 'skipped' END,
        errors = CASE WHEN cardinality(r.errors) = 0 AND NOT EXISTS (
            SELECT 1 FROM users u WHERE u.email = r.email AND u.role = 'employee' AND u.company_id = r.company_id
          ) THEN ARRAY['email_unavailable']::text[] ELSE r.errors END
      WHERE r.import_id = ${importId}::uuid AND r.outcome IS NULL`)

    const imported = sql`SELECT u.id FROM users u JOIN employee_import_rows r ON r.email = u.email
      WHERE r.import_id = ${importId}::uuid AND r.outcome IN ('created', 'updated', 'unchanged')`
    const enrolled = schemeId ? (await enrolEmployees(tx, schemeId, imported)).enrolled.length : 0

    const [counts] = await queryRows<Record<RowOutcome, number>>(
      tx,
      sql`SELECT
          count(*) FILTER (WHERE outcome = 'created')::int AS created,
          count(*) FILTER (WHERE outcome = 'updated')::int AS updated,
          count(*) FILTER (WHERE outcome = 'unchanged')::int AS unchanged,
          count(*) FILTER (WHERE outcome = 'skipped')::int AS skipped
        FROM employee_import_rows WHERE import_id = ${importId}::uuid`,
    )
    const summary: ImportSummary = {
      created: Number(counts?.created ?? 0),
      updated: Number(counts?.updated ?? 0),
      unchanged: Number(counts?.unchanged ?? 0),
      skipped: Number(counts?.skipped ?? 0),
      enrolled,
      schemeName: scheme?.name ?? null,
    }
    await tx
      .update(employeeImports)
      .set({ importedAt: sql`now()`, summary, schemeId })
      .where(eq(employeeImports.id, importId))
    await recordAudit(tx, actor, {
      action: 'employee_import.import',
      entity: 'employee_import',
      entityId: importId,
      details: { fileName: preview.value.fileName, schemeId, updateNames, ...summary },
    })
    return ok(summary)
  })
}

/** A row of the REST API's bulk upsert (issue 21 §1): a CSV row's fields, the company given once. */
export type BulkEmployeeRow = {
  email: string
  name: string
  department: string | null
  jobTitle: string | null
  managerEmail: string | null
}

/** What became of a bulk upsert: the counts, and each refused row (its index) with its problems. */
export type BulkOutcome = {
  summary: ImportSummary
  problems: Array<{
    row: number
    codes: RowProblem[]
    duplicateOf: number | null
    managerLine: number | null
  }>
}

/**
 * The REST API's bulk upsert (issue 21 §1, ADR 054 "Writes") through the CSV import's own path, so
 * each row is held to the same rules in the same words: the rows are staged (the row's index as its
 * line), checked by checkRows and written by the same INSERT … ON CONFLICT in one transaction —
 * names taken from the rows (the HR system is the source), phones left alone, an empty department,
 * job title or manager leaving what the person has. A row with a problem is left out, the others are
 * written (as the import does); no e-mail is sent. Audited as an import (`employee_import.import`);
 * the staged rows are removed once the answer is known (an uploaded file's stay as its record).
 */
export async function importEmployeeRows(
  actor: Actor,
  company: { id: string; name: string },
  rows: BulkEmployeeRow[],
): Promise<Outcome<BulkOutcome>> {
  const db = getDb()
  const [created] = await db
    .insert(employeeImports)
    .values({ createdBy: actor.id, fileName: 'REST API bulk upsert', rowCount: rows.length })
    .returning({ id: employeeImports.id })
  const importId = created!.id
  for (let start = 0; start < rows.length; start += INSERT_BATCH)
    await db.insert(employeeImportRows).values(
      rows.slice(start, start + INSERT_BATCH).map((row, i): StagedRow => ({
        importId,
        line: start + i,
        // NUL, which Postgres refuses, is "not UTF-8 text" for the check, as in a file.
        name: row.name.replaceAll('\u0000', '\uFFFD').trim(),
        email: row.email.replaceAll('\u0000', '\uFFFD').trim().toLowerCase(),
        companyName: company.name,
        phone: null,
        managerEmail: (row.managerEmail ?? '').replaceAll('\u0000', '\uFFFD').trim().toLowerCase(),
        department: row.department?.replaceAll('\u0000', '\uFFFD').trim() || null,
        jobTitle: row.jobTitle?.replaceAll('\u0000', '\uFFFD').trim() || null,
        errors: [],
      })),
    )
  let outcome: Outcome<ImportSummary>
  try {
    outcome = await importInOneTransaction(actor, importId, null, {
      updateNames: true,
      keepPhones: true,
      nothingIsFine: true,
    })
  } catch (error) {
    await discardImport(importId)
    if (pgErrorCode(error) === PG_ERROR.foreignKeyViolation) return refuse(IMPORT_MESSAGES.changed)
    throw error
  }
  if (!outcome.ok) {
    await discardImport(importId)
    return outcome
  }
  const refused = await db
    .select({
      line: employeeImportRows.line,
      errors: employeeImportRows.errors,
      duplicateOf: employeeImportRows.duplicateOf,
      managerLine: employeeImportRows.managerLine,
    })
    .from(employeeImportRows)
    .where(and(eq(employeeImportRows.importId, importId), sql`cardinality(${employeeImportRows.errors}) > 0`))
    .orderBy(employeeImportRows.line)
  // The staged rows served the check and the write; the answer (and the idempotency record) report
  // the problems, the audit entry the summary. An HR system that syncs nightly would otherwise
  // keep a copy of its people here for ever (ADR 054 "Writes").
  await discardImport(importId)
  return ok({
    summary: outcome.value,
    problems: refused.map((r) => ({
      row: r.line,
      codes: r.errors as RowProblem[],
      duplicateOf: r.duplicateOf,
      managerLine: r.managerLine,
    })),
  })
}

/** An import that is still a preview, locked until the transaction ends: refused when unknown or imported. */
async function lockPreview(tx: Tx, importId: string): Promise<Outcome<{ fileName: string }>> {
  const [current] = await tx
    .select({ importedAt: employeeImports.importedAt, fileName: employeeImports.fileName })
    .from(employeeImports)
    .where(eq(employeeImports.id, importId))
    .for('update')
  if (!current) return refuseNotFound()
  if (current.importedAt) return refuse(IMPORT_MESSAGES.done)
  return ok({ fileName: current.fileName })
}

/** Throws away a preview (an imported file stays: its rows are the record of what it did). */
export async function discardPreview(actor: Actor, importId: string): Promise<Outcome<{ fileName: string }>> {
  return getDb().transaction(async (tx): Promise<Outcome<{ fileName: string }>> => {
    const preview = await lockPreview(tx, importId)
    if (!preview.ok) return preview
    await tx.delete(employeeImports).where(and(eq(employeeImports.id, importId)))
    await recordAudit(tx, actor, {
      action: 'employee_import.discard',
      entity: 'employee_import',
      entityId: importId,
      details: { fileName: preview.value.fileName },
    })
    return ok({ fileName: preview.value.fileName })
  })
}

// ---------------------------------------------------------------------------------------------
// Downloads.

/** A cell a spreadsheet could run as a formula gets a leading apostrophe (OWASP's advice). */
export function neutraliseFormula(value: string) {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value
}

export const TEMPLATE_CSV = `\uFEFF${IMPORT_COLUMNS.join(',')}\r\n`

const REPORT_BATCH = 1000

/**
 * The rows with problems as a CSV, streamed in batches: the file's own columns first (so it can be
 * fixed and uploaded again; the extra columns are ignored on upload), then the line and the
 * problems. UTF-8 with a BOM, so Excel reads accents right. null for an unknown import.
 */
export async function importErrorReport(
  importId: unknown,
): Promise<{ fileName: string; body: ReadableStream } | null> {
  if (!isUuid(importId)) return null
  const [current] = await getDb()
    .select({ fileName: employeeImports.fileName })
    .from(employeeImports)
    .where(eq(employeeImports.id, importId))
  if (!current) return null
  async function* records() {
    yield [...IMPORT_COLUMNS, 'line', 'problems']
    let after = 0
    for (;;) {
      const rows = await queryRows<CheckedRow>(
        getDb(),
        sql`SELECT line, name, email, company_name, phone, manager_email, department, job_title, errors,
              duplicate_of, company_suggestion, manager_line
            FROM employee_import_rows
            WHERE import_id = ${importId}::uuid AND cardinality(errors) > 0 AND line > ${after}
            ORDER BY line LIMIT ${REPORT_BATCH}`,
      )
      for (const r of rows)
        yield [
          r.name,
          r.email,
          r.company_name,
          r.phone ?? '',
          r.manager_email,
          r.department ?? '',
          r.job_title ?? '',
          String(r.line),
          problemsOf(r).join(' '),
        ].map(neutraliseFormula)
      if (rows.length < REPORT_BATCH) return
      after = Number(rows[rows.length - 1]!.line)
    }
  }
  // pipeline(), not pipe(): a query failing half-way must error the stream that is read (the
  // download is cut off), not an unwatched one upstream, which would end the process.
  const csv = pipeline(
    Readable.from(records()),
    stringify({ bom: true, record_delimiter: 'windows' }),
    () => undefined,
  )
  const base = current.fileName.replace(/\.csv$/i, '')
  return { fileName: `${base}-problems.csv`, body: Readable.toWeb(csv) as unknown as ReadableStream }
}
