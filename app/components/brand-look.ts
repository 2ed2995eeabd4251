import { useMatches } from 'react-router'
import { brandPalette, type BrandPalette } from '#app/lib/colour'

/**
 * What a page needs to wear a programme's brand: name, logo, colours and the brand's own contact
 * links (null = the deployment's). Client-safe: the layouts read it.
 *
 * The convention: a route whose page belongs to one programme returns `brand: BrandLook | null` in
 * its loader data (null = deliberately neutral, as on the home page that lists several programmes).
 * The layout takes it from the deepest route match whose data has a `brand` key ({@link usePageBrand}),
 * so a page supplies its brand with no extra request and no change to the layout.
 */
export type BrandLook = {
  name: string
  logoFileId: string | null
  primaryColor: string
  accentColor: string
  contact: { callbackUrl: string | null; email: string | null; profileUrl: string | null }
}

/** The brand of the page being shown: undefined when no route says, null when one says "neutral". */
export function usePageBrand(): BrandLook | null | undefined {
  const matches = useMatches()
  for (let i = matches.length - 1; i >= 0; i--) {
    const data = matches[i]?.data
    if (data && typeof data === 'object' && 'brand' in data)
      return (data as { brand: BrandLook | null }).brand
  }
  return undefined
}

/** The brand's colours, contrast-checked (app/lib/colour.ts), as CSS custom properties for a style attribute. */
export function brandStyle(brand: Pick<BrandLook, 'primaryColor' | 'accentColor'>) {
  const p: BrandPalette = brandPalette(brand.primaryColor, brand.accentColor)
  return {
    '--brand-primary': p.primary,
    '--brand-on-primary': p.onPrimary,
    '--brand-accent': p.accent,
    '--brand-accent-text': p.accentOnWhite,
    '--brand-primary-text': p.primaryOnWhite,
  } as React.CSSProperties
}
