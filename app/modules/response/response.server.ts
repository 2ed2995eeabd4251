import { sql, type SQL } from 'drizzle-orm'
import type { AssignmentStatus, Language, Relationship, SchemeStatus } from '#db/enums'
import type {
  QnTextsTranslation,
  QuestionTranslation,
  SectionTranslation,
  Translations,
} from '#db/schema/questionnaires'
import { displayLanguage, labelsIn, textIn } from '#app/modules/questionnaire/translations'
import { getDb, queryRows, type Tx } from '#db/client'
import { answers, assignments, responses } from '#db/schema/index'
import { formatDate, instantToZonedTime } from '#app/lib/dates'
import { escapeLike, keysetList, timestampKey, type KeysetRead, type Page } from '#app/lib/keyset-list.server'
import { refuseNotFound, ok, refuse, type Actor, type Outcome } from '#app/lib/outcome'
import { recordAudit } from '#app/modules/audit/audit.server'
import { respondentLink } from '#app/modules/action-code/action-code.server'
import { enqueueEmail } from '#app/modules/email/outbox.server'
import { getEnv } from '#app/config/env.server'
import { publishEvent } from '#app/modules/realtime/events.server'
import { schemePhase, schemePhaseSql, type SchemePhase } from '#app/modules/scheme/state'
import {
  ANSWERS_ADMIN_MESSAGES,
  type ResponseFilter,
  type ResponseListQuery,
  type ResponseState,
} from './schemas'
import { isUuid } from '#app/lib/ids'
import { approvedReason, REOPEN_REQUEST_MESSAGES } from './reopen-request-schemas'

/**
 * Answer management (DESIGN.md §7, ADR 023, ADR 024): the responses, filtered and keyset-paginated;
 * one response read-only; "reveal who answered" (a reason, audited); reopening a submitted one. The
 * CSV export is export.server.ts. Each page reads a constant number of statements whatever the data.
 *
 * Who answered a colleague's questionnaire never leaves this module unless an admin reveals it: no
 * name, e-mail, user or assignment id in what a page receives, and dates only to the day (an exact
 * instant could be matched with another page that names the person).
 */

export const RESPONSE_PAGE_SIZE = 25

/** The state of a response, from its two dates (ADR 023): the same rule in SQL and on the page. */
export function responseStateSql(): SQL<ResponseState> {
  return sql<ResponseState>`CASE
    WHEN ${responses.submittedAt} IS NOT NULL THEN 'submitted'
    WHEN ${responses.reopenedAt} IS NOT NULL THEN 'reopened'
    ELSE 'in_progress' END`
}

function stateCondition(state: ResponseFilter['state']): SQL | undefined {
  if (state === 'submitted') return sql`${responses.submittedAt} IS NOT NULL`
  if (state === 'reopened')
    return sql`${responses.submittedAt} IS NULL AND ${responses.reopenedAt} IS NOT NULL`
  if (state === 'in_progress')
    return sql`${responses.submittedAt} IS NULL AND ${responses.reopenedAt} IS NULL`
  return undefined
}

/**
 * The WHERE terms of the filters, on `responses` joined to `assignments a` and `schemes s` and the
 * subject `subj`. Withdrawn invitations are not answers anyone counts, so they are left out.
 */
export function filterConditions(filter: ResponseFilter): SQL {
  const pattern = filter.q ? `%${escapeLike(filter.q)}%` : null
  const terms: SQL[] = [sql`a.status <> 'revoked'`]
  if (filter.scheme) terms.push(sql`a.scheme_id = ${filter.scheme}::uuid`)
  if (filter.company) terms.push(sql`s.company_id = ${filter.company}::uuid`)
  if (filter.questionnaire) terms.push(sql`a.questionnaire_id = ${filter.questionnaire}::uuid`)
  if (filter.relationship) terms.push(sql`a.relationship = ${filter.relationship}`)
  const state = stateCondition(filter.state)
  if (state) terms.push(state)
  if (pattern) terms.push(sql`(subj.display_name ILIKE ${pattern} OR subj.email ILIKE ${pattern})`)
  return sql.join(terms, sql` AND `)
}

/**
 * Whether the filter picks few responses (a scheme, a company, a subject): then the matching rows
 * are gathered first and sorted, instead of walking the whole start-date index backwards hoping to
 * meet them — a scheme whose answers are old would make that walk read every response (EXPLAIN on
 * the scale seed: 9 s → milliseconds).
 */
export const isSelective = (filter: ResponseFilter) => Boolean(filter.scheme || filter.company || filter.q)

/**
 * A day as answer management shows it: the calendar date in the scheme's time zone, never the
 * instant. "Submitted at 14:03:22" could be matched with another page or e-mail that names the
 * person who did something at that second; a day is shared by everyone who answered on it (ADR 024).
 */
export type Day = { date: string; label: string }
export function dayOf(value: string | Date | null, timeZone: string): Day | null {
  if (!value) return null
  return { date: instantToZonedTime(value, timeZone).slice(0, 10), label: formatDate(value, timeZone) }
}

/** The joins every answer management query reads a response through. */
export const RESPONSE_JOINS = sql`FROM ${responses}
  JOIN assignments a ON a.id = ${responses.assignmentId}
  JOIN schemes s ON s.id = a.scheme_id
  JOIN users subj ON subj.id = a.subject_id`

/** One row of the list: who the feedback is about and the respondent's relationship, never who answered. */
export type ResponseListRow = {
  id: string
  relationship: Relationship
  state: ResponseState
  started: Day
  submitted: Day | null
  schemeName: string
  companyName: string
  questionnaireTitle: string
  questionnaireVersion: number
  subjectName: string
}

type ListRecord = Omit<ResponseListRow, 'started' | 'submitted'> & {
  /** keysetPage's names: the sort value (unused) and the start instant as the cursor's key. */
  name: string
  createdAt: string
  startedAt: string
  submittedAt: string | null
  timeZone: string
}

/** One page of responses (one statement), newest or oldest first by when answering began. */
export async function listResponses(query: ResponseListQuery): Promise<Page<ResponseListRow>> {
  const columns = { name: responses.startedAt, created: responses.startedAt, id: responses.id }
  const sort = query.sort.replace('started', 'created')
  const page = await keysetList({ ...query, sort }, columns, RESPONSE_PAGE_SIZE, (read) =>
    readResponses(query, read),
  )
  // The page's rows carry days only: the exact instants stay here (the cursors keep the two at the
  // page's edges, which a keyset needs to be exact).
  return {
    ...page,
    rows: page.rows.map(
      ({ name: _name, createdAt: _key, startedAt, submittedAt, timeZone, ...row }): ResponseListRow => ({
        ...row,
        started: dayOf(startedAt, timeZone)!,
        submitted: dayOf(submittedAt, timeZone),
      }),
    ),
  }
}

function readResponses(query: ResponseListQuery, { keyset, limit, direction }: KeysetRead) {
  const where = sql`${filterConditions(query)} ${keyset ? sql`AND ${keyset}` : sql``}`
  const order = sql`ORDER BY ${responses.startedAt} ${direction}, ${responses.id} ${direction}`
  // Selective filters: gather the matches (a CTE fence), sort them, keep a page.
  const picked = isSelective(query)
    ? sql`${responses.id} IN (
        SELECT id FROM (SELECT ${responses.id} AS id, ${responses.startedAt} AS started_at ${RESPONSE_JOINS} WHERE ${where}
          OFFSET 0) pick
        ORDER BY started_at ${direction}, id ${direction} LIMIT ${limit})`
    : where
  return queryRows<ListRecord>(
    getDb(),
    sql`SELECT ${responses.id} AS id, '' AS name, ${timestampKey(responses.startedAt)} AS "createdAt",
        a.relationship, ${responseStateSql()} AS state,
        ${responses.startedAt} AS "startedAt", ${responses.submittedAt} AS "submittedAt",
        s.time_zone AS "timeZone", s.name AS "schemeName", c.name AS "companyName",
        qn.title AS "questionnaireTitle", qn.version AS "questionnaireVersion",
        coalesce(nullif(subj.display_name, ''), subj.email) AS "subjectName"
      ${RESPONSE_JOINS}
      JOIN companies c ON c.id = s.company_id
      JOIN questionnaires qn ON qn.id = a.questionnaire_id
      WHERE ${picked}
      ${order}
      LIMIT ${limit}`,
  )
}

export type FilterOption = { id: string; name: string }
export type SchemeFilterOption = FilterOption & { companyName: string; phase: SchemePhase }

/** Schemes the filter offers at once; with more, it lists the chosen company's (like the employee list). */
const SCHEME_OPTION_LIMIT = 100
const OPTION_LIMIT = 1000

/**
 * The filters' choices, in one statement: companies, schemes (of the chosen company), questionnaires;
 * and how many reopen requests are waiting (the page links to them).
 */
export async function listFilterOptions(
  filter: Pick<ResponseFilter, 'company' | 'scheme' | 'questionnaire'>,
) {
  const [row] = await queryRows<{
    companies: FilterOption[] | null
    schemes: SchemeFilterOption[] | null
    questionnaires: FilterOption[] | null
    reopenRequests: number | string
  }>(
    getDb(),
    sql`SELECT
      (SELECT json_agg(json_build_object('id', c.id, 'name', c.name) ORDER BY lower(c.name), c.id)
         FROM (SELECT id, name FROM companies ORDER BY lower(name), id LIMIT ${OPTION_LIMIT}) c) AS companies,
      (SELECT json_agg(json_build_object('id', x.id, 'name', x.name, 'companyName', x.company_name, 'phase', x.phase)
           ORDER BY lower(x.company_name), lower(x.name), x.id)
         FROM (
           SELECT schemes.id, schemes.name, c.name AS company_name, ${schemePhaseSql()} AS phase
           FROM schemes JOIN companies c ON c.id = schemes.company_id
           WHERE ${filter.company ? sql`schemes.company_id = ${filter.company}::uuid` : sql`true`}
             ${filter.scheme ? sql`OR schemes.id = ${filter.scheme}::uuid` : sql``}
           ORDER BY (schemes.id = ${filter.scheme || null}::uuid) IS TRUE DESC, schemes.created_at DESC, schemes.id
           LIMIT ${SCHEME_OPTION_LIMIT + 1}
         ) x) AS schemes,
      (SELECT json_agg(json_build_object('id', q.id, 'name', q.title || ' (v' || q.version || ')')
           ORDER BY lower(q.title), q.version, q.id)
         FROM (
           SELECT id, title, version FROM questionnaires WHERE status <> 'draft'
             ${filter.questionnaire ? sql`OR id = ${filter.questionnaire}::uuid` : sql``}
           ORDER BY lower(title), version, id LIMIT ${OPTION_LIMIT}
         ) q) AS questionnaires,
      -- Waiting reopen requests (ADR 039), for the link to their list: the partial index, few rows.
      (SELECT count(*)::int FROM responses WHERE reopen_requested_at IS NOT NULL) AS "reopenRequests"`,
  )
  const schemes = row?.schemes ?? []
  const schemesNeedCompany = !filter.company && schemes.length > SCHEME_OPTION_LIMIT
  return {
    companies: row?.companies ?? [],
    schemes: schemesNeedCompany ? schemes.filter((s) => s.id === filter.scheme) : schemes,
    schemesNeedCompany,
    questionnaires: row?.questionnaires ?? [],
    reopenRequests: Number(row?.reopenRequests ?? 0),
  }
}

// ---------------------------------------------------------------------------------------------
// One response, read-only.

/**
 * Everything the server knows about a response, the respondent included: used to reveal, reopen
 * and e-mail, and never handed to a page as it is (see {@link ResponseHeader}).
 */
type ResponseRecord = {
  id: string
  assignmentId: string
  relationship: Relationship
  assignmentStatus: AssignmentStatus
  state: ResponseState
  startedAt: string
  submittedAt: string | null
  reopenedAt: string | null
  schemeId: string
  schemeName: string
  schemeStatus: SchemeStatus
  opensAt: string
  closesAt: string
  timeZone: string
  phase: SchemePhase
  companyName: string
  questionnaireId: string
  questionnaireTitle: string
  subjectId: string
  subjectName: string
  respondentId: string
  respondentName: string
  respondentEmail: string
  /** The respondent's waiting request to reopen (ADR 039), and their note. */
  reopenRequestedAt: string | null
  reopenRequestNote: string | null
  /** The questionnaire's language and translations, and the languages the scheme offers (ADR 051). */
  sourceLanguage: Language
  questionnaireTranslations: Translations<QnTextsTranslation> | null
  schemeLanguages: Language[] | null
}

/**
 * Who answered, as a page may know it: a self-assessment is the subject's own, so it names them; a
 * colleague's response says only that it is one (the relationship is shown beside it).
 */
export type RespondentShown = { kind: 'self'; name: string } | { kind: 'colleague' }

/** A response's header as the page receives it: no respondent, dates to the day (ADR 024). */
export type ResponseHeader = {
  id: string
  relationship: Relationship
  state: ResponseState
  started: Day
  submitted: Day | null
  reopened: Day | null
  schemeName: string
  phase: SchemePhase
  companyName: string
  questionnaireTitle: string
  subjectName: string
  respondent: RespondentShown
  /** The respondent's waiting request to reopen (ADR 039): the day and their own note. */
  reopenRequest: { requested: Day; note: string | null } | null
}

export type ViewAnswer = {
  questionId: string
  section: string
  kind: string
  category: string
  text: string
  required: boolean
  options: { labels?: string[]; min?: number; max?: number; allowNa?: boolean }
  numericValue: number | null
  textValue: string | null
  choices: string[] | null
  notApplicable: boolean | null
}

export type ResponseView = {
  header: ResponseHeader
  sections: Array<{ title: string; questions: ViewAnswer[] }>
}

async function readRecord(tx: Tx, responseId: string, lock = false): Promise<ResponseRecord | null> {
  const [row] = await queryRows<ResponseRecord>(
    tx,
    sql`SELECT ${responses.id} AS id, a.id AS "assignmentId", a.relationship,
        a.status AS "assignmentStatus", ${responseStateSql()} AS state,
        ${responses.startedAt} AS "startedAt",
        ${responses.submittedAt} AS "submittedAt", ${responses.reopenedAt} AS "reopenedAt",
        s.id AS "schemeId", s.name AS "schemeName", s.status AS "schemeStatus",
        s.opens_at AS "opensAt", s.closes_at AS "closesAt", s.time_zone AS "timeZone",
        c.name AS "companyName", a.questionnaire_id AS "questionnaireId", qn.title AS "questionnaireTitle",
        subj.id AS "subjectId", coalesce(nullif(subj.display_name, ''), subj.email) AS "subjectName",
        resp.id AS "respondentId",
        coalesce(nullif(a.respondent_name, ''), nullif(resp.display_name, ''), resp.email) AS "respondentName",
        resp.email AS "respondentEmail",
        ${responses.reopenRequestedAt} AS "reopenRequestedAt", ${responses.reopenRequestNote} AS "reopenRequestNote",
        qn.source_language AS "sourceLanguage", qn.translations AS "questionnaireTranslations",
        s.languages AS "schemeLanguages"
      ${RESPONSE_JOINS}
      JOIN users resp ON resp.id = a.respondent_id
      JOIN companies c ON c.id = s.company_id
      JOIN questionnaires qn ON qn.id = a.questionnaire_id
      WHERE ${responses.id} = ${responseId}::uuid
      ${lock ? sql`FOR UPDATE OF a` : sql``}`,
  )
  if (!row) return null
  const iso = (v: string | Date | null) => (v ? new Date(v).toISOString() : null)
  const record = {
    ...row,
    startedAt: iso(row.startedAt)!,
    submittedAt: iso(row.submittedAt),
    reopenedAt: iso(row.reopenedAt),
    reopenRequestedAt: iso(row.reopenRequestedAt),
    opensAt: iso(row.opensAt)!,
    closesAt: iso(row.closesAt)!,
  }
  return {
    ...record,
    phase: schemePhase({
      status: record.schemeStatus,
      opensAt: new Date(record.opensAt),
      closesAt: new Date(record.closesAt),
    }),
  }
}

/** The header a page may receive: picked field by field, so nothing about the respondent slips in. */
function headerOf(r: ResponseRecord, language: Language | null): ResponseHeader {
  return {
    id: r.id,
    relationship: r.relationship,
    state: r.state,
    started: dayOf(r.startedAt, r.timeZone)!,
    submitted: dayOf(r.submittedAt, r.timeZone),
    reopened: dayOf(r.reopenedAt, r.timeZone),
    schemeName: r.schemeName,
    phase: r.phase,
    companyName: r.companyName,
    questionnaireTitle: textIn(
      { translations: r.questionnaireTranslations },
      language,
      'title',
      r.questionnaireTitle,
    ),
    subjectName: r.subjectName,
    respondent: r.relationship === 'self' ? { kind: 'self', name: r.subjectName } : { kind: 'colleague' },
    reopenRequest: r.reopenRequestedAt
      ? { requested: dayOf(r.reopenRequestedAt, r.timeZone)!, note: r.reopenRequestNote }
      : null,
  }
}

type ViewRow = ViewAnswer & {
  translations: Translations<QuestionTranslation> | null
  sectionTranslations: Translations<SectionTranslation> | null
}

/**
 * A response with every question of its questionnaire and the answers given (two statements). With
 * a reader's language, the wording, sections and labels are in it where the scheme offers it and
 * they are translated, each item the source text where not (ADR 051); the choices stay as stored
 * (the source labels), as the export has them.
 */
export async function getResponseView(responseId: unknown, reader?: Language): Promise<ResponseView | null> {
  if (!isUuid(responseId)) return null
  const record = await readRecord(getDb(), responseId)
  if (!record) return null
  const language = reader ? displayLanguage(reader, record.schemeLanguages, record.sourceLanguage) : null
  const self = record.relationship === 'self'
  const rows = await queryRows<ViewRow>(
    getDb(),
    sql`SELECT q.id AS "questionId", q.section, q.kind, q.category,
        CASE WHEN ${record.relationship} = 'self' THEN q.text ELSE q.rater_text END AS text,
        q.translations, qs.translations AS "sectionTranslations",
        q.required, q.options,
        ans.numeric_value AS "numericValue", ans.text_value AS "textValue", ans.choices,
        ans.not_applicable AS "notApplicable"
      FROM questions q
      JOIN questionnaire_sections qs ON qs.id = q.section_id
      LEFT JOIN ${answers} ans ON ans.question_id = q.id AND ans.response_id = ${responseId}::uuid
      WHERE q.questionnaire_id = ${record.questionnaireId}::uuid
      ORDER BY q.position`,
  )
  const sections: Array<ResponseView['sections'][number] & { source: string }> = []
  for (const { translations, sectionTranslations, ...row } of rows) {
    const wording = textIn({ translations }, language, self ? 'text' : 'raterText', row.text)
    const text = wording.replace(/\{\{\s*name\s*\}\}/g, record.subjectName)
    const labels = row.options.labels
    const options =
      labels && language
        ? { ...row.options, labels: labelsIn({ translations }, language, labels) }
        : row.options
    const question = { ...row, text, options }
    const title = textIn({ translations: sectionTranslations }, language, 'title', row.section)
    const last = sections[sections.length - 1]
    // Grouped by the source title, as written (two sections may share a translation).
    if (last && last.source === row.section) last.questions.push(question)
    else sections.push({ title, source: row.section, questions: [question] })
  }
  return { header: headerOf(record, language), sections: sections.map(({ source: _, ...s }) => s) }
}

/** Whether "reveal who answered" exists on this install (ADR 024): not under strict confidentiality. */
export const revealAllowed = () => !getEnv().STRICT_CONFIDENTIALITY

export type RevealedRespondent = { name: string; email: string }

/**
 * "Reveal who answered" (ADR 024): a deliberate act with a reason, written to the audit log before
 * the name is handed back — to this admin, for this one answer to the action, never stored as a
 * setting. The audit records the response and the reason, not the person: the log itself must not
 * become a list of who said what. Refused under strict confidentiality, and for a self-assessment
 * (its respondent is already on the page).
 */
export async function revealRespondent(
  actor: Actor,
  responseId: unknown,
  reason: string,
): Promise<Outcome<RevealedRespondent>> {
  if (!revealAllowed()) return refuse(ANSWERS_ADMIN_MESSAGES.strict)
  if (!isUuid(responseId)) return refuseNotFound()
  return getDb().transaction(async (tx) => {
    const record = await readRecord(tx, responseId)
    if (!record) return refuseNotFound()
    if (record.relationship === 'self') return refuse(ANSWERS_ADMIN_MESSAGES.selfNothingHidden)
    await recordAudit(tx, actor, {
      action: 'response.reveal',
      entity: 'response',
      entityId: record.id,
      details: {
        schemeId: record.schemeId,
        schemeName: record.schemeName,
        relationship: record.relationship,
        reason,
      },
    })
    return ok({ name: record.respondentName, email: record.respondentEmail })
  })
}

// ---------------------------------------------------------------------------------------------
// Reopen.

/**
 * Reopens a submitted response (ADR 023): the response and its assignment become answerable again
 * (in progress), the respondent is e-mailed the admin's reason and a way back in, the reason is kept
 * for the reopened questionnaire to show until they submit again, and the change is audited. The
 * server finds the respondent's address itself: the admin is never told who it is (ADR 024). The
 * assignment row is locked first, the lock the answering flow takes (save-answers.server.ts), so a
 * submit racing the reopen is put in line and nothing is lost.
 *
 * A waiting reopen request (ADR 039) is answered by any reopen and cleared. `options.request`: the
 * admin pressed "Reopen" on the request itself — refused when it is no longer waiting, and with no
 * reason of the admin's, the respondent's own note becomes the reason they read.
 */
export async function reopenResponse(
  actor: Actor,
  responseId: unknown,
  givenReason: string | null,
  options: { request?: boolean } = {},
): Promise<Outcome<{ subjectName: string }>> {
  if (!isUuid(responseId)) return refuseNotFound()
  return getDb().transaction(async (tx) => {
    const record = await readRecord(tx, responseId, true)
    if (!record) return refuseNotFound()
    if (options.request && !record.reopenRequestedAt) return refuse(REOPEN_REQUEST_MESSAGES.requestGone)
    if (record.assignmentStatus === 'revoked') return refuse(ANSWERS_ADMIN_MESSAGES.revoked)
    if (record.assignmentStatus !== 'submitted' || !record.submittedAt)
      return refuse(ANSWERS_ADMIN_MESSAGES.notSubmitted)
    if (record.phase !== 'open') return refuse(ANSWERS_ADMIN_MESSAGES.schemeNotOpen(record.schemeName))
    const reason = givenReason ?? approvedReason(record.reopenRequestNote)

    await tx
      .update(responses)
      .set({
        submittedAt: null,
        reopenedAt: sql`now()`,
        reopenReason: reason,
        reopenRequestedAt: null,
        reopenRequestNote: null,
        updatedAt: sql`now()`,
      })
      .where(sql`${responses.id} = ${responseId}::uuid`)
    await tx
      .update(assignments)
      .set({ status: 'in_progress', submittedAt: null })
      .where(sql`${assignments.id} = ${record.assignmentId}::uuid`)

    const closesAt = new Date(record.closesAt)
    // A colleague's invite link was retired by their submit: the fresh one lets them in again.
    const { link, linkExpiresAt } = await respondentLink(tx, { ...record, closesAt })
    const [brand] = await queryRows<{ brandId: string | null }>(
      tx,
      sql`SELECT c.brand_id AS "brandId" FROM users subj
          JOIN companies c ON c.id = coalesce(subj.company_id, (SELECT company_id FROM schemes WHERE id = ${record.schemeId}::uuid))
          WHERE subj.id = ${record.subjectId}::uuid`,
    )
    await enqueueEmail(tx, {
      to: record.respondentEmail,
      template: 'response_reopened',
      brandId: brand?.brandId ?? null,
      values: {
        link,
        recipientName: record.respondentName,
        employeeName: record.subjectName,
        schemeName: record.schemeName,
        dueDate: formatDate(closesAt, record.timeZone),
        reason,
      },
      dates: { dueDate: { at: closesAt, timeZone: record.timeZone } },
      entity: 'assignment',
      entityId: record.assignmentId,
      linkExpiresAt,
    })
    await recordAudit(tx, actor, {
      action: 'response.reopen',
      entity: 'response',
      entityId: record.id,
      details: {
        assignmentId: record.assignmentId,
        schemeId: record.schemeId,
        relationship: record.relationship,
        previousSubmittedAt: record.submittedAt,
        reason,
        ...(record.reopenRequestedAt ? { requested: true } : {}),
      },
    })
    await publishEvent(tx, {
      type: 'assignment.updated',
      subjectId: record.subjectId,
      respondentId: record.respondentId,
      assignmentId: record.assignmentId,
      status: 'in_progress',
      // The subject keeps seeing this colleague as "answered": a reopen must not name them (issue 15 B4).
      ...(record.relationship === 'self' ? {} : { subjectSees: false }),
    })
    return ok({ subjectName: record.subjectName })
  })
}
