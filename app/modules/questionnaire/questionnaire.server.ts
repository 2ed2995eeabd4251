import { randomUUID } from 'node:crypto'
import { and, asc, eq, sql, type SQL } from 'drizzle-orm'
import { getDb, queryRows, type Tx } from '#db/client'
import {
  questionnaireSections,
  questionnaires,
  questions,
  schemes,
  type QuestionOptions,
} from '#db/schema/index'
import type {
  QnTextsTranslation,
  QuestionTranslation,
  SectionTranslation,
  Translations,
} from '#db/schema/questionnaires'
import { LANGUAGE_CODES, type Language, type QuestionKind, type QuestionnaireStatus } from '#db/enums'
import { escapeLike, keysetList, timestampKey, type KeysetRead, type Page } from '#app/lib/keyset-list.server'
import { refuseNotFound, ok, refuse, refuseField, type Actor, type Outcome } from '#app/lib/outcome'
import { pgErrorCode, PG_ERROR } from '#app/lib/pg-error'
import { recordAudit } from '#app/modules/audit/audit.server'
import { schemeOpenSql } from '#app/modules/scheme/state'
import { publishBlockers } from './checks'
import { normalOptions, type QnContent } from './format.server'
import {
  incompleteLanguagesMessage,
  localizeQuestionnaire,
  moveLabelTranslations,
  untranslatedCounts,
} from './translations'
import {
  DEFAULT_SCALE,
  LABELS_MAX,
  QN_MESSAGES,
  QUESTIONS_MAX,
  SECTIONS_MAX,
  TITLE_MAX,
  type QnListQuery,
  type QuestionUpdate,
} from './schemas'
import { isUuid } from '#app/lib/ids'

/**
 * Questionnaires (DESIGN.md §7): the list (versions grouped by line), one questionnaire with its
 * sections and questions, every builder change, publish with its checks, versions, duplicate,
 * archive, and the content export and import read. Every change locks the questionnaire's row,
 * refuses unless it is a draft (published ones are frozen), is audited, and keeps the questions'
 * positions and section titles in step with the sections (docs/decisions/015-…).
 */

export const QN_PAGE_SIZE = 20

// ---------------------------------------------------------------------------------------------
// The list.

/**
 * How many schemes use a version, how many of those are open now, and the first few open ones by
 * name (what an archive refusal names). Counted through the schemes (questionnaire_id) index, so a
 * page shows a count and a link to the scheme list filtered to the version, never every scheme.
 */
export type SchemeUse = { total: number; open: number; openNames: string[] }

/** The open schemes an archive refusal names (the rest are counted). */
export const OPEN_SCHEMES_NAMED = 3

/**
 * {@link SchemeUse} of the questionnaire version `versionId` (a column of the outer query), as JSON;
 * without the open schemes' names unless `named` (only an archive confirmation shows them).
 */
function schemeUseSql(versionId: SQL, named: boolean) {
  const names = named
    ? sql`coalesce((SELECT json_agg(o.name ORDER BY o.name) FROM (
          SELECT ${schemes.name} AS name FROM ${schemes}
          WHERE ${schemes.questionnaireId} = ${versionId} AND ${schemeOpenSql()}
          ORDER BY ${schemes.name} LIMIT ${OPEN_SCHEMES_NAMED}) o), '[]'::json)`
    : sql`'[]'::json`
  return sql`(SELECT json_build_object(
      'total', count(*), 'open', count(*) FILTER (WHERE ${schemeOpenSql()}), 'openNames', ${names})
    FROM ${schemes} WHERE ${schemes.questionnaireId} = ${versionId})`
}

/** A {@link SchemeUse} as the driver returns it (counts may come back as strings). */
function schemeUseOf(raw: SchemeUse | string | null): SchemeUse {
  const use = (typeof raw === 'string' ? JSON.parse(raw) : raw) as SchemeUse | null
  return {
    total: Number(use?.total ?? 0),
    open: Number(use?.open ?? 0),
    openNames: use?.openNames ?? [],
  }
}

export type QnVersionRow = {
  id: string
  version: number
  status: QuestionnaireStatus
  title: string
  questionCount: number
  updatedAt: string
  /** The schemes using this version, counted (the scheme list filtered to it shows them; no names). */
  use: SchemeUse
}

export type QnFamily = { id: string; name: string; createdAt: string; versions: QnVersionRow[] }

/**
 * One page of questionnaires, a row per line of versions (its newest version's title names it),
 * with every version of the page's lines, their question counts and how many schemes use each: one
 * statement, whose size does not grow with the schemes. A status filter keeps the lines that have a version in that status.
 */
export async function listQuestionnaires(query: QnListQuery): Promise<Page<QnFamily>> {
  const columns = { name: sql`q.title` as never, created: sql`q.created_at` as never, id: sql`q.id` as never }
  return keysetList(query, columns, QN_PAGE_SIZE, (read) => readFamilies(query, read))
}

async function readFamilies(query: QnListQuery, { keyset, limit, field, direction }: KeysetRead) {
  const sortColumn = field === 'name' ? sql`name` : sql`created_at`
  const filters: SQL[] = [
    sql`q.version = (SELECT max(l.version) FROM questionnaires l WHERE l.lineage_id = q.lineage_id)`,
  ]
  if (query.q) filters.push(sql`q.title ILIKE ${`%${escapeLike(query.q)}%`}`)
  if (query.status)
    filters.push(
      sql`EXISTS (SELECT 1 FROM questionnaires f WHERE f.lineage_id = q.lineage_id AND f.status = ${query.status})`,
    )
  if (keyset) filters.push(keyset)
  const rows = await queryRows<{
    headId: string
    name: string
    createdKey: string
    id: string
    version: number
    status: QuestionnaireStatus
    title: string
    updatedAt: string | Date
    questionCount: number
    use: SchemeUse | string | null
  }>(
    getDb(),
    sql`WITH page AS MATERIALIZED (
        SELECT q.id, q.lineage_id, q.title AS name, q.created_at, ${timestampKey(sql`q.created_at` as never)} AS created_key
        FROM questionnaires q
        WHERE ${sql.join(filters, sql` AND `)}
        ORDER BY ${sortColumn} ${direction}, id ${direction}
        LIMIT ${limit}
      )
      SELECT page.id AS "headId", page.name, page.created_key AS "createdKey",
        v.id, v.version, v.status, v.title, v.updated_at AS "updatedAt",
        (SELECT count(*)::int FROM questions qq WHERE qq.questionnaire_id = v.id) AS "questionCount",
        ${schemeUseSql(sql`v.id`, false)} AS use
      FROM page JOIN questionnaires v ON v.lineage_id = page.lineage_id
      ORDER BY page.${sortColumn} ${direction}, page.id ${direction}, v.version DESC`,
  )
  const families: QnFamily[] = []
  for (const r of rows) {
    let family = families[families.length - 1]
    if (!family || family.id !== r.headId) {
      family = { id: r.headId, name: r.name, createdAt: r.createdKey, versions: [] }
      families.push(family)
    }
    family.versions.push({
      id: r.id,
      version: Number(r.version),
      status: r.status,
      title: r.title,
      questionCount: Number(r.questionCount),
      updatedAt: new Date(r.updatedAt).toISOString(),
      use: schemeUseOf(r.use),
    })
  }
  return families
}

// ---------------------------------------------------------------------------------------------
// One questionnaire.

export type QnQuestion = {
  id: string
  /** The stable key across the line's versions (ADR 044). */
  key: string
  /**
   * The builder's marker (ADR 044): the previous version of the line has this question (same key);
   * false for a question new in this version; absent for a first version.
   */
  carriedOver?: boolean
  kind: QuestionKind
  text: string
  raterText: string
  category: string
  required: boolean
  options: QuestionOptions
  /** Its wordings and labels in other languages (ADR 051). */
  translations: Translations<QuestionTranslation>
}
export type QnSection = {
  id: string
  title: string
  questions: QnQuestion[]
  translations: Translations<SectionTranslation>
}

export type QnDetail = {
  id: string
  title: string
  intro: string
  /** The language of its own texts; the translations are of them (ADR 051). */
  sourceLanguage: Language
  translations: Translations<QnTextsTranslation>
  /** The languages the schemes using any version of its line list (what publishing checks). */
  schemeLanguages: Language[]
  status: QuestionnaireStatus
  version: number
  lineageId: string
  parentId: string | null
  updatedAt: string
  sections: QnSection[]
  /** The schemes that use this version, counted. */
  use: SchemeUse
  /** Every version of its line, newest first. */
  versions: Array<{ id: string; version: number; status: QuestionnaireStatus }>
  /** Competencies used by any questionnaire (the builder's suggestions). */
  competencies: string[]
}

/** One questionnaire with its sections, questions, uses and versions: three statements. */
export async function getQuestionnaire(id: string | null | undefined): Promise<QnDetail | null> {
  if (!id || !isUuid(id)) return null
  const db = getDb()
  const [row] = await queryRows<
    Omit<QnDetail, 'updatedAt' | 'sections' | 'use' | 'competencies'> & {
      updatedAt: string | Date
      use: SchemeUse | string | null
      competencies: string[] | null
      parentKeys: string[] | null
    }
  >(
    db,
    sql`SELECT q.id, q.title, q.intro, q.source_language AS "sourceLanguage", q.translations,
        (SELECT coalesce(array_agg(DISTINCT l.lang), '{}') FROM questionnaires lv
          JOIN schemes ls ON ls.questionnaire_id = lv.id, unnest(ls.languages) AS l(lang)
          WHERE lv.lineage_id = q.lineage_id) AS "schemeLanguages",
        q.status, q.version, q.lineage_id AS "lineageId", q.parent_id AS "parentId",
        q.updated_at AS "updatedAt",
        ${schemeUseSql(sql`q.id`, true)} AS use,
        (SELECT json_agg(json_build_object('id', v.id, 'version', v.version, 'status', v.status) ORDER BY v.version DESC)
          FROM questionnaires v WHERE v.lineage_id = q.lineage_id) AS versions,
        (SELECT coalesce(array_agg(pq.key), '{}') FROM questions pq
          WHERE q.parent_id IS NOT NULL AND pq.questionnaire_id = q.parent_id) AS "parentKeys",
        (SELECT array_agg(c.category ORDER BY c.category) FROM
          (SELECT DISTINCT category FROM questions ORDER BY category LIMIT 200) c) AS competencies
      FROM questionnaires q WHERE q.id = ${id}`,
  )
  if (!row) return null
  // The builder's view of a question carries no section id: the section holds it.
  const { parentKeys: keyList, ...rest } = row
  const parentKeys = row.parentId ? new Set(keyList ?? []) : null
  const sections: QnSection[] = (await readContent(db, id)).map((section) => ({
    ...section,
    questions: section.questions.map(({ sectionId: _sectionId, ...question }) =>
      parentKeys ? { ...question, carriedOver: parentKeys.has(question.key) } : question,
    ),
  }))
  return {
    ...rest,
    schemeLanguages: (row.schemeLanguages ?? []).filter((l): l is Language =>
      (LANGUAGE_CODES as readonly string[]).includes(l),
    ),
    version: Number(row.version),
    updatedAt: new Date(row.updatedAt).toISOString(),
    sections,
    use: schemeUseOf(row.use),
    versions: row.versions.map((v) => ({ ...v, version: Number(v.version) })),
    competencies: row.competencies ?? [],
  }
}

/** `{ translations }` when there are any, else nothing. */
function someTranslations<T>(translations: Translations<T> | null | undefined) {
  return translations && Object.keys(translations).length ? { translations } : {}
}

/** The content of a questionnaire as the file format and the copies take it. */
export function contentOf(detail: QnDetail): QnContent {
  return {
    title: detail.title,
    intro: detail.intro,
    // Absent when there is nothing to carry: an English questionnaire without translations is the
    // content it always was (ADR 051).
    ...(detail.sourceLanguage === 'en' ? {} : { sourceLanguage: detail.sourceLanguage }),
    ...someTranslations(detail.translations),
    sections: detail.sections.map((s) => ({
      title: s.title,
      ...someTranslations(s.translations),
      questions: s.questions.map((q) => ({
        ...someTranslations(q.translations),
        key: q.key,
        kind: q.kind,
        text: q.text,
        raterText: q.raterText,
        competency: q.category,
        required: q.required,
        options: normalOptions(q.kind, q.options),
      })),
    })),
  }
}

// ---------------------------------------------------------------------------------------------
// Writing content: a new questionnaire (create, duplicate, new version, import).

async function insertQuestionnaire(
  tx: Tx,
  content: QnContent,
  meta: { lineageId?: string; version?: number; parentId?: string | null },
) {
  const id = randomUUID()
  await tx.insert(questionnaires).values({
    id,
    lineageId: meta.lineageId ?? id,
    version: meta.version ?? 1,
    parentId: meta.parentId ?? null,
    title: content.title,
    intro: content.intro,
    sourceLanguage: content.sourceLanguage ?? 'en',
    translations: content.translations ?? {},
    status: 'draft',
  })
  const sectionIds = content.sections.map(() => randomUUID())
  if (content.sections.length)
    await tx.insert(questionnaireSections).values(
      content.sections.map((s, position) => ({
        id: sectionIds[position]!,
        questionnaireId: id,
        position,
        title: s.title,
        translations: s.translations ?? {},
      })),
    )
  const rows = content.sections.flatMap((s, n) =>
    s.questions.map((q) => ({
      ...(q.key === undefined ? {} : { key: q.key }),
      questionnaireId: id,
      sectionId: sectionIds[n]!,
      section: s.title,
      kind: q.kind,
      text: q.text,
      raterText: q.raterText,
      category: q.competency,
      required: q.required,
      options: normalOptions(q.kind, q.options),
      translations: q.translations ?? {},
    })),
  )
  if (rows.length) await tx.insert(questions).values(rows.map((r, position) => ({ ...r, position })))
  return id
}

export async function createQuestionnaire(actor: Actor, title: string): Promise<Outcome<{ id: string }>> {
  return getDb().transaction(async (tx) => {
    const id = await insertQuestionnaire(tx, { title, intro: '', sections: [] }, {})
    await recordAudit(tx, actor, {
      action: 'questionnaire.create',
      entity: 'questionnaire',
      entityId: id,
      details: { title },
    })
    return ok({ id })
  })
}

export async function importQuestionnaire(
  actor: Actor,
  content: QnContent,
): Promise<Outcome<{ id: string; title: string; questions: number }>> {
  return getDb().transaction(async (tx) => {
    const id = await insertQuestionnaire(tx, content, {})
    const count = content.sections.reduce((n, s) => n + s.questions.length, 0)
    await recordAudit(tx, actor, {
      action: 'questionnaire.import',
      entity: 'questionnaire',
      entityId: id,
      details: { title: content.title, sections: content.sections.length, questions: count },
    })
    return ok({ id, title: content.title, questions: count })
  })
}

/** Moves a locked questionnaire to a status, with its audit line, in the caller's transaction. */
async function setStatus(
  tx: Tx,
  actor: Actor,
  id: string,
  status: QuestionnaireStatus,
  action: string,
  details?: Record<string, unknown>,
) {
  await tx.update(questionnaires).set({ status, updatedAt: new Date() }).where(eq(questionnaires.id, id))
  await recordAudit(tx, actor, { action, entity: 'questionnaire', entityId: id, details })
}

/** A copy as the first version of a new line, a draft named "Copy of …". */
export async function duplicateQuestionnaire(
  actor: Actor,
  sourceId: string,
): Promise<Outcome<{ id: string; title: string }>> {
  const source = await getQuestionnaire(sourceId)
  if (!source) return refuseNotFound()
  const copied = contentOf(source)
  // A copy starts a new line: its questions are new ones, with new keys (ADR 044).
  const content: QnContent = {
    ...copied,
    sections: copied.sections.map((s) => ({
      ...s,
      questions: s.questions.map(({ key: _key, ...q }) => q),
    })),
  }
  const title = `Copy of ${content.title}`.slice(0, TITLE_MAX)
  return getDb().transaction(async (tx) => {
    const id = await insertQuestionnaire(tx, { ...content, title }, {})
    await recordAudit(tx, actor, {
      action: 'questionnaire.duplicate',
      entity: 'questionnaire',
      entityId: id,
      details: { from: sourceId, title },
    })
    return ok({ id, title })
  })
}

// ---------------------------------------------------------------------------------------------
// Lifecycle.

type Locked = { id: string; title: string; status: QuestionnaireStatus; version: number; lineageId: string }

async function lock(tx: Tx, id: string): Promise<Locked | null> {
  if (!isUuid(id)) return null
  const [row] = await tx
    .select({
      id: questionnaires.id,
      title: questionnaires.title,
      status: questionnaires.status,
      version: questionnaires.version,
      lineageId: questionnaires.lineageId,
    })
    .from(questionnaires)
    .where(eq(questionnaires.id, id))
    .for('update')
  return row ?? null
}

/** The first few schemes (by name) using a version, and how many there are in all. */
async function schemesUsing(tx: Tx, id: string, onlyOpen = false) {
  const rows = await tx
    .select({ name: schemes.name, total: sql<number>`count(*) OVER ()`.mapWith(Number) })
    .from(schemes)
    .where(and(eq(schemes.questionnaireId, id), onlyOpen ? schemeOpenSql() : undefined))
    .orderBy(asc(schemes.name))
    .limit(OPEN_SCHEMES_NAMED)
  return { names: rows.map((r) => r.name), total: rows[0]?.total ?? 0 }
}

/** Archive: refused while an open scheme (app/modules/scheme/state.ts) uses this version. */
export async function archiveQuestionnaire(actor: Actor, id: string): Promise<Outcome<{ title: string }>> {
  return getDb().transaction(async (tx) => {
    const row = await lock(tx, id)
    if (!row) return refuseNotFound()
    if (row.status === 'archived') return refuse('This questionnaire is already archived.')
    const open = await schemesUsing(tx, id, true)
    if (open.total) return refuse(QN_MESSAGES.archiveBlocked(open.names, open.total))
    await setStatus(tx, actor, id, 'archived', 'questionnaire.archive', { from: row.status })
    return ok({ title: row.title })
  })
}

/**
 * Publish: only a draft, and only when the checks find nothing. Languages left incomplete warn, and
 * do not block (ADR 051): the languages of the schemes using its line, and any it has translations in.
 */
export async function publishQuestionnaire(
  actor: Actor,
  id: string,
): Promise<
  Outcome<{
    title: string
    version: number
    languageWarning: string | null
    /** The languages left incomplete, for the warning in the reader's language. */
    incomplete: Array<{ language: Language; missing: number }>
  }>
> {
  return getDb().transaction(async (tx) => {
    const row = await lock(tx, id)
    if (!row) return refuseNotFound()
    if (row.status !== 'draft') return refuse('Only a draft can be published.')
    const structure = await readContent(tx, id)
    const blockers = publishBlockers(structure.map((s) => ({ title: s.title, questions: s.questions })))
    if (blockers.length) return refuse(...blockers)
    const [texts] = await tx
      .select({
        intro: questionnaires.intro,
        sourceLanguage: questionnaires.sourceLanguage,
        translations: questionnaires.translations,
        schemeLanguages: sql<string[] | null>`(SELECT array_agg(DISTINCT l.lang) FROM questionnaires lv
          JOIN schemes ls ON ls.questionnaire_id = lv.id, unnest(ls.languages) AS l(lang)
          WHERE lv.lineage_id = ${row.lineageId})`,
      })
      .from(questionnaires)
      .where(eq(questionnaires.id, id))
    const counts = untranslatedCounts(
      { title: row.title, intro: texts!.intro, translations: texts!.translations, sections: structure },
      targetLanguages(
        { translations: texts!.translations, sections: structure },
        texts!.schemeLanguages ?? [],
      ),
      texts!.sourceLanguage,
    )
    const languageWarning = incompleteLanguagesMessage(counts)
    await setStatus(tx, actor, id, 'published', 'questionnaire.publish', {
      version: row.version,
      ...(languageWarning
        ? { untranslated: Object.fromEntries(counts.map((c) => [c.language, c.missing])) }
        : {}),
    })
    return ok({
      title: row.title,
      version: row.version,
      languageWarning,
      incomplete: counts.filter((c) => c.missing > 0),
    })
  })
}

/** A published questionnaire no scheme uses goes back to draft (ADR 015); a used one cannot. */
export async function revertToDraft(actor: Actor, id: string): Promise<Outcome<{ title: string }>> {
  return getDb().transaction(async (tx) => {
    const row = await lock(tx, id)
    if (!row) return refuseNotFound()
    if (row.status !== 'published') return refuse('Only a published questionnaire can go back to draft.')
    const using = await schemesUsing(tx, id)
    if (using.total) return refuse(QN_MESSAGES.revertBlocked(using.names, using.total))
    await setStatus(tx, actor, id, 'draft', 'questionnaire.revert_to_draft')
    return ok({ title: row.title })
  })
}

/**
 * "Edit" of a frozen questionnaire: a draft copy as the next version of its line (parent = this
 * one). The old version, its schemes and their answers are untouched. Only from the newest version.
 */
export async function newVersion(
  actor: Actor,
  id: string,
): Promise<Outcome<{ id: string; version: number }>> {
  const source = await getQuestionnaire(id)
  if (!source) return refuseNotFound()
  if (source.status === 'draft') return refuse('This version is a draft: edit it as it is.')
  const newest = source.versions[0]!
  if (newest.id !== id)
    return refuse(
      `Version ${newest.version} is the newest of this questionnaire: open it to make the next one.`,
    )
  return getDb().transaction(async (tx) => {
    const row = await lock(tx, id)
    if (!row) return refuseNotFound()
    const [latest] = await tx
      .select({ version: sql<number>`max(${questionnaires.version})` })
      .from(questionnaires)
      .where(eq(questionnaires.lineageId, row.lineageId))
    if (Number(latest?.version) !== row.version)
      return refuse('Someone has just made a newer version. Reload the page to see it.')
    const version = row.version + 1
    const newId = await insertQuestionnaire(tx, contentOf(source), {
      lineageId: row.lineageId,
      version,
      parentId: id,
    })
    await recordAudit(tx, actor, {
      action: 'questionnaire.new_version',
      entity: 'questionnaire',
      entityId: newId,
      details: { from: id, version },
    })
    return ok({ id: newId, version })
  })
}

// ---------------------------------------------------------------------------------------------
// The builder's changes (drafts only).

type StructQuestion = QnQuestion & { sectionId: string }
type StructSection = {
  id: string
  title: string
  questions: StructQuestion[]
  translations: Translations<SectionTranslation>
}

/** A questionnaire's sections in order, each with its questions in order (two statements). */
async function readContent(tx: Tx, id: string): Promise<StructSection[]> {
  // One after the other: inside a transaction both go through its one connection.
  const sectionRows = await tx
    .select({
      id: questionnaireSections.id,
      title: questionnaireSections.title,
      translations: questionnaireSections.translations,
    })
    .from(questionnaireSections)
    .where(eq(questionnaireSections.questionnaireId, id))
    .orderBy(asc(questionnaireSections.position), asc(questionnaireSections.id))
  const questionRows = await tx
    .select({
      id: questions.id,
      key: questions.key,
      sectionId: questions.sectionId,
      kind: questions.kind,
      text: questions.text,
      raterText: questions.raterText,
      category: questions.category,
      required: questions.required,
      options: questions.options,
      translations: questions.translations,
    })
    .from(questions)
    .where(eq(questions.questionnaireId, id))
    .orderBy(asc(questions.position))
  const sections: StructSection[] = sectionRows.map((s) => ({ ...s, questions: [] }))
  const byId = new Map(sections.map((s) => [s.id, s]))
  for (const q of questionRows) byId.get(q.sectionId)?.questions.push(q)
  return sections
}

/**
 * Writes the order back: each section's position, and each question's position through the whole
 * questionnaire, its section and the section's title. The positions are unique per questionnaire,
 * so they move out of the way (negative) first.
 */
async function writeOrder(tx: Tx, id: string, sections: StructSection[]) {
  if (sections.length)
    await tx.execute(sql`UPDATE questionnaire_sections s SET position = v.position
      FROM (VALUES ${sql.join(
        sections.map((s, n) => sql`(${s.id}::uuid, ${n}::int)`),
        sql`, `,
      )}) AS v(id, position) WHERE s.id = v.id`)
  const list = sections.flatMap((s) =>
    s.questions.map((q) => ({ id: q.id, sectionId: s.id, title: s.title })),
  )
  if (!list.length) return
  await tx.execute(sql`UPDATE questions SET position = -1 - position WHERE questionnaire_id = ${id}`)
  await tx.execute(sql`UPDATE questions q SET position = v.position, section_id = v.section_id, section = v.title
    FROM (VALUES ${sql.join(
      list.map((q, n) => sql`(${q.id}::uuid, ${n}::int, ${q.sectionId}::uuid, ${q.title}::text)`),
      sql`, `,
    )}) AS v(id, position, section_id, title) WHERE q.id = v.id`)
}

type Change<T> = { value: T; details?: Record<string, unknown> } | Outcome<never>

/**
 * The frame of every builder change: lock the questionnaire, refuse unless it is a draft, read its
 * sections and questions, run the change, then stamp, audit and answer.
 */
async function editDraft<T>(
  actor: Actor,
  id: string,
  action: string,
  change: (tx: Tx, sections: StructSection[]) => Promise<Change<T>>,
): Promise<Outcome<T>> {
  try {
    return await getDb().transaction(async (tx): Promise<Outcome<T>> => {
      const row = await lock(tx, id)
      if (!row) return refuseNotFound()
      if (row.status === 'published') return refuse(QN_MESSAGES.frozen)
      if (row.status === 'archived') return refuse(QN_MESSAGES.archivedFrozen)
      const result = await change(tx, await readContent(tx, id))
      if ('ok' in result) return result
      await tx.update(questionnaires).set({ updatedAt: new Date() }).where(eq(questionnaires.id, id))
      await recordAudit(tx, actor, {
        action: `questionnaire.${action}`,
        entity: 'questionnaire',
        entityId: id,
        details: result.details,
      })
      return ok(result.value)
    })
  } catch (error) {
    // Two admins naming two sections alike at once: the unique title index answers.
    if (pgErrorCode(error) === PG_ERROR.uniqueViolation) return refuseField('title', QN_MESSAGES.sectionTaken)
    throw error
  }
}

const gone = (): Outcome<never> => refuse(QN_MESSAGES.target)

function findQuestion(sections: StructSection[], questionId: string) {
  for (const [s, section] of sections.entries()) {
    const n = section.questions.findIndex((q) => q.id === questionId)
    if (n >= 0) return { s, n, section, question: section.questions[n]! }
  }
  return null
}

export function updateDetails(actor: Actor, id: string, input: { title: string; intro: string }) {
  return editDraft(actor, id, 'details', async (tx) => {
    await tx
      .update(questionnaires)
      .set({ title: input.title, intro: input.intro })
      .where(eq(questionnaires.id, id))
    return { value: input, details: { title: input.title } }
  })
}

export function addSection(actor: Actor, id: string, title: string) {
  return editDraft(actor, id, 'section_add', async (tx, sections) => {
    if (sections.length >= SECTIONS_MAX) return refuse(QN_MESSAGES.tooManySections)
    if (sections.some((s) => s.title === title)) return refuseField('title', QN_MESSAGES.sectionTaken)
    await tx.insert(questionnaireSections).values({ questionnaireId: id, position: sections.length, title })
    return { value: { title }, details: { title } }
  })
}

export function renameSection(actor: Actor, id: string, sectionId: string, title: string) {
  return editDraft(actor, id, 'section_rename', async (tx, sections) => {
    const section = sections.find((s) => s.id === sectionId)
    if (!section) return gone()
    if (sections.some((s) => s.id !== sectionId && s.title === title))
      return refuseField('title', QN_MESSAGES.sectionTaken)
    await tx.update(questionnaireSections).set({ title }).where(eq(questionnaireSections.id, sectionId))
    await tx.update(questions).set({ section: title }).where(eq(questions.sectionId, sectionId))
    return { value: { title, from: section.title }, details: { sectionId, from: section.title, title } }
  })
}

export function moveSection(actor: Actor, id: string, sectionId: string, direction: 'up' | 'down') {
  return editDraft(actor, id, 'section_move', async (tx, sections) => {
    const at = sections.findIndex((s) => s.id === sectionId)
    if (at < 0) return gone()
    const to = direction === 'up' ? at - 1 : at + 1
    if (to < 0 || to >= sections.length)
      return refuse(direction === 'up' ? 'This section is already first.' : 'This section is already last.')
    ;[sections[at], sections[to]] = [sections[to]!, sections[at]!]
    await writeOrder(tx, id, sections)
    return { value: { title: sections[to]!.title, position: to + 1 }, details: { sectionId, direction } }
  })
}

export function deleteSection(actor: Actor, id: string, sectionId: string, confirmed: boolean) {
  return editDraft(actor, id, 'section_delete', async (tx, sections) => {
    const at = sections.findIndex((s) => s.id === sectionId)
    if (at < 0) return gone()
    const section = sections[at]!
    if (section.questions.length && !confirmed) return refuse(QN_MESSAGES.sectionHasQuestions)
    await tx.delete(questionnaireSections).where(eq(questionnaireSections.id, sectionId))
    sections.splice(at, 1)
    await writeOrder(tx, id, sections)
    return {
      value: { title: section.title, questions: section.questions.length },
      details: { sectionId, title: section.title, questions: section.questions.length },
    }
  })
}

function optionsFor(
  kind: QuestionKind,
  previous: QuestionOptions | null,
  scale?: { min: number; max: number; allowNa: boolean },
) {
  if (kind === 'scale') {
    const labels = previous?.labels?.length ? previous.labels : DEFAULT_SCALE.labels
    return normalOptions('scale', {
      labels,
      min: scale?.min ?? previous?.min ?? DEFAULT_SCALE.min,
      max: scale?.max ?? previous?.max ?? DEFAULT_SCALE.max,
      allowNa: scale?.allowNa ?? previous?.allowNa ?? DEFAULT_SCALE.allowNa,
    })
  }
  return normalOptions(kind, previous ?? {})
}

export function addQuestion(
  actor: Actor,
  id: string,
  input: { sectionId: string; kind: QuestionKind; text: string; raterText: string; category: string },
) {
  return editDraft(actor, id, 'question_add', async (tx, sections) => {
    const section = sections.find((s) => s.id === input.sectionId)
    if (!section) return gone()
    if (sections.reduce((n, s) => n + s.questions.length, 0) >= QUESTIONS_MAX)
      return refuse(QN_MESSAGES.tooManyQuestions)
    const options = optionsFor(input.kind, null)
    const [row] = await tx
      .insert(questions)
      .values({
        questionnaireId: id,
        sectionId: section.id,
        section: section.title,
        position: -1_000_000,
        kind: input.kind,
        text: input.text,
        raterText: input.raterText,
        category: input.category,
        required: true,
        options,
      })
      .returning({ id: questions.id, key: questions.key })
    section.questions.push({
      ...input,
      id: row!.id,
      key: row!.key,
      required: true,
      options,
      translations: {},
    })
    await writeOrder(tx, id, sections)
    return {
      value: { id: row!.id, section: section.title },
      details: { questionId: row!.id, kind: input.kind },
    }
  })
}

export function updateQuestion(actor: Actor, id: string, questionId: string, input: QuestionUpdate) {
  return editDraft(actor, id, 'question_update', async (tx, sections) => {
    const found = findQuestion(sections, questionId)
    if (!found) return gone()
    const options = optionsFor(
      input.kind,
      found.question.options,
      input.kind === 'scale' ? { min: input.min!, max: input.max!, allowNa: input.allowNa } : undefined,
    )
    await tx
      .update(questions)
      .set({
        kind: input.kind,
        text: input.text,
        raterText: input.raterText,
        category: input.category,
        required: input.required,
        options,
      })
      .where(eq(questions.id, questionId))
    return { value: { text: input.text }, details: { questionId, ...input } }
  })
}

/** Up or down one place; past the start or end of its section it moves into the next section. */
export function moveQuestion(actor: Actor, id: string, questionId: string, direction: 'up' | 'down') {
  return editDraft(actor, id, 'question_move', async (tx, sections) => {
    const found = findQuestion(sections, questionId)
    if (!found) return gone()
    const { s, n, section, question } = found
    const up = direction === 'up'
    const to = up ? n - 1 : n + 1
    let into = section
    if (to >= 0 && to < section.questions.length) {
      ;[section.questions[n], section.questions[to]] = [section.questions[to]!, question]
    } else {
      const next = sections[up ? s - 1 : s + 1]
      if (!next)
        return refuse(
          up
            ? 'This question is already the first of the questionnaire.'
            : 'This question is already the last of the questionnaire.',
        )
      section.questions.splice(n, 1)
      if (up) next.questions.push(question)
      else next.questions.unshift(question)
      into = next
    }
    await writeOrder(tx, id, sections)
    return {
      value: { section: into.title, moved: into !== section },
      details: { questionId, direction, section: into.title },
    }
  })
}

export function deleteQuestion(actor: Actor, id: string, questionId: string) {
  return editDraft(actor, id, 'question_delete', async (tx, sections) => {
    const found = findQuestion(sections, questionId)
    if (!found) return gone()
    await tx.delete(questions).where(eq(questions.id, questionId))
    found.section.questions.splice(found.n, 1)
    await writeOrder(tx, id, sections)
    return { value: { text: found.question.text }, details: { questionId, text: found.question.text } }
  })
}

/** One change to a question's list of choices (single/multi) or labels (scale). */
export function changeOption(
  actor: Actor,
  id: string,
  questionId: string,
  change:
    | { op: 'add'; label: string }
    | { op: 'rename'; index: number; label: string }
    | { op: 'move'; index: number; direction: 'up' | 'down' }
    | { op: 'remove'; index: number },
) {
  return editDraft(actor, id, `option_${change.op}`, async (tx, sections) => {
    const found = findQuestion(sections, questionId)
    if (!found) return gone()
    const { question } = found
    if (question.kind === 'text' || question.kind === 'textarea')
      return refuse('A written question has no choices.')
    const labels = [...(question.options.labels ?? [])]
    const sourceCount = labels.length
    if (change.op !== 'add' && change.index >= labels.length) return gone()
    if (change.op === 'add') {
      if (labels.length >= LABELS_MAX) return refuseField('label', QN_MESSAGES.tooManyLabels)
      if (labels.includes(change.label)) return refuseField('label', QN_MESSAGES.labelTaken)
      labels.push(change.label)
    } else if (change.op === 'rename') {
      if (labels.some((l, i) => l === change.label && i !== change.index))
        return refuseField('label', QN_MESSAGES.labelTaken)
      labels[change.index] = change.label
    } else if (change.op === 'move') {
      const to = change.direction === 'up' ? change.index - 1 : change.index + 1
      if (to < 0 || to >= labels.length) return refuse('That choice cannot move further.')
      ;[labels[change.index], labels[to]] = [labels[to]!, labels[change.index]!]
    } else {
      labels.splice(change.index, 1)
    }
    // Each label's translations follow it (ADR 051).
    const translations = moveLabelTranslations(
      question.translations,
      change.op === 'move'
        ? {
            op: 'move',
            index: change.index,
            to: change.direction === 'up' ? change.index - 1 : change.index + 1,
          }
        : change,
      sourceCount,
    )
    await tx
      .update(questions)
      .set({ options: normalOptions(question.kind, { ...question.options, labels }), translations })
      .where(eq(questions.id, questionId))
    return { value: { labels }, details: { questionId, ...change } }
  })
}

// ---------------------------------------------------------------------------------------------
// Translations (ADR 051): drafts only, like every builder change, and audited like them.

/**
 * The languages a questionnaire is meant to be read in besides its source: those the schemes of its
 * line list, and those it holds any translation in.
 */
export function targetLanguages(
  qn: {
    translations: Translations<QnTextsTranslation>
    sections: Array<{
      translations: Translations<SectionTranslation>
      questions: Array<{ translations: Translations<QuestionTranslation> }>
    }>
  },
  schemeLanguages: readonly string[],
): Language[] {
  const found = new Set<string>(schemeLanguages)
  const add = (t: Record<string, unknown> | null | undefined) =>
    Object.keys(t ?? {}).forEach((l) => found.add(l))
  add(qn.translations)
  for (const s of qn.sections) {
    add(s.translations)
    for (const q of s.questions) add(q.translations)
  }
  return LANGUAGE_CODES.filter((l) => found.has(l))
}

/** A text kept only when it says something: an empty field clears the translation. */
function kept<T extends Record<string, string | string[] | undefined | null>>(value: T) {
  const out: Record<string, string | string[]> = {}
  for (const [k, v] of Object.entries(value)) {
    if (Array.isArray(v)) {
      if (v.some((x) => x)) out[k] = v
    } else if (typeof v === 'string' && v) out[k] = v
  }
  return out
}

function withLanguage<T>(all: Translations<T> | null | undefined, language: Language, value: T | null) {
  const next: Translations<T> = { ...(all ?? {}) }
  if (value && Object.keys(value).length) next[language] = value
  else delete next[language]
  return next
}

const notSource = (sourceLanguage: string, language: Language): Outcome<never> | null =>
  sourceLanguage === language ? refuseField('language', QN_MESSAGES.translateSource) : null

export function translateDetails(
  actor: Actor,
  id: string,
  input: { language: Language; title: string | null; intro: string | null },
) {
  return editDraft(actor, id, 'translate', async (tx) => {
    const [row] = await tx
      .select({ sourceLanguage: questionnaires.sourceLanguage, translations: questionnaires.translations })
      .from(questionnaires)
      .where(eq(questionnaires.id, id))
    const refused = notSource(row!.sourceLanguage, input.language)
    if (refused) return refused
    const value = kept({ title: input.title, intro: input.intro }) as QnTextsTranslation
    await tx
      .update(questionnaires)
      .set({ translations: withLanguage(row!.translations, input.language, value) })
      .where(eq(questionnaires.id, id))
    return { value: { language: input.language }, details: { language: input.language, item: 'details' } }
  })
}

async function sourceLanguageOf(tx: Tx, id: string) {
  const [row] = await tx
    .select({ sourceLanguage: questionnaires.sourceLanguage })
    .from(questionnaires)
    .where(eq(questionnaires.id, id))
  return row!.sourceLanguage
}

export function translateSection(
  actor: Actor,
  id: string,
  input: { language: Language; sectionId: string; title: string | null },
) {
  return editDraft(actor, id, 'translate', async (tx, sections) => {
    const section = sections.find((s) => s.id === input.sectionId)
    if (!section) return gone()
    const refused = notSource(await sourceLanguageOf(tx, id), input.language)
    if (refused) return refused
    const value = kept({ title: input.title }) as SectionTranslation
    await tx
      .update(questionnaireSections)
      .set({ translations: withLanguage(section.translations, input.language, value) })
      .where(eq(questionnaireSections.id, section.id))
    return {
      value: { language: input.language, title: section.title },
      details: { language: input.language, item: 'section', sectionId: section.id },
    }
  })
}

export function translateQuestion(
  actor: Actor,
  id: string,
  input: {
    language: Language
    questionId: string
    text: string | null
    raterText: string | null
    labels: Array<string | null | undefined>
  },
) {
  return editDraft(actor, id, 'translate', async (tx, sections) => {
    const found = findQuestion(sections, input.questionId)
    if (!found) return gone()
    const refused = notSource(await sourceLanguageOf(tx, id), input.language)
    if (refused) return refused
    const sourceLabels = found.question.options.labels ?? []
    if (input.labels.length > sourceLabels.length)
      return refuseField('labels', QN_MESSAGES.translatedLabelsOver)
    const labels = sourceLabels.map((_l, i) => input.labels[i] ?? '')
    const value = kept({ text: input.text, raterText: input.raterText, labels }) as QuestionTranslation
    await tx
      .update(questions)
      .set({ translations: withLanguage(found.question.translations, input.language, value) })
      .where(eq(questions.id, found.question.id))
    return {
      value: { language: input.language },
      details: { language: input.language, item: 'question', questionId: found.question.id },
    }
  })
}

/**
 * A questionnaire read in `language` (null or its source: as written), each item falling back to its
 * source text where it is untranslated: the same three statements as {@link getQuestionnaire}.
 */
export async function getQuestionnaireIn(id: string, language: Language | null) {
  const detail = await getQuestionnaire(id)
  if (!detail) return null
  return localizeQuestionnaire(detail, language === detail.sourceLanguage ? null : language)
}
