import { EMAIL_MAX, EMPLOYEE_NAME_MAX, ORG_TEXT_MAX } from './schemas'
import * as z from '#app/lib/zod'
import { PHONE_MAX, PHONE_MESSAGE, PHONE_TOO_LONG } from '#app/modules/user/profile-schemas'

/**
 * The CSV import's wording and forms (ADR 012; the forms in Zod Mini, app/lib/zod.ts), shared by the
 * page and import.server.ts. No server-only imports: this file reaches the client.
 */

/** Rows per file. */
export const IMPORT_MAX_ROWS = 10_000
/**
 * The file's size cap: the product's upload limit (2 MB, as for images; the server refuses bodies
 * over 3 MB before they are read, app/server/app.ts). 10,000 rows fit with about 200 bytes a row;
 * a realistic row (name, address, company, phone) takes 80 to 130.
 */
export const IMPORT_MAX_BYTES = 2 * 1024 * 1024
/** Rows per page of the preview. */
export const IMPORT_PAGE_SIZE = 50

/**
 * Longest department and job title (issue 18): a team's or a role's name, one line. The same cap as
 * the employee page's.
 */
/** The employee form's limits (schemas.ts), so a file and the form agree. */
export const DEPARTMENT_MAX = ORG_TEXT_MAX
export const JOB_TITLE_MAX = ORG_TEXT_MAX

/**
 * The columns, as the template writes them; headers are matched ignoring case, spaces, dashes and
 * underscores. The last three (issue 18) are optional, as the phone is; an empty cell in them leaves
 * what an existing person has.
 */
export const IMPORT_COLUMNS = [
  'name',
  'email',
  'company',
  'phone',
  'manager_email',
  'department',
  'job_title',
] as const
export type ImportColumn = (typeof IMPORT_COLUMNS)[number]
export const IMPORT_HEADER_ALIASES: Record<string, ImportColumn> = {
  name: 'name',
  fullname: 'name',
  email: 'email',
  emailaddress: 'email',
  company: 'company',
  companyname: 'company',
  phone: 'phone',
  phonenumber: 'phone',
  telephone: 'phone',
  // "Manager e-mail", "Manager's email", "manager_email"; a column of managers by name is refused
  // per row (the manager is named by their address, as the employees are).
  manageremail: 'manager_email',
  managersemail: 'manager_email',
  manageremailaddress: 'manager_email',
  manager: 'manager_email',
  department: 'department',
  team: 'department',
  departmentteam: 'department',
  jobtitle: 'job_title',
  title: 'job_title',
  position: 'job_title',
  // The import has no other kind of role (administrators are never imported): an HR export's
  // "Role" is the person's job.
  role: 'job_title',
}

/** A header cell as matched: lower-case letters and digits only ("E-mail" → "email", "job_title" → "jobtitle"). */
export const headerKey = (cell: string) => cell.toLowerCase().replace(/[^a-z0-9]/g, '')

/**
 * Why a row cannot be imported, as stored in employee_import_rows.errors (codes, so the summary can
 * count them; the words live here).
 */
export const ROW_PROBLEMS = {
  too_many_values:
    'The row has more values than the header: put a value that contains a comma or semicolon in double quotes.',
  not_utf8:
    'The row holds characters that are not UTF-8 text: save the file as “CSV UTF-8” and upload it again.',
  name_missing: 'The name is missing.',
  name_too_long: `The name is longer than ${EMPLOYEE_NAME_MAX} characters.`,
  name_control: 'The name holds a line break, a tab or another control character.',
  email_missing: 'The e-mail address is missing.',
  email_invalid: 'The e-mail address is not valid.',
  email_too_long: `The e-mail address is longer than ${EMAIL_MAX} characters.`,
  // Shown with the first row's line (rowProblemTexts); this is the wording without it.
  email_duplicate: 'The e-mail address is on an earlier row of the file, which is the one imported.',
  // An administrator's address or another company's employee's: the same words for both.
  email_unavailable:
    'The e-mail address belongs to another account, so it cannot be imported for this company.',
  company_missing: 'The company is missing.',
  company_unknown: 'No company has this name: create it first, or correct the name.',
  phone_invalid: PHONE_MESSAGE,
  phone_too_long: PHONE_TOO_LONG,
  // Issue 18. The manager is named by their address; "line N" is added by rowProblemTexts.
  manager_invalid: 'The manager’s e-mail address is not valid.',
  manager_self: 'The manager’s e-mail address is this person’s own: nobody can be their own manager.',
  // An address nobody has, an administrator's, a colleague's (who only gave feedback) and another
  // company's employee's: the same words for all, as for email_unavailable.
  manager_unknown:
    'The manager’s e-mail address is not that of an employee of this company, in this file or already: add the manager to the file, or correct the address.',
  manager_other_company:
    'The manager is on another row of this file, with another company: a manager must work for the same company.',
  manager_cycle:
    'The managers go round in a circle: following them from this person leads back to this person. Change one of the managers in the circle.',
  manager_has_problems:
    'The manager is on another row of this file, which cannot be imported: fix that row first.',
  department_too_long: `The department is longer than ${DEPARTMENT_MAX} characters.`,
  department_control: 'The department holds a line break, a tab or another control character.',
  job_title_too_long: `The job title is longer than ${JOB_TITLE_MAX} characters.`,
  job_title_control: 'The job title holds a line break, a tab or another control character.',
} as const
export type RowProblem = keyof typeof ROW_PROBLEMS

/** Short labels for the counts ("3 invalid e-mail addresses"). */
export const ROW_PROBLEM_LABELS: Record<RowProblem, string> = {
  too_many_values: 'more values than the header',
  not_utf8: 'not UTF-8 text',
  name_missing: 'name missing',
  name_too_long: 'name too long',
  name_control: 'name with a line break or control character',
  email_missing: 'e-mail address missing',
  email_invalid: 'invalid e-mail address',
  email_too_long: 'e-mail address too long',
  email_duplicate: 'e-mail address repeats an earlier row',
  email_unavailable: 'e-mail address belongs to another account',
  company_missing: 'company missing',
  company_unknown: 'unknown company',
  phone_invalid: 'invalid phone number',
  phone_too_long: 'phone number too long',
  manager_invalid: 'invalid manager e-mail address',
  manager_self: 'manager is the person themself',
  manager_unknown: 'manager not an employee of the company',
  manager_other_company: 'manager with another company',
  manager_cycle: 'managers in a circle',
  manager_has_problems: 'manager’s row cannot be imported',
  department_too_long: 'department too long',
  department_control: 'department with a line break or control character',
  job_title_too_long: 'job title too long',
  job_title_control: 'job title with a line break or control character',
}

export const problemText = (code: string) => ROW_PROBLEMS[code as RowProblem] ?? code

/**
 * What a row's problems say, with what the check found out about it (the first row, a near name,
 * the manager's line).
 */
export function rowProblemTexts(
  row: {
    errors: string[]
    companyName: string
    duplicateOf: number | null
    companySuggestion: string | null
    managerLine?: number | null
  },
  say?: ProblemWords,
) {
  const managerLine = row.managerLine ?? null
  return row.errors.map((code) => {
    if (code === 'manager_other_company' && managerLine !== null)
      return say
        ? say('problems.managerOtherCompanyLine', { line: managerLine })
        : `The manager is on line ${managerLine} of this file, with another company: a manager must work for the same company.`
    if (code === 'manager_has_problems' && managerLine !== null)
      return say
        ? say('problems.managerHasProblemsLine', { line: managerLine })
        : `The manager is on line ${managerLine} of this file, which cannot be imported: fix that row first.`
    if (code === 'email_duplicate' && row.duplicateOf !== null)
      return say
        ? say('problems.duplicateOf', { line: row.duplicateOf })
        : `Duplicate of row ${row.duplicateOf}: the same e-mail address is on line ${row.duplicateOf}, and only that first row is imported.`
    if (code === 'company_unknown' && row.companySuggestion)
      return say
        ? say('problems.companySuggestion', { company: row.companyName, suggestion: row.companySuggestion })
        : `Unknown company “${row.companyName}” — did you mean ${row.companySuggestion}?`
    if (say && code in ROW_PROBLEMS)
      return say(`problems.${code}`, { max: PROBLEM_LIMITS[code as RowProblem] ?? 0 })
    return problemText(code)
  })
}

/**
 * The `employees` catalogue's `problems.*` in the reader's language (ADR 050): `rowProblemTexts`
 * says a row's problems with it on the import page; without it, in English (the problems CSV).
 */
export type ProblemWords = (key: string, values: Record<string, string | number>) => string

/** The limit a "too long" problem names, as the catalogue's `{max}`. */
export const PROBLEM_LIMITS: Partial<Record<RowProblem, number>> = {
  name_too_long: EMPLOYEE_NAME_MAX,
  email_too_long: EMAIL_MAX,
  phone_too_long: PHONE_MAX,
  department_too_long: DEPARTMENT_MAX,
  job_title_too_long: JOB_TITLE_MAX,
}

/** What became of a row once imported. */
export const ROW_OUTCOMES = ['created', 'updated', 'unchanged', 'skipped'] as const
export type RowOutcome = (typeof ROW_OUTCOMES)[number]

export type ImportSummary = {
  created: number
  updated: number
  unchanged: number
  skipped: number
  enrolled: number
  schemeName: string | null
}

export type ImportSchemeOption = { id: string; name: string; companyName: string }

export type ImportView = {
  id: string
  fileName: string
  createdAt: string
  rows: number
  problemRows: number
  /** Valid rows whose address already has an account (kept as it is, unless names are updated). */
  existingRows: number
  /** Of those, accounts of colleagues (who only gave feedback): they become employees. */
  colleagueRows: number
  problemCounts: Partial<Record<RowProblem, number>>
  /** Whether any row gives a manager, a department or a job title (the preview shows that column then). */
  hasOrgData: boolean
  importedAt: string | null
  summary: ImportSummary | null
  /** Schemes the valid rows may be enrolled into: drafts of their companies (launch sends the e-mails). */
  schemes: ImportSchemeOption[]
}

export type ImportRowView = {
  line: number
  name: string
  email: string
  companyName: string
  phone: string | null
  /** Issue 18: the file's manager address ('' when empty), department and job title (null when empty). */
  managerEmail: string
  department: string | null
  jobTitle: string | null
  problems: string[]
  outcome: RowOutcome | null
  /** The account the address already has, if any: its role and the name it goes by. */
  account: { role: 'employee' | 'colleague' | 'admin'; name: string } | null
  /** The company the row matched, as the product spells it. */
  company: string | null
}

export type ImportRowsPage = { rows: ImportRowView[]; next: number | null; prev: number | null }

/** Why a whole file is refused (nothing of it is kept). */
export const FILE_PROBLEMS = {
  missing: 'Choose a CSV file to upload.',
  empty: 'The file is empty. Use the template: a header line, then one employee per line.',
  tooLarge: `The file is larger than ${IMPORT_MAX_BYTES / 1024 / 1024} MB. Split it into smaller files.`,
  tooManyRows: `The file has more than ${IMPORT_MAX_ROWS.toLocaleString('en-GB')} rows. Split it into smaller files.`,
  header: (found: string) =>
    `The first line must name the columns name, e-mail and company (phone, manager_email, department and job_title are optional). This file’s first line is: ${found}`,
  duplicateHeader: (column: string) => `The header names the ${column} column twice. Keep one of them.`,
  unreadable: (line: number, reason: string) =>
    `Line ${line} could not be read (${reason}). Fix the file and upload it again; nothing was imported.`,
  notCsv: 'This file could not be read as CSV. Save it as “CSV UTF-8” and upload it again.',
  incomplete:
    'The file did not arrive whole (the upload was interrupted or cut short). Nothing was kept: upload it again.',
} as const

const importId = z.uuid({ error: 'This import could not be identified. Upload the file again.' })

export const ImportUploadFieldsSchema = z.object({ intent: z.literal('upload') })

/** The upload form as the browser checks it (the server reads the file as a stream instead). */
export const ImportUploadSchema = z.object({
  intent: z.literal('upload'),
  file: z
    .file({ error: FILE_PROBLEMS.missing })
    .check(z.minSize(1, FILE_PROBLEMS.empty), z.maxSize(IMPORT_MAX_BYTES, FILE_PROBLEMS.tooLarge)),
})

export const ImportRunSchema = z.object({
  intent: z.literal('import'),
  importId,
  /**
   * A checkbox: existing people (employees, and colleagues becoming employees) keep their name and
   * phone unless it is ticked; the file never renames anyone silently.
   */
  updateNames: z.pipe(
    z.optional(z.string()),
    z.transform((v: string | undefined) => v !== undefined && v !== ''),
  ),
  // Optional: an empty choice imports without enrolling.
  schemeId: z.pipe(
    z.optional(z.union([z.uuid({ error: 'Choose a scheme from the list, or none.' }), z.literal('')])),
    z.transform((v: string | undefined) => v || null),
  ),
})

export const ImportDiscardSchema = z.object({ intent: z.literal('discard'), importId })

const lineNumber = z.coerce.number().check(z.int(), z.gte(0), z.lte(10_000_000))

/** The preview's URL (`?import=<id>&show=problems&after=<line>`). */
export const ImportViewQuerySchema = z.object({
  import: z.string(),
  show: z.catch(z.enum(['all', 'problems']), 'all'),
  after: z.catch(z.optional(lineNumber), undefined),
  before: z.catch(z.optional(lineNumber), undefined),
})
export type ImportViewQuery = z.output<typeof ImportViewQuerySchema>
