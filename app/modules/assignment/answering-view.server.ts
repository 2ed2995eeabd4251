import type { AssignmentStatus, Language, Relationship } from '#db/enums'
import { displayLanguage, textIn } from '#app/modules/questionnaire/translations'
import { deadlineOf, schemePhase } from '#app/modules/scheme/state'
import { dateLabel, daysLeft, type DateLabel } from '#app/lib/dates'
import { intlLocale } from '#app/modules/i18n/languages'
import type { BrandLook } from '#app/components/brand-look'
import { brandLookOf } from '#app/modules/brand/look.server'
import { formValuesOf, isAnswered, type AnswerQuestion, type AnswerValue } from './answer-schemas'
import {
  findAssignmentWithAnswers,
  parseId,
  schemeOf,
  roundEndOf,
  subjectLabel,
  toAnswerQuestion,
  type Viewer,
} from './assignment-row.server'
import { groupSections, progressOf, type ProgressTotals, type SectionSummary } from './sections'

/**
 * The answering page (/assignment/:id): one section of the stepped form with the saved answers
 * filled in, or every answer read-only when the form is not there (submitted, an admin looking,
 * the scheme closed or not open yet). One query whatever the questionnaire's size: the assignment
 * with its questions and their answers (findAssignmentWithAnswers).
 */

export type ViewQuestion = AnswerQuestion & {
  /** Numbered through the whole questionnaire, from 1. */
  number: number
  section: number
  /** The stored answer as form values (what the inputs start with). */
  values: string[]
  answer: AnswerValue | null
  /** Required and unanswered, shown beside the question when the page was asked to (?missing). */
  missing: boolean
}

export type AnsweringMode = 'answer' | 'submitted' | 'admin' | 'closed' | 'not-open'

export type AnsweringView = {
  assignment: {
    id: string
    status: AssignmentStatus
    relationship: Relationship
    subjectName: string
    questionnaireId: string
    questionnaireTitle: string
    schemeName: string
    deadline: DateLabel
    /** The days left before the deadline (dates.ts daysLeft), for the page to word in its language. */
    daysLeft: number | null
    submittedAt: DateLabel | null
    /** Why an admin reopened these answers, while the respondent can still change them. */
    reopenReason: string | null
  }
  mode: AnsweringMode
  /** The programme's brand: the layout's header wears it (app/modules/brand/look.ts). */
  brand: BrandLook | null
  /**
   * Why the form is not there (closed, not open yet, submitted, admin), for the page to say in its
   * language (the closed and not-open ones in ANSWER_MESSAGES' words), and the date it names.
   */
  noticeKey: 'submitted' | 'submittedAdmin' | 'admin' | 'closed' | 'notOpen' | null
  noticeDate: string | null
  /**
   * The respondent's submitted answers while their round is open: they may ask for them to be
   * reopened (ADR 039; the form is on the thank-you page).
   */
  mayAskToChange: boolean
  sections: SectionSummary[]
  /** The section shown (1-based); 0 when the questionnaire has no questions. */
  current: number
  /** `?confirm=submit` on the last section: the page asks "Ready to submit?" before it submits. */
  confirmSubmit: boolean
  /** The current section's questions when answering; every question in the read-only modes. */
  questions: ViewQuestion[]
  totals: ProgressTotals
}

/** `?section=N` when it names a section, else where the respondent stopped (last_section). */
function pickSection(raw: string | null | undefined, lastSection: number | null, count: number) {
  if (!count) return 0
  const asked = raw && /^\d{1,4}$/.test(raw) ? Number(raw) : NaN
  if (asked >= 1 && asked <= count) return asked
  return Math.min(Math.max((lastSection ?? 0) + 1, 1), count)
}

export async function getAnsweringView(
  rawId: string | undefined,
  viewer: Viewer,
  options: {
    section?: string | null
    showMissing?: boolean
    confirmSubmit?: boolean
    /** The reader's language (ADR 051): the questionnaire reads in it when the scheme offers it. */
    language?: Language
  } = {},
): Promise<AnsweringView | null> {
  const id = parseId(rawId)
  const row = id ? await findAssignmentWithAnswers(id, viewer) : null
  if (!row) return null
  const language = options.language
    ? displayLanguage(options.language, row.schemeLanguages, row.questionnaireSourceLanguage)
    : null
  const subjectName = subjectLabel(row)
  const questionRows = row.questions
  const sections = groupSections(questionRows)
  const sectionOf = new Map<string, number>()
  const numberOf = new Map<string, number>()
  for (const s of sections)
    for (const q of s.questions) {
      sectionOf.set(q.id, s.number)
      numberOf.set(q.id, numberOf.size + 1)
    }
  const all: ViewQuestion[] = sections
    .flatMap((s) => s.questions)
    .map((q) => {
      const answer: AnswerValue | null = q.answerId
        ? {
            numericValue: q.numericValue,
            textValue: q.textValue,
            choices: q.choices,
            notApplicable: q.notApplicable ?? false,
          }
        : null
      return {
        ...toAnswerQuestion(q, row.relationship, subjectName, language),
        number: numberOf.get(q.id)!,
        section: sectionOf.get(q.id)!,
        values: formValuesOf(answer),
        answer,
        missing: false,
      }
    })
  const answeredIds = new Set(all.filter((q) => isAnswered(q.answer)).map((q) => q.id))
  const progress = progressOf(sections, (id) => answeredIds.has(id))

  const phase = schemePhase(schemeOf(row))
  const mode: AnsweringMode =
    row.status === 'submitted'
      ? 'submitted'
      : viewer.role === 'admin'
        ? 'admin'
        : phase === 'closed'
          ? 'closed'
          : phase === 'draft' || phase === 'upcoming'
            ? 'not-open'
            : 'answer'
  // Dates in the reader's language (the questionnaire may read in its source language instead).
  const locale = intlLocale(options.language)
  const noticeKey: AnsweringView['noticeKey'] =
    mode === 'submitted'
      ? viewer.role === 'admin'
        ? 'submittedAdmin'
        : 'submitted'
      : mode === 'admin'
        ? 'admin'
        : mode === 'closed'
          ? 'closed'
          : mode === 'not-open'
            ? 'notOpen'
            : null
  const noticeDate =
    mode === 'closed'
      ? dateLabel(roundEndOf(row), row.timeZone, locale).label
      : mode === 'not-open'
        ? dateLabel(row.opensAt, row.timeZone, locale).label
        : null

  const current = pickSection(options.section, row.lastSection, sections.length)
  const shown =
    mode === 'answer'
      ? all
          .filter((q) => q.section === current)
          .map((q) => ({
            ...q,
            missing: Boolean(options.showMissing) && q.required && !isAnswered(q.answer),
          }))
      : all
  const deadline = deadlineOf(row)
  return {
    assignment: {
      id: row.id,
      status: row.status,
      relationship: row.relationship,
      subjectName,
      questionnaireId: row.questionnaireId,
      questionnaireTitle: textIn(
        { translations: row.questionnaireTranslations },
        language,
        'title',
        row.questionnaireTitle,
      ),
      schemeName: row.schemeName,
      deadline: dateLabel(deadline, row.timeZone, locale),
      daysLeft: daysLeft(deadline, row.timeZone),
      submittedAt: row.submittedAt ? dateLabel(row.submittedAt, row.timeZone, locale) : null,
      reopenReason: mode === 'answer' ? row.reopenReason : null,
    },
    mode,
    brand: brandLookOf(row),
    noticeKey,
    noticeDate,
    mayAskToChange: mode === 'submitted' && viewer.role !== 'admin' && phase === 'open',
    // Section titles in the language read (the sections are told apart by their source titles).
    sections: progress.sections.map((summary) => {
      const first = sections[summary.number - 1]?.questions[0]
      return first
        ? {
            ...summary,
            title: textIn({ translations: first.sectionTranslations }, language, 'title', summary.title),
          }
        : summary
    }),
    current,
    confirmSubmit: Boolean(options.confirmSubmit) && mode === 'answer' && current === sections.length,
    questions: shown,
    totals: progress.totals,
  }
}
