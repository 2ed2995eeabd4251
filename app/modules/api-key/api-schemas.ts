import { z } from 'zod'
import { API_SCOPES } from '#db/enums'

/**
 * The REST API's schemas (issue 21 §1, ADR 054), in classic Zod (server-only): the query strings the
 * endpoints validate, the bodies they answer, and the problem body of every error. The OpenAPI
 * document (openapi.server.ts) is generated from these same schemas, and the contract test checks
 * every answer against them.
 */

export const API_PAGE_DEFAULT = 50
export const API_PAGE_MAX = 200

/** RFC 9457 problem details, with the fields at fault when a request was malformed. */
export const ProblemSchema = z
  .object({
    type: z.string().meta({ description: 'A URI reference naming the kind of problem.' }),
    title: z.string().meta({ description: 'A short summary of the kind of problem.' }),
    status: z.int().min(400).max(599),
    detail: z.string().meta({ description: 'What went wrong with this request.' }),
    errors: z
      .array(z.object({ field: z.string(), message: z.string() }))
      .optional()
      .meta({ description: 'Each query parameter at fault, with why.' }),
  })
  .meta({
    id: 'Problem',
    example: {
      type: '/api/v1/problems#unauthorized',
      title: 'Unauthorized',
      status: 401,
      detail: 'Send an API key as "Authorization: Bearer <key>".',
    },
  })
export type Problem = z.infer<typeof ProblemSchema>

const uuid = z.uuid()
const timestamp = z.iso.datetime({ offset: true }).meta({ example: '2026-11-27T08:00:00.000Z' })

export const CompanySchema = z
  .object({
    id: uuid,
    name: z.string(),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({
    id: 'Company',
    example: {
      id: '6f1c1d1e-8a5b-4c1f-9a57-1d2e3f4a5b6c',
      name: 'Contoso',
      created_at: '2026-01-05T09:00:00.000Z',
      updated_at: '2026-03-01T14:30:00.000Z',
    },
  })

export const EMPLOYEE_STATUSES = ['invited', 'active', 'disabled'] as const

export const EmployeeSchema = z
  .object({
    id: uuid,
    email: z.string(),
    display_name: z.string(),
    company_id: uuid,
    department: z.string().nullable(),
    job_title: z.string().nullable(),
    manager_id: uuid.nullable(),
    status: z.enum(EMPLOYEE_STATUSES).meta({
      description: 'invited: has not set a password yet; active: can sign in; disabled: cannot sign in.',
    }),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({
    id: 'Employee',
    example: {
      id: '0b8f4a52-3c1e-4d2a-8f3b-5e6d7c8b9a01',
      email: 'ada.lovelace@contoso.example',
      display_name: 'Ada Lovelace',
      company_id: '6f1c1d1e-8a5b-4c1f-9a57-1d2e3f4a5b6c',
      department: 'Engineering',
      job_title: 'Lead engineer',
      manager_id: null,
      status: 'active',
      created_at: '2026-01-05T09:00:00.000Z',
      updated_at: '2026-03-01T14:30:00.000Z',
    },
  })

const nextCursor = z
  .string()
  .nullable()
  .meta({ description: 'Pass as `cursor` for the next page; null on the last page.' })

export const CompanyListSchema = z
  .object({ data: z.array(CompanySchema), next_cursor: nextCursor })
  .meta({ id: 'CompanyList' })
export const EmployeeListSchema = z
  .object({ data: z.array(EmployeeSchema), next_cursor: nextCursor })
  .meta({ id: 'EmployeeList' })

/** A cursor is an id in base64url: opaque to clients, so its form may change. */
export function encodeCursor(id: string) {
  return Buffer.from(id, 'utf8').toString('base64url')
}
export function decodeCursor(cursor: string): string | null {
  const id = Buffer.from(cursor, 'base64url').toString('utf8')
  return uuid.safeParse(id).success ? id.toLowerCase() : null
}

const pageParams = {
  limit: z.coerce
    .number({ error: 'Must be a whole number.' })
    .int({ error: 'Must be a whole number.' })
    .min(1, { error: 'Must be at least 1.' })
    .max(API_PAGE_MAX, { error: `Must be at most ${API_PAGE_MAX}.` })
    .optional()
    .meta({ description: `Rows per page, 1–${API_PAGE_MAX} (default ${API_PAGE_DEFAULT}).`, example: 50 }),
  cursor: z
    .string()
    .max(100, { error: 'Is not a cursor this API gave out.' })
    .refine((v) => decodeCursor(v) !== null, { error: 'Is not a cursor this API gave out.' })
    .optional()
    .meta({ description: 'The `next_cursor` of the previous page.' }),
}

export const CompanyListQuery = z.strictObject(pageParams)
export const EmployeeListQuery = z.strictObject({
  ...pageParams,
  company_id: z.uuid({ error: 'Must be a company id (a UUID).' }).optional(),
  email: z
    .email({ error: 'Must be an e-mail address.' })
    .max(254, { error: 'Must be an e-mail address.' })
    .optional()
    .meta({ description: 'The employee with this address (any case).' }),
  status: z.enum(EMPLOYEE_STATUSES, { error: `Must be one of ${EMPLOYEE_STATUSES.join(', ')}.` }).optional(),
})
export const NoQuery = z.strictObject({})

export const IdParam = z.uuid()

export { API_SCOPES }

// ---------------------------------------------------------------------------------------------
// Writes (issue 21 §1, ADR 054 "Writes"): the bodies the write endpoints take. These check the
// JSON's shape and types; the content rules (lengths, one line, a valid address, the manager) are
// the back office's own (the employee form's schema, the CSV import's row check), applied after.

/** A text field of a body: the shape only; its rule (length, one line) is the domain's. */
const text = (description: string, example?: string) =>
  z
    .string({ error: 'Must be a string.' })
    .max(1000, { error: 'Must be 1000 characters or fewer.' })
    .meta({ description, ...(example ? { example } : {}) })
const nullableText = (description: string) =>
  z
    .string({ error: 'Must be a string or null.' })
    .max(1000, { error: 'Must be 1000 characters or fewer.' })
    .nullable()
    .optional()
    .meta({ description })
const idField = (what: string) => z.uuid({ error: `Must be ${what} id (a UUID).` })

export const CompanyCreateBody = z.strictObject({
  name: text('The company’s name, unique ignoring case (1–100 characters).', 'Contoso'),
  brand_id: idField('a brand’s').optional().meta({
    description:
      'The brand whose look its e-mails and pages use. May be left out when the install has one brand.',
  }),
})
export const CompanyUpdateBody = z.strictObject({
  name: text('The company’s new name, unique ignoring case.', 'Contoso Europe'),
})

const employeeFields = {
  email: text(
    'The employee’s e-mail address (stored lower-case; one account per address).',
    'ada@contoso.example',
  ),
  display_name: text('The employee’s name (1–100 characters, one line).', 'Ada Lovelace'),
  company_id: idField('a company’s').meta({
    description: 'Their company. A key restricted to a company: that company (the default).',
  }),
  department: nullableText('Their department (100 characters at most); null or left out: none.'),
  job_title: nullableText('Their job title (100 characters at most); null or left out: none.'),
  manager_id: idField('an employee’s')
    .nullable()
    .optional()
    .meta({ description: 'Their manager: an employee of the same company; null or left out: none.' }),
}

export const EmployeeCreateBody = z.strictObject({
  ...employeeFields,
  company_id: employeeFields.company_id.optional(),
})

export const EmployeeUpdateBody = z.strictObject({
  email: employeeFields.email.optional(),
  display_name: employeeFields.display_name.optional(),
  company_id: employeeFields.company_id.optional(),
  department: employeeFields.department,
  job_title: employeeFields.job_title,
  manager_id: employeeFields.manager_id,
})

/** The most rows one bulk upsert takes. */
export const BULK_MAX_ROWS = 1000
/** A bulk upsert's body may be this large (2 MiB). */
export const BULK_MAX_BYTES = 2 * 1024 * 1024

export const BulkRow = z.strictObject({
  email: text('The employee’s address: the row’s key within the company.'),
  display_name: text('Their name.'),
  department: nullableText('Their department; null or left out: left as it is.'),
  job_title: nullableText('Their job title; null or left out: left as it is.'),
  manager_email: nullableText(
    'Their manager’s address: an employee of the company already, or on another row; null or left out: left as it is.',
  ),
})

export const EmployeeBulkBody = z.strictObject({
  company_id: idField('a company’s').optional().meta({
    description: 'The company of every row. A key restricted to a company: that company (the default).',
  }),
  rows: z
    .array(BulkRow, { error: 'Must be a list of employees.' })
    .min(1, { error: 'Must hold one row at least.' })
    .max(BULK_MAX_ROWS, { error: `Must hold ${BULK_MAX_ROWS} rows at most.` }),
})

export const BulkResultSchema = z
  .object({
    created: z.int().min(0),
    updated: z.int().min(0),
    unchanged: z.int().min(0),
    problems: z
      .array(
        z.object({
          row: z.int().min(0).meta({ description: 'The row’s index in `rows` (from 0).' }),
          field: z.string().meta({ description: 'The field at fault, or `row` for the row as a whole.' }),
          message: z.string(),
        }),
      )
      .meta({ description: 'Each row that was not written, with why; the other rows were.' }),
  })
  .meta({
    id: 'BulkResult',
    example: {
      created: 2,
      updated: 1,
      unchanged: 96,
      problems: [{ row: 41, field: 'email', message: 'The e-mail address is not valid.' }],
    },
  })

/** An `Idempotency-Key` header: 1–255 printable ASCII characters. */
export const IdempotencyKeyHeader = z
  .string({ error: 'Send an Idempotency-Key header (1–255 printable characters).' })
  .regex(/^[\x21-\x7e][\x20-\x7e]{0,254}$/, {
    error: 'Must be 1–255 printable ASCII characters, not starting with a space.',
  })
