import { multiLine, singleLine } from '#app/lib/text-rules'
import { requiredText } from '#app/lib/schema-parts'
import {
  DEFAULT_SCOPES,
  isAllowedIssuerUrl,
  parseDomainList,
  SCOPE_TOKEN,
} from '#app/lib/identity-provider-values'
import * as z from '#app/lib/zod'

/**
 * The identity provider forms' Zod schemas (Zod Mini: app/lib/zod.ts), shared by Conform in the
 * browser and the actions on the server (issue 20 §1, ADR 049). Conform turns an empty field into
 * `undefined` before these run, so "optional" means "left blank".
 */

export const PROVIDER_NAME_MAX = 60
export const ISSUER_MAX = 500
export const CLIENT_ID_MAX = 255
export const CLIENT_SECRET_MAX = 1000
export const DOMAINS_MAX = 50
export const SCOPES_MAX = 20
export const DEFAULT_SCOPE_TEXT = DEFAULT_SCOPES.join(' ')

const name = requiredText(
  'Enter the name people see on the sign-in page, for example “Contoso”.',
  `The name must be ${PROVIDER_NAME_MAX} characters or fewer.`,
  PROVIDER_NAME_MAX,
)

// Compared character for character with what discovery answers: the provider's own form is kept
// (no trailing slash added or removed).
const issuer = z
  .string({ error: 'Enter the issuer URL.' })
  .check(
    z.trim(),
    z.minLength(1, 'Enter the issuer URL.'),
    z.maxLength(ISSUER_MAX, `The issuer URL must be ${ISSUER_MAX} characters or fewer.`),
    singleLine(),
    z.refine(
      isAllowedIssuerUrl,
      'Enter the issuer as an https:// address without ? or #, for example https://login.microsoftonline.com/<tenant id>/v2.0 (plain http only for localhost).',
    ),
  )

const clientId = requiredText(
  'Enter the client ID the provider gave Panorama.',
  `The client ID must be ${CLIENT_ID_MAX} characters or fewer.`,
  CLIENT_ID_MAX,
)

const secretChecks = [
  z.trim(),
  z.maxLength(CLIENT_SECRET_MAX, `The client secret must be ${CLIENT_SECRET_MAX} characters or fewer.`),
  singleLine('The client secret is one line without spaces at either end.'),
] as const

const scopes = z.pipe(
  z.optional(
    z.string().check(
      z.trim(),
      z.maxLength(1000, 'List fewer scopes.'),
      z.refine(
        (v) =>
          v
            .split(/\s+/)
            .filter(Boolean)
            .every((s) => SCOPE_TOKEN.test(s)),
        'Separate scopes with spaces; a scope has no quotes or backslashes.',
      ),
      z.refine(
        (v) => v.split(/\s+/).filter(Boolean).length <= SCOPES_MAX,
        `Ask for ${SCOPES_MAX} scopes at most.`,
      ),
      z.refine(
        (v) => !v || v.split(/\s+/).includes('openid'),
        'The scopes must include openid (that is what makes it OpenID Connect).',
      ),
    ),
  ),
  z.transform((v: string | undefined) => [
    ...new Set((v || DEFAULT_SCOPE_TEXT).split(/\s+/).filter(Boolean)),
  ]),
)

const domains = z.pipe(
  z.string({ error: 'Enter the e-mail domains this provider signs in, for example contoso.com.' }).check(
    z.maxLength(DOMAINS_MAX * 64, 'The list of domains is too long.'),
    multiLine(),
    z.refine(
      (v) => parseDomainList(v) !== null,
      'Enter domains only (like contoso.com), separated by commas or new lines — no addresses or web links.',
    ),
    z.refine(
      (v) => (parseDomainList(v)?.length ?? 0) > 0,
      'Enter the e-mail domains this provider signs in, for example contoso.com.',
    ),
    z.refine(
      (v) => (parseDomainList(v)?.length ?? 0) <= DOMAINS_MAX,
      `A provider signs in ${DOMAINS_MAX} domains at most.`,
    ),
  ),
  z.transform((v: string) => parseDomainList(v) ?? []),
)

// Checkboxes: the ids of the companies ticked; none ticked arrives missing. Checked as a whole, so
// that a bad id (a stale page, a hand-made request) is said beside the list, not beside one box.
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i
const companyIds = z.pipe(
  z.optional(
    z.array(z.string()).check(
      z.maxLength(1000, 'Choose 1,000 companies at most.'),
      z.refine(
        (ids) => ids.every((id) => UUID.test(id)),
        'A company could not be identified. Reload the page and try again.',
      ),
    ),
  ),
  z.transform((v: string[] | undefined) => [...new Set((v ?? []).map((id) => id.toLowerCase()))]),
)

const jitCompanyId = z.pipe(
  z.optional(z.uuid({ error: 'Choose one of the companies above, or nobody.' })),
  z.transform((v: string | undefined) => v ?? null),
)

/** Just-in-time accounts go to one of the provider's own companies. */
const jitAmongCompanies = z.refine<{ companyIds: string[]; jitCompanyId: string | null }>(
  (v) => v.jitCompanyId === null || v.companyIds.includes(v.jitCompanyId),
  {
    path: ['jitCompanyId'],
    message: 'New accounts can only join a company that uses this provider: tick it above first.',
  },
)

const providerFields = {
  name,
  issuer,
  clientId,
  scopes,
  domains,
  companyIds,
  allowPassword: z.optional(z.boolean()),
  jitCompanyId,
}

export const ProviderCreateSchema = z
  .object({
    intent: z.literal('create'),
    ...providerFields,
    clientSecret: z
      .string({ error: 'Enter the client secret the provider gave Panorama.' })
      .check(z.minLength(1, 'Enter the client secret the provider gave Panorama.'), ...secretChecks),
  })
  .check(jitAmongCompanies)

export const ProviderUpdateSchema = z
  .object({
    intent: z.literal('update'),
    ...providerFields,
    // Write-only: blank keeps the stored secret.
    clientSecret: z.optional(z.string().check(...secretChecks)),
  })
  .check(jitAmongCompanies)

export const ProviderDeleteSchema = z.object({ intent: z.literal('delete') })

export type ProviderCreateInput = z.output<typeof ProviderCreateSchema>
export type ProviderUpdateInput = z.output<typeof ProviderUpdateSchema>
/** What a save hands the module: the form's values, the secret only when one was typed. */
export type ProviderInput = Omit<ProviderCreateInput, 'intent' | 'clientSecret' | 'allowPassword'> & {
  clientSecret: string | null
  allowPassword: boolean
}

/** The list's URL: searched by name, sorted by name or age; bad values fall back to defaults. */
export {
  NAME_SORTS as PROVIDER_SORTS,
  NAME_SORT_LABELS as PROVIDER_SORT_LABELS,
  parseNameListQuery as parseProviderListQuery,
} from '#app/lib/list-query'
export type { NameListQuery as ProviderListQuery } from '#app/lib/list-query'
