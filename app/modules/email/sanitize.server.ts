import sanitizeHtml from 'sanitize-html'
import { getEnv } from '#app/config/env.server'
import { sampleValues, subjectCodeProblem } from './schemas'
import { codePlaceholders, markHtml, type TemplateKey } from './templates'

/**
 * The HTML an admin may write in an e-mail template (ADR 016, ADR 026). Applied when a template is
 * saved and again to every rendered message, after the placeholders are filled (their values are
 * HTML-escaped first), so neither an old row nor a value can bring anything else in.
 *
 * Suited to e-mail: text structure, links, simple tables and images. No scripts, no event
 * handlers, no forms, no <style> or <link>, no iframes; links only to http(s) and mailto; inline
 * styles limited to colours, alignment and type, with values that cannot carry url(), expression()
 * or anything but the listed shapes. Images only from the portal itself (APP_URL: the brand logo)
 * or inline (data:, cid:): a mail client fetches any other address as the message is opened, and
 * tells that site who read it, when, and whatever the address carries. A value that carries a
 * one-time code (its mark, see markHtml) is kept only as a link's whole href or as text.
 * Server-only: sanitize-html (and its parser) stays out of the browser bundle.
 */

const COLOUR = [/^#[0-9a-f]{3}$/i, /^#[0-9a-f]{6}$/i, /^rgb\(\s*\d{1,3}\s*,\s*\d{1,3}\s*,\s*\d{1,3}\s*\)$/i]
const LENGTH = [/^\d{1,3}(?:\.\d+)?(?:px|em|%)$/, /^0$/]
const BOX = [/^(?:\d{1,3}(?:px|em)|0|auto)(?:\s+(?:\d{1,3}(?:px|em)|0|auto)){0,3}$/]

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [
    'p',
    'br',
    'a',
    'strong',
    'b',
    'em',
    'i',
    'u',
    'ul',
    'ol',
    'li',
    'h1',
    'h2',
    'h3',
    'blockquote',
    'hr',
    'table',
    'thead',
    'tbody',
    'tr',
    'th',
    'td',
    'img',
    'span',
    'div',
  ],
  allowedAttributes: {
    a: ['href', 'title'],
    img: ['src', 'alt', 'width', 'height'],
    table: ['role', 'width', 'cellpadding', 'cellspacing', 'border'],
    td: ['colspan', 'rowspan', 'align', 'valign', 'width'],
    th: ['colspan', 'rowspan', 'align', 'valign', 'width', 'scope'],
    '*': ['style'],
  },
  allowedSchemes: ['http', 'https', 'mailto'],
  // Which addresses of these schemes an image may have is decided by imageAllowed (transformTags).
  allowedSchemesByTag: { img: ['http', 'https', 'data', 'cid'] },
  allowedSchemesAppliedToAttributes: ['href', 'src'],
  allowProtocolRelative: false,
  allowedStyles: {
    '*': {
      color: COLOUR,
      'background-color': COLOUR,
      'text-align': [/^(?:left|right|center|justify)$/],
      'font-weight': [/^(?:normal|bold|[1-9]00)$/],
      'font-style': [/^(?:normal|italic)$/],
      'text-decoration': [/^(?:none|underline|line-through)$/],
      'font-size': LENGTH,
      'line-height': [...LENGTH, /^\d(?:\.\d+)?$/],
      padding: BOX,
      margin: BOX,
      width: LENGTH,
      'max-width': LENGTH,
      border: [/^(?:0|\d{1,2}px\s+(?:solid|dashed|dotted)\s+#[0-9a-f]{3,6})$/i],
      'border-radius': LENGTH,
    },
  },
  // <script>, <style>, <textarea>… go with their content; other unknown tags keep their text.
  disallowedTagsMode: 'discard',
  // Comments could hide conditional markup for some mail clients.
  allowVulnerableTags: false,
}

/** Something the rules of ADR 026 dropped: a code where it may not stand, or a file from elsewhere. */
export type HtmlProblem =
  { kind: 'code'; where: string } | { kind: 'file'; where: string; host: string | null }

/** Attributes that make a mail client fetch something as the message is opened. */
const FETCHING = new Set(['src', 'srcset', 'background', 'poster', 'lowsrc', 'dynsrc', 'data', 'xlink:href'])
const FETCHING_HREF = new Set(['link', 'image', 'use', 'feimage'])
const INLINE_IMAGE = /^data:image\/(?:png|gif|jpeg|webp);base64,[a-z0-9+/=\s]+$/i

function hostOf(value: string): string | null {
  try {
    return new URL(value.trim()).host || null
  } catch {
    return null
  }
}

/** An image address a message may carry: the portal's own origin (the brand logo), or inline. */
export function imageAllowed(src: string, appUrl: string): boolean {
  const value = src.trim()
  if (/^cid:\S+$/i.test(value) || INLINE_IMAGE.test(value)) return true
  try {
    const url = new URL(value)
    return (
      (url.protocol === 'https:' || url.protocol === 'http:') &&
      url.origin === new URL(appUrl).origin &&
      !url.username &&
      !url.password
    )
  } catch {
    return false
  }
}

type RuleOptions = {
  /** The portal's address; images may come only from its origin (default: APP_URL). */
  appUrl?: string
  /** Told of everything dropped under the rules of ADR 026 (the save check and the render's warning). */
  report?: (problem: HtmlProblem) => void
}

/**
 * Applies ADR 026 to every tag before the allow-list: an attribute holding a code mark survives only
 * as an <a>'s whole href (trimmed); an image address only from the portal or inline; every other
 * attribute that fetches something goes. Runs on the parsed, entity-decoded attribute values, so an
 * encoded address is judged as the mail client will read it.
 */
function rulesTransform(codeMarks: readonly string[], appUrl: string, report: RuleOptions['report']) {
  return (tagName: string, attribs: sanitizeHtml.Attributes) => {
    const kept: sanitizeHtml.Attributes = {}
    for (const [name, value] of Object.entries(attribs)) {
      const where = `<${tagName} ${name}>`
      const mark = codeMarks.find((m) => value.includes(m))
      if (mark) {
        if (tagName === 'a' && name === 'href' && value.trim() === mark) kept[name] = mark
        else report?.({ kind: 'code', where })
        continue
      }
      const fetches =
        FETCHING.has(name) ||
        (name === 'href' && FETCHING_HREF.has(tagName)) ||
        (name === 'style' && /url\s*\(|image-set\s*\(/i.test(value))
      if (fetches && !(tagName === 'img' && name === 'src' && imageAllowed(value, appUrl))) {
        report?.({
          kind: 'file',
          where: name === 'style' ? `<${tagName} style="url(…)">` : where,
          host: hostOf(value),
        })
        continue
      }
      kept[name] = value
    }
    return { tagName, attribs: kept }
  }
}

/**
 * `html` reduced to the e-mail allow-list above. `codeMarks` are the marks standing for values that
 * carry a one-time code (markHtml): each is kept only as a link's whole href or as text.
 */
export function sanitizeEmailHtml(
  html: string,
  codeMarks: readonly string[] = [],
  { appUrl = getEnv().APP_URL, report }: RuleOptions = {},
): string {
  return sanitizeHtml(html, {
    ...OPTIONS,
    transformTags: { '*': rulesTransform(codeMarks, appUrl, report) },
  }).trim()
}

const count = (text: string, part: string) => text.split(part).length - 1

/**
 * What in an admin's HTML body for `key` breaks the rules of ADR 026, as messages for the HTML
 * field (none: it may be saved). Checked on the body filled as a message would be (sample values,
 * the code as a mark), with the sanitiser that renders every message, so the check and the message
 * cannot read the HTML differently.
 */
export function emailHtmlProblems(html: string, key: TemplateKey, appUrl = getEnv().APP_URL): string[] {
  const codes = codePlaceholders(key)
  const marked = markHtml(html, sampleValues(appUrl), codes)
  const marks = [...marked.marks.keys()]
  const problems: HtmlProblem[] = []
  const clean = sanitizeEmailHtml(marked.html, marks, { appUrl, report: (p) => problems.push(p) })
  const placeholder = codes.map((c) => `{{${c}}}`).join(', ')
  const messages: string[] = []
  const codePlaces = [...new Set(problems.filter((p) => p.kind === 'code').map((p) => p.where))]
  // A mark neither kept nor in a dropped attribute stood where nothing is shown: a comment, a
  // <style> or <script> block, a tag name.
  const lost = marks.reduce((n, m) => n + count(marked.html, m) - count(clean, m), 0)
  if (codePlaces.length || lost > codePlaces.length)
    messages.push(
      `${placeholder} carries the reader’s one-time code, so it may stand only as a link’s whole address (<a href="{{link}}">) or as text. ` +
        (codePlaces.length
          ? `Take it out of ${codePlaces.join(', ')}.`
          : 'Take it out of comments and <style> or <script> blocks.'),
    )
  const files = problems.filter((p): p is Extract<HtmlProblem, { kind: 'file' }> => p.kind === 'file')
  if (files.length) {
    const places = [...new Set(files.map((f) => (f.host ? `${f.where} from ${f.host}` : f.where)))]
    messages.push(
      `Images may come only from this portal (${new URL(appUrl).origin}, such as a brand logo) or be inline (data: or cid:). Remove ${places.join(', ')}.`,
    )
  }
  return messages
}

/**
 * Every problem of a saved wording under ADR 026 (subject and HTML body), for the start-up review
 * and the editor; none for a wording that may be sent as it is.
 */
export function savedTemplateProblems(
  template: { subject: string; html: string | null },
  key: TemplateKey,
  appUrl = getEnv().APP_URL,
): string[] {
  const subject = subjectCodeProblem(template.subject, key)
  return [
    ...(subject ? [subject] : []),
    ...(template.html?.trim() ? emailHtmlProblems(template.html, key, appUrl) : []),
  ]
}
