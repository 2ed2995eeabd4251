import { Link } from 'react-router'
import { brandStyle } from '#app/components/brand-look'
import { plural } from '#app/lib/words'
import type { CohortHeader } from '../cohort.server'

/** Where a cohort's pages live: a scheme's or a company's. */
export function cohortHref(header: Pick<CohortHeader, 'scope' | 'id'>, page: 'group-report' | 'heatmap') {
  const base = header.scope === 'scheme' ? '/admin/scheme-management' : '/admin/company-management'
  return `${base}/${header.id}/${page}`
}

/** Back to the scheme's page, or to the companies. */
export function BackLink({ header }: { header: CohortHeader }) {
  return (
    <p className="no-print text-sm">
      {header.scope === 'scheme' ? (
        <Link className="link" to={`/admin/scheme-management/${header.id}`}>
          Back to the scheme
        </Link>
      ) : (
        <Link className="link" to="/admin/company-management">
          All companies
        </Link>
      )}
    </p>
  )
}

/**
 * The programme's brand across the top of a cohort page, kept when printed (the PDF a client's HR
 * contact receives): logo, name, the brand's colours (contrast-checked, brandStyle).
 */
export function CohortBrandBand({ header }: { header: CohortHeader }) {
  const { brand } = header
  return (
    <div style={brandStyle(brand)} className="cohort-brand overflow-hidden rounded-md">
      <div className="flex flex-wrap items-center gap-3 bg-[var(--brand-primary)] px-4 py-3 text-[var(--brand-on-primary)]">
        {brand.logoFileId ? (
          <span className="flex shrink-0 items-center rounded bg-white p-1">
            <img
              src={`/files/${brand.logoFileId}`}
              alt={`${brand.name} logo`}
              className="h-8 w-auto max-w-36 object-contain"
            />
          </span>
        ) : null}
        <p className="min-w-0 font-semibold">{`${brand.name} · ${header.companyName}`}</p>
      </div>
      <div aria-hidden="true" className="h-1 bg-[var(--brand-accent)]" />
    </div>
  )
}

/** Which schemes a cohort covers and how anonymity bounds it, in words. */
export function CohortAnonymityNote({ header }: { header: CohortHeader }) {
  const thresholds = [...new Set(header.schemes.map((s) => s.minRaters))]
  const t = thresholds.length === 1 ? plural(thresholds[0]!, 'participant', 'participants') : null
  return (
    <p className="text-sm text-slate-700">
      {t
        ? `A group figure stands on at least ${t} (the scheme’s anonymity threshold), released together or earlier; `
        : 'A group figure stands on at least each scheme’s anonymity threshold of participants, released together or earlier; '}
      each participant counts only with the figures their own report shows, so a rater group too small to
      appear on someone’s report does not enter the group’s figure for it. Comments never appear here.
    </p>
  )
}
