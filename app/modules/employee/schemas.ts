import { idOrEmpty, nameListQueryShape, parseListQuery } from '#app/lib/list-query'
import {
  ACCOUNT_STATE_LABELS,
  EMAIL_MAX,
  emailField,
  optionalEmail,
  optionalText,
  requiredText,
  type AccountState,
} from '#app/lib/schema-parts'
import * as z from '#app/lib/zod'
import { DISPLAY_NAME_MAX, phoneSchema } from '#app/modules/user/profile-schemas'

/**
 * The employee pages' Zod schemas (Zod Mini: app/lib/zod.ts) and wording (the list, the detail page
 * and the CSV import), shared by Conform in the browser and the actions on the server. No
 * server-only imports: this file reaches the client.
 */

export const EMPLOYEE_NAME_MAX = DISPLAY_NAME_MAX
export { EMAIL_MAX }
/** Department and job title: as long as a client's names for them reasonably get. */
export const ORG_TEXT_MAX = 100

export const EMPLOYEE_MESSAGES = {
  nameRequired: 'Enter the employee’s name.',
  nameTooLong: `The name must be ${EMPLOYEE_NAME_MAX} characters or fewer.`,
  emailRequired: 'Enter the employee’s e-mail address.',
  emailInvalid: 'Enter an e-mail address like name@example.com.',
  emailTooLong: `The e-mail address must be ${EMAIL_MAX} characters or fewer.`,
  company: 'Choose the company this person works for.',
  companyGone: 'That company no longer exists. Choose another one.',
  /**
   * An address that belongs to an administrator or to another company's employee: the same words
   * for both, so the form does not say whose it is.
   */
  emailUnavailable: 'This e-mail address belongs to another account, so it cannot be used here.',
  alreadyEmployee: (company: string) => `This person is already an employee of ${company}.`,
  gone: 'This employee no longer exists.',
  departmentTooLong: `The department must be ${ORG_TEXT_MAX} characters or fewer.`,
  jobTitleTooLong: `The job title must be ${ORG_TEXT_MAX} characters or fewer.`,
  managerInvalid: 'Enter the manager’s e-mail address like name@example.com, or leave it empty.',
  managerTooLong: `The manager’s e-mail address must be ${EMAIL_MAX} characters or fewer.`,
  managerSelf: 'An employee cannot be their own manager. Enter someone else’s address, or leave it empty.',
  managerUnknown: (company: string) =>
    `No employee of ${company} has this address. A manager must be an employee of the same company.`,
  managerCycle: (manager: string) =>
    `${manager} already reports to this employee, directly or through others: they cannot also be their manager.`,
  reportingLinesBusy:
    'Another change to reporting lines (an import, or another administrator’s edit) is being saved. Try again in a moment.',
  managesOthers: (count: number, company: string) =>
    `This employee manages ${count === 1 ? 'an employee' : `${count} employees`} of ${company}. Give ${
      count === 1 ? 'them' : 'those employees'
    } another manager before moving this employee to another company.`,
  stale: 'This employee could not be identified. Reload the page and try again.',
} as const

/**
 * The address rule of the whole product (Zod's `z.email()`), written once more as a POSIX regular
 * expression for Postgres: the CSV import checks 10,000 addresses in one statement. A test runs
 * both on the same addresses (tests/integration/admin/employee-import.test.ts).
 */
export const EMAIL_PATTERN_SQL =
  "^([A-Za-z0-9_'+-]+\\.)*[A-Za-z0-9_'+-]*[A-Za-z0-9_+-]@([A-Za-z0-9][A-Za-z0-9-]*\\.)+[A-Za-z]{2,}$"

const name = requiredText(EMPLOYEE_MESSAGES.nameRequired, EMPLOYEE_MESSAGES.nameTooLong, EMPLOYEE_NAME_MAX)

const email = emailField({
  required: EMPLOYEE_MESSAGES.emailRequired,
  invalid: EMPLOYEE_MESSAGES.emailInvalid,
  tooLong: EMPLOYEE_MESSAGES.emailTooLong,
})

// The profile page's rule: kept as written, runs of spaces collapsed; a blank field clears it.
const phone = phoneSchema
const department = optionalText(EMPLOYEE_MESSAGES.departmentTooLong, ORG_TEXT_MAX)
const jobTitle = optionalText(EMPLOYEE_MESSAGES.jobTitleTooLong, ORG_TEXT_MAX)
const managerEmail = optionalEmail({
  invalid: EMPLOYEE_MESSAGES.managerInvalid,
  tooLong: EMPLOYEE_MESSAGES.managerTooLong,
})
/** Who someone works for and as what (issue 18 §1): the same three fields in both forms. */
const org = { department, jobTitle, managerEmail }

const companyId = z.uuid({ error: EMPLOYEE_MESSAGES.company })
// A hidden field: a bad value is a stale page or a hand-made request, not a typo.
const employeeId = z.uuid({ error: EMPLOYEE_MESSAGES.stale })

export const EmployeeCreateSchema = z.object({
  intent: z.literal('create'),
  name,
  email,
  companyId,
  phone,
  ...org,
})

export const EmployeeUpdateSchema = z.object({
  intent: z.literal('update'),
  employeeId,
  name,
  email,
  companyId,
  phone,
  ...org,
})

export const EmployeeDisableSchema = z.object({ intent: z.literal('disable'), employeeId })
export const EmployeeEnableSchema = z.object({ intent: z.literal('enable'), employeeId })
export const EmployeeResendSchema = z.object({ intent: z.literal('resend-activation'), employeeId })

/** Erasure's confirmation (ADR 056): the person's address, typed. */
export const ERASE_CONFIRM_MESSAGE = 'Type the person’s e-mail address to confirm that they are to be erased.'
export const EmployeeEraseSchema = z.object({
  intent: z.literal('erase'),
  employeeId,
  confirmEmail: requiredText(ERASE_CONFIRM_MESSAGE, EMPLOYEE_MESSAGES.emailTooLong, EMAIL_MAX),
})

export type EmployeeInput = {
  name: string
  email: string
  companyId: string
  phone: string | null
  department: string | null
  jobTitle: string | null
  managerEmail: string | null
}

// ---------------------------------------------------------------------------------------------
// The list's URL.

export {
  NAME_SORTS as EMPLOYEE_SORTS,
  NAME_SORT_LABELS as EMPLOYEE_SORT_LABELS,
  type NameSort as EmployeeSort,
} from '#app/lib/list-query'

/** An employee's account state (AccountState): invited until they follow their activation link. */
export const EMPLOYEE_STATES = ['invited', 'active', 'disabled'] as const satisfies readonly AccountState[]
export type EmployeeState = (typeof EMPLOYEE_STATES)[number]
export const EMPLOYEE_STATE_LABELS: Record<EmployeeState, string> = ACCOUNT_STATE_LABELS

/** The list's URL: bad values fall back to defaults rather than failing the page. */
export const EmployeeListQuerySchema = z.object({
  ...nameListQueryShape,
  company: idOrEmpty,
  scheme: idOrEmpty,
  /** Direct reports of one employee (the employee page links here). */
  manager: idOrEmpty,
  /** One department of the chosen company (exact, as the list offers it); junk reads as none. */
  department: z.catch(
    z.pipe(
      z.string(),
      z.transform((v: string) => v.trim().slice(0, ORG_TEXT_MAX)),
    ),
    '',
  ),
  state: z.catch(z.union([z.enum(EMPLOYEE_STATES), z.literal('')]), ''),
})
export type EmployeeListQuery = z.output<typeof EmployeeListQuerySchema>

export function parseEmployeeListQuery(searchParams: URLSearchParams): EmployeeListQuery {
  return parseListQuery(EmployeeListQuerySchema, searchParams)
}

/** The detail page's URL: `?edit`, `?disable`, `?erase` open their panels. */
export const EmployeeDetailQuerySchema = z.object({
  disable: z.catch(z.optional(z.literal('1')), undefined),
  erase: z.catch(z.optional(z.literal('1')), undefined),
})
