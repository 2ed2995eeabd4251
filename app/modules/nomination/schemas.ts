import { COLLEAGUE_FIELDS } from '#app/modules/invite/schemas'
import { multiLine } from '#app/lib/text-rules'
import * as z from '#app/lib/zod'

/**
 * The nomination page's forms (issue 18 §3, ADR 042): Zod schemas shared by Conform in the browser
 * and by the action. No server-only imports: this file reaches the client.
 */

export const NOMINATIONS_PAGE_PATH = '/user/nominations'

/** The longest pasted list read (addresses, one per line or separated by ";"). */
export const PASTE_MAX_CHARS = 5_000
export const PASTE_MAX_LINES = 40
export const COMMENT_MAX = 1_000

export const NOMINATION_MESSAGES = {
  comment: 'Say what should change, so the list can be put right.',
  commentTooLong: `The comment must be ${COMMENT_MAX.toLocaleString('en-GB')} characters or fewer.`,
  paste: 'Paste at least one e-mail address.',
  pasteTooLong: `Paste at most ${PASTE_MAX_CHARS.toLocaleString('en-GB')} characters at a time.`,
  pasteTooManyLines: `Paste at most ${PASTE_MAX_LINES} addresses at a time.`,
  nominee: 'This person could not be identified. Reload the page and try again.',
  person: 'Choose a colleague from the directory, or type their name and e-mail address.',
} as const

// The invitation's own field rules: a list entry is checked as an invitation is (ADR 042).
const { name, email, relationship } = COLLEAGUE_FIELDS
const schemeId = z.string().check(z.maxLength(100))

/** Add one person: typed (name and e-mail) or picked from the directory (`personId`, name shown). */
export const AddNomineeSchema = z.object({
  intent: z.literal('add'),
  schemeId,
  name,
  email: z.optional(email),
  personId: z.optional(z.uuid({ error: NOMINATION_MESSAGES.person })),
  relationship,
})

export const PasteSchema = z.object({
  intent: z.literal('paste'),
  schemeId,
  text: z
    .string({ error: NOMINATION_MESSAGES.paste })
    .check(
      z.minLength(1, NOMINATION_MESSAGES.paste),
      z.maxLength(PASTE_MAX_CHARS, NOMINATION_MESSAGES.pasteTooLong),
      multiLine(),
    ),
  relationship,
})

export const RemoveNomineeSchema = z.object({
  intent: z.literal('remove'),
  schemeId,
  nomineeId: z.uuid({ error: NOMINATION_MESSAGES.nominee }),
})

/** Submit, take back, approve: the scheme is the only field. */
export const ListStepSchema = z.object({
  intent: z.enum(['submit', 'withdraw', 'approve']),
  schemeId,
})

export const SendBackSchema = z.object({
  intent: z.literal('send-back'),
  schemeId,
  comment: z
    .string({ error: NOMINATION_MESSAGES.comment })
    .check(
      z.trim(),
      z.minLength(1, NOMINATION_MESSAGES.comment),
      z.maxLength(COMMENT_MAX, NOMINATION_MESSAGES.commentTooLong),
      multiLine(),
    ),
})

const queryValue = z.catch(z.optional(z.string().check(z.maxLength(100))), undefined)
export const NominationQuerySchema = z.object({ scheme: queryValue, employee: queryValue })
