import { FOCUS_STANCES, type FocusKind } from '#db/enums'
import { multiLine, singleLine } from '#app/lib/text-rules'
import * as z from '#app/lib/zod'
import { ACTIONS_MAX, MAX_FOCUS_AREAS, SUPPORT_MAX } from './words'

export {
  ACTIONS_MAX,
  addDays,
  focusTitle,
  MAX_FOCUS_AREAS,
  planHref,
  sharedHref,
  STANCE_LABELS,
  SUPPORT_MAX,
  TARGET_MAX_DAYS,
} from './words'

/**
 * The development plan's and the report share's forms (issue 19 §1–2, ADR 043): their Zod schemas
 * and wording, shared by the pages and the server. No server-only imports: this file reaches the
 * client.
 */

export const PLAN_MESSAGES = {
  tooMany: `A plan has at most ${MAX_FOCUS_AREAS} focus areas. Remove one to add another.`,
  alreadyChosen: 'This is already one of your focus areas.',
  chooseFocus: 'Choose a competency or question from your report.',
  notInReport: 'That competency or question is not in your report. Choose one from the list.',
  stance: 'Choose whether this is a strength to use or an area to develop.',
  actionsTooLong: `The actions must be ${ACTIONS_MAX.toLocaleString('en-GB')} characters or fewer.`,
  supportTooLong: `The support needed must be ${SUPPORT_MAX.toLocaleString('en-GB')} characters or fewer.`,
  date: 'Enter the check-in date as a date (day, month and year).',
  datePast: 'Choose a check-in date from today on.',
  dateFar: 'Choose a check-in date within the next two years.',
  stale: 'This plan changed in another window. Reload the page and try again.',
  notReleased:
    'Your plan opens once your report has been released with your colleagues’ views. Until then there is nothing to choose from.',
  noManager:
    'No manager is recorded for you, so there is nobody to share with. Your programme team can add one.',
  notShared: 'Your report is not shared at the moment.',
} as const

const uuid = z
  .string({ error: PLAN_MESSAGES.stale })
  .check(z.regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, PLAN_MESSAGES.stale))

const stance = z.enum(FOCUS_STANCES, { error: PLAN_MESSAGES.stance })

const text = (max: number, tooLong: string) =>
  z.pipe(
    z.optional(z.string().check(z.maxLength(max, tooLong), multiLine())),
    z.transform((v) => (v ?? '').trim()),
  )

/** "2026-09-30", or nothing: the check-in date is optional. */
const targetDate = z.optional(
  z.string().check(
    z.regex(/^\d{4}-\d{2}-\d{2}$/, PLAN_MESSAGES.date),
    z.refine(
      (v) =>
        !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v),
      PLAN_MESSAGES.date,
    ),
  ),
)

/**
 * "Add to my plan": a competency ("category:Communication") or a question ("question:<id>"), from
 * the report page's buttons or the plan page's chooser, as a strength to use or an area to develop.
 */
export const AddFocusSchema = z.object({
  intent: z.literal('add'),
  focus: z
    .string({ error: PLAN_MESSAGES.chooseFocus })
    .check(
      z.maxLength(300, PLAN_MESSAGES.notInReport),
      singleLine(PLAN_MESSAGES.notInReport),
      z.regex(/^(category|question):.+$/, PLAN_MESSAGES.chooseFocus),
    ),
  stance: z.optional(stance),
})

/** The kinds a focus value names, for the server's split of "kind:ref". */
export function splitFocus(value: string): { kind: FocusKind; ref: string } {
  const at = value.indexOf(':')
  return { kind: value.slice(0, at) as FocusKind, ref: value.slice(at + 1) }
}

/** One focus area as the plan form posts it. */
const FocusAreaFields = z.object({
  id: uuid,
  stance,
  actions: text(ACTIONS_MAX, PLAN_MESSAGES.actionsTooLong),
  support: text(SUPPORT_MAX, PLAN_MESSAGES.supportTooLong),
  targetDate,
})

/** The whole plan, posted by the autosave (intent "autosave") and by the plain "Save plan" button. */
export const SavePlanSchema = z.object({
  intent: z.enum(['autosave', 'save']),
  areas: z.array(FocusAreaFields).check(z.maxLength(MAX_FOCUS_AREAS, PLAN_MESSAGES.tooMany)),
})

export const RemoveFocusSchema = z.object({ intent: z.literal('remove'), id: uuid })

/** Share the released report (and, when ticked, the plan) with the manager of the moment. */
export const ShareSchema = z.object({
  intent: z.literal('share'),
  includePlan: z.optional(z.boolean()),
})

export const RevokeSchema = z.object({ intent: z.literal('revoke') })

/** Share the plan's text with the programme's coach (its administrators), or stop. */
export const CoachSchema = z.object({ intent: z.literal('coach'), share: z.enum(['on', 'off']) })
