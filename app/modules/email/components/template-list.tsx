import type { PageData } from '#app/lib/page-data'
import { Link } from 'react-router'
import { DataTable } from '#app/components/data-table'
import { FilterBar, FilterSelect } from '#app/components/filter-bar'
import { formatDate } from '#app/lib/dates'
import type { loadEmailPage } from '../email-list.server'
import { templateHref, templateId } from '../schemas'
import type { Language } from '#app/modules/i18n/languages'
import { useEmailWords } from './use-email-words'

/** The templates tab's data, as the page's loader returns it (the page-props rule). */
type Data = Extract<PageData<typeof loadEmailPage>, { tab: 'templates' }>

/** A wording the start-up review found breaking the rules for one-time codes and images (ADR 026). */
function NeedsAttention({ reason }: { reason: string }) {
  const { t } = useEmailWords()
  return (
    <span className="mt-1 block text-xs text-amber-950">
      <span className="mr-1 inline-block rounded bg-amber-100 px-2 py-0.5 font-semibold">
        {t('list.needsAttention')}
      </span>
      {reason}
    </span>
  )
}

const PATH = '/admin/email-management'

/** The languages a wording has a version in (ADR 053), each a link to that version. */
function Languages({ codes, id, label }: { codes: readonly Language[]; id: string; label: string }) {
  const { t, languageName } = useEmailWords()
  if (!codes.length) return null
  return (
    <span className="mt-1 flex flex-wrap items-center gap-1 text-xs text-slate-700">
      <span>{t('list.languages')}</span>
      {codes.map((code) => (
        <Link
          key={code}
          to={templateHref(id, code)}
          className="rounded bg-slate-100 px-1.5 py-0.5 font-medium text-slate-800 uppercase underline-offset-2 hover:underline"
          aria-label={t('list.languageVersion', { label, language: languageName(code) })}
        >
          {code}
        </Link>
      ))}
    </span>
  )
}

/**
 * Every e-mail the product sends, one row per template key. Brands are a filter, not columns, so
 * the table stays the same width with one brand or a thousand: the default wording is always shown,
 * and for the chosen brand whether it has its own wording or uses the default.
 */
export function TemplateList({
  data: {
    summaries: { rows, brand },
    brandOptions,
  },
}: {
  data: Data
}) {
  const { t, locale, templateLabel, templateDescription, owner } = useEmailWords()
  return (
    <div className="flex flex-col gap-4">
      <FilterBar
        label={t('list.chooseBrand')}
        clear={{ href: brand ? PATH : null, label: t('list.defaultsOnly') }}
      >
        <FilterSelect
          id="template-brand"
          name="brand"
          label={t('list.brand')}
          value={brand?.id}
          anyLabel={t('list.defaultOnly')}
          options={brandOptions.map((b) => ({ value: b.id, label: b.name }))}
        />
      </FilterBar>
      <DataTable
        caption={brand ? t('list.captionBrand', { owner: owner(brand.name) }) : t('list.caption')}
        columns={[
          t('list.email'),
          t('list.defaultWording'),
          { label: brand ? brand.name : t('list.brandsWithOwn'), key: 'brand' },
        ]}
        rows={rows}
        empty={null}
      >
        {(row) => (
          <tr key={row.key} className="align-top">
            <th scope="row" className="px-4 py-3 font-medium">
              <span className="block">{templateLabel(row.key)}</span>
              <span className="block text-xs font-normal text-slate-600">{templateDescription(row.key)}</span>
            </th>
            <td className="px-4 py-3">
              <Link className="link" to={`${PATH}/${templateId(row.key, null)}`}>
                {row.defaultSubject}
              </Link>
              <span className="mt-1 block text-xs text-slate-600">
                {row.defaultEdited ? t('list.edited') : t('list.asShipped')}
              </span>
              <Languages
                codes={row.defaultLanguages}
                id={templateId(row.key, null)}
                label={t('list.defaultLabel', { label: templateLabel(row.key) })}
              />
              {row.defaultAttention ? <NeedsAttention reason={row.defaultAttention} /> : null}
            </td>
            <td className="px-4 py-3">
              {brand ? (
                row.brand ? (
                  <>
                    <Link className="link" to={`${PATH}/${templateId(row.key, brand.id)}`}>
                      {row.brand.subject}
                    </Link>
                    <span className="mt-1 block text-xs text-slate-600">
                      {row.brand.hasHtml ? t('list.ownWordingHtml') : t('list.ownWording')} ·{' '}
                      {t('list.saved')}{' '}
                      <time dateTime={row.brand.updatedAt}>
                        {formatDate(row.brand.updatedAt, 'UTC', locale)}
                      </time>
                    </span>
                    <Languages
                      codes={row.brandLanguages}
                      id={templateId(row.key, brand.id)}
                      label={t('list.forBrand', { label: templateLabel(row.key), brand: brand.name })}
                    />
                    {row.brand.attention ? <NeedsAttention reason={row.brand.attention} /> : null}
                  </>
                ) : (
                  <>
                    <span className="inline-block rounded bg-slate-100 px-2 py-0.5 text-xs font-medium text-slate-800">
                      {t('list.usesDefault')}
                    </span>{' '}
                    <Link
                      className="link text-sm"
                      to={`${PATH}/${templateId(row.key, brand.id)}`}
                      aria-label={t('list.openLabel', { label: templateLabel(row.key), brand: brand.name })}
                    >
                      {t('list.open')}
                    </Link>
                    <Languages
                      codes={row.brandLanguages}
                      id={templateId(row.key, brand.id)}
                      label={t('list.forBrand', { label: templateLabel(row.key), brand: brand.name })}
                    />
                  </>
                )
              ) : (
                <>
                  <span className="tabular-nums text-slate-800">
                    {row.overrides === 0
                      ? t('list.noOverrides')
                      : t('list.overrides', { count: row.overrides })}
                  </span>
                  {row.overridesNeedingAttention ? (
                    <NeedsAttention
                      reason={t('list.overridesAttention', { count: row.overridesNeedingAttention })}
                    />
                  ) : null}
                </>
              )}
            </td>
          </tr>
        )}
      </DataTable>
      {!brand && brandOptions.length ? (
        <p className="text-sm text-slate-700">{t('list.chooseBrandHint')}</p>
      ) : null}
    </div>
  )
}
