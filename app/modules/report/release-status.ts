/**
 * What the employee is told about their report's release, in one place (issue 15 B1, B3): the home
 * page's report card and the report page say the same thing, with the same dates and numbers. Pure
 * (no database, no Node): both pages' components call it with what their loaders read.
 */

import { formatDate } from '#app/lib/dates'
import { enoughAnswers, threshold } from './threshold'
import { plural } from '#app/lib/words'

export type ReleaseStatusInput = {
  viewer: 'employee' | 'admin'
  reportRelease: 'on_close' | 'by_admin'
  closesAt: string
  timeZone: string
  /** The programme has closed: no more answers can come in. */
  schemeClosed: boolean
  /** The latest release, if any. */
  releasedAt: string | null
  /** The latest release shows colleagues' results (else it released the self-assessment alone). */
  colleaguesShown: boolean
  /** How many colleagues' answers the latest release holds. */
  releasedAnswers: number
  /** Colleagues who have answered now (the live count the invite list shows too). */
  answeredNow: number
  minRaters: number
  /** The Intl locale of the dates in `messages` (intlLocale of the reader's language); English by default. */
  locale?: string
}

/** One sentence as a catalogue key (home:release.<key>) and its values, for a page that translates. */
export type ReleaseMessage = { key: string; values: Record<string, string | number> }

export type ReleaseStatus = {
  state: 'awaiting-release' | 'self-only' | 'released'
  /** The sentences to show, in order. */
  lines: string[]
  /**
   * The same sentences as keys of the employee's wording (home:release.*), for the home page in the
   * reader's language (ADR 050), when the caller names a `locale`; `lines` stays the English the
   * report page and the tests read.
   */
  messages?: ReleaseMessage[]
}

/** `messages` only for a caller that asked for them (by naming the reader's locale). */
function withMessages(
  input: ReleaseStatusInput,
  status: Omit<ReleaseStatus, 'messages'>,
  messages: ReleaseMessage[],
): ReleaseStatus {
  return input.locale ? { ...status, messages } : status
}

const colleagues = (n: number) => plural(n, 'colleague', 'colleagues')
const answers = (n: number) => `${n} more ${n === 1 ? 'answer is' : 'answers are'} needed`

/** The key and values of {@link releaseWhen}'s sentence. */
function releaseWhenMessage(
  input: Pick<ReleaseStatusInput, 'reportRelease' | 'closesAt' | 'timeZone' | 'schemeClosed' | 'locale'>,
): ReleaseMessage {
  if (input.reportRelease === 'by_admin') return { key: 'byAdmin', values: {} }
  const date = formatDate(input.closesAt, input.timeZone, input.locale)
  return { key: input.schemeClosed ? 'closedOnClose' : 'onClose', values: { date } }
}

/** When the colleagues' results will appear, for a report not released yet. */
export function releaseWhen(
  input: Pick<ReleaseStatusInput, 'viewer' | 'reportRelease' | 'closesAt' | 'timeZone' | 'schemeClosed'>,
) {
  const employee = input.viewer === 'employee'
  const your = employee ? 'your' : 'the'
  if (input.reportRelease === 'by_admin')
    return `${employee ? 'Your colleagues’' : 'Colleagues’'} results appear when ${your} administrator releases them, usually at ${your} debrief.`
  const closes = formatDate(input.closesAt, input.timeZone)
  return input.schemeClosed
    ? `The programme closed on ${closes}: ${employee ? 'your colleagues’' : 'colleagues’'} results are released within minutes.`
    : `${employee ? 'Your colleagues’' : 'Colleagues’'} results appear when the programme closes on ${closes}.`
}

/** The key and values of {@link thresholdLine}'s sentence. */
function thresholdMessage(input: ReleaseStatusInput): ReleaseMessage {
  const needed = threshold(input.minRaters)
  const answered = input.answeredNow
  if (enoughAnswers(answered, input.minRaters)) return { key: 'enough', values: { answered } }
  if (input.schemeClosed) return { key: 'tooFewClosed', values: { answered, needed } }
  return { key: 'threshold', values: { needed, more: needed - answered } }
}

/** How far the live answers are from the threshold. */
function thresholdLine(input: ReleaseStatusInput) {
  const t = threshold(input.minRaters)
  if (enoughAnswers(input.answeredNow, input.minRaters))
    return `Enough colleagues have answered (${input.answeredNow}) for their results to be shown.`
  if (input.schemeClosed)
    return `Only ${colleagues(input.answeredNow)} answered, fewer than the ${t} needed, and the programme has closed, so colleagues’ results cannot be shown.`
  return `Colleagues’ results are shown only once at least ${colleagues(t)} have answered, so that no one’s answers can be singled out: ${answers(t - input.answeredNow)}.`
}

export function releaseStatus(input: ReleaseStatusInput): ReleaseStatus {
  const on = (iso: string) => formatDate(iso, input.timeZone)
  const local = (iso: string) => formatDate(iso, input.timeZone, input.locale)
  if (!input.releasedAt)
    return withMessages(
      input,
      { state: 'awaiting-release', lines: [releaseWhen(input), thresholdLine(input)] },
      [releaseWhenMessage(input), thresholdMessage(input)],
    )
  if (!input.colleaguesShown) {
    const whose = input.viewer === 'employee' ? 'Your' : 'The'
    const messages: ReleaseMessage[] = [
      {
        key: 'selfOnly',
        values: {
          date: local(input.releasedAt),
          answers: input.releasedAnswers,
          needed: threshold(input.minRaters),
        },
      },
    ]
    const lines = [
      `${whose} self-assessment was released on ${on(input.releasedAt)}, without colleagues’ results: ${input.releasedAnswers} of the ${threshold(input.minRaters)} answers needed ${input.releasedAnswers === 1 ? 'was' : 'were'} in.`,
    ]
    const enoughNow = enoughAnswers(input.answeredNow, input.minRaters)
    const onClose = input.reportRelease === 'on_close' && !input.schemeClosed
    if (enoughNow)
      messages.push({
        key: onClose ? 'enoughNowOnClose' : 'enoughNowByAdmin',
        values: onClose
          ? { answered: input.answeredNow, date: local(input.closesAt) }
          : { answered: input.answeredNow },
      })
    else messages.push(thresholdMessage(input))
    if (enoughNow)
      lines.push(
        `Enough colleagues have answered now (${input.answeredNow}); their results appear ${
          input.reportRelease === 'on_close' && !input.schemeClosed
            ? `when the programme closes on ${on(input.closesAt)}`
            : `when ${input.viewer === 'employee' ? 'your' : 'the'} administrator releases the report again`
        }.`,
      )
    else lines.push(thresholdLine(input))
    return withMessages(input, { state: 'self-only', lines }, messages)
  }
  return withMessages(
    input,
    {
      state: 'released',
      lines: [
        `Released on ${on(input.releasedAt)}: ${input.viewer === 'employee' ? 'your' : 'the'} report sets ${
          input.releasedAnswers === 1
            ? '1 colleague’s view'
            : `${input.releasedAnswers} colleagues’ combined views`
        } beside ${input.viewer === 'employee' ? 'yours' : 'the self-assessment'}.`,
      ],
    },
    [{ key: 'released', values: { date: local(input.releasedAt), answers: input.releasedAnswers } }],
  )
}

/**
 * The same story in the page's language (namespace `report`, `release.*`; ADR 050): what the report
 * page shows. `releaseStatus` above stays the English wording (the home page's card, tests); the
 * English catalogue equals it (tests/unit/i18n/catalogues.test.ts).
 */
export function releaseStatusIn(
  input: ReleaseStatusInput,
  t: (key: string, args?: Record<string, unknown>) => string,
  locale: string,
): ReleaseStatus {
  const you = input.viewer === 'employee'
  const on = (iso: string) => formatDate(iso, input.timeZone, locale)
  const needed = threshold(input.minRaters)
  const when = () => {
    if (input.reportRelease === 'by_admin') return t(you ? 'release.whenByAdminYou' : 'release.whenByAdmin')
    const closes = on(input.closesAt)
    if (input.schemeClosed) return t(you ? 'release.whenClosedYou' : 'release.whenClosed', { closes })
    return t(you ? 'release.whenClosesYou' : 'release.whenCloses', { closes })
  }
  const thresholdLine = () => {
    if (enoughAnswers(input.answeredNow, input.minRaters))
      return t('release.enough', { count: input.answeredNow })
    if (input.schemeClosed) return t('release.tooFewClosed', { count: input.answeredNow, needed })
    return t('release.needed', { needed, more: needed - input.answeredNow })
  }
  if (!input.releasedAt) return { state: 'awaiting-release', lines: [when(), thresholdLine()] }
  if (!input.colleaguesShown) {
    const lines = [
      t(you ? 'release.selfOnlyYou' : 'release.selfOnly', {
        date: on(input.releasedAt),
        released: input.releasedAnswers,
        needed,
      }),
    ]
    if (enoughAnswers(input.answeredNow, input.minRaters))
      lines.push(
        input.reportRelease === 'on_close' && !input.schemeClosed
          ? t('release.enoughNowOnClose', { count: input.answeredNow, date: on(input.closesAt) })
          : t(you ? 'release.enoughNowAdminYou' : 'release.enoughNowAdmin', { count: input.answeredNow }),
      )
    else lines.push(thresholdLine())
    return { state: 'self-only', lines }
  }
  return {
    state: 'released',
    lines: [
      t(you ? 'release.releasedYou' : 'release.released', {
        date: on(input.releasedAt),
        count: input.releasedAnswers,
      }),
    ],
  }
}
