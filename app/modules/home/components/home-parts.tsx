import type { ReactNode } from 'react'
import { brandStyle, type BrandLook } from '#app/components/brand-look'

/** The programme's brand across the top of a card: logo, name, colours (contrast-checked). */
export function BrandBand({
  brand,
  logoAlt,
  children,
}: {
  brand: Pick<BrandLook, 'name' | 'logoFileId' | 'primaryColor' | 'accentColor'> | null
  /** The logo's text in the page's language ("Acme logo" when not given). */
  logoAlt?: string
  children: ReactNode
}) {
  if (!brand)
    return <div className="border-b border-slate-200 px-6 py-3 text-sm text-slate-700">{children}</div>
  return (
    <div style={brandStyle(brand)}>
      <div className="flex flex-wrap items-center gap-3 bg-[var(--brand-primary)] px-6 py-3 text-sm text-[var(--brand-on-primary)]">
        {brand.logoFileId ? (
          <span className="flex shrink-0 items-center rounded bg-white p-1">
            <img
              src={`/files/${brand.logoFileId}`}
              alt={logoAlt ?? `${brand.name} logo`}
              className="h-6 w-auto max-w-28 object-contain"
            />
          </span>
        ) : null}
        <p className="min-w-0 font-medium">{children}</p>
      </div>
      <div aria-hidden="true" className="h-1 bg-[var(--brand-accent)]" />
    </div>
  )
}

/** A status as words with a shape beside them: colour is never the only signal. */
export function StatusText({ tone, children }: { tone: 'idle' | 'active' | 'done'; children: ReactNode }) {
  const style =
    tone === 'done'
      ? 'border-emerald-300 bg-emerald-50 text-emerald-900'
      : tone === 'active'
        ? 'border-amber-300 bg-amber-50 text-amber-950'
        : 'border-slate-300 bg-slate-50 text-slate-800'
  return (
    <span
      className={`inline-flex items-center gap-1.5 rounded-full border px-2.5 py-0.5 text-sm font-medium ${style}`}
    >
      <svg aria-hidden="true" viewBox="0 0 16 16" className="h-3.5 w-3.5">
        {tone === 'done' ? (
          <path d="M3 8.5l3 3 7-7" fill="none" stroke="currentColor" strokeWidth="2" />
        ) : tone === 'active' ? (
          <>
            <circle cx="8" cy="8" r="6" fill="none" stroke="currentColor" strokeWidth="2" />
            <path d="M8 2a6 6 0 0 1 0 12z" fill="currentColor" />
          </>
        ) : (
          <circle cx="8" cy="8" r="6" fill="none" stroke="currentColor" strokeWidth="2" />
        )}
      </svg>
      {children}
    </span>
  )
}
