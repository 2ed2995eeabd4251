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
