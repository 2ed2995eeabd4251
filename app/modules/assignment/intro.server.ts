import type { Language } from '#db/enums'
import { displayLanguage, textIn } from '#app/modules/questionnaire/translations'
import { deadlineOf, schemePhase, type SchemePhase } from '#app/modules/scheme/state'
import { and, asc, eq, ne, sql } from 'drizzle-orm'
import { getDb } from '#db/client'
import { assignments, questionnaires, questions, responses, schemes } from '#db/schema/index'
import { dateLabel, daysLeft } from '#app/lib/dates'
import { intlLocale } from '#app/modules/i18n/languages'
import type { BrandLook } from '#app/components/brand-look'
import { brandLookOf } from '#app/modules/brand/look.server'
import { estimateMinutes, type QuestionKind } from './answer-schemas'
import {
  ASSIGNMENT_SUMMARY,
  parseId,
  type AssignmentHeadline,
  schemeOf,
  selectAssignmentsWithBrand,
  subjectLabel,
  type Viewer,
} from './assignment-row.server'

/**
 * The questionnaire's introduction (/questionnaire/:id): how long it takes, its sections, and the
 * visitor's assignments on it (whose feedback, the deadline, the way in). Two queries.
 */

export type IntroAssignment = AssignmentHeadline & {
  /** The days left before the deadline (dates.ts daysLeft), for the page to word in its language. */
  daysLeft: number | null
  /** Where the scheme stands (app/modules/scheme/state.ts): only an open one can be answered. */
  phase: SchemePhase
  /** The section a "continue" resumes at (1-based). */
  resumeSection: number
  brand: BrandLook | null
  /**
   * For a colleague: who will see their answers, and how — which of colleaguePrivacyNote's two
   * sentences (rater-groups.ts) it is, for the page to say in its language.
   */
  privacyKind: 'manager' | 'colleague' | null
  /** Why an admin reopened these answers, while they can still be changed. */
  reopenReason: string | null
}

export type QuestionnaireIntro = {
  questionnaire: { id: string; title: string; intro: string }
  questionCount: number
  sectionCount: number
  minutes: number
  assignments: IntroAssignment[]
}

export async function getQuestionnaireIntro(
  rawId: string | undefined,
  viewer: Viewer,
  /** The reader's language (ADR 051): the title and introduction read in it where a scheme offers it. */
  language?: Language,
): Promise<QuestionnaireIntro | null> {
  const id = parseId(rawId)
  if (!id) return null
  const db = getDb()
  // Ownership first: without a live assignment on it, the questionnaire does not exist for them.
  const rows =
    viewer.role === 'admin'
      ? []
      : await selectAssignmentsWithBrand({
          ...ASSIGNMENT_SUMMARY,
          lastSection: responses.lastSection,
          reopenReason: responses.reopenReason,
          showManager: schemes.showManagerBelowThreshold,
          schemeLanguages: schemes.languages,
        })
          .where(
            and(
              eq(assignments.questionnaireId, id),
              eq(assignments.respondentId, viewer.id),
              ne(assignments.status, 'revoked'),
            ),
          )
          // Self first, then the people who asked, oldest invitation first.
          .orderBy(sql`${assignments.relationship} = 'self' desc`, asc(assignments.createdAt))
  if (viewer.role !== 'admin' && !rows.length) return null

  const count = (kind: QuestionKind) =>
    sql<number>`(count(*) filter (where ${questions.kind} = ${kind}))::int`
  const [q] = await db
    .select({
      id: questionnaires.id,
      title: questionnaires.title,
      intro: questionnaires.intro,
      sourceLanguage: questionnaires.sourceLanguage,
      translations: questionnaires.translations,
      questionCount: sql<number>`count(${questions.id})::int`,
      sectionCount: sql<number>`count(distinct ${questions.section})::int`,
      scale: count('scale'),
      single: count('single'),
      multi: count('multi'),
      text: count('text'),
      textarea: count('textarea'),
    })
    .from(questionnaires)
    .leftJoin(questions, eq(questions.questionnaireId, questionnaires.id))
    .where(eq(questionnaires.id, id))
    .groupBy(questionnaires.id)
  if (!q) return null
  // Read in the reader's language when one of their schemes on it offers it (ADR 051).
  const shown = language
    ? displayLanguage(
        language,
        rows.flatMap((r) => r.schemeLanguages),
        q.sourceLanguage,
      )
    : null

  return {
    questionnaire: {
      id: q.id,
      title: textIn(q, shown, 'title', q.title),
      intro: textIn(q, shown, 'intro', q.intro),
    },
    questionCount: Number(q.questionCount),
    sectionCount: Number(q.sectionCount),
    minutes: estimateMinutes({
      scale: Number(q.scale),
      single: Number(q.single),
      multi: Number(q.multi),
      text: Number(q.text),
      textarea: Number(q.textarea),
    }),
    assignments: rows.map((r) => {
      const deadline = deadlineOf(r)
      const phase = schemePhase(schemeOf(r))
      return {
        id: r.id,
        status: r.status,
        relationship: r.relationship,
        subjectName: subjectLabel(r),
        schemeName: r.schemeName,
        deadline: dateLabel(deadline, r.timeZone, intlLocale(language)),
        daysLeft: daysLeft(deadline, r.timeZone),
        phase,
        resumeSection: (r.lastSection ?? 0) + 1,
        reopenReason: r.status === 'in_progress' && phase === 'open' ? r.reopenReason : null,
        brand: brandLookOf(r),
        privacyKind:
          r.relationship === 'self'
            ? null
            : r.relationship === 'manager' && r.showManager
              ? ('manager' as const)
              : ('colleague' as const),
      }
    }),
  }
}
