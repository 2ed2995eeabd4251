/**
 * E-mail templates: the placeholders each one may use, the deployment's default copy and the
 * renderer. No database and no server-only imports, so the admin template editor can validate and
 * preview in the browser with exactly the code the outbox uses.
 *
 * A template is a subject and a plain-text body with `{{placeholders}}`; paragraphs are separated by
 * a blank line. The same body becomes the text part (values inserted as they are) and the HTML part
 * (values HTML-escaped, one <p> per paragraph, the `{{link}}` paragraph as a button).
 *
 * An admin may also write the HTML part themselves (`html`, ADR 016). It is filled with HTML-escaped
 * values and placed inside the same brand frame (band, logo, footer). Sanitising it is the server's
 * job (sanitize-html must stay out of the browser bundle), passed in as `options.sanitize`; the
 * editor's preview, which has no sanitiser, shows it in a sandboxed iframe without scripts.
 */

import { EMAIL_TEMPLATE_KEYS, type EmailTemplateKey } from '#db/enums'
import { brandPalette, type BrandPalette } from '#app/lib/colour'
import type { ActionCodeKind } from '#app/modules/action-code/action-code.server'
import { SOURCE_LANGUAGE, type Language } from '#app/modules/i18n/languages'
import { FRAME_TEXTS } from './languages'
import { FRENCH_LINK_LABELS, GERMAN_LINK_LABELS } from './templates-de'

export const TEMPLATE_KEYS = EMAIL_TEMPLATE_KEYS

export type TemplateKey = EmailTemplateKey

/** Every template may greet its reader and name the consultancy and the portal. */
const COMMON = ['recipientName', 'brandName', 'appUrl']

/**
 * The placeholder names (written `{{name}}` in a template) that each template may use. Anything else
 * between double braces is a validation error, so a typo cannot reach a recipient.
 */
export const TEMPLATE_PLACEHOLDERS: Record<TemplateKey, string[]> = {
  activate_account: [...COMMON, 'link', 'employeeName', 'schemeName', 'dueDate'],
  colleague_invite: [
    ...COMMON,
    'link',
    'employeeName',
    'colleagueName',
    'schemeName',
    'dueDate',
    'privacyNote',
  ],
  reminder: [...COMMON, 'link', 'employeeName', 'colleagueName', 'schemeName', 'dueDate'],
  reset_password: [...COMMON, 'link'],
  verify_email: [...COMMON, 'link'],
  response_ready: [...COMMON, 'link', 'employeeName', 'schemeName'],
  setup_admin: [...COMMON, 'link'],
  programme_open: [...COMMON, 'link', 'employeeName', 'schemeName', 'dueDate'],
  admin_invite: [...COMMON, 'link', 'inviterName'],
  response_reopened: [...COMMON, 'link', 'employeeName', 'schemeName', 'dueDate', 'reason'],
  sign_in_link: [...COMMON, 'link'],
  nomination_submitted: [...COMMON, 'link', 'employeeName', 'schemeName', 'dueDate'],
  nomination_sent_back: [...COMMON, 'link', 'approverName', 'schemeName', 'dueDate', 'comment'],
  nomination_approved: [...COMMON, 'link', 'approverName', 'schemeName', 'dueDate'],
  nomination_reminder: [...COMMON, 'link', 'employeeName', 'schemeName', 'dueDate'],
  plan_check_in: [...COMMON, 'link', 'schemeName', 'focusAreas', 'targetDate'],
  report_shared: [...COMMON, 'link', 'employeeName', 'schemeName', 'planNote'],
}

/**
 * The action code whose link each template carries, decided per template key when the message is
 * written (not guessed from its text later). A colleague's reminder carries a fresh invite code; an
 * employee's does not, and its caller says so with `linkExpiresAt: null`.
 */
export const ONE_TIME_LINK_KIND: Record<TemplateKey, ActionCodeKind | null> = {
  activate_account: 'activate_account',
  colleague_invite: 'colleague_invite',
  reminder: 'colleague_invite',
  reset_password: 'reset_password',
  verify_email: 'verify_email',
  setup_admin: 'setup_admin',
  response_ready: null,
  // Links to the sign-in page: the employee already has a password (otherwise they get activate_account).
  programme_open: null,
  // An invited administrator chooses their password through an activation code.
  admin_invite: 'activate_account',
  // A colleague's carries a fresh invite code; an employee's links to the page (linkExpiresAt: null).
  response_reopened: 'colleague_invite',
  sign_in_link: 'sign_in_link',
  // Nomination e-mails link to pages behind sign-in: the reader is an employee with a password.
  nomination_submitted: null,
  nomination_sent_back: null,
  nomination_approved: null,
  nomination_reminder: null,
  // Plan e-mails link to pages behind sign-in, read by employees with a password.
  plan_check_in: null,
  report_shared: null,
}

/**
 * The placeholders whose value carries a one-time code (ADR 026): `{{link}}` of every e-mail whose
 * link is an action link. Such a value may stand only as a link's whole address or as text: never
 * in the subject, another attribute or inside another address, where it would reach another site
 * (an image request), a log or a notification instead of the reader.
 */
export function codePlaceholders(key: TemplateKey): readonly string[] {
  return ONE_TIME_LINK_KIND[key] ? ['link'] : []
}

/** The text of the button that carries `{{link}}` in the HTML part. */
export const LINK_LABELS: Record<TemplateKey, string> = {
  activate_account: 'Activate your account',
  colleague_invite: 'Give your feedback',
  reminder: 'Continue your questionnaire',
  reset_password: 'Choose a new password',
  verify_email: 'Confirm your e-mail address',
  response_ready: 'Read your report',
  setup_admin: 'Create the administrator account',
  programme_open: 'Start your self-assessment',
  admin_invite: 'Set your password',
  response_reopened: 'Review your answers',
  sign_in_link: 'Sign in',
  nomination_submitted: 'Review the list',
  nomination_sent_back: 'Change your list',
  nomination_approved: 'See who was invited',
  nomination_reminder: 'Review the list',
  plan_check_in: 'Open your plan',
  report_shared: 'Read the report',
}

/** The button's text in a language (ADR 053). */
export function linkLabelFor(key: TemplateKey, language: Language = SOURCE_LANGUAGE): string {
  return language === 'de'
    ? GERMAN_LINK_LABELS[key]
    : language === 'fr'
      ? FRENCH_LINK_LABELS[key]
      : LINK_LABELS[key]
}

/**
 * The deployment's default copy (brand_id NULL rows of email_templates). The migration
 * 0001_default-email-templates.sql inserts exactly these texts; a test keeps the two equal.
 */
export const DEFAULT_TEMPLATES: Record<TemplateKey, { subject: string; body: string }> = {
  activate_account: {
    subject: 'Your 360° feedback with {{brandName}}: activate your account',
    body: `Hello {{recipientName}},

{{brandName}} has invited you to take part in a 360° feedback programme. It brings together your own view of how you work and the views of colleagues you choose, so you can see your strengths clearly and decide where to grow next.

To begin, activate your account and choose a password:

{{link}}

Once you are signed in, you will find your self-assessment and can invite colleagues to give you feedback. Their answers are shown to you combined and without names, and only once enough of them have responded.

This link is personal to you and can be used once. If it no longer works, ask your contact at {{brandName}} to send a new one.

Warm regards,
The {{brandName}} team`,
  },
  colleague_invite: {
    subject: '{{employeeName}} would value your feedback',
    body: `Hello {{colleagueName}},

{{employeeName}} is taking part in a 360° feedback programme run by {{brandName}} and has asked you to share your perspective on how they work.

The questionnaire covers {{employeeName}}'s strengths and areas for development. {{privacyNote}} You can save your answers and come back to finish later.

Please respond by {{dueDate}}:

{{link}}

This link is personal to you, so please do not forward it. If you would rather not take part, you can simply ignore this e-mail.

Thank you for your time,
The {{brandName}} team`,
  },
  reminder: {
    subject: 'A friendly reminder: your feedback questionnaire is still open',
    body: `Hello {{recipientName}},

A feedback questionnaire in {{schemeName}} is still waiting for you. It is open until {{dueDate}}.

You can pick up where you left off; anything you have already answered has been saved:

{{link}}

If you have submitted your answers in the meantime, thank you, and please disregard this message.

Kind regards,
The {{brandName}} team`,
  },
  reset_password: {
    subject: 'Reset your password for the {{brandName}} feedback portal',
    body: `Hello {{recipientName}},

We received a request to reset the password of your account on the {{brandName}} 360° feedback portal. To choose a new password, use this link:

{{link}}

The link can be used once and expires soon. If you did not ask for a new password, you can safely ignore this e-mail: your current password stays as it is.

Kind regards,
The {{brandName}} team`,
  },
  verify_email: {
    subject: 'Please confirm your e-mail address',
    body: `Hello {{recipientName}},

Please confirm that this is the right e-mail address for your account on the {{brandName}} 360° feedback portal, so that we can keep you up to date about your feedback:

{{link}}

If you did not expect this e-mail, you can safely ignore it.

Kind regards,
The {{brandName}} team`,
  },
  response_ready: {
    subject: 'Your 360° feedback report is ready',
    body: `Hello {{recipientName}},

Good news: enough of your colleagues have shared their feedback, and your report for {{schemeName}} is ready.

It sets your own view beside your colleagues' combined answers, by competency and by question. Take your time with it: many people find it helps to read it twice, note what surprises them and choose one or two things to focus on.

{{link}}

Your colleagues' answers are shown without their names. If you would like to talk your results through, your contact at {{brandName}} will be glad to help.

Warm regards,
The {{brandName}} team`,
  },
  setup_admin: {
    subject: 'Finish setting up your feedback portal',
    body: `Hello {{recipientName}},

The feedback portal at {{appUrl}} has no administrator yet. Use this link to create the first administrator account:

{{link}}

The link can be used once. If you did not install this portal, you can ignore this e-mail.`,
  },
  programme_open: {
    subject: '{{schemeName}} is open: your 360° feedback with {{brandName}}',
    body: `Hello {{recipientName}},

Your 360° feedback programme {{schemeName}} is now open. Start with your self-assessment, then invite the colleagues whose view you would value.

{{link}}

Please finish by {{dueDate}}. Your colleagues' answers are shown to you combined and without names, and only once enough of them have responded.

Warm regards,
The {{brandName}} team`,
  },
  admin_invite: {
    subject: 'You have been invited to administer {{brandName}} feedback',
    body: `Hello {{recipientName}},

{{inviterName}} has invited you to become an administrator of the feedback portal at {{appUrl}}. Choose your password to finish setting up your account:

{{link}}

The link can be used once and expires in a few days. If you were not expecting this, you can ignore this e-mail.`,
  },
  response_reopened: {
    subject: 'Your feedback in {{schemeName}} has been opened again',
    body: `Hello {{recipientName}},

Your answers in {{schemeName}} about {{employeeName}} have been opened again by the programme's administrator, so that you can review them, change what you wish and submit them again:

{{reason}}

{{link}}

Your earlier answers are kept; nothing is counted until you submit again. Please submit by {{dueDate}}.

Warm regards,
The {{brandName}} team`,
  },
  // The life of the link is ACTION_CODE_TTL_MS.sign_in_link (15 minutes).
  sign_in_link: {
    subject: 'Your sign-in link for the {{brandName}} feedback portal',
    body: `Hello {{recipientName}},

We received a request for a one-time link to sign in to your account on the {{brandName}} 360° feedback portal. To sign in, open this link and press the button on the page it shows:

{{link}}

The link works once and expires after 15 minutes. The browser you sign in with is remembered, so it will not be held up by sign-in limits next time.

If you did not ask for this link, you can safely ignore this e-mail: your account and your password stay as they are.

Kind regards,
The {{brandName}} team`,
  },
  nomination_submitted: {
    subject: '{{employeeName}} asks you to approve their feedback list',
    body: `Hello {{recipientName}},

{{employeeName}} has chosen the colleagues they would like feedback from in {{schemeName}}, and the programme asks you to check the list before anyone is invited.

Please sign in and approve the list, change it, or send it back with a comment:

{{link}}

Nobody on the list is contacted until it is approved. Answers can be given until {{dueDate}}, so the sooner the list is settled, the more time colleagues have.

Warm regards,
The {{brandName}} team`,
  },
  nomination_sent_back: {
    subject: 'Your feedback list in {{schemeName}} needs a change',
    body: `Hello {{recipientName}},

{{approverName}} has looked at the colleagues you chose to give you feedback in {{schemeName}} and sent the list back to you:

{{comment}}

Please sign in, change the list and send it again:

{{link}}

Nobody on the list has been contacted yet. Answers can be given until {{dueDate}}.

Warm regards,
The {{brandName}} team`,
  },
  nomination_approved: {
    subject: 'Your feedback list in {{schemeName}} is approved',
    body: `Hello {{recipientName}},

{{approverName}} has approved your list of colleagues for {{schemeName}}, and each of them has now been invited to give you feedback by {{dueDate}}.

You can follow who has answered, and send an invitation again, on your invitations page:

{{link}}

Warm regards,
The {{brandName}} team`,
  },
  nomination_reminder: {
    subject: 'Reminder: {{employeeName}} is waiting for you to approve their feedback list',
    body: `Hello {{recipientName}},

{{employeeName}} sent you their list of colleagues for {{schemeName}} and is waiting for your approval. Nobody on it can be invited until you approve it, and answers are due by {{dueDate}}.

{{link}}

Warm regards,
The {{brandName}} team`,
  },
  plan_check_in: {
    subject: 'Time to check in on your development plan',
    body: `Hello {{recipientName}},

Today is the date you chose to look back at your development plan from {{schemeName}} ({{targetDate}}):

{{focusAreas}}

How far have you come? Take a few minutes to note what worked, what did not, and what you will try next. You can change your actions and choose a new date in your plan:

{{link}}

Warm regards,
The {{brandName}} team`,
  },
  report_shared: {
    subject: '{{employeeName}} has shared their feedback report with you',
    body: `Hello {{recipientName}},

{{employeeName}} has chosen to share their feedback report from {{schemeName}} with you.{{planNote}}

The report shows colleagues' views only combined, never who said what. {{employeeName}} can stop sharing at any time.

{{link}}

Warm regards,
The {{brandName}} team`,
  },
}

// Anything between double braces counts as a placeholder, so `{{ link }}`, `{{Link}}` and `{{due-date}}`
// are all checked rather than silently left in the text.
const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g

/** Placeholder names used in `text` that template `key` does not know (each once, in order of use). */
export function findUnknownPlaceholders(text: string, key: TemplateKey): string[] {
  const allowed = new Set(TEMPLATE_PLACEHOLDERS[key])
  const unknown: string[] = []
  for (const match of text.matchAll(PLACEHOLDER)) {
    const name = match[1]
    if (!allowed.has(name) && !unknown.includes(name)) unknown.push(name)
  }
  return unknown
}

/** Placeholder names used in `text` (each once). */
export function findPlaceholders(text: string): string[] {
  return [...new Set([...text.matchAll(PLACEHOLDER)].map((m) => m[1]))]
}

export function escapeHtml(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;')
}

export type RenderBrand = {
  name: string
  primaryColor?: string | null
  accentColor?: string | null
  senderName?: string | null
  /** The brand's logo as an absolute address (APP_URL + /files/:id): mail clients fetch it themselves. */
  logoUrl?: string | null
}
export type RenderOptions = {
  brand?: RenderBrand | null
  linkLabel?: string
  /**
   * Cleans an admin-written HTML body after its placeholders are filled (server: sanitizeEmailHtml).
   * The values that carry a one-time code stand in it as `codeMarks`, which it must drop from
   * anywhere but a link's whole href and the text.
   */
  sanitize?: (html: string, codeMarks: readonly string[]) => string
  /** The placeholders whose value carries a one-time code (codePlaceholders(key)); by default `link`. */
  codePlaceholders?: readonly string[]
  /** The message's language (ADR 053): the frame's own words and `lang`; English by default. */
  language?: Language
}

/** What an admin edits: the subject, the text body and (optionally) their own HTML body. */
export type TemplateContent = { subject: string; body: string; html?: string | null }
export type RenderedEmail = { subject: string; html: string; text: string }

export const DEFAULT_BRAND_NAME = 'Panorama'
const DEFAULT_COLOR = '#1d4ed8'
const DEFAULT_ACCENT = '#0f766e'

type Piece = { literal: string } | { name: string; value: string }

/**
 * Splits a template text into literal text and filled placeholders. A missing value becomes empty;
 * when it does, the space before it goes too if punctuation follows, so "Hello {{recipientName}},"
 * reads "Hello," rather than "Hello ,".
 */
function fill(text: string, values: Record<string, string>): Piece[] {
  const pieces: Piece[] = []
  let last = 0
  for (const match of text.matchAll(PLACEHOLDER)) {
    const start = match.index
    const name = match[1]
    const value = values[name] ?? ''
    let literal = text.slice(last, start)
    const next = text.charAt(start + match[0].length)
    if (value === '' && literal.endsWith(' ') && /^[,.!?;:]?$/.test(next)) literal = literal.slice(0, -1)
    pieces.push({ literal }, { name, value })
    last = start + match[0].length
  }
  pieces.push({ literal: text.slice(last) })
  return pieces
}

const plain = (pieces: Piece[]) => pieces.map((p) => ('literal' in p ? p.literal : p.value)).join('')

/** Fills subject and body: `text` with raw values, `html` escaped and laid out, `subject` on one line. */
export function renderTemplate(
  template: TemplateContent,
  values: Record<string, string>,
  options: RenderOptions = {},
): RenderedEmail {
  const brandName = options.brand?.name || DEFAULT_BRAND_NAME
  const all = { brandName, ...values }
  const codes = options.codePlaceholders ?? ['link']
  // A subject is one header line: a value must not be able to add lines (or headers) to it. A
  // one-time code never goes into it (notifications and mail logs show subjects): a saved subject
  // that has one (refused at save since ADR 026) loses it.
  const subject = plain(fill(template.subject, { ...all, ...Object.fromEntries(codes.map((c) => [c, ''])) }))
    .replace(/[\r\n\t]+/g, ' ')
    .replace(/ {2,}/g, ' ')
    .trim()
  const body = template.body.replace(/\r\n?/g, '\n').trim()
  const text = plain(fill(body, all)).replace(/[ \t]+$/gm, '') + '\n'
  const ownHtml = template.html?.trim() ? fillHtml(template.html, all, codes, options.sanitize) : undefined
  const html = renderHtml({
    subject,
    paragraphs: ownHtml === undefined ? body.split(/\n[ \t]*\n+/).map((p) => fill(p.trim(), all)) : [],
    ownHtml,
    brandName,
    palette: brandPalette(
      safeColor(options.brand?.primaryColor),
      options.brand?.accentColor ?? DEFAULT_ACCENT,
    ),
    logoUrl: options.brand?.logoUrl && isWebUrl(options.brand.logoUrl) ? options.brand.logoUrl : null,
    senderName: options.brand?.senderName || undefined,
    language: options.language ?? SOURCE_LANGUAGE,
    linkLabel: options.linkLabel || FRAME_TEXTS[options.language ?? SOURCE_LANGUAGE].openLink,
  })
  return { subject, html, text }
}

/** Only a hex colour goes into a style attribute; anything else falls back to the default blue. */
function safeColor(color: string | null | undefined): string {
  return color && /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i.test(color.trim()) ? color.trim() : DEFAULT_COLOR
}

/** Only web links become clickable; anything else is shown as (escaped) text. */
function isWebUrl(value: string) {
  return /^https?:\/\/[^\s"'<>]+$/i.test(value)
}

/**
 * An admin-written HTML body with its placeholders filled: every value HTML-escaped (so a value can
 * never add markup or break out of an attribute), then the whole sanitised, which also checks the
 * addresses that values filled into href/src.
 *
 * A value that carries a one-time code goes in as a random mark first (markHtml), so the sanitiser
 * can see where it stands and drop it from anywhere but a link's whole href and the text; only then
 * is the mark replaced by the value. If that leaves no link at all (a template whose only `{{link}}`
 * was in an image, say), the HTML part is made from the text body instead (undefined), so the
 * reader can still act. Without a sanitiser (the editor's preview in the browser, sample values
 * only) the values are simply escaped.
 */
function fillHtml(
  html: string,
  values: Record<string, string>,
  codes: readonly string[],
  sanitize: RenderOptions['sanitize'],
): string | undefined {
  if (!sanitize)
    return fill(html.replace(/\r\n?/g, '\n'), values)
      .map((p) => ('literal' in p ? p.literal : escapeHtml(p.value)))
      .join('')
  const marked = markHtml(html, values, codes)
  const clean = sanitize(marked.html, [...marked.marks.keys()])
  const placed = [...marked.marks.keys()].some((mark) => marked.html.includes(mark))
  const kept = [...marked.marks.keys()].some((mark) => clean.includes(mark))
  return placed && !kept ? undefined : unmarkHtml(clean, marked.marks)
}

/** A mark no admin can type in advance: random for every fill. */
function newMark() {
  const bytes = new Uint8Array(12)
  globalThis.crypto.getRandomValues(bytes)
  return `pnrmcode${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`
}

/**
 * `html` with its placeholders filled, values HTML-escaped, except each placeholder of `codes`,
 * which stands as a mark (letters and digits only, so parsing and escaping leave it whole). Answers
 * the marks with the values they stand for.
 */
export function markHtml(
  html: string,
  values: Record<string, string>,
  codes: readonly string[],
): { html: string; marks: Map<string, string> } {
  const markOf = new Map(codes.map((name) => [name, newMark()]))
  const marks = new Map(codes.map((name) => [markOf.get(name)!, values[name] ?? '']))
  const filled = fill(html.replace(/\r\n?/g, '\n'), values)
    .map((p) => ('literal' in p ? p.literal : (markOf.get(p.name) ?? escapeHtml(p.value))))
    .join('')
  return { html: filled, marks }
}

/**
 * Sanitised HTML with its marks replaced: a link whose whole href is a mark gets the value if it is
 * a web address (else loses the href), and a mark in the text becomes the escaped value. The
 * sanitiser has already dropped every other place a mark stood.
 */
function unmarkHtml(clean: string, marks: Map<string, string>): string {
  let out = clean
  for (const [mark, value] of marks) {
    out = out.replaceAll(` href="${mark}"`, isWebUrl(value) ? ` href="${escapeHtml(value)}"` : '')
    out = out.replaceAll(mark, escapeHtml(value))
  }
  return out
}

function inlineHtml(pieces: Piece[]): string {
  return pieces
    .map((p) => {
      if ('literal' in p) return escapeHtml(p.literal).replace(/\n/g, '<br>\n')
      const escaped = escapeHtml(p.value)
      if (p.name === 'link' && isWebUrl(p.value))
        return `<a href="${escaped}" style="color:inherit">${escaped}</a>`
      return escaped
    })
    .join('')
}

/** A frame sentence with its `{names}` filled, all escaped (a function replacer: no `$&` patterns). */
function frameWords(sentence: string, values: Record<string, string>): string {
  return escapeHtml(sentence).replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in values ? escapeHtml(values[name]!) : whole,
  )
}

const FONT = "font-family:-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,Helvetica,Arial,sans-serif"

function renderHtml(input: {
  subject: string
  paragraphs: Piece[][]
  /** The admin's own HTML body, filled and sanitised: used instead of the paragraphs. */
  ownHtml?: string
  brandName: string
  /** The brand's colours, contrast-checked (app/lib/colour.ts): text on the band and the button reaches AA. */
  palette: BrandPalette
  logoUrl: string | null
  senderName?: string
  language: Language
  linkLabel: string
}): string {
  const words = FRAME_TEXTS[input.language]
  const color = input.palette.primary
  const onColor = input.palette.onPrimary
  const p = `margin:0 0 16px;${FONT};font-size:16px;line-height:1.55;color:#1f2937`
  const blocks = input.paragraphs.map((pieces) => {
    const parts = pieces.filter((x) => !('literal' in x) || x.literal.trim() !== '')
    const only = parts.length === 1 && !('literal' in parts[0]) ? parts[0] : undefined
    // A paragraph that is just {{link}} becomes a button, with the address spelled out below it for
    // clients that strip links or readers who prefer to paste it.
    if (only && only.name === 'link' && isWebUrl(only.value)) {
      const href = escapeHtml(only.value)
      return (
        `<p style="margin:24px 0 8px;${FONT}">` +
        `<a href="${href}" style="display:inline-block;padding:12px 24px;border-radius:6px;background-color:${color};` +
        `color:${onColor};font-size:16px;font-weight:600;text-decoration:none">${escapeHtml(input.linkLabel)}</a></p>\n` +
        `<p style="margin:0 0 16px;${FONT};font-size:13px;line-height:1.5;color:#4b5563">` +
        `${escapeHtml(words.copyAddress)}<br>\n` +
        `<a href="${href}" style="color:#1f2937;word-break:break-all">${href}</a></p>`
      )
    }
    return `<p style="${p}">${inlineHtml(pieces)}</p>`
  })
  const footer =
    input.senderName && input.senderName !== input.brandName
      ? frameWords(words.sentByOnBehalf, { sender: input.senderName, brand: input.brandName })
      : frameWords(words.sentOnBehalf, { brand: input.brandName })
  return `<!doctype html>
<html lang="${input.language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<title>${escapeHtml(input.subject)}</title>
</head>
<body style="margin:0;padding:0;background-color:#f3f4f6">
<div role="article" aria-roledescription="email" aria-label="${escapeHtml(input.subject)}" lang="${input.language}" style="padding:24px 12px;background-color:#f3f4f6">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="max-width:600px;margin:0 auto;border-collapse:collapse;background-color:#ffffff;border-radius:8px">
${
  input.logoUrl
    ? `<tr><td style="padding:16px 32px;background-color:#ffffff;border-radius:8px 8px 0 0">
<img src="${escapeHtml(input.logoUrl)}" alt="${escapeHtml(input.brandName)}" height="40" style="display:block;height:40px;width:auto;max-width:200px;border:0;${FONT};font-size:16px;color:#1f2937">
</td></tr>
`
    : ''
}<tr><td style="padding:20px 32px;background-color:${color};${input.logoUrl ? '' : 'border-radius:8px 8px 0 0'}">
<h1 style="margin:0;${FONT};font-size:20px;line-height:1.3;font-weight:700;color:${onColor}">${escapeHtml(input.brandName)}</h1>
</td></tr>
<tr><td style="height:4px;line-height:4px;font-size:0;background-color:${input.palette.accent}">&nbsp;</td></tr>
<tr><td style="padding:32px">
${input.ownHtml === undefined ? blocks.join('\n') : `<div style="${FONT};font-size:16px;line-height:1.55;color:#1f2937">\n${input.ownHtml}\n</div>`}
</td></tr>
<tr><td style="padding:16px 32px;border-top:1px solid #e5e7eb">
<p style="margin:0;${FONT};font-size:12px;line-height:1.5;color:#4b5563">${footer}</p>
</td></tr>
</table>
</div>
</body>
</html>
`
}
