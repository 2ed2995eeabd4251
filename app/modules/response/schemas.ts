import { RELATIONSHIPS, type Relationship } from '#db/enums'
import { multiLine, searchTerm } from '#app/lib/text-rules'
import { readNamedFilters } from '#app/lib/list-query'
import * as z from '#app/lib/zod'
import { requiredText } from '#app/lib/schema-parts'

/**
 * Answer management's URL and form schemas (Zod Mini: app/lib/zod.ts) and wording: the list's
 * filters, the export's options and the reopen form. No server-only imports: this file reaches the
 * client.
 */

/** Where the CSV export is downloaded (a resource route). */
export const EXPORT_PATH = '/admin/answer-management/export.csv'

/** A response's state as answer management shows it (ADR 023). */
export const RESPONSE_STATES = ['in_progress', 'submitted', 'reopened'] as const
export type ResponseState = (typeof RESPONSE_STATES)[number]
export const RESPONSE_STATE_LABELS: Record<ResponseState, string> = {
  in_progress: 'In progress',
  submitted: 'Submitted',
  reopened: 'Reopened',
}

export const RELATIONSHIP_LABELS: Record<Relationship, string> = {
  self: 'Self-assessment',
  manager: 'Manager',
  peer: 'Peer',
  direct_report: 'Direct report',
  other: 'Other colleague',
}

export const RESPONSE_SORTS = ['started-desc', 'started-asc'] as const
export type ResponseSort = (typeof RESPONSE_SORTS)[number]
export const RESPONSE_SORT_LABELS: Record<ResponseSort, string> = {
  'started-desc': 'Newest first',
  'started-asc': 'Oldest first',
}

export const REOPEN_REASON_MAX = 1000
/**
 * Who answered a colleague's questionnaire is shown only for a reason worth recording (ADR 024):
 * long enough that "x" or "check" is not one, short enough to read on the dashboard.
 */
export const REVEAL_REASON_MIN = 10
export const REVEAL_REASON_MAX = 500

export const ANSWERS_ADMIN_MESSAGES = {
  revealReasonRequired: 'Say why you need to know who answered: the reason is recorded in the audit log.',
  revealReasonTooShort: `Give a reason of at least ${REVEAL_REASON_MIN} characters: it is recorded in the audit log.`,
  revealReasonTooLong: `The reason must be ${REVEAL_REASON_MAX} characters or fewer.`,
  strict:
    'Strict confidentiality is on for this installation: nobody can see who answered a colleague’s questionnaire.',
  selfNothingHidden: 'A self-assessment is answered by the person it is about: there is nobody to reveal.',
  grantInvalid:
    'This download link has expired or was made for someone else. Export again from answer management, with your reason.',
  reasonRequired:
    'Say why the answers are reopened: the respondent reads it in their e-mail and on the questionnaire.',
  reasonTooLong: `The reason must be ${REOPEN_REASON_MAX} characters or fewer.`,
  stale: 'This response could not be identified. Reload the page and try again.',
  notSubmitted: 'Only submitted answers can be reopened: these are still being answered.',
  schemeNotOpen: (scheme: string) =>
    `Answers can be reopened only while their scheme is open, and ${scheme} is not open now. Extend or reopen the scheme first.`,
  revoked: 'This invitation was withdrawn, so its answers cannot be reopened.',
} as const

const FILTER_NAMES = {
  scheme: 'scheme',
  company: 'company',
  questionnaire: 'questionnaire',
  relationship: 'relationship',
  state: 'state',
  sort: 'sort order',
} as const

/** The list's and the export's filters, as read from the URL. */
export type ResponseFilter = {
  q: string
  scheme: string
  company: string
  questionnaire: string
  relationship: Relationship | ''
  state: ResponseState | ''
}
export type ResponseListQuery = ResponseFilter & {
  sort: ResponseSort
  after?: string
  before?: string
}

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const uuidOrEmpty = z.union([z.literal(''), z.string().check(z.regex(uuidPattern))])

const FIELD_SCHEMAS = {
  scheme: uuidOrEmpty,
  company: uuidOrEmpty,
  questionnaire: uuidOrEmpty,
  relationship: z.union([z.literal(''), z.enum(RELATIONSHIPS)]),
  state: z.union([z.literal(''), z.enum(RESPONSE_STATES)]),
  sort: z.enum(RESPONSE_SORTS),
} as const

/**
 * Reads the filters from the URL. A value that is not one the page offers (an edited or outdated
 * link) is not applied, and the page says which one it dropped — never a 500, never a silent guess.
 */
export function parseResponseFilters(searchParams: URLSearchParams): {
  query: ResponseListQuery
  problems: string[]
} {
  const { values, problems } = readNamedFilters(searchParams, FIELD_SCHEMAS, FILTER_NAMES, {
    scheme: '',
    company: '',
    questionnaire: '',
    relationship: '',
    state: '',
    sort: 'started-desc',
  })
  const cursor = (key: 'after' | 'before') => searchParams.get(key) || undefined
  return {
    query: {
      q: searchTerm(searchParams.get('q') ?? ''),
      ...values,
      after: cursor('after'),
      before: cursor('before'),
    },
    problems,
  }
}

export const isFiltered = (f: ResponseFilter) =>
  Boolean(f.q || f.scheme || f.company || f.questionnaire || f.relationship || f.state)

/** The reason an admin gives for seeing who answered (reveal, export with names): audited. */
const revealReason = () =>
  z
    .string({ error: ANSWERS_ADMIN_MESSAGES.revealReasonRequired })
    .check(
      z.trim(),
      z.minLength(1, ANSWERS_ADMIN_MESSAGES.revealReasonRequired),
      z.minLength(REVEAL_REASON_MIN, ANSWERS_ADMIN_MESSAGES.revealReasonTooShort),
      z.maxLength(REVEAL_REASON_MAX, ANSWERS_ADMIN_MESSAGES.revealReasonTooLong),
      multiLine(),
    )

/** "Reveal who answered" on one response (ADR 024). */
export const RevealSchema = z.object({
  intent: z.literal('reveal'),
  reason: revealReason(),
})

/** A filter carried by the export form's hidden fields; parseResponseFilters checks its value. */
const carriedFilter = z.optional(z.string().check(z.maxLength(200)))

/** The export with respondents' names: the list's filters and the reason (ADR 024). */
export const ExportIdentitiesSchema = z.object({
  intent: z.literal('export-identities'),
  reason: revealReason(),
  q: carriedFilter,
  scheme: carriedFilter,
  company: carriedFilter,
  questionnaire: carriedFilter,
  relationship: carriedFilter,
  state: carriedFilter,
})

export const ReopenSchema = z.object({
  intent: z.literal('reopen'),
  reason: requiredText(
    ANSWERS_ADMIN_MESSAGES.reasonRequired,
    ANSWERS_ADMIN_MESSAGES.reasonTooLong,
    REOPEN_REASON_MAX,
    multiLine(),
  ),
})
