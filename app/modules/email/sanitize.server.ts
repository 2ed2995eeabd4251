import sanitizeHtml from 'sanitize-html'

/**
 * The HTML an admin may write in an e-mail template (ADR 016). Applied when a template is saved and
 * again to every rendered message, after the placeholders are filled (their values are
 * HTML-escaped first), so neither an old row nor a value can bring anything else in.
 *
 * Suited to e-mail: text structure, links, simple tables and hosted images. No scripts, no event
 * handlers, no forms, no <style> or <link>, no iframes; links only to http(s) and mailto; images
 * only from https (a mail client fetches them); inline styles limited to colours, alignment and
 * type, with values that cannot carry url(), expression() or anything but the listed shapes.
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
  allowedSchemesByTag: { img: ['https'] },
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

/** `html` reduced to the e-mail allow-list above. */
export function sanitizeEmailHtml(html: string): string {
  return sanitizeHtml(html, OPTIONS).trim()
}
