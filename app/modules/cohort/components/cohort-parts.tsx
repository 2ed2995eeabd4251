import { Link } from 'react-router'
import { brandStyle } from '#app/components/brand-look'
import { useTranslation } from 'react-i18next'
import { formatScore } from '#app/lib/numbers'
import { formatScore as reportScore } from '#app/modules/report/report'
import { useIntlLocale } from '#app/modules/i18n/use-intl-locale'
import type { CohortHeader } from '../cohort.server'

/** Where a cohort's pages live: a scheme's or a company's. */
export function cohortHref(header: Pick<CohortHeader, 'scope' | 'id'>, page: 'group-report' | 'heatmap') {
  const base = header.scope === 'scheme' ? '/admin/scheme-management' : '/admin/company-management'
  return `${base}/${header.id}/${page}`
}

/** Back to the scheme's page, or to the companies. */
export function BackLink({ header }: { header: CohortHeader }) {
  const { t } = useTranslation('cohort')
  return (
    <p className="no-print text-sm">
      {header.scope === 'scheme' ? (
        <Link className="link" to={`/admin/scheme-management/${header.id}`}>
          {t('backToScheme')}
        </Link>
      ) : (
        <Link className="link" to="/admin/company-management">
          {t('allCompanies')}
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
  const { t } = useTranslation('cohort')
  const { brand } = header
  return (
    <div style={brandStyle(brand)} className="cohort-brand overflow-hidden rounded-md">
      <div className="flex flex-wrap items-center gap-3 bg-[var(--brand-primary)] px-4 py-3 text-[var(--brand-on-primary)]">
        {brand.logoFileId ? (
          <span className="flex shrink-0 items-center rounded bg-white p-1">
            <img
              src={`/files/${brand.logoFileId}`}
              alt={t('logo', { brand: brand.name })}
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
  const { t } = useTranslation('cohort')
  const thresholds = [...new Set(header.schemes.map((s) => s.minRaters))]
  return (
    <p className="text-sm text-slate-700">
      {thresholds.length === 1 ? t('anonymityOne', { count: thresholds[0] }) : t('anonymityEach')}
    </p>
  )
}

/**
 * A figure as the cohort's pages show it, in the page's language: "3.5" / "3,5"; "—" for none. The
 * digits are the report's own (its rounding), only the decimal mark is the language's, so a figure
 * reads the same here as on the participant's report.
 */
export function useScore() {
  const mark = formatScore(1.5, 1, useIntlLocale()).replace(/\d/g, '')
  return (value: number | null | undefined) => reportScore(value).replace('.', mark)
}
