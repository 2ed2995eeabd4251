/**
 * Brand colours made safe to read. A consultancy picks its primary and accent colours for their
 * look, not for contrast; wherever text sits on one of them (or one of them is the text), the pair
 * must reach WCAG AA's 4.5:1. Framework-free: the layouts, the e-mail renderer and the tests share it.
 */

/** WCAG AA for normal-size text. */
export const AA_TEXT_CONTRAST = 4.5

export const WHITE = '#ffffff'
/** The dark text colour of the portal (Tailwind slate-900), used on light brand colours. */
export const DARK_TEXT = '#0f172a'

const HEX6 = /^#[0-9a-f]{6}$/i
const HEX3 = /^#[0-9a-f]{3}$/i

/** `#abc` or `#aabbcc` as lower-case `#aabbcc`; anything else (a name, a CSS expression) → null. */
export function normalizeHex(value: string | null | undefined): string | null {
  const v = value?.trim() ?? ''
  if (HEX6.test(v)) return v.toLowerCase()
  if (HEX3.test(v))
    return `#${[...v.slice(1)]
      .map((c) => c + c)
      .join('')
      .toLowerCase()}`
  return null
}

function channels(hex: string): [number, number, number] {
  const h = normalizeHex(hex)
  if (!h) throw new Error(`Not a hex colour: ${hex}`)
  return [1, 3, 5].map((i) => parseInt(h.slice(i, i + 2), 16)) as [number, number, number]
}

function toHex([r, g, b]: [number, number, number]): string {
  return `#${[r, g, b]
    .map((c) =>
      Math.round(Math.min(255, Math.max(0, c)))
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`
}

/** WCAG 2 relative luminance, 0 (black) … 1 (white). */
export function relativeLuminance(hex: string): number {
  const [r, g, b] = channels(hex).map((c) => {
    const s = c / 255
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4
  }) as [number, number, number]
  return 0.2126 * r + 0.7152 * g + 0.0722 * b
}

/** WCAG 2 contrast ratio of two colours, 1 … 21. */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x) as [number, number]
  return (hi + 0.05) / (lo + 0.05)
}

/** White or the dark text colour, whichever reads better on `background` (it may still fall short of AA). */
export function textColourOn(background: string): string {
  return contrastRatio(WHITE, background) >= contrastRatio(DARK_TEXT, background) ? WHITE : DARK_TEXT
}

function mix(from: string, to: string, amount: number): string {
  const a = channels(from)
  const b = channels(to)
  return toHex([0, 1, 2].map((i) => a[i]! + (b[i]! - a[i]!) * amount) as [number, number, number])
}

/**
 * `colour` itself when it reaches `ratio` against `against`, else the nearest darker (on a light
 * background) or lighter (on a dark one) variant that does: the brand's hue, readable.
 */
export function withContrast(colour: string, against: string, ratio = AA_TEXT_CONTRAST): string {
  const base = normalizeHex(colour)
  const bg = normalizeHex(against)
  if (!base || !bg) throw new Error('withContrast needs two hex colours')
  if (contrastRatio(base, bg) >= ratio) return base
  const target = relativeLuminance(bg) > 0.18 ? '#000000' : WHITE
  // Binary search for the smallest step towards black (or white) that passes.
  let lo = 0
  let hi = 1
  for (let i = 0; i < 20; i++) {
    const mid = (lo + hi) / 2
    if (contrastRatio(mix(base, target, mid), bg) >= ratio) hi = mid
    else lo = mid
  }
  return mix(base, target, hi)
}

export type BrandPalette = {
  /**
   * The header's background: the brand's primary colour, or (when neither white nor dark text
   * reaches AA on it) the nearest darker or lighter variant on which one does.
   */
  primary: string
  /** Text and icons on `primary` (white or dark, whichever reaches AA). */
  onPrimary: string
  /** The accent as chosen, for a decorative stripe (no text sits on it). */
  accent: string
  /** The accent as text or a thin line on the white page: darkened when too light to read. */
  accentOnWhite: string
  /** The primary as text on the white page (a brand name, a link): darkened when too light. */
  primaryOnWhite: string
}

export const NEUTRAL_PRIMARY = '#334155'
export const NEUTRAL_ACCENT = '#64748b'

/** The colours a branded page or e-mail uses, from a brand's stored colours (bad values fall back). */
export function brandPalette(
  primary: string | null | undefined,
  accent: string | null | undefined,
): BrandPalette {
  const chosen = normalizeHex(primary) ?? NEUTRAL_PRIMARY
  const a = normalizeHex(accent) ?? NEUTRAL_ACCENT
  const onPrimary = textColourOn(chosen)
  // Mid-tones (a bright pink, a medium purple) reach about 4.4:1 with either text colour: move the
  // background away from the text until it passes, rather than the text (white or dark is the house style).
  const p = withContrast(chosen, onPrimary)
  return {
    primary: p,
    onPrimary,
    accent: a,
    accentOnWhite: withContrast(a, WHITE),
    primaryOnWhite: withContrast(p, WHITE),
  }
}
