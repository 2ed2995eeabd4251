import {
  LANGUAGE_CODES,
  NOMINATION_APPROVALS,
  NOMINATION_CHOOSERS,
  REPORT_RELEASES,
  type ReportRelease,
} from '#db/enums'
import { MAX_COLLEAGUES } from '#app/config/constants'
import { canonicalTimeZone, zonedTimeToInstant, type ZonedTime } from '#app/lib/dates'
import { requiredText } from '#app/lib/schema-parts'
import { multiLine } from '#app/lib/text-rules'
import {
  cursorParam,
  listQueryShape,
  NAME_SORT_LABELS,
  NAME_SORTS,
  parseListQuery,
  readNamedFilters,
  searchText,
  type NameSort,
} from '#app/lib/list-query'
import * as z from '#app/lib/zod'
import type { SchemePhase } from './state'

/**
 * The scheme forms' Zod schemas and wording, shared by Conform in the browser and the actions on
 * the server. Dates are typed as wall-clock times in the scheme's own time zone (a datetime-local
 * input) and leave here as instants; the zone is an IANA name the runtime knows. No server imports.
 * Written in Zod Mini (app/lib/zod.ts, docs/decisions/014-zod-mini-in-the-browser.md).
 */

export const SCHEME_NAME_MAX = 120
export const REMINDER_CADENCE_MAX = 30
export const MIN_RATERS_MAX = 8

export const SCHEME_MESSAGES = {
  languages: 'Choose among the portal’s languages.',
  name: 'Enter the scheme’s name.',
  nameTooLong: `The name must be ${SCHEME_NAME_MAX} characters or fewer.`,
  company: 'Choose the company whose employees take part.',
  questionnaire: 'Choose a published questionnaire.',
  timeZone: 'Enter a time zone by its IANA name, such as Europe/London or America/New_York.',
  opensAt: 'Enter when the scheme opens, as a date and a time.',
  closesAt: 'Enter when the scheme closes, as a date and a time.',
  nonexistent: (zone: string) =>
    `That time does not exist in ${zone}: the clocks go forward then. Choose a time an hour later.`,
  closesBeforeOpens: 'The scheme must close after it opens.',
  closesInPast: 'That time has already passed. Choose a closing time in the future.',
  maxColleagues: `Enter a number of colleagues from 1 to ${MAX_COLLEAGUES}.`,
  groupMinimum: `Enter a number from 0 to ${MAX_COLLEAGUES}.`,
  minimumsOverMax: (sum: number, max: number) =>
    `The minimums add up to ${sum}, more than the ${max} colleagues each employee may invite. Lower a minimum or raise the most colleagues.`,
  minRaters: `Enter a number of colleagues from 1 to ${MIN_RATERS_MAX}.`,
  reminderCadence: `Enter a number of days from 0 (no reminders) to ${REMINDER_CADENCE_MAX}.`,
  reportRelease: 'Choose when the reports show colleagues’ answers.',
  showManagerTooLate:
    'Managers have already been invited here, told that their answers are combined with others’. Switch this on only before the first manager is invited.',
  managerSeesReportTooLate:
    'Employees have already invited or listed colleagues here, told who would read their report. Change this only before the first invitation or list.',
  followsScheme: 'Choose an earlier scheme from the list, or none.',
  scheme: 'This scheme could not be identified. Reload the page and try again.',
  employee: 'This employee could not be identified. Reload the page and try again.',
  releaseKind: 'This release could not be understood. Reload the page and try again.',
  chooseEmployees: 'Choose at least one employee to enrol.',
  tooManyEmployees: 'Choose at most 200 employees at a time, or enrol the whole company.',
  employeeName: 'Enter the employee’s name.',
  employeeNameTooLong: 'The name must be 100 characters or fewer.',
  email: 'Enter an e-mail address such as name@example.com.',
  nominationChooser: 'Choose who chooses the raters.',
  nominationApproval: 'Choose who approves the lists before invitations go out.',
  nominationsCloseAt: 'Enter the nomination deadline as a date and a time, or leave it empty.',
  nominationsCloseBeforeOpens: 'The nomination deadline must come after the scheme opens.',
  nominationsCloseAfterCloses:
    'The nomination deadline must come before the scheme closes, so that the people invited have time to answer.',
  nominationsFixed:
    'Lists or invitations exist in this scheme already, so who chooses the raters, the approval, the fewest per group and the most colleagues can no longer change. The nomination deadline still can.',
} as const

export const REPORT_RELEASE_LABELS: Record<ReportRelease, string> = {
  on_close: 'When the scheme closes',
  by_admin: 'When an administrator releases them',
}

/** Why an enrolment cannot be removed: the same words on the confirmation and from the action. */
export const REMOVAL_MESSAGES = {
  started: (who: string) =>
    `${who} has started their self-assessment, so their enrolment can no longer be removed. Their answers stay with the scheme.`,
  invited: (who: string, live: number) =>
    `${who} has ${live} colleague ${live === 1 ? 'invitation' : 'invitations'} standing in this scheme. Revoke ${
      live === 1 ? 'it' : 'them'
    } on their behalf first (“Invite on their behalf”), then remove the enrolment.`,
}

/** Why a participant's enrolment cannot be removed (as the progress table sees them); null when it can. */
export function removalBlockedBy(row: {
  name: string
  email: string
  started: boolean
  colleaguesInvited: number
}) {
  const who = row.name || row.email
  if (row.started) return REMOVAL_MESSAGES.started(who)
  if (row.colleaguesInvited > 0) return REMOVAL_MESSAGES.invited(who, row.colleaguesInvited)
  return null
}

/** The most employees one "enrol the chosen" post may name (the list shows at most 50 at a time). */
export const ENROL_PICK_MAX = 200

const name = requiredText(SCHEME_MESSAGES.name, SCHEME_MESSAGES.nameTooLong, SCHEME_NAME_MAX)

const companyId = z.uuid({ error: SCHEME_MESSAGES.company })
const questionnaireId = z.uuid({ error: SCHEME_MESSAGES.questionnaire })

const timeZone = z.pipe(
  z.string({ error: SCHEME_MESSAGES.timeZone }).check(
    z.trim(),
    z.maxLength(64, SCHEME_MESSAGES.timeZone),
    z.refine((v) => canonicalTimeZone(v) !== null, SCHEME_MESSAGES.timeZone),
  ),
  z.transform((v: string) => canonicalTimeZone(v)!),
)

/** "2026-06-30T09:00" as a datetime-local input sends it (seconds allowed, and ignored). */
export const LOCAL_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2})?$/

const localDateTime = (message: string) =>
  z.string({ error: message }).check(
    z.trim(),
    z.maxLength(19, message),
    // A well-formed but impossible time (30 February) is refused here too: any zone will do.
    z.refine((v) => LOCAL_DATE_TIME.test(v) && zonedTimeToInstant(v, 'UTC').ok, message),
  )

const whole = (message: string, min: number, max: number) =>
  z.number({ error: message }).check(z.int(message), z.gte(min, message), z.lte(max, message))

function groupMinimum() {
  return z._default(whole(SCHEME_MESSAGES.groupMinimum, 0, MAX_COLLEAGUES), 0)
}

const reportRelease = z.enum(REPORT_RELEASES, { error: SCHEME_MESSAGES.reportRelease })
// Absent (a caller other than the form, or the placeholder chosen): unchanged, or the default for a new scheme.
const nominationChooser = z.optional(
  z.enum(NOMINATION_CHOOSERS, { error: SCHEME_MESSAGES.nominationChooser }),
)
const nominationApproval = z.optional(
  z.enum(NOMINATION_APPROVALS, { error: SCHEME_MESSAGES.nominationApproval }),
)

/** The field's message for a wall-clock time that means no instant in the zone. */
export function zonedTimeMessage(
  result: Extract<ZonedTime, { ok: false }>,
  field: 'opensAt' | 'closesAt' | 'nominationsCloseAt',
  zone: string,
) {
  if (result.reason === 'nonexistent') return SCHEME_MESSAGES.nonexistent(zone)
  if (result.reason === 'zone') return SCHEME_MESSAGES.timeZone
  return SCHEME_MESSAGES[field]
}

const fields = {
  name,
  companyId,
  questionnaireId,
  timeZone,
  opensAt: localDateTime(SCHEME_MESSAGES.opensAt),
  closesAt: localDateTime(SCHEME_MESSAGES.closesAt),
  maxColleagues: whole(SCHEME_MESSAGES.maxColleagues, 1, MAX_COLLEAGUES),
  minRaters: whole(SCHEME_MESSAGES.minRaters, 1, MIN_RATERS_MAX),
  reminderCadenceDays: whole(SCHEME_MESSAGES.reminderCadence, 0, REMINDER_CADENCE_MAX),
  reportRelease,
  /** A checkbox: Conform reads "on" as true; absent is off. */
  showManagerBelowThreshold: z.optional(z.boolean()),
  /** A checkbox (ADR 043): the manager reads the released report without the employee's consent. */
  managerSeesReport: z.optional(z.boolean()),
  // The fewest colleagues per relationship group (warnings while inviting); absent reads as 0.
  minManager: groupMinimum(),
  minPeer: groupMinimum(),
  minDirectReport: groupMinimum(),
  minOther: groupMinimum(),
  // Nomination (issue 18 §2, ADR 042): who builds the lists, who approves them, and until when.
  nominationChooser,
  nominationApproval,
  /** Empty: no nomination deadline (lists can change until the scheme closes). */
  nominationsCloseAt: z.optional(localDateTime(SCHEME_MESSAGES.nominationsCloseAt)),
  // Repeat cycles and norms (issue 19 §5–6, ADR 044). Empty: follows no scheme; absent checkbox: off.
  followsSchemeId: z.optional(z.uuid({ error: SCHEME_MESSAGES.followsScheme })),
  showNorm: z.optional(z.boolean()),
  /**
   * The languages raters may answer in (ADR 051), checkboxes; the questionnaire's source language is
   * always one of them. Absent: the source language only on a new scheme, unchanged on an edit.
   */
  languages: z.optional(z.array(z.enum(LANGUAGE_CODES, { error: SCHEME_MESSAGES.languages }))),
}

/** The group minimums' fields, in the report's group order. */
export const GROUP_MINIMUM_FIELDS = ['minManager', 'minPeer', 'minDirectReport', 'minOther'] as const

type Fields = { timeZone: string; opensAt: string; closesAt: string; nominationsCloseAt?: string }
const DATE_FIELDS = new Set(['timeZone', 'opensAt', 'closesAt', 'nominationsCloseAt'])

/**
 * Where a nomination deadline stands against the scheme's dates: the message for it, or null when
 * it falls after the opening and before the close. The form's check and the service's (which also
 * sees a deadline left as it was while the dates move) use this one rule.
 */
export function nominationsCloseProblem(
  deadline: Date | null | undefined,
  dates: { opensAt: Date; closesAt: Date },
): string | null {
  if (!deadline) return null
  if (deadline.getTime() <= dates.opensAt.getTime()) return SCHEME_MESSAGES.nominationsCloseBeforeOpens
  if (deadline.getTime() >= dates.closesAt.getTime()) return SCHEME_MESSAGES.nominationsCloseAfterCloses
  return null
}

/**
 * The dates as instants in the scheme's zone, checked together: each must exist there, and the
 * close must come after the opening. Runs whenever the three fields are readable, so these
 * messages show beside any others rather than on the next try.
 */
function withDateChecks<T extends Fields>(schema: z.ZodMiniType<T>) {
  return schema.check(
    z.superRefine<T>(
      (v, ctx) => {
        const opens = zonedTimeToInstant(v.opensAt, v.timeZone)
        const closes = zonedTimeToInstant(v.closesAt, v.timeZone)
        if (!opens.ok)
          ctx.addIssue({
            code: 'custom',
            path: ['opensAt'],
            message: zonedTimeMessage(opens, 'opensAt', v.timeZone),
          })
        if (!closes.ok)
          ctx.addIssue({
            code: 'custom',
            path: ['closesAt'],
            message: zonedTimeMessage(closes, 'closesAt', v.timeZone),
          })
        if (opens.ok && closes.ok && closes.instant.getTime() <= opens.instant.getTime())
          ctx.addIssue({ code: 'custom', path: ['closesAt'], message: SCHEME_MESSAGES.closesBeforeOpens })
        if (v.nominationsCloseAt) {
          const deadline = zonedTimeToInstant(v.nominationsCloseAt, v.timeZone)
          if (!deadline.ok)
            ctx.addIssue({
              code: 'custom',
              path: ['nominationsCloseAt'],
              message: zonedTimeMessage(deadline, 'nominationsCloseAt', v.timeZone),
            })
          else if (opens.ok && closes.ok) {
            const problem = nominationsCloseProblem(deadline.instant, {
              opensAt: opens.instant,
              closesAt: closes.instant,
            })
            if (problem) ctx.addIssue({ code: 'custom', path: ['nominationsCloseAt'], message: problem })
          }
        }
      },
      {
        when: (payload) => !payload.issues.some((issue) => DATE_FIELDS.has(String(issue.path?.[0]))),
      },
    ),
    z.superRefine<T>(
      (v, ctx) => {
        const values = v as T & Record<(typeof GROUP_MINIMUM_FIELDS)[number] | 'maxColleagues', number>
        const sum = GROUP_MINIMUM_FIELDS.reduce((n, f) => n + (values[f] ?? 0), 0)
        if (sum > values.maxColleagues)
          ctx.addIssue({
            code: 'custom',
            path: ['minPeer'],
            message: SCHEME_MESSAGES.minimumsOverMax(sum, values.maxColleagues),
          })
      },
      {
        when: (payload) =>
          !payload.issues.some((issue) =>
            ['maxColleagues', ...GROUP_MINIMUM_FIELDS].includes(String(issue.path?.[0])),
          ),
      },
    ),
  )
}

export const SchemeCreateSchema = withDateChecks(z.object({ intent: z.literal('create'), ...fields }))

export const SchemeUpdateSchema = withDateChecks(z.object({ intent: z.literal('update'), ...fields }))

/** What the scheme service takes to create or change a scheme: the form's values, dates as instants. */
export type SchemeInput = Omit<
  z.output<typeof SchemeCreateSchema>,
  | 'intent'
  | 'opensAt'
  | 'closesAt'
  | 'nominationsCloseAt'
  | 'followsSchemeId'
  | (typeof GROUP_MINIMUM_FIELDS)[number]
> & {
  opensAt: Date
  closesAt: Date
  /** Null: no nomination deadline; absent (a caller other than the form): unchanged, or none. */
  nominationsCloseAt?: Date | null
  /** The earlier scheme this one follows (ADR 044); absent or null: none. */
  followsSchemeId?: string | null
} & Partial<Record<(typeof GROUP_MINIMUM_FIELDS)[number], number>>

/**
 * A checked form's values as the service takes them. The dates become instants here rather than in
 * the schema: Conform reads the schema's constraints for the browser, and cannot read a schema that
 * ends in a transform.
 */
export function schemeInputOf(
  value: z.output<typeof SchemeCreateSchema> | z.output<typeof SchemeUpdateSchema>,
): SchemeInput {
  const { intent: _intent, ...rest } = value
  const instant = (local: string) => {
    const result = zonedTimeToInstant(local, rest.timeZone)
    // The schema's check has already refused anything else.
    if (!result.ok) throw new Error('schemeInputOf: a date that passed the check means no instant')
    return result.instant
  }
  return {
    ...rest,
    showManagerBelowThreshold: rest.showManagerBelowThreshold === true,
    managerSeesReport: rest.managerSeesReport === true,
    showNorm: rest.showNorm === true,
    followsSchemeId: rest.followsSchemeId ?? null,
    opensAt: instant(rest.opensAt),
    closesAt: instant(rest.closesAt),
    // The form always has the field: empty is "no deadline".
    nominationsCloseAt: rest.nominationsCloseAt ? instant(rest.nominationsCloseAt) : null,
  }
}

// The lifecycle forms. Their dates are read in the scheme's stored zone by the service.
export const SchemeLaunchSchema = z.object({ intent: z.literal('launch') })
export const SchemeCloseSchema = z.object({ intent: z.literal('close') })

/** The longest reason a legal hold keeps (ADR 058). */
export const LEGAL_HOLD_REASON_MAX = 500
export const LEGAL_HOLD_MESSAGES = {
  reason: 'Enter why the scheme is on legal hold, such as the claim or request it is kept for.',
  reasonTooLong: `The reason must be ${LEGAL_HOLD_REASON_MAX} characters or fewer.`,
} as const

/** A legal hold on the scheme (issue 21 §3, ADR 058): retention leaves it alone until it is lifted. */
export const SchemeLegalHoldSchema = z.object({
  intent: z.literal('legal-hold'),
  reason: requiredText(
    LEGAL_HOLD_MESSAGES.reason,
    LEGAL_HOLD_MESSAGES.reasonTooLong,
    LEGAL_HOLD_REASON_MAX,
    multiLine(),
  ),
})
export const SchemeLiftLegalHoldSchema = z.object({ intent: z.literal('lift-legal-hold') })
export const SchemeReopenSchema = z.object({
  intent: z.literal('reopen'),
  closesAt: localDateTime(SCHEME_MESSAGES.closesAt),
})
export const SchemeExtendSchema = z.object({
  intent: z.literal('extend'),
  closesAt: localDateTime(SCHEME_MESSAGES.closesAt),
})

// Hidden fields: a bad value is a stale page or a hand-made request, not a typo.
const employeeId = z.uuid({ error: SCHEME_MESSAGES.employee })

export const SchemeEnrolSchema = z.object({
  intent: z.literal('enrol'),
  employeeIds: z
    .array(employeeId, { error: SCHEME_MESSAGES.chooseEmployees })
    .check(
      z.minLength(1, SCHEME_MESSAGES.chooseEmployees),
      z.maxLength(ENROL_PICK_MAX, SCHEME_MESSAGES.tooManyEmployees),
    ),
})
export const SchemeEnrolAllSchema = z.object({ intent: z.literal('enrol-all') })

export const SchemeAddEmployeeSchema = z.object({
  intent: z.literal('add-employee'),
  displayName: requiredText(SCHEME_MESSAGES.employeeName, SCHEME_MESSAGES.employeeNameTooLong, 100),
  email: z.pipe(
    z.pipe(
      z.string({ error: SCHEME_MESSAGES.email }).check(z.trim(), z.maxLength(254, SCHEME_MESSAGES.email)),
      z.email(SCHEME_MESSAGES.email),
    ),
    z.transform((v: string) => v.toLowerCase()),
  ),
})

export const SchemeRemoveSchema = z.object({ intent: z.literal('remove'), employeeId })
export const SchemeRemindSchema = z.object({ intent: z.literal('remind'), employeeId })
/** Release (or release again) one participant's report, and every report of the scheme (ADR 022). */
/**
 * `kind` is what the admin confirmed (ADR 025): the report with colleagues' results, or, below the
 * threshold, the self-assessment alone. `again`: "release all" also releases reports released
 * before that have changed enough since.
 */
export const SchemeReleaseSchema = z.object({
  intent: z.literal('release'),
  employeeId,
  kind: z.optional(z.enum(['full', 'self-only'], { error: SCHEME_MESSAGES.releaseKind })),
})
export const SchemeReleaseAllSchema = z.object({
  intent: z.literal('release-all'),
  again: z.optional(z.enum(['yes'], { error: SCHEME_MESSAGES.releaseKind })),
})

// ---------------------------------------------------------------------------------------------
// The list's and the detail page's addresses: bad values fall back rather than failing the page.

export const SCHEME_SORTS = NAME_SORTS
export type SchemeSort = NameSort
export const SCHEME_SORT_LABELS = NAME_SORT_LABELS

export const SCHEME_PHASES = ['draft', 'upcoming', 'open', 'closed'] as const satisfies readonly SchemePhase[]

/** The list's search, sort and keyset cursors (bad values fall back to the default). */
export const SchemeListQuerySchema = z.object(listQueryShape(SCHEME_SORTS, 'created-desc'))

/** The list's filters: a value the page does not offer is dropped, and named (readNamedFilters). */
const uuidOrNone = z.union([z.literal(''), z.uuid()])
const SCHEME_FILTERS = {
  company: uuidOrNone,
  phase: z.union([z.literal(''), z.enum(SCHEME_PHASES)]),
  questionnaire: uuidOrNone,
}
const SCHEME_FILTER_NAMES = { company: 'company', phase: 'status', questionnaire: 'questionnaire' } as const

export type SchemeListQuery = z.output<typeof SchemeListQuerySchema> & {
  company?: string
  phase?: SchemePhase
  /** The questionnaire version the schemes use (the questionnaire pages link here with it). */
  questionnaire?: string
}

/** The list's address read: its query, and the filters of the link that were not understood. */
export function parseSchemeListQuery(searchParams: URLSearchParams): {
  query: SchemeListQuery
  problems: string[]
} {
  const { values, problems } = readNamedFilters(searchParams, SCHEME_FILTERS, SCHEME_FILTER_NAMES, {
    company: '',
    phase: '',
    questionnaire: '',
  })
  return {
    query: {
      ...parseListQuery(SchemeListQuerySchema, searchParams),
      company: values.company || undefined,
      phase: values.phase || undefined,
      questionnaire: values.questionnaire || undefined,
    },
    problems,
  }
}

/** The scheme list filtered to the schemes that use one questionnaire version. */
export const schemesUsingHref = (questionnaireId: string) =>
  `/admin/scheme-management?${new URLSearchParams({ questionnaire: questionnaireId })}`

/** The detail page: participants (search, pages), the enrol picker's search, and which panel is open. */
export const SchemeDetailQuerySchema = z.object({
  q: searchText,
  find: searchText,
  after: cursorParam,
  before: cursorParam,
  edit: z.catch(z.optional(z.string()), undefined),
  confirm: z.catch(
    z.optional(z.enum(['launch', 'close', 'reopen', 'enrol-all', 'release-all', 'release-again-all'])),
    undefined,
  ),
  remove: z.catch(z.optional(z.uuid()), undefined),
  /** The participant whose report the "release" confirmation is about. */
  release: z.catch(z.optional(z.uuid()), undefined),
})
export type SchemeDetailQuery = z.output<typeof SchemeDetailQuerySchema>

export function parseSchemeDetailQuery(searchParams: URLSearchParams): SchemeDetailQuery {
  return SchemeDetailQuerySchema.parse(Object.fromEntries(searchParams))
}
