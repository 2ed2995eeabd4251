import { sql, type SQL } from 'drizzle-orm'
import { getDb, queryRows } from '#db/client'
import type { BrandLook } from '#app/components/brand-look'
import { isUuid } from '#app/lib/ids'
import {
  anonymityGate,
  shapeOrderedReport,
  selfCategoryRows,
  type QuestionRow,
} from '#app/modules/report/report'
import {
  storeReleasedFigures,
  type ColleagueQuestionFigures,
} from '#app/modules/report/released-figures.server'
import { loadNorms } from '#app/modules/norm/norm.server'
import { compareCycles, type ShownReport } from '#app/modules/cycle/change'
import { normByQuestionId, type CycleView } from '#app/modules/cycle/cycle.server'
import {
  contributionOf,
  questionKey,
  summarise,
  type CohortItem,
  type CohortRow,
  type CohortSummary,
  type Contribution,
} from './cohort'

/**
 * A cohort's group report and heatmap (issue 19 §4, ADR 045): a scheme's released participants, or a
 * company's across its schemes. Two statements whatever the cohort's size: the cohort's header (the
 * scheme or company, its brand, its schemes and their questions) and its participants, each with
 * their latest release's stored colleague figures (ADR 037) — never a live colleague answer, never
 * a comment (the participants' statement does not select them). A release made before the figures
 * were stored has them computed once, as the report page would (a fixed number of statements more).
 *
 * Each participant's figures go through the report's own shaping (report.ts), so the cohort counts
 * exactly what their report shows; the cohort's rules are in cohort.ts.
 */

export type CohortScope = 'scheme' | 'company'

type SchemeMeta = {
  id: string
  name: string
  min_raters: number
  show_manager: boolean
  closes_at: string
  time_zone: string | null
  status: string
  questionnaire_id: string
}

type QuestionMeta = Omit<
  QuestionRow,
  | 'self_value'
  | 'self_na'
  | 'self_choices'
  | 'self_text'
  | 'avg'
  | 'answered'
  | 'na'
  | 'distribution'
  | 'option_counts'
  | 'groups'
> & { questionnaire_id: string; key: string }

type HeadRow = {
  id: string
  name: string
  company_id: string
  company_name: string
  brand_name: string
  brand_logo_file_id: string | null
  brand_primary_color: string | null
  brand_accent_color: string | null
  brand_callback_url: string | null
  brand_contact_email: string | null
  brand_profile_url: string | null
  schemes: SchemeMeta[] | null
  questions: QuestionMeta[] | null
  /** A scheme's cycle facts (null for a company): the scheme it follows, if that still qualifies. */
  previous_scheme_id: string | null
  previous_scheme_name: string | null
  show_norm: boolean | null
  lineage_id: string | null
}

type TrimmedFigures = Pick<ColleagueQuestionFigures, 'id' | 'avg' | 'answered' | 'groups'>

type ParticipantRow = {
  scheme_id: string
  subject_id: string
  subject_name: string
  response_id: string
  self_submitted_at: string | null
  release_id: string
  released_at: string
  colleagues_shown: boolean
  groups_shown: boolean
  raters: number
  joined_at: string
  stored: boolean
  figures: TrimmedFigures[] | null
  group_sizes: { relationship: string; raters: number }[] | null
  self: { id: string; v: number | null; na: boolean }[] | null
}

const brandColumns = sql`b.name AS brand_name, b.logo_file_id AS brand_logo_file_id,
  b.primary_color AS brand_primary_color, b.accent_color AS brand_accent_color,
  b.callback_url AS brand_callback_url, b.contact_email AS brand_contact_email,
  b.profile_url AS brand_profile_url`

/**
 * The schemes of a scope: one scheme, or a company's launched schemes — each programme with its
 * latest cycle only: a scheme that a later one follows (ADR 044) drops out once that one has released
 * a report, so one person's two cycles never count twice. Whole schemes come and go, so the company's
 * cohort stays a union of whole admitted sets (cohort.ts).
 */
function schemesOf(scope: CohortScope, id: string): SQL {
  return scope === 'scheme'
    ? sql`SELECT id FROM schemes WHERE id = ${id}`
    : sql`SELECT s.id FROM schemes s WHERE s.company_id = ${id} AND s.status <> 'draft'
        AND NOT EXISTS (
          SELECT 1 FROM schemes f
          WHERE f.follows_scheme_id = s.id AND f.company_id = s.company_id
            AND EXISTS (SELECT 1 FROM report_releases fr WHERE fr.scheme_id = f.id)
        )`
}

async function cohortHead(scope: CohortScope, id: string) {
  const where = scope === 'scheme' ? sql`s0.id = ${id}` : sql`co.id = ${id}`
  const from =
    scope === 'scheme' ? sql`schemes s0 JOIN companies co ON co.id = s0.company_id` : sql`companies co`
  const [row] = await queryRows<HeadRow>(
    getDb(),
    sql`WITH chosen AS (${schemesOf(scope, id)})
    SELECT ${scope === 'scheme' ? sql`s0.id, s0.name` : sql`co.id, co.name`},
      co.id AS company_id, co.name AS company_name, ${brandColumns},
      (SELECT json_agg(json_build_object('id', s.id, 'name', s.name, 'min_raters', s.min_raters,
          'show_manager', s.show_manager_below_threshold, 'closes_at', s.closes_at,
          'time_zone', s.time_zone, 'status', s.status, 'questionnaire_id', s.questionnaire_id)
          ORDER BY s.opens_at, s.id)
        FROM schemes s WHERE s.id IN (SELECT id FROM chosen)) AS schemes,
      (SELECT json_agg(json_build_object('id', q.id, 'questionnaire_id', q.questionnaire_id,
          'position', q.position, 'section', q.section, 'kind', q.kind, 'text', q.text,
          'category', q.category, 'options', q.options, 'key', q.key) ORDER BY q.questionnaire_id, q.position)
        FROM questions q
        WHERE q.questionnaire_id IN (SELECT s.questionnaire_id FROM schemes s WHERE s.id IN (SELECT id FROM chosen))
      ) AS questions,
      ${
        scope === 'scheme'
          ? sql`s0.show_norm, qn.lineage_id, prev.id AS previous_scheme_id, prev.name AS previous_scheme_name`
          : sql`NULL AS show_norm, NULL AS lineage_id, NULL AS previous_scheme_id, NULL AS previous_scheme_name`
      }
    FROM ${from}
    JOIN brands b ON b.id = co.brand_id
    ${
      // The scheme it follows, by the same rule as the report's (ADR 044): same company, same
      // questionnaire line, opened before it.
      scope === 'scheme'
        ? sql`JOIN questionnaires qn ON qn.id = s0.questionnaire_id
    LEFT JOIN LATERAL (
      SELECT ps.id, ps.name FROM schemes ps
      JOIN questionnaires pq ON pq.id = ps.questionnaire_id AND pq.lineage_id = qn.lineage_id
      WHERE ps.id = s0.follows_scheme_id AND ps.company_id = s0.company_id AND ps.opens_at < s0.opens_at
    ) prev ON true`
        : sql``
    }
    WHERE ${where}`,
  )
  return row
}

/** A page of the heatmap: participants by name after the cursor (name, report id). */
export type HeatmapCursor = { name: string; id: string }

async function cohortParticipants(
  scope: CohortScope,
  id: string,
  page?: { after: HeatmapCursor | null; size: number },
) {
  return queryRows<ParticipantRow>(
    getDb(),
    sql`WITH latest AS (
      SELECT DISTINCT ON (rr.scheme_id, rr.subject_id) rr.id, rr.scheme_id, rr.subject_id, rr.released_at,
        rr.colleagues_shown, rr.groups_shown, rr.colleague_figures
      FROM report_releases rr
      WHERE rr.scheme_id IN (${schemesOf(scope, id)})
      ORDER BY rr.scheme_id, rr.subject_id, rr.released_at DESC, rr.id DESC
    )
    SELECT l.scheme_id, l.subject_id, u.display_name AS subject_name, r.id AS response_id,
      r.submitted_at AS self_submitted_at, l.id AS release_id, l.released_at, l.colleagues_shown,
      l.groups_shown,
      (SELECT count(*) FROM report_release_responses x WHERE x.release_id = l.id)::int AS raters,
      (SELECT min(f.released_at) FROM report_releases f
        WHERE f.scheme_id = l.scheme_id AND f.subject_id = l.subject_id) AS joined_at,
      l.colleague_figures IS NOT NULL AS stored,
      (SELECT jsonb_agg(jsonb_build_object('id', q->'id', 'avg', q->'avg', 'answered', q->'answered',
          'groups', q->'groups'))
        FROM jsonb_array_elements(l.colleague_figures->'questions') q) AS figures,
      l.colleague_figures->'groupSizes' AS group_sizes,
      (SELECT json_agg(json_build_object('id', sa.question_id, 'v', sa.numeric_value, 'na', sa.not_applicable))
        FROM answers sa WHERE sa.response_id = r.id) AS self
    FROM latest l
    JOIN assignments a ON a.scheme_id = l.scheme_id AND a.subject_id = l.subject_id AND a.relationship = 'self'
    JOIN responses r ON r.assignment_id = a.id
    JOIN users u ON u.id = l.subject_id
    ${page?.after ? sql`WHERE (u.display_name, r.id) > (${page.after.name}, ${page.after.id}::uuid)` : sql``}
    ORDER BY u.display_name, r.id
    ${page ? sql`LIMIT ${page.size + 1}` : sql``}`,
  )
}

/** One participant's report as their own report page shapes it, from the release rows only. */
function shapeParticipant(row: ParticipantRow, scheme: SchemeMeta, questions: QuestionMeta[], head: HeadRow) {
  const self = new Map((row.self ?? []).map((a) => [a.id, a]))
  const figures = new Map((row.figures ?? []).map((f) => [f.id, f]))
  const questionRows: QuestionRow[] = questions
    .filter((q) => q.questionnaire_id === scheme.questionnaire_id)
    .map(({ questionnaire_id: _, key: _key, ...q }) => {
      const s = self.get(q.id)
      const f = figures.get(q.id)
      return {
        ...q,
        self_value: s ? s.v : null,
        self_na: s ? s.na : null,
        self_choices: null,
        self_text: null,
        avg: f?.avg ?? null,
        answered: f?.answered ?? null,
        na: null,
        distribution: null,
        option_counts: null,
        groups: f?.groups ?? null,
      }
    })
  const report = shapeOrderedReport({
    header: {
      response_id: row.response_id,
      self_assignment_id: row.response_id,
      subject_id: row.subject_id,
      scheme_id: row.scheme_id,
      questionnaire_id: scheme.questionnaire_id,
      subject_name: row.subject_name,
      scheme_name: scheme.name,
      brand_name: head.brand_name,
      company_name: head.company_name,
      questionnaire_title: '',
      closes_at: scheme.closes_at,
      time_zone: scheme.time_zone,
      scheme_status: scheme.status,
      self_submitted_at: row.self_submitted_at,
      min_raters: scheme.min_raters,
      show_manager_below_threshold: scheme.show_manager,
      invited: 0,
      submitted: 0,
      release_id: row.release_id,
      released_at: row.released_at,
      released_raters: row.raters,
      release_colleagues_shown: row.colleagues_shown,
      release_groups_shown: row.groups_shown,
    },
    questions: row.self_submitted_at ? questionRows : [],
    categories: row.self_submitted_at ? selfCategoryRows(questionRows) : [],
    groupSizes: row.group_sizes ?? [],
    comments: [],
  })
  return report
}

/**
 * Releases whose gate is open but whose figures were never stored (made before ADR 037, or a
 * threshold lowered since): computed and stored once, in a fixed number of statements, as the
 * report page does on its first view.
 */
async function fillMissingFigures(rows: ParticipantRow[], schemes: Map<string, SchemeMeta>) {
  const missing = rows.filter((r) => {
    const scheme = schemes.get(r.scheme_id)
    return (
      scheme &&
      !r.stored &&
      r.self_submitted_at &&
      r.colleagues_shown &&
      anonymityGate(r.raters, scheme.min_raters).open
    )
  })
  if (!missing.length) return
  const stored = await storeReleasedFigures(
    getDb(),
    missing.map((r) => ({
      releaseId: r.release_id,
      selfResponseId: r.response_id,
      minRaters: schemes.get(r.scheme_id)!.min_raters,
    })),
  )
  for (const r of missing) {
    const figures = stored.get(r.release_id)
    if (!figures) continue
    r.figures = figures.questions.map(({ id, avg, answered, groups }) => ({ id, avg, answered, groups }))
    r.group_sizes = figures.groupSizes
  }
}

function brandOf(head: HeadRow): BrandLook {
  return {
    name: head.brand_name,
    logoFileId: head.brand_logo_file_id,
    primaryColor: head.brand_primary_color ?? '',
    accentColor: head.brand_accent_color ?? '',
    contact: {
      callbackUrl: head.brand_callback_url,
      email: head.brand_contact_email,
      profileUrl: head.brand_profile_url,
    },
  }
}

/** The cohort's scale (the widest of its scale questions), for the heatmap's colours. */
function scaleOf(questions: QuestionMeta[]) {
  const scales = questions.filter((q) => q.kind === 'scale')
  if (!scales.length) return { min: 1, max: 5 }
  return {
    min: Math.min(...scales.map((q) => q.options?.min ?? 1)),
    max: Math.max(...scales.map((q) => q.options?.max ?? 5)),
  }
}

/** The competencies and scale questions of a cohort, in questionnaire order, one per key. */
function itemsOf(scope: CohortScope, schemes: SchemeMeta[], questions: QuestionMeta[]) {
  const categories: string[] = []
  const items: CohortItem[] = []
  const seen = new Set<string>()
  const order = new Map(schemes.map((s, i) => [s.questionnaire_id, i]))
  const sorted = questions.toSorted(
    (a, b) =>
      (order.get(a.questionnaire_id) ?? 0) - (order.get(b.questionnaire_id) ?? 0) || a.position - b.position,
  )
  for (const q of sorted) {
    if (q.kind !== 'scale') continue
    if (!categories.includes(q.category)) categories.push(q.category)
    const key = questionKey(scope, q)
    if (seen.has(key)) continue
    seen.add(key)
    items.push({ key, label: q.text, category: q.category })
  }
  return { categories, items }
}

export type CohortHeader = {
  scope: CohortScope
  id: string
  name: string
  companyId: string
  companyName: string
  brand: BrandLook
  schemes: { id: string; name: string; minRaters: number }[]
  /** The lowest threshold among the cohort's schemes (the page's note on anonymity). */
  minRaters: number
  scale: { min: number; max: number }
}

function headerOf(scope: CohortScope, head: HeadRow): CohortHeader {
  const schemes = head.schemes ?? []
  return {
    scope,
    id: head.id,
    name: head.name,
    companyId: head.company_id,
    companyName: head.company_name,
    brand: brandOf(head),
    schemes: schemes.map((s) => ({ id: s.id, name: s.name, minRaters: Number(s.min_raters) })),
    minRaters: schemes.length ? Math.min(...schemes.map((s) => Number(s.min_raters))) : 1,
    scale: scaleOf(head.questions ?? []),
  }
}

export type GroupReport = {
  header: CohortHeader
  summary: CohortSummary
  /**
   * A scheme's group report beside the cycle it follows and the norm (issue 19 §5–6): the same view
   * a report's "Over time" section reads, built from the two cohorts' all-colleagues figures as each
   * group report shows them. Null for a company (its schemes are several cycles at once) and for a
   * scheme that neither follows another nor shows the norm.
   */
  cycle: CycleView | null
}

/** A cohort's header row and its summary, in two statements (plus figures stored once, if missing). */
async function cohortSummary(scope: CohortScope, id: string) {
  const head = await cohortHead(scope, id)
  if (!head) return null
  const schemes = new Map((head.schemes ?? []).map((s) => [s.id, s]))
  const questions = head.questions ?? []
  const rows = schemes.size ? await cohortParticipants(scope, id) : []
  await fillMissingFigures(rows, schemes)
  const contributions: Contribution[] = []
  for (const row of rows) {
    const scheme = schemes.get(row.scheme_id)
    if (!scheme) continue
    const c = contributionOf(shapeParticipant(row, scheme, questions, head), {
      id: row.response_id,
      schemeId: row.scheme_id,
      minRaters: Number(scheme.min_raters),
      joinedAt: new Date(row.joined_at).toISOString(),
      scope,
    })
    if (c) contributions.push(c)
  }
  const { categories, items } = itemsOf(scope, [...schemes.values()], questions)
  return { head, summary: summarise(contributions, categories, items) }
}

/** The group report's figures as a report's cycle section reads them: all colleagues, as shown. */
function shownOf(summary: CohortSummary, scale: { min: number; max: number }): ShownReport {
  const shown = (row: CohortRow) => (row.figures.all ? Math.round(row.figures.all.mean * 10) / 10 : null)
  return {
    scale,
    categories: summary.categories.map((c) => ({ category: c.key, colleagues: shown(c) })),
    questions: summary.questions.map((q) => ({
      id: q.key,
      kind: 'scale' as const,
      text: q.label,
      category: q.category,
      colleagues: { average: shown(q) },
    })),
  }
}

const keysOf = (questions: readonly QuestionMeta[]) => Object.fromEntries(questions.map((q) => [q.id, q.key]))

/**
 * A scheme's cohort beside the cohort of the scheme it follows, and the norm: two statements more for
 * the previous cohort, one for the norm, only when the scheme has them. Only figures each group report
 * shows are compared (each passed its own cohort rules), so the change is the difference of two
 * published figures; the norm leaves out the cohort's own company (ADR 044).
 */
async function cohortCycle(head: HeadRow, summary: CohortSummary): Promise<CycleView | null> {
  if (!head.previous_scheme_id && !head.show_norm) return null
  const [previous, norm] = await Promise.all([
    head.previous_scheme_id ? cohortSummary('scheme', head.previous_scheme_id) : null,
    head.show_norm && head.lineage_id
      ? loadNorms({ lineageId: head.lineage_id, excludeCompanyId: head.company_id })
      : null,
  ])
  const scale = scaleOf(head.questions ?? [])
  const now = shownOf(summary, scale)
  const before = previous ? shownOf(previous.summary, scale) : { scale, categories: [], questions: [] }
  const keys = keysOf(head.questions ?? [])
  const comparison = compareCycles(now, before, { now: keys, previous: keysOf(previous?.head.questions ?? []) })
  const shownBefore = previous && previous.summary.questions.some((q) => q.figures.all !== null)
  if (!shownBefore && !norm) return null
  return {
    previous: shownBefore ? { schemeName: previous.head.name, releasedAt: null } : null,
    comparison,
    norm: norm ? normByQuestionId(norm, keys) : null,
  }
}

/** The group report of a scheme or a company; null when there is no such scheme or company. */
export async function loadGroupReport(scope: CohortScope, id: string): Promise<GroupReport | null> {
  if (!isUuid(id)) return null
  const found = await cohortSummary(scope, id)
  if (!found) return null
  const { head, summary } = found
  const cycle = scope === 'scheme' ? await cohortCycle(head, summary) : null
  return { header: headerOf(scope, head), summary, cycle }
}

/** One heatmap row: a participant's competency figures as their own report shows them. */
export type HeatmapRow = {
  id: string
  name: string
  schemeName: string
  /** Per competency (the header's order): colleagues' figure and self score, null where not shown. */
  cells: { colleagues: number | null; self: number | null }[]
}

export type Heatmap = {
  header: CohortHeader
  competencies: string[]
  rows: HeatmapRow[]
  /** The cursor of the next page, or null on the last. */
  next: HeatmapCursor | null
}

export const HEATMAP_PAGE_SIZE = 50

/** One page of the heatmap (participants by name); null when there is no such scheme or company. */
export async function loadHeatmap(
  scope: CohortScope,
  id: string,
  after: HeatmapCursor | null,
): Promise<Heatmap | null> {
  if (!isUuid(id) || (after && !isUuid(after.id))) return null
  const head = await cohortHead(scope, id)
  if (!head) return null
  const schemes = new Map((head.schemes ?? []).map((s) => [s.id, s]))
  const questions = head.questions ?? []
  const found = schemes.size ? await cohortParticipants(scope, id, { after, size: HEATMAP_PAGE_SIZE }) : []
  const rows = found.slice(0, HEATMAP_PAGE_SIZE)
  await fillMissingFigures(rows, schemes)
  const { categories } = itemsOf(scope, [...schemes.values()], questions)
  const heat: HeatmapRow[] = []
  for (const row of rows) {
    const scheme = schemes.get(row.scheme_id)
    if (!scheme) continue
    const report = shapeParticipant(row, scheme, questions, head)
    if (report.status === 'self-pending' || report.status === 'awaiting-release') continue
    const byName = new Map(
      report.categories.map((c) => [
        c.category,
        { self: c.self, colleagues: 'colleagues' in c ? c.colleagues : null },
      ]),
    )
    heat.push({
      id: row.response_id,
      name: row.subject_name,
      schemeName: scheme.name,
      cells: categories.map((name) => byName.get(name) ?? { self: null, colleagues: null }),
    })
  }
  const last = rows.at(-1)
  return {
    header: headerOf(scope, head),
    competencies: categories,
    rows: heat,
    next: found.length > HEATMAP_PAGE_SIZE && last ? { name: last.subject_name, id: last.response_id } : null,
  }
}
