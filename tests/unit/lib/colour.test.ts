import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import {
  AA_TEXT_CONTRAST,
  brandPalette,
  contrastRatio,
  DARK_TEXT,
  normalizeHex,
  relativeLuminance,
  textColourOn,
  WHITE,
  withContrast,
} from '#app/lib/colour'

const hex = fc
  .tuple(fc.integer({ min: 0, max: 255 }), fc.integer({ min: 0, max: 255 }), fc.integer({ min: 0, max: 255 }))
  .map(([r, g, b]) => `#${[r, g, b].map((c) => c.toString(16).padStart(2, '0')).join('')}`)

describe('WCAG contrast', () => {
  test('luminance and ratio match the WCAG reference values', () => {
    expect(relativeLuminance('#000000')).toBe(0)
    expect(relativeLuminance('#ffffff')).toBe(1)
    expect(contrastRatio('#000000', '#ffffff')).toBe(21)
    expect(contrastRatio('#ffffff', '#ffffff')).toBe(1)
    // Well-known pairs: #767676 on white is the lightest grey that passes AA (4.54:1).
    expect(contrastRatio('#767676', WHITE)).toBeCloseTo(4.54, 2)
    expect(contrastRatio('#777777', WHITE)).toBeLessThan(AA_TEXT_CONTRAST)
    expect(contrastRatio('#1d4ed8', WHITE)).toBeCloseTo(6.7, 1)
  })

  test('short and upper-case hex are read; anything else is not a colour', () => {
    expect(normalizeHex('#ABC')).toBe('#aabbcc')
    expect(normalizeHex(' #1E3A8A ')).toBe('#1e3a8a')
    expect(normalizeHex('red')).toBeNull()
    expect(normalizeHex('#12345')).toBeNull()
    expect(normalizeHex('url(x)')).toBeNull()
    expect(normalizeHex(null)).toBeNull()
  })
})

describe('text on a brand colour', () => {
  test('white on dark colours, dark on light ones', () => {
    expect(textColourOn('#1e3a8a')).toBe(WHITE)
    expect(textColourOn('#000000')).toBe(WHITE)
    expect(textColourOn('#fde047')).toBe(DARK_TEXT)
    expect(textColourOn('#ffffff')).toBe(DARK_TEXT)
  })

  test('a mid-tone that neither text colour reads well on becomes a slightly darker background', () => {
    // #8866bc: white on it is 4.49:1, just short of AA.
    expect(contrastRatio(WHITE, '#8866bc')).toBeLessThan(AA_TEXT_CONTRAST)
    const p = brandPalette('#8866bc', '#0f766e')
    expect(p.onPrimary).toBe(WHITE)
    expect(p.primary).not.toBe('#8866bc')
    expect(contrastRatio(p.onPrimary, p.primary)).toBeGreaterThanOrEqual(AA_TEXT_CONTRAST)
    expect(contrastRatio(p.onPrimary, p.primary)).toBeLessThan(4.7)
    // A brand colour that already passes is left exactly as the consultancy chose it.
    expect(brandPalette('#1e3a8a', '#0f766e').primary).toBe('#1e3a8a')
  })
})

describe('a brand colour as text on the page', () => {
  test('a colour that already passes is kept as it is', () => {
    expect(withContrast('#1e3a8a', WHITE)).toBe('#1e3a8a')
    expect(withContrast('#0F766E', WHITE)).toBe('#0f766e')
  })

  test('a light colour is darkened just enough: same hue, now AA on white', () => {
    const yellow = withContrast('#facc15', WHITE)
    expect(yellow).not.toBe('#facc15')
    expect(contrastRatio(yellow, WHITE)).toBeGreaterThanOrEqual(AA_TEXT_CONTRAST)
    // Not overshooting to black: still well short of the maximum contrast.
    expect(contrastRatio(yellow, WHITE)).toBeLessThan(5)
    const [r, g, b] = [1, 3, 5].map((i) => parseInt(yellow.slice(i, i + 2), 16))
    expect(r).toBeGreaterThan(b!)
    expect(g).toBeGreaterThan(b!)
  })

  test('on a dark background a dark colour is lightened instead', () => {
    const lighter = withContrast('#1e3a8a', '#0f172a')
    expect(contrastRatio(lighter, '#0f172a')).toBeGreaterThanOrEqual(AA_TEXT_CONTRAST)
    expect(relativeLuminance(lighter)).toBeGreaterThan(relativeLuminance('#1e3a8a'))
  })

  test('any colour, on white, comes out readable', () => {
    fc.assert(
      fc.property(hex, (colour) => {
        expect(contrastRatio(withContrast(colour, WHITE), WHITE)).toBeGreaterThanOrEqual(AA_TEXT_CONTRAST)
      }),
    )
  })
})

describe('a brand’s palette', () => {
  test('every text pairing reaches AA, whatever the brand chose', () => {
    fc.assert(
      fc.property(hex, hex, (primary, accent) => {
        const p = brandPalette(primary, accent)
        if (Math.max(contrastRatio(WHITE, primary), contrastRatio(DARK_TEXT, primary)) >= AA_TEXT_CONTRAST)
          expect(p.primary).toBe(primary)
        expect(p.accent).toBe(accent)
        expect(contrastRatio(p.onPrimary, p.primary)).toBeGreaterThanOrEqual(AA_TEXT_CONTRAST)
        expect(contrastRatio(p.accentOnWhite, WHITE)).toBeGreaterThanOrEqual(AA_TEXT_CONTRAST)
        expect(contrastRatio(p.primaryOnWhite, WHITE)).toBeGreaterThanOrEqual(AA_TEXT_CONTRAST)
      }),
    )
  })

  test('a stored value that is not a hex colour never reaches a style: neutral colours instead', () => {
    const p = brandPalette('red; background:url(x)', null)
    expect(p.primary).toMatch(/^#[0-9a-f]{6}$/)
    expect(p.accent).toMatch(/^#[0-9a-f]{6}$/)
  })
})
