/**
 * The printed cover and the running header and footer of a PDF (ADR 046): plain HTML strings with
 * inline styles, since they are added to the printed page by the renderer (the cover) or drawn by
 * Chromium in the page margins (header and footer templates, which see no stylesheet). Every text
 * is escaped here; colours must be plain hex, anything else falls back to the defaults.
 */

export type PdfBrand = {
  name: string
  logoFileId: string | null
  primaryColor: string
  accentColor: string
}

export type PdfCover = {
  brand: PdfBrand | null
  /** "Feedback report" */
  title: string
  /** Whose it is: the participant's name (or the scheme's, for a group report). */
  subject: string
  /** Label and value lines under the name: scheme, company, release date… */
  lines: [label: string, value: string][]
  /** A line at the foot of the cover ("Confidential: …"). */
  note?: string
}

const DEFAULT_PRIMARY = '#1e3a8a'
const DEFAULT_ACCENT = '#0f766e'

export function escapeHtml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;')
}

const hex = (value: string | undefined, fallback: string) =>
  value && /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i.test(value) ? value : fallback

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** The cover page: the brand's colour band and logo, the title, whose report, the facts, a note. */
export function coverHtml(cover: PdfCover): string {
  const primary = hex(cover.brand?.primaryColor, DEFAULT_PRIMARY)
  const accent = hex(cover.brand?.accentColor, DEFAULT_ACCENT)
  const logo =
    cover.brand?.logoFileId && UUID.test(cover.brand.logoFileId)
      ? `<img src="/files/${cover.brand.logoFileId}" alt="${escapeHtml(cover.brand.name)}" style="max-height:22mm;max-width:70mm;object-fit:contain">`
      : ''
  const brandName = cover.brand ? escapeHtml(cover.brand.name) : ''
  const rows = cover.lines
    .map(
      ([label, value]) =>
        `<dt style="font-weight:600;color:#334155">${escapeHtml(label)}</dt><dd style="margin:0">${escapeHtml(value)}</dd>`,
    )
    .join('')
  return `<section class="pdf-cover" data-pdf-cover style="break-after:page;page-break-after:always;display:flex;flex-direction:column;min-height:255mm;color:#0f172a;-webkit-print-color-adjust:exact;print-color-adjust:exact">
  <div style="height:8mm;background:${primary};border-bottom:2mm solid ${accent}"></div>
  <div style="display:flex;align-items:center;justify-content:space-between;gap:8mm;margin-top:12mm;min-height:22mm">
    ${logo}<span style="font-size:13pt;font-weight:600;color:${primary}">${brandName}</span>
  </div>
  <div style="margin-top:45mm">
    <p style="margin:0;font-size:13pt;font-weight:600;letter-spacing:.08em;text-transform:uppercase;color:${accent}">${escapeHtml(cover.title)}</p>
    <h1 style="margin:4mm 0 0;font-size:30pt;line-height:1.15;font-weight:700;color:${primary}">${escapeHtml(cover.subject)}</h1>
    <div style="width:30mm;height:1.5mm;background:${accent};margin:8mm 0"></div>
    <dl style="display:grid;grid-template-columns:auto 1fr;gap:2mm 8mm;margin:0;font-size:12pt">${rows}</dl>
  </div>
  <p style="margin-top:auto;font-size:9.5pt;color:#334155">${escapeHtml(cover.note ?? '')}</p>
</section>`
}

const marginText =
  'font-family:system-ui,sans-serif;font-size:8px;color:#334155;width:100%;padding:0 12mm;display:flex;justify-content:space-between;gap:8mm'

/** The running header: the brand on the left, `right` (the scheme) on the right. */
export function headerTemplate(brand: PdfBrand | null, right: string): string {
  const primary = hex(brand?.primaryColor, DEFAULT_PRIMARY)
  return `<div style="${marginText};-webkit-print-color-adjust:exact"><span style="color:${primary};font-weight:600">${escapeHtml(brand?.name ?? '')}</span><span>${escapeHtml(right)}</span></div>`
}

/**
 * The running footer: what the document is, and "Page 2 of 9". `page` writes that in the reader's
 * language (pdf:page) from the two markers it is given, which become Chromium's page counters.
 */
export function footerTemplate(
  left: string,
  page: (number: string, total: string) => string = (n, total) => `Page ${n} of ${total}`,
): string {
  const counters = escapeHtml(page('\u0001', '\u0002'))
    .replace('\u0001', '<span class="pageNumber"></span>')
    .replace('\u0002', '<span class="totalPages"></span>')
  return `<div style="${marginText}"><span>${escapeHtml(left)}</span><span>${counters}</span></div>`
}
