import { ACCOUNT_STATE_LABELS, emailField, requiredText, type AccountState } from '#app/lib/schema-parts'
import * as z from '#app/lib/zod'

/** The admin-management forms' schemas (Zod Mini: app/lib/zod.ts), shared by Conform in the browser and the actions. */

export const ADMIN_NAME_MAX = 100

const adminId = z.uuid({
  error: 'This administrator could not be identified. Reload the page and try again.',
})

export const AdminInviteSchema = z.object({
  intent: z.literal('invite'),
  name: requiredText(
    'Enter the administrator’s name.',
    `The name must be ${ADMIN_NAME_MAX} characters or fewer.`,
    ADMIN_NAME_MAX,
  ),
  email: emailField({
    required: 'Enter their e-mail address.',
    invalid: 'Enter a valid e-mail address.',
    tooLong: 'That e-mail address is too long.',
  }),
})
export type AdminInviteInput = Pick<z.output<typeof AdminInviteSchema>, 'name' | 'email'>

export const AdminStateSchema = z.object({ intent: z.enum(['disable', 'enable']), adminId })
export const AdminResendSchema = z.object({ intent: z.literal('resend'), adminId })
export const EndSessionSchema = z.object({
  intent: z.literal('end-session'),
  adminId,
  sessionId: z
    .string({ error: 'This session could not be identified. Reload the page and try again.' })
    .check(
      z.regex(/^[a-z2-7]{16,64}$/, 'This session could not be identified. Reload the page and try again.'),
    ),
})
export const EndSessionsSchema = z.object({ intent: z.literal('end-sessions'), adminId })

export const ADMIN_STATES = ['active', 'invited', 'disabled'] as const satisfies readonly AccountState[]
export type AdminState = (typeof ADMIN_STATES)[number]
export const ADMIN_STATE_LABELS: Record<AdminState, string> = ACCOUNT_STATE_LABELS

/** The list's URL: searched by name, sorted by name or age; bad values fall back to defaults. */
export {
  NAME_SORTS as ADMIN_SORTS,
  NAME_SORT_LABELS as ADMIN_SORT_LABELS,
  parseNameListQuery as parseAdminListQuery,
} from '#app/lib/list-query'
export type { NameSort as AdminSort, NameListQuery as AdminListQuery } from '#app/lib/list-query'
