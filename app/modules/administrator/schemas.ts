import { singleLine } from '#app/lib/text-rules'
import * as z from '#app/lib/zod'

/** The admin-management forms' schemas (Zod Mini: app/lib/zod.ts), shared by Conform in the browser and the actions. */

export const ADMIN_NAME_MAX = 100

const adminId = z.uuid({
  error: 'This administrator could not be identified. Reload the page and try again.',
})

export const AdminInviteSchema = z.object({
  intent: z.literal('invite'),
  name: z
    .string({ error: 'Enter the administrator’s name.' })
    .check(
      z.trim(),
      z.minLength(1, 'Enter the administrator’s name.'),
      z.maxLength(ADMIN_NAME_MAX, `The name must be ${ADMIN_NAME_MAX} characters or fewer.`),
      singleLine(),
    ),
  email: z.pipe(
    z.pipe(
      z
        .string({ error: 'Enter their e-mail address.' })
        .check(
          z.trim(),
          z.minLength(1, 'Enter their e-mail address.'),
          z.maxLength(254, 'That e-mail address is too long.'),
        ),
      z.email('Enter a valid e-mail address.'),
    ),
    z.transform((v: string) => v.toLowerCase()),
  ),
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

export const ADMIN_STATES = ['active', 'invited', 'disabled'] as const
export type AdminState = (typeof ADMIN_STATES)[number]
export const ADMIN_STATE_LABELS: Record<AdminState, string> = {
  active: 'Active',
  invited: 'Invited',
  disabled: 'Disabled',
}

/** The list's URL: searched by name, sorted by name or age; bad values fall back to defaults. */
export {
  NAME_SORTS as ADMIN_SORTS,
  NAME_SORT_LABELS as ADMIN_SORT_LABELS,
  parseNameListQuery as parseAdminListQuery,
} from '#app/lib/list-query'
export type { NameSort as AdminSort, NameListQuery as AdminListQuery } from '#app/lib/list-query'
