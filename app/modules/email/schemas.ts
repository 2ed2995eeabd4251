import { EMAIL_TEMPLATE_KEYS, OUTBOX_STATUSES, type OutboxStatus } from '#db/enums'
import { multiLine, searchTerm, singleLine } from '#app/lib/text-rules'
import * as z from '#app/lib/zod'
import { sampleWordsIn } from '#app/modules/email/value-words'
import {
  codePlaceholders,
  findPlaceholders,
  findUnknownPlaceholders,
  TEMPLATE_PLACEHOLDERS,
  type TemplateKey,
} from './templates'

/**
 * The e-mail management forms' Zod schemas (Zod Mini: app/lib/zod.ts) and wording, shared by Conform
 * in the browser and the actions on the server. No server imports: the template editor checks
 * placeholders as the admin types with exactly the rules the server applies.
 */

export const SUBJECT_MAX = 200
export const BODY_MAX = 20_000
export const HTML_MAX = 50_000
export const RECIPIENT_SEARCH_MAX = 254
/** A recipient prefix shorter than this would read a large part of the outbox index. */
export const RECIPIENT_PREFIX_MIN = 3

export const TEMPLATE_LABELS: Record<TemplateKey, string> = {
  activate_account: 'Account activation',
  colleague_invite: 'Colleague invitation',
  reminder: 'Reminder',
  reset_password: 'Password reset',
  verify_email: 'E-mail address confirmation',
  response_ready: 'Report ready',
  setup_admin: 'First administrator set-up',
  programme_open: 'Programme opens',
  admin_invite: 'Administrator invitation',
  response_reopened: 'Answers reopened',
  sign_in_link: 'Sign-in link',
  nomination_submitted: 'Feedback list to approve',
  nomination_sent_back: 'Feedback list sent back',
  nomination_approved: 'Feedback list approved',
  nomination_reminder: 'Feedback list approval reminder',
  plan_check_in: 'Development plan check-in',
  report_shared: 'Report shared with a manager',
}

/** When each e-mail is sent, in the words an admin knows. */
export const TEMPLATE_DESCRIPTIONS: Record<TemplateKey, string> = {
  activate_account: 'Sent to a new employee so they can choose a password.',
  colleague_invite: 'Sent to a colleague an employee asks for feedback.',
  reminder: 'Sent while a questionnaire is still open and unfinished.',
  reset_password: 'Sent when someone asks for a new password.',
  verify_email: 'Sent to confirm a changed e-mail address.',
  response_ready: 'Sent to an employee when their report can be read.',
  setup_admin: 'Sent once, to set up the first administrator of a new portal.',
  programme_open: 'Sent to enrolled employees when their programme opens.',
  admin_invite: 'Sent to someone invited to become an administrator.',
  response_reopened: 'Sent to a respondent when an admin reopens their submitted answers.',
  sign_in_link: 'Sent when an employee or admin asks for a one-time link to sign in without their password.',
  nomination_submitted:
    "Sent to an employee's manager when the employee sends their list of raters for approval.",
  nomination_sent_back:
    'Sent to an employee when the approver sends their list of raters back with a comment.',
  nomination_approved:
    'Sent to an employee when their list of raters is approved and the invitations have gone out.',
  nomination_reminder:
    'Sent to a manager who has not yet acted on a list of raters waiting for their approval.',
  plan_check_in: 'Sent to an employee on a check-in date they chose in their development plan.',
  report_shared: "Sent to an employee's manager when the employee shares their released report with them.",
}

export const OUTBOX_STATE_LABELS: Record<OutboxStatus, string> = {
  queued: 'Queued',
  sending: 'Sending',
  sent: 'Sent',
  failed: 'Failed',
}

// {{link}} is written in: a table's value is ICU, where braces are syntax (the kit carries it over as {n}).
const LINK_PLACEHOLDER = '{{link}}'

export const EMAIL_MESSAGES = {
  subject: 'Enter the subject.',
  subjectTooLong: `The subject must be ${SUBJECT_MAX} characters or fewer.`,
  body: 'Enter the text body.',
  bodyTooLong: `The text body must be ${BODY_MAX.toLocaleString('en-GB')} characters or fewer.`,
  htmlTooLong: `The HTML body must be ${HTML_MAX.toLocaleString('en-GB')} characters or fewer.`,
  needsLink: `Include ${LINK_PLACEHOLDER}: it is how the reader acts on this e-mail.`,
  notFailed: 'Only a failed message can be retried.',
} as const

/** The edit distance between two short names (for "did you mean"). */
function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i)
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0]!
    row[0] = i
    for (let j = 1; j <= b.length; j++) {
      const above = row[j]!
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1))
      diagonal = above
    }
  }
  return row[b.length]!
}

/** The placeholder `name` was most likely meant to be, if one is close (case or a typo or two). */
export function closestPlaceholder(name: string, key: TemplateKey): string | undefined {
  const lower = name.toLowerCase().replace(/[\s_-]+/g, '')
  let best: { name: string; d: number } | undefined
  for (const candidate of TEMPLATE_PLACEHOLDERS[key]) {
    const d = distance(lower, candidate.toLowerCase())
    if (d <= Math.max(1, Math.floor(candidate.length / 4)) && (!best || d < best.d))
      best = { name: candidate, d }
  }
  return best?.name
}

/** One message per unknown placeholder in `text`: what is wrong and what was probably meant. */
export function placeholderProblems(text: string, key: TemplateKey): string[] {
  return findUnknownPlaceholders(text, key).map((name) => {
    const shown = name === '' ? '{{}}' : `{{${name}}}`
    const guess = closestPlaceholder(name, key)
    return guess
      ? `${shown} is not a placeholder of this e-mail. Did you mean {{${guess}}}?`
      : `${shown} is not a placeholder of this e-mail. It can use: ${TEMPLATE_PLACEHOLDERS[key].map((p) => `{{${p}}}`).join(', ')}.`
  })
}

/**
 * A placeholder that carries a one-time code in the subject (ADR 026): subjects are shown in
 * notifications and kept in mail logs, so the code stays in the body. null: none.
 */
export function subjectCodeProblem(subject: string, key: TemplateKey): string | null {
  const codes = codePlaceholders(key)
  const used = findPlaceholders(subject).filter((name) => codes.includes(name))
  return used.length
    ? `Leave ${used.map((n) => `{{${n}}}`).join(', ')} out of the subject: it carries the reader’s one-time code, and subjects are shown in notifications and kept in mail logs. Put it in the body.`
    : null
}

const hasLink = (text: string) => /\{\{\s*link\s*\}\}/.test(text)

/** The editor's form for template `key`: the placeholders it may use are part of the rules. */
export function templateSchema(key: TemplateKey) {
  const placeholders = z.superRefine<string>((value, ctx) => {
    for (const message of placeholderProblems(value, key))
      ctx.addIssue({ code: 'custom', message, input: value })
  })
  const needsLink = TEMPLATE_PLACEHOLDERS[key].includes('link')
  return z.object({
    intent: z.literal('save'),
    subject: z.string({ error: EMAIL_MESSAGES.subject }).check(
      z.trim(),
      z.minLength(1, EMAIL_MESSAGES.subject),
      z.maxLength(SUBJECT_MAX, EMAIL_MESSAGES.subjectTooLong),
      singleLine(),
      placeholders,
      z.superRefine<string>((value, ctx) => {
        const problem = subjectCodeProblem(value, key)
        if (problem) ctx.addIssue({ code: 'custom', message: problem, input: value })
      }),
    ),
    body: z.string({ error: EMAIL_MESSAGES.body }).check(
      z.minLength(1, EMAIL_MESSAGES.body),
      z.maxLength(BODY_MAX, EMAIL_MESSAGES.bodyTooLong),
      multiLine(),
      placeholders,
      z.refine((v) => !needsLink || hasLink(v), EMAIL_MESSAGES.needsLink),
    ),
    // Left blank: the HTML part is generated from the text body.
    html: z.pipe(
      z.optional(
        z.string().check(
          z.maxLength(HTML_MAX, EMAIL_MESSAGES.htmlTooLong),
          multiLine(),
          placeholders,
          z.refine((v) => !needsLink || !v.trim() || hasLink(v), EMAIL_MESSAGES.needsLink),
        ),
      ),
      z.transform((v: string | undefined) => (v?.trim() ? v : null)),
    ),
  })
}
export type TemplateInput = z.output<ReturnType<typeof templateSchema>>

export const TestSendSchema = z.object({ intent: z.literal('test') })
export const RestoreSchema = z.object({ intent: z.literal('restore') })
export const OverrideSchema = z.object({ intent: z.literal('override') })
/** "Add a version" (ADR 053): the language is checked against those offered by the action. */
export const AddLanguageSchema = z.object({
  intent: z.literal('add-language'),
  language: z.string({ error: 'Choose one of the languages offered.' }).check(z.trim(), z.maxLength(10)),
})
export const DeleteLanguageSchema = z.object({ intent: z.literal('delete-language') })

/** The editor's address for a version: the id, and `?language=` unless English (ADR 053). */
export const templateHref = (id: string, language: string) =>
  `/admin/email-management/${id}${language === 'en' ? '' : `?language=${language}`}`

export const RetrySchema = z.object({
  intent: z.literal('retry'),
})

export const EMAIL_TABS = ['templates', 'outbox'] as const
export type EmailTab = (typeof EMAIL_TABS)[number]

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/**
 * The page's URL: bad values fall back to defaults rather than failing the page. `brand` is a
 * brand's id (templates tab); `state`, `template` and `to` filter the outbox; `to` is an exact
 * address, or a prefix when it ends with `*`.
 */
export const EmailListQuerySchema = z.object({
  tab: z.catch(z.enum(EMAIL_TABS), 'templates'),
  brand: z.catch(z.optional(z.string().check(z.regex(uuid))), undefined),
  state: z.catch(z.optional(z.enum(OUTBOX_STATUSES)), undefined),
  template: z.catch(z.optional(z.enum(EMAIL_TEMPLATE_KEYS)), undefined),
  to: z.pipe(
    z.catch(z.string(), ''),
    z.transform((v: string) => searchTerm(v.toLowerCase(), RECIPIENT_SEARCH_MAX)),
  ),
  after: z.catch(z.optional(z.string()), undefined),
  before: z.catch(z.optional(z.string()), undefined),
})
export type EmailListQuery = z.output<typeof EmailListQuerySchema>

export function parseEmailListQuery(searchParams: URLSearchParams): EmailListQuery {
  return EmailListQuerySchema.parse(Object.fromEntries(searchParams))
}

/** How the recipient box is read: an exact address, or a prefix (`anna*`) of at least 3 characters. */
export function recipientFilter(
  to: string,
): { exact: string } | { prefix: string } | { tooShort: true } | null {
  if (!to) return null
  if (to.endsWith('*')) {
    const prefix = to.replace(/\*+$/, '')
    return prefix.length >= RECIPIENT_PREFIX_MIN ? { prefix } : { tooShort: true }
  }
  return { exact: to }
}

/**
 * Template editor ids (ADR 016): `<key>` is the deployment's default wording of that e-mail;
 * `<key>.<brandId>` is a brand's wording, whether it has its own yet or still uses the default.
 */
export function parseTemplateId(id: string): { key: TemplateKey; brandId: string | null } | null {
  const [key, brandId, ...rest] = id.split('.')
  if (rest.length || !(EMAIL_TEMPLATE_KEYS as readonly string[]).includes(key!)) return null
  if (brandId === undefined) return { key: key as TemplateKey, brandId: null }
  return uuid.test(brandId) ? { key: key as TemplateKey, brandId: brandId.toLowerCase() } : null
}

export const templateId = (key: TemplateKey, brandId: string | null) => (brandId ? `${key}.${brandId}` : key)

/**
 * Sample values for the preview and the test message: every placeholder filled with something
 * plausible, its words and dates in the version's `language` (English unless given).
 */
export function sampleValues(appUrl: string, language: string = 'en'): Record<string, string> {
  const english = {
    recipientName: 'Alex Sample',
    appUrl,
    // The portal's own address: a test message must never carry a working one-time code.
    link: appUrl,
    employeeName: 'Sam Example',
    colleagueName: 'Alex Sample',
    schemeName: 'Leadership 360 (sample)',
    dueDate: '30 June 2026',
    inviterName: 'Jordan Admin',
    focusAreas: '• Communication: an area to develop\n• Listening actively: a strength to use',
    targetDate: '30 September 2026',
    planNote: ' Their development plan is shared with it.',
    // What a peer is told (colleaguePrivacyNote in report/rater-groups.ts): the e-mail module only
    // receives the sentence, so its preview carries a copy of the usual one.
    privacyNote:
      'Your answers are combined with those of other colleagues and shown without your name, so please be candid and constructive.',
  }
  return language === 'en' ? english : { ...english, ...sampleWordsIn(language) }
}
