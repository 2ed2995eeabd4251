import { singleLine } from '#app/lib/text-rules'
import * as z from '#app/lib/zod'
import { EMAIL_MAX, requiredText } from '#app/lib/schema-parts'
import { LANGUAGE_CODES, LANGUAGE_NOT_OFFERED } from '#app/modules/i18n/languages'

/**
 * The brand forms' Zod schemas (Zod Mini: app/lib/zod.ts), shared by Conform in the browser and the
 * actions on the server.
 * Conform turns an empty field into `undefined` before these run, so "optional" means "left blank";
 * the optional overrides come out as `null` (a blank override means "use the deployment default").
 */

export const BRAND_NAME_MAX = 100
export const SENDER_NAME_MAX = 100
export const URL_MAX = 2000
export { EMAIL_MAX }
/** The same ceiling file.server.ts enforces on every image (kept here because this file reaches the browser). */
export const LOGO_MAX_BYTES = 2 * 1024 * 1024
export const LOGO_ACCEPT = 'image/png,image/jpeg,image/webp'
export const DEFAULT_PRIMARY_COLOR = '#1d4ed8'
export const DEFAULT_ACCENT_COLOR = '#0f766e'

const HEX_COLOUR = /^#[0-9a-fA-F]{6}$/
// Header-unsafe characters: the sender name ends up in an e-mail's From header (line breaks and
// other control characters are the shared one-line rule's).
const SENDER_NAME_SAFE = /^[^<>"]*$/

const name = requiredText(
  'Enter the brand’s name.',
  `The name must be ${BRAND_NAME_MAX} characters or fewer.`,
  BRAND_NAME_MAX,
)

const colour = (which: 'primary' | 'accent') =>
  z.pipe(
    z
      .string({ error: `Enter the ${which} colour.` })
      .check(
        z.trim(),
        z.regex(
          HEX_COLOUR,
          `Enter the ${which} colour as # followed by six hex digits, for example #1d4ed8.`,
        ),
      ),
    z.transform((v: string) => v.toLowerCase()),
  )

const webAddress = (what: string) =>
  z.pipe(
    z.optional(
      z
        .url({
          protocol: /^https?$/,
          hostname: z.regexes.domain,
          error: `Enter the ${what} as a full web address starting with https://, for example https://example.com/contact.`,
        })
        .check(
          z.maxLength(URL_MAX, `The ${what} must be ${URL_MAX} characters or fewer.`),
          // The URL check accepts control characters in a path (the browser would percent-encode them).
          singleLine(),
        ),
    ),
    z.transform((v: string | undefined) => v ?? null),
  )

const senderName = z.pipe(
  z.optional(
    z
      .string()
      .check(
        z.trim(),
        z.maxLength(SENDER_NAME_MAX, `The sender name must be ${SENDER_NAME_MAX} characters or fewer.`),
        singleLine('The sender name cannot contain line breaks, tabs or other control characters.'),
        z.regex(SENDER_NAME_SAFE, 'The sender name cannot contain quotes or angle brackets.'),
      ),
  ),
  z.transform((v: string | undefined) => v || null),
)

const contactEmail = z.pipe(
  z.optional(
    z
      .email('Enter the contact e-mail as an address like team@example.com.')
      .check(z.maxLength(EMAIL_MAX, `The contact e-mail must be ${EMAIL_MAX} characters or fewer.`)),
  ),
  z.transform((v: string | undefined) => v?.toLowerCase() ?? null),
)

/** The list page's quick create: the essentials; logo and contact links follow on the brand's page. */
export const BrandCreateSchema = z.object({
  intent: z.literal('create'),
  name,
  primaryColor: colour('primary'),
  accentColor: colour('accent'),
})

export const BrandUpdateSchema = z.object({
  intent: z.literal('update'),
  name,
  primaryColor: colour('primary'),
  accentColor: colour('accent'),
  senderName,
  callbackUrl: webAddress('callback page'),
  contactEmail,
  profileUrl: webAddress('profile link'),
  // The language of its employees who chose none (ADR 050). Absent (an older form) keeps the stored
  // one; whether it is offered is brand.server.ts's check.
  defaultLanguage: z.optional(z.enum(LANGUAGE_CODES, { error: LANGUAGE_NOT_OFFERED })),
  // The browser's claim about the type is not trusted: the server checks the bytes (file.server.ts).
  logo: z.optional(z.file().check(z.maxSize(LOGO_MAX_BYTES, 'The logo must be 2 MB or smaller.'))),
  removeLogo: z.optional(z.boolean()),
})

export const BrandDeleteSchema = z.object({
  intent: z.literal('delete'),
})

export type BrandCreateInput = z.output<typeof BrandCreateSchema>
export type BrandUpdateInput = z.output<typeof BrandUpdateSchema>

/** The list's URL: searched by name, sorted by name or age; bad values fall back to defaults. */
export {
  NAME_SORTS as BRAND_SORTS,
  NAME_SORT_LABELS as BRAND_SORT_LABELS,
  parseNameListQuery as parseBrandListQuery,
} from '#app/lib/list-query'
export type { NameSort as BrandSort, NameListQuery as BrandListQuery } from '#app/lib/list-query'
