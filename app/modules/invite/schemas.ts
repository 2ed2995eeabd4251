import {
  RELATIONSHIPS as ALL_RELATIONSHIPS,
  type AssignmentStatus,
  type Relationship as AnyRelationship,
} from '#db/enums'
import { EMAIL_MAX, emailField, requiredText } from '#app/lib/schema-parts'
import { singleLine } from '#app/lib/text-rules'
import * as z from '#app/lib/zod'

/**
 * The colleague-invite forms' Zod schemas (Zod Mini: app/lib/zod.ts) and wording, shared by Conform in the browser and by the
 * action and invite.server.ts on the server. No server-only imports: this file reaches the client.
 */

export const COLLEAGUE_NAME_MAX = 100
export { EMAIL_MAX }

/** The relationships an employee may choose for a colleague ('self' is the employee's own assignment). */
export type Relationship = Exclude<AnyRelationship, 'self'>
export const RELATIONSHIPS = ALL_RELATIONSHIPS.filter((r): r is Relationship => r !== 'self')
export const RELATIONSHIP_LABELS: Record<Relationship, string> = {
  manager: 'Manager',
  peer: 'Peer',
  direct_report: 'Direct report',
  other: 'Other',
}

/** What the employee sees of a colleague's assignment: never more than this (never their answers). */
export type InviteStatus = 'invited' | 'started' | 'answered' | 'revoked'
export const INVITE_STATUS_LABELS: Record<InviteStatus, string> = {
  invited: 'Invited',
  started: 'Started',
  answered: 'Answered',
  revoked: 'Revoked',
}

/**
 * An invitation's state as the employee sees it. `reopened`: an administrator reopened the
 * colleague's submitted answers (ADR 023); to the employee they stay "answered", so a reopen never
 * tells them whom it concerned (issue 15 B4).
 */
export function inviteStatusOf(status: AssignmentStatus, reopened = false): InviteStatus {
  if (reopened && status === 'in_progress') return 'answered'
  switch (status) {
    case 'pending':
      return 'invited'
    case 'in_progress':
      return 'started'
    case 'submitted':
      return 'answered'
    case 'revoked':
      return 'revoked'
  }
}

export const INVITE_MESSAGES = {
  nameRequired: 'Enter your colleague’s name.',
  nameTooLong: `The name must be ${COLLEAGUE_NAME_MAX} characters or fewer.`,
  nameLineBreak: 'The name must be on one line, without tabs or other control characters.',
  emailRequired: 'Enter your colleague’s e-mail address.',
  emailInvalid: 'Enter an e-mail address like name@example.com.',
  emailTooLong: `The e-mail address must be ${EMAIL_MAX} characters or fewer.`,
  relationship: 'Choose how you work with this colleague: manager, peer, direct report or other.',
  schemeMissing: 'Choose the scheme to invite colleagues to, then try again.',
  captcha: 'We could not confirm that you are a person. Please try again.',
  unreadable: 'This form could not be read. Reload the page and try again.',
} as const

const name = requiredText(
  INVITE_MESSAGES.nameRequired,
  INVITE_MESSAGES.nameTooLong,
  COLLEAGUE_NAME_MAX,
  // The name is written into the invitation e-mail; a line break there would read as a new paragraph.
  singleLine(INVITE_MESSAGES.nameLineBreak),
)

const email = emailField({
  required: INVITE_MESSAGES.emailRequired,
  invalid: INVITE_MESSAGES.emailInvalid,
  tooLong: INVITE_MESSAGES.emailTooLong,
})

const relationship = z.enum(RELATIONSHIPS, { error: INVITE_MESSAGES.relationship })

/** A colleague's name, address and relationship: one rule for an invitation and a list entry (ADR 042). */
export const COLLEAGUE_FIELDS = { name, email, relationship }

/** The fields of an invitation, as invite.server.ts checks them again whoever calls it. */
export const InviteFieldsSchema = z.object(COLLEAGUE_FIELDS)

export const InviteSchema = z.object({
  intent: z.literal('invite'),
  // A hidden field: the scheme shown on the page. invite.server.ts checks it (enrolment, open).
  schemeId: z.optional(z.string().check(z.maxLength(100))),
  name,
  email,
  relationship,
})

// Hidden fields: a bad value is a stale page or a hand-made request, not a typo.
const assignmentId = z.uuid({
  error: 'This invitation could not be identified. Reload the page and try again.',
})

export const ResendSchema = z.object({ intent: z.literal('resend'), assignmentId })
export const RevokeSchema = z.object({ intent: z.literal('revoke'), assignmentId })

/** The page's address: which scheme, on whose behalf (admins), and which invitation to confirm revoking. */
const queryValue = z.catch(z.optional(z.string().check(z.maxLength(100))), undefined)
export const InvitePageQuerySchema = z.object({
  scheme: queryValue,
  employee: queryValue,
  revoke: queryValue,
  /** `?fill=manager`: the form filled in for the manager on record. */
  fill: queryValue,
})

/** "You can invite 5 more colleagues", or the same about the employee an admin acts for. */
export function remainingText(remaining: number, who: string | null): string {
  const subject = who ?? 'You'
  if (remaining <= 0) return `${subject} cannot invite any more colleagues to this scheme.`
  return `${subject} can invite ${remaining} more ${remaining === 1 ? 'colleague' : 'colleagues'}.`
}
