import { sql, type SQL } from 'drizzle-orm'
import { getDb, queryRows, type Tx } from '#db/client'
import type { Language } from '#db/enums'
import { displayLanguage, labelsIn, textIn } from '#app/modules/questionnaire/translations'
import {
  anonymityGate,
  selfCategoryRows,
  shapeOrderedReport,
  type HeaderRow,
  type QuestionRow,
  type ReportData,
} from './report'
import {
  storeReleasedFigures,
  type ColleagueQuestionFigures,
  type ReleasedFigures,
} from './released-figures.server'

/**
 * The report behind /user/response-:rid, in one statement: the header, every question with the
 * self answer, and — once released — the colleague figures the release computed and stored
 * (released-figures.server.ts, ADR 037). A page view never aggregates colleague answers: a released
 * report does not change until the next release (ADR 022), so its colleague side is computed once,
 * when the release is made. Which of those figures the page shows is decided in report.ts
 * (rater-groups.ts, ADR 021), on every view, by the same pure rules as before.
 *
 * Ownership is in the query: given the viewer, an employee reaches only their own report (an admin
 * any), and not found and not yours are the same null. Without a viewer it trusts the id it is given
 * (tests and tools that have checked access themselves).
 */

/** Who reads the report: an employee only their own, an admin any. */
export type ReportViewer = { id: string; role: string }

export type ReportRow = HeaderRow & {
  questions: QuestionRow[] | null
  colleague_figures: ReleasedFigures | null
  /** The scheme follows an earlier one, and shows the norm (ADR 044: the cycle section's reads). */
  follows_scheme_id?: string | null
  show_norm?: boolean | null
}

export async function reportRow(tx: Tx, responseId: string, viewer: ReportViewer | undefined) {
  const [row] = await reportRowsWhere(
    tx,
    sql`r.id = ${responseId} AND a.relationship = 'self'
      ${viewer && viewer.role !== 'admin' ? sql`AND a.subject_id = ${viewer.id}` : sql``}`,
  )
  return row
}

/**
 * Every released report of one employee (their data export, ADR 055), in one statement: the same
 * rows as {@link reportRow}, so each reads exactly as its page does (reportOf).
 */
export function releasedReportRowsOf(tx: Tx, subjectId: string) {
  return reportRowsWhere(
    tx,
    sql`a.subject_id = ${subjectId} AND a.relationship = 'self' AND rel.id IS NOT NULL
    ORDER BY rel.released_at, r.id`,
  )
}

/**
 * A page of a scheme's released reports by subject id (the REST API's report summaries, issue 21
 * §1), in one statement: the same rows as {@link reportRow}, so each reads exactly as its page does
 * (reportOf). A report never released is not among them. `companyId`: only a scheme of that company.
 */
export function releasedReportRowsOfScheme(
  tx: Tx,
  schemeId: string,
  page: { afterSubjectId: string | null; limit: number; companyId: string | null },
) {
  return reportRowsWhere(
    tx,
    sql`a.scheme_id = ${schemeId} AND a.relationship = 'self' AND rel.id IS NOT NULL
      ${page.companyId ? sql`AND s.company_id = ${page.companyId}` : sql``}
      ${page.afterSubjectId ? sql`AND a.subject_id > ${page.afterSubjectId}::uuid` : sql``}
    ORDER BY a.subject_id
    LIMIT ${page.limit}`,
  )
}

function reportRowsWhere(tx: Tx, where: SQL) {
  return queryRows<ReportRow>(
    tx,
    sql`
    SELECT
      r.id AS response_id,
      a.id AS self_assignment_id,
      a.subject_id,
      a.scheme_id,
      a.questionnaire_id,
      u.display_name AS subject_name,
      s.name AS scheme_name,
      b.name AS brand_name,
      b.logo_file_id AS brand_logo_file_id,
      b.primary_color AS brand_primary_color,
      b.accent_color AS brand_accent_color,
      b.callback_url AS brand_callback_url,
      b.contact_email AS brand_contact_email,
      b.profile_url AS brand_profile_url,
      co.name AS company_name,
      qn.title AS questionnaire_title,
      qn.source_language AS questionnaire_source_language,
      qn.translations AS questionnaire_translations,
      s.languages AS scheme_languages,
      s.closes_at,
      s.time_zone,
      s.status AS scheme_status,
      r.submitted_at AS self_submitted_at,
      s.min_raters,
      s.show_manager_below_threshold,
      s.follows_scheme_id,
      s.show_norm,
      (SELECT count(*) FROM assignments c
        WHERE c.scheme_id = a.scheme_id AND c.subject_id = a.subject_id
          AND c.relationship <> 'self' AND c.status <> 'revoked')::int AS invited,
      (SELECT count(*) FROM assignments c
        JOIN responses cr ON cr.assignment_id = c.id
        WHERE c.scheme_id = a.scheme_id AND c.subject_id = a.subject_id
          AND c.relationship <> 'self' AND c.status = 'submitted'
          AND cr.submitted_at IS NOT NULL)::int AS submitted,
      s.report_release,
      rel.id AS release_id,
      rel.released_at,
      rel.raters AS released_raters,
      rel.colleagues_shown AS release_colleagues_shown,
      rel.groups_shown AS release_groups_shown,
      rel.colleague_figures,
      (SELECT json_agg(json_build_object(
          'id', q.id, 'position', q.position, 'section', q.section, 'kind', q.kind, 'text', q.text,
          'category', q.category, 'options', q.options, 'self_value', sa.numeric_value,
          'self_na', sa.not_applicable, 'self_choices', sa.choices, 'self_text', sa.text_value,
          'translations', q.translations,
          'section_translations', (SELECT qs.translations FROM questionnaire_sections qs WHERE qs.id = q.section_id)
        ) ORDER BY q.position)
        FROM questions q
        LEFT JOIN answers sa ON sa.question_id = q.id AND sa.response_id = r.id
        WHERE q.questionnaire_id = a.questionnaire_id) AS questions
    FROM responses r
    JOIN assignments a ON a.id = r.assignment_id
    JOIN users u ON u.id = a.subject_id
    JOIN schemes s ON s.id = a.scheme_id
    JOIN companies co ON co.id = s.company_id
    JOIN brands b ON b.id = co.brand_id
    JOIN questionnaires qn ON qn.id = a.questionnaire_id
    LEFT JOIN LATERAL (
      SELECT rr.id, rr.released_at, rr.colleagues_shown, rr.groups_shown, rr.colleague_figures,
        (SELECT count(*) FROM report_release_responses x WHERE x.release_id = rr.id)::int AS raters
      FROM report_releases rr
      WHERE rr.scheme_id = a.scheme_id AND rr.subject_id = a.subject_id
      ORDER BY rr.released_at DESC, rr.id DESC
      LIMIT 1
    ) rel ON true
    WHERE ${where}`,
  )
}

/**
 * The report for a self response, or null when there is none the viewer may read. Colleague
 * figures come only from the latest release's stored figures; a release made before they were
 * stored (or one whose threshold was lowered afterwards, so that its gate opened) has them computed
 * and stored on its first view.
 */
export async function loadReport(
  responseId: string,
  viewer?: ReportViewer,
  /** The reader's language (ADR 051): the questionnaire's texts read in it where the scheme offers it. */
  language?: Language,
): Promise<ReportData | null> {
  const db = getDb()
  const row = await reportRow(db, responseId, viewer)
  if (!row) return null
  return reportOf(db, row, language)
}

/** A report row (reportRow) as the page shows it; a release's figures are stored on its first view. */
export async function reportOf(db: Tx, row: ReportRow, language?: Language): Promise<ReportData> {
  const { questions: questionRows, colleague_figures: stored, ...source } = row
  const shown = language
    ? displayLanguage(language, source.scheme_languages, source.questionnaire_source_language ?? 'en')
    : null
  const header = {
    ...source,
    questionnaire_title: textIn(
      { translations: source.questionnaire_translations },
      shown,
      'title',
      source.questionnaire_title,
    ),
  }
  const questions = header.self_submitted_at ? (questionRows ?? []) : []
  const { open } =
    header.release_id && header.release_colleagues_shown !== false
      ? anonymityGate(Number(header.released_raters), Number(header.min_raters))
      : { open: false }
  const figures =
    open && questions.length
      ? (stored ??
        (
          await storeReleasedFigures(db, [
            {
              releaseId: header.release_id!,
              selfResponseId: header.response_id,
              minRaters: Number(header.min_raters),
            },
          ])
        ).get(header.release_id!))
      : undefined
  const colleagueOf = new Map((figures?.questions ?? []).map((q) => [q.id, q]))
  // Figures are kept by question (and a choice by its source label), whatever language each rater
  // answered in; the wording is put in the reader's language last (ADR 051).
  const merged = questions.map((q) =>
    localizeReportQuestion({ ...q, ...pickColleague(colleagueOf.get(q.id)) }, shown),
  )
  return shapeOrderedReport({
    header,
    questions: merged,
    categories: selfCategoryRows(questions),
    groupSizes: figures?.groupSizes ?? [],
    comments: figures?.comments ?? [],
  })
}

/**
 * A report question in the reader's language (null: as written): its wording, its section's title,
 * and its labels — a choice's counts and the self choice re-keyed from the source label to the
 * translated one, so every rater's answer counts under the label the reader reads.
 */
function localizeReportQuestion<Q extends QuestionRow>(q: Q, language: Language | null): Q {
  if (!language) return q
  const labels = Array.isArray(q.options?.labels) ? q.options.labels.map(String) : null
  const shownLabels = labels ? labelsIn(q, language, labels) : null
  const relabel = (label: string) => {
    const i = labels ? labels.indexOf(label) : -1
    return i >= 0 ? shownLabels![i]! : label
  }
  const counts = q.option_counts
    ? Object.fromEntries(Object.entries(q.option_counts).map(([label, n]) => [relabel(label), n]))
    : q.option_counts
  return {
    ...q,
    text: textIn(q, language, 'text', q.text),
    section: textIn({ translations: q.section_translations }, language, 'title', q.section),
    options: q.options && shownLabels ? { ...q.options, labels: shownLabels } : q.options,
    option_counts: counts,
    self_choices: Array.isArray(q.self_choices)
      ? q.self_choices.map((c) => relabel(String(c)))
      : q.self_choices,
  }
}

const NO_COLLEAGUES = {
  avg: null,
  answered: null,
  na: null,
  distribution: null,
  option_counts: null,
  groups: null,
}

/** A question's stored colleague columns (all null when no colleague answered it). */
function pickColleague(figures: ColleagueQuestionFigures | undefined) {
  if (!figures) return NO_COLLEAGUES
  const { avg, answered, na, distribution, option_counts, groups } = figures
  return { avg, answered, na, distribution, option_counts, groups }
}
