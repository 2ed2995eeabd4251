import { z } from 'zod'

/** The company forms' Zod schemas, shared by Conform in the browser and the action on the server. */

export const COMPANY_NAME_MAX = 100

const name = z
  .string({ error: 'Enter the company’s name.' })
  .trim()
  .min(1, 'Enter the company’s name.')
  .max(COMPANY_NAME_MAX, `The name must be ${COMPANY_NAME_MAX} characters or fewer.`)

const brandId = z.uuid({ error: 'Choose the brand this company’s e-mails and pages use.' })
// A hidden field: a bad value is a stale page or a hand-made request, not a typo.
const companyId = z.uuid({ error: 'This company could not be identified. Reload the page and try again.' })

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
})

export const CompanyDeleteSchema = z.object({
  intent: z.literal('delete'),
  companyId,
})

export type CompanyInput = { name: string; brandId: string }

export const COMPANY_SORTS = ['name-asc', 'name-desc', 'created-desc', 'created-asc'] as const
export type CompanySort = (typeof COMPANY_SORTS)[number]
export const COMPANY_SORT_LABELS: Record<CompanySort, string> = {
  'name-asc': 'Name, A to Z',
  'name-desc': 'Name, Z to A',
  'created-desc': 'Newest first',
  'created-asc': 'Oldest first',
}

/** The list's URL: bad values fall back to defaults rather than failing the page. */
export const CompanyListQuerySchema = z.object({
  q: z
    .string()
    .trim()
    .catch('')
    .transform((v) => v.slice(0, 100)),
  sort: z.enum(COMPANY_SORTS).catch('name-asc'),
  // Cursors are checked (and an unreadable one reported) where they are decoded.
  after: z.string().optional().catch(undefined),
  before: z.string().optional().catch(undefined),
})
export type CompanyListQuery = z.output<typeof CompanyListQuerySchema>

export function parseCompanyListQuery(searchParams: URLSearchParams): CompanyListQuery {
  return CompanyListQuerySchema.parse(Object.fromEntries(searchParams))
}
