import { API_SCOPES, type ApiScope } from '#db/enums'
import { requiredText } from '#app/lib/schema-parts'
import * as z from '#app/lib/zod'

/**
 * The API keys page's forms (issue 21 §1, ADR 054), in Zod Mini (app/lib/zod.ts): shared by Conform
 * in the browser and the action on the server. No server-only imports: this file reaches the client.
 */

export const API_KEY_NAME_MAX = 80
/** The expiries the form offers, in days; empty means the key never expires. */
export const API_KEY_EXPIRY_DAYS = [30, 90, 180, 365] as const

export const API_KEY_MESSAGES = {
  nameRequired: 'Enter a name that says who uses the key, for example “Personio sync”.',
  nameTooLong: `The name must be ${API_KEY_NAME_MAX} characters or fewer.`,
  scopesRequired: 'Tick at least one scope.',
  scopeUnknown: 'A scope could not be identified. Reload the page and try again.',
  expiry: 'Choose one of the expiries offered.',
  company: 'Choose one of the companies offered, or all companies.',
  companyGone: 'That company no longer exists. Choose another one.',
  gone: 'This API key no longer exists.',
} as const

const isScope = (v: string): v is ApiScope => (API_SCOPES as readonly string[]).includes(v)

// Checkboxes: the scopes ticked (none ticked arrives missing), checked as a whole.
const scopes = z.pipe(
  z.pipe(
    z.pipe(
      z.optional(z.array(z.string())),
      z.transform((v: string[] | undefined) => [...new Set(v ?? [])]),
    ),
    z.array(z.string()).check(
      z.minLength(1, API_KEY_MESSAGES.scopesRequired),
      z.maxLength(API_SCOPES.length, API_KEY_MESSAGES.scopeUnknown),
      z.refine((v) => v.every(isScope), API_KEY_MESSAGES.scopeUnknown),
    ),
  ),
  z.transform((v: string[]) => v.filter(isScope)),
)

const expiresInDays = z.pipe(
  z.optional(
    z
      .string()
      .check(z.refine((v) => API_KEY_EXPIRY_DAYS.some((d) => String(d) === v), API_KEY_MESSAGES.expiry)),
  ),
  z.transform((v: string | undefined) => (v ? Number(v) : null)),
)

const companyId = z.pipe(
  z.optional(z.uuid({ error: API_KEY_MESSAGES.company })),
  z.transform((v: string | undefined) => v?.toLowerCase() ?? null),
)

export const ApiKeyCreateSchema = z.object({
  intent: z.literal('create'),
  name: requiredText(API_KEY_MESSAGES.nameRequired, API_KEY_MESSAGES.nameTooLong, API_KEY_NAME_MAX),
  scopes,
  companyId,
  expiresInDays,
})

export const ApiKeyRevokeSchema = z.object({
  intent: z.literal('revoke'),
  id: z.uuid({ error: API_KEY_MESSAGES.gone }),
})

export type ApiKeyInput = {
  name: string
  scopes: ApiScope[]
  companyId: string | null
  expiresInDays: number | null
  /** Not on the form: the default (600) unless a caller (a test, a script) says otherwise. */
  requestsPerMinute?: number
}
