import { requiredText } from '#app/lib/schema-parts'
import * as z from '#app/lib/zod'
import { FEEDBACK_REQUEST_CAP_MAX, FEEDBACK_REQUEST_CAP_MIN } from '#app/config/constants'
import { ERASURE_RATER_ANSWERS, RETENTION_ANSWER_MODES, type ErasureRaterAnswers } from '#db/enums'

/**
 * The company forms' Zod schemas (Zod Mini: app/lib/zod.ts), shared by Conform in the browser and the
 * action on the server.
 */

export const COMPANY_NAME_MAX = 100

const name = requiredText(
  'Enter the company’s name.',
  `The name must be ${COMPANY_NAME_MAX} characters or fewer.`,
  COMPANY_NAME_MAX,
)

const brandId = z.uuid({ error: 'Choose the brand this company’s e-mails and pages use.' })
// A hidden field: a bad value is a stale page or a hand-made request, not a typo.
const companyId = z.uuid({ error: 'This company could not be identified. Reload the page and try again.' })

export const FEEDBACK_REQUEST_CAP_MESSAGE = `Enter how many open feedback requests one person may have at once, a whole number from ${FEEDBACK_REQUEST_CAP_MIN} to ${FEEDBACK_REQUEST_CAP_MAX}.`

// Conform turns the field's text into a number; an empty field arrives missing, any text stays text.
const feedbackRequestCap = z
  .number({ error: FEEDBACK_REQUEST_CAP_MESSAGE })
  .check(
    z.int(FEEDBACK_REQUEST_CAP_MESSAGE),
    z.gte(FEEDBACK_REQUEST_CAP_MIN, FEEDBACK_REQUEST_CAP_MESSAGE),
    z.lte(FEEDBACK_REQUEST_CAP_MAX, FEEDBACK_REQUEST_CAP_MESSAGE),
  )

export const ERASURE_RATER_ANSWERS_MESSAGE = 'Choose what happens to an erased person’s answers about others.'

/**
 * What erasing a person does with their answers about others (ADR 056). Optional: a form that does
 * not send it (an older page) leaves the company's setting as it is.
 */
const erasureRaterAnswers = z.optional(
  z.enum(ERASURE_RATER_ANSWERS, { error: ERASURE_RATER_ANSWERS_MESSAGE }),
)

export const CompanyCreateSchema = z.object({
  intent: z.literal('create'),
  name,
  brandId,
})

export const CompanyUpdateSchema = z.object({
  intent: z.literal('update'),
  companyId,
  name,
  brandId,
  feedbackRequestCap,
  erasureRaterAnswers,
})

export const CompanyDeleteSchema = z.object({
  intent: z.literal('delete'),
  companyId,
})

/** The longest retention period a company may set, in months (50 years): the schema's check too. */
export const RETENTION_MONTHS_MAX = 600

export const RETENTION_MESSAGES = {
  answersMonths: `Enter how many months to keep answers after a scheme closes: a whole number from 1 to ${RETENTION_MONTHS_MAX}, or leave it empty to keep them for ever.`,
  accountsMonths: `Enter after how many months to delete accounts never activated or disabled: a whole number from 1 to ${RETENTION_MONTHS_MAX}, or leave it empty to keep them.`,
  auditMonths: `Enter how many months to keep audit entries with their personal data: a whole number from 1 to ${RETENTION_MONTHS_MAX}, or leave it empty to keep it for ever.`,
  answersMode: 'Choose whether answers past their period are anonymised or deleted.',
} as const

// Conform turns the field's text into a number; empty arrives missing (keep for ever), text stays text.
const months = (message: string) =>
  z.pipe(
    z.optional(
      z
        .number({ error: message })
        .check(z.int(message), z.gte(1, message), z.lte(RETENTION_MONTHS_MAX, message)),
    ),
    z.transform((v: number | undefined) => v ?? null),
  )

/** A company's retention (issue 21 §3, ADR 058): three periods in months (empty: for ever) and a mode. */
export const CompanyRetentionSchema = z.object({
  intent: z.literal('retention'),
  answersMonths: months(RETENTION_MESSAGES.answersMonths),
  answersMode: z.enum(RETENTION_ANSWER_MODES, { error: RETENTION_MESSAGES.answersMode }),
  accountsMonths: months(RETENTION_MESSAGES.accountsMonths),
  auditMonths: months(RETENTION_MESSAGES.auditMonths),
})

export type CompanyRetentionInput = Omit<z.infer<typeof CompanyRetentionSchema>, 'intent'>

/**
 * The retention page's URL: `?dry-run=1` asks for the dry run (it reads every scheme, account and
 * audit entry the rules cover: seconds on a large company, so never on a plain visit). Any other
 * value is a plain visit.
 */
export const RetentionPageQuerySchema = z.object({
  'dry-run': z.catch(z.optional(z.literal('1')), undefined),
})

export type CompanyInput = { name: string; brandId: string }
export type CompanyUpdateInput = CompanyInput & {
  feedbackRequestCap: number
  erasureRaterAnswers?: ErasureRaterAnswers | undefined
}

/** The list's URL: searched by name, sorted by name or age; bad values fall back to defaults. */
export {
  NAME_SORTS as COMPANY_SORTS,
  NAME_SORT_LABELS as COMPANY_SORT_LABELS,
  parseNameListQuery as parseCompanyListQuery,
} from '#app/lib/list-query'
export type { NameSort as CompanySort, NameListQuery as CompanyListQuery } from '#app/lib/list-query'
