import * as z from '#app/lib/zod'
import { multiLine } from '#app/lib/text-rules'

/**
 * A respondent's request to have their submitted answers reopened (issue 18 §5, ADR 039), and an
 * admin's answer to it: the forms' schemas and wording, shared by the pages and the server. No
 * server-only imports: this file reaches the client.
 */

export const REOPEN_NOTE_MAX = 500
export const DECLINE_REASON_MAX = 500

/** Where the admins' list of waiting requests lives. */
export const REOPEN_REQUESTS_PATH = '/admin/answer-management/reopen-requests'

export const REOPEN_REQUEST_MESSAGES = {
  noteTooLong: `Your note must be ${REOPEN_NOTE_MAX} characters or fewer.`,
  declineReasonTooLong: `The reason must be ${DECLINE_REASON_MAX} characters or fewer.`,
  notSubmitted:
    'Only submitted answers can be reopened, and these are not submitted: you can still change them yourself.',
  closed: 'This programme is no longer open for answers, so your answers cannot be reopened.',
  alreadyRequested:
    'You have already asked to change these answers: your request is with the programme team.',
  limited: (seconds: number) =>
    `You have sent several requests in a short time. Please wait ${Math.max(1, Math.ceil(seconds / 60))} minute(s) and try again.`,
  requestGone:
    'This request has already been answered (by you or another administrator), or the respondent submitted again. Reload the list.',
  stale: 'This request could not be identified. Reload the list and try again.',
} as const

/** The respondent's optional note: trimmed, at most {@link REOPEN_NOTE_MAX} characters. */
const optionalText = (max: number, tooLong: string) =>
  z.optional(z.string().check(z.trim(), z.maxLength(max, tooLong), multiLine()))

const uuid = z
  .string({ error: REOPEN_REQUEST_MESSAGES.stale })
  .check(
    z.regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, REOPEN_REQUEST_MESSAGES.stale),
  )

/** "I need to change my answers": which assignment, and why (optional). */
export const ReopenRequestSchema = z.object({
  intent: z.literal('request-reopen'),
  assignmentId: uuid,
  note: optionalText(REOPEN_NOTE_MAX, REOPEN_REQUEST_MESSAGES.noteTooLong),
})

/** An admin reopens the answers a request is about, in one click. */
export const ApproveReopenRequestSchema = z.object({
  intent: z.literal('approve-request'),
  responseId: uuid,
})

/** An admin declines a request, with an optional reason the respondent reads on their page. */
export const DeclineReopenRequestSchema = z.object({
  intent: z.literal('decline-request'),
  responseId: uuid,
  reason: optionalText(DECLINE_REASON_MAX, REOPEN_REQUEST_MESSAGES.declineReasonTooLong),
})

/**
 * The reason the respondent reads when an admin reopens at their request (in the e-mail, and on the
 * reopened questionnaire: "Your administrator reopened your answers: “As you asked. …”").
 */
export function approvedReason(note: string | null) {
  return note ? `As you asked. Your note: ${note}` : 'As you asked.'
}
