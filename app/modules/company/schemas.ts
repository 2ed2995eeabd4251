import { singleLine, searchTerm } from '#app/lib/text-rules'
import * as z from '#app/lib/zod'

/**
 * The company forms' Zod schemas (Zod Mini: app/lib/zod.ts), shared by Conform in the browser and the
 * action on the server.
 */

export const COMPANY_NAME_MAX = 100

const name = z
  .string({ error: 'Enter the company’s name.' })
  .check(
    z.trim(),
    z.minLength(1, 'Enter the company’s name.'),
    z.maxLength(COMPANY_NAME_MAX, `The name must be ${COMPANY_NAME_MAX} characters or fewer.`),
    singleLine(),
  )

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
  q: z.pipe(
    z.catch(z.string().check(z.trim()), ''),
    // Postgres refuses a NUL byte even in a search term: control characters are dropped.
    z.transform((v: string) => searchTerm(v)),
  ),
  sort: z.catch(z.enum(COMPANY_SORTS), 'name-asc'),
  // Cursors are checked (and an unreadable one reported) where they are decoded.
  after: z.catch(z.optional(z.string()), undefined),
  before: z.catch(z.optional(z.string()), undefined),
})
export type CompanyListQuery = z.output<typeof CompanyListQuerySchema>

export function parseCompanyListQuery(searchParams: URLSearchParams): CompanyListQuery {
  return CompanyListQuerySchema.parse(Object.fromEntries(searchParams))
}
