import type { PageData } from '#app/lib/page-data'
import { Link } from 'react-router'
import { DataTable } from '#app/components/data-table'
import { FilterBar, FilterSelect } from '#app/components/filter-bar'
import { possessive } from '#app/lib/words'
import type { loadEmailPage } from '../email-list.server'
import { TEMPLATE_DESCRIPTIONS, TEMPLATE_LABELS, templateHref, templateId } from '../schemas'
import { languageInfo, type Language } from '#app/modules/i18n/languages'

/** The templates tab's data, as the page's loader returns it (the page-props rule). */
type Data = Extract<PageData<typeof loadEmailPage>, { tab: 'templates' }>

/** A wording the start-up review found breaking the rules for one-time codes and images (ADR 026). */
function NeedsAttention({ reason }: { reason: string }) {
  return (
    <span className="mt-1 block text-xs text-amber-950">
      <span className="mr-1 inline-block rounded bg-amber-100 px-2 py-0.5 font-semibold">
        Needs attention:
      </span>
      {reason}
    </span>
  )
}

const PATH = '/admin/email-management'

/** The languages a wording has a version in (ADR 053), each a link to that version. */
function Languages({ codes, id, label }: { codes: readonly Language[]; id: string; label: string }) {
  if (!codes.length) return null
  return (
    <span className="mt-1 flex flex-wrap items-center gap-1 text-xs text-slate-700">
      <span>Languages:</span>
      {codes.map((code) => (
        <Link
          key={code}
          to={templateHref(id, code)}
          className="rounded bg-slate-100 px-1.5 py-0.5 font-medium text-slate-800 uppercase underline-offset-2 hover:underline"
          aria-label={`${label}, ${languageInfo(code).name} version`}
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
  return (
    <div className="flex flex-col gap-4">
      <FilterBar
        label="Choose a brand"
        clear={{ href: brand ? PATH : null, label: 'Show the defaults only' }}
      >
        <FilterSelect
          id="template-brand"
          name="brand"
          label="Brand"
          value={brand?.id}
          anyLabel="Default wording only"
          options={brandOptions.map((b) => ({ value: b.id, label: b.name }))}
        />
      </FilterBar>
      <DataTable
        caption={`E-mail templates${brand ? `, with ${possessive(brand.name)} wording` : ''}`}
        columns={[
          'E-mail',
          'Default wording',
          { label: brand ? brand.name : 'Brands with their own', key: 'brand' },
        ]}
        rows={rows}
        empty={null}
      >
        {(row) => (
          <tr key={row.key} className="align-top">
            <th scope="row" className="px-4 py-3 font-medium">
              <span className="block">{TEMPLATE_LABELS[row.key]}</span>
              <span className="block text-xs font-normal text-slate-600">
                {TEMPLATE_DESCRIPTIONS[row.key]}
              </span>
            </th>
            <td className="px-4 py-3">
              <Link className="link" to={`${PATH}/${templateId(row.key, null)}`}>
                {row.defaultSubject}
              </Link>
              <span className="mt-1 block text-xs text-slate-600">
                {row.defaultEdited ? 'Edited' : 'As shipped'}
              </span>
              <Languages
                codes={row.defaultLanguages}
                id={templateId(row.key, null)}
                label={`${TEMPLATE_LABELS[row.key]}, default`}
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
                      Own wording{row.brand.hasHtml ? ', own HTML' : ''} · saved{' '}
                      <time dateTime={row.brand.updatedAt}>{row.brand.updatedAt.slice(0, 10)}</time>
                    </span>
                    <Languages
                      codes={row.brandLanguages}
                      id={templateId(row.key, brand.id)}
                      label={`${TEMPLATE_LABELS[row.key]} for ${brand.name}`}
                    />
                    {row.brand.attention ? <NeedsAttention reason={row.brand.attention} /> : null}
                  </>
                ) : (
                  <>
                    <span className="inline-block rounded bg-slate-100 px-2 py-0.5 text-xs font-medium text-slate-800">
                      Uses the default
                    </span>{' '}
                    <Link
                      className="link text-sm"
                      to={`${PATH}/${templateId(row.key, brand.id)}`}
                      aria-label={`${TEMPLATE_LABELS[row.key]} for ${brand.name}: uses the default, open`}
                    >
                      Open
                    </Link>
                    <Languages
                      codes={row.brandLanguages}
                      id={templateId(row.key, brand.id)}
                      label={`${TEMPLATE_LABELS[row.key]} for ${brand.name}`}
                    />
                  </>
                )
              ) : (
                <>
                  <span className="tabular-nums text-slate-800">
                    {row.overrides === 0
                      ? 'None: every brand uses the default'
                      : `${row.overrides} ${row.overrides === 1 ? 'brand' : 'brands'}`}
                  </span>
                  {row.overridesNeedingAttention ? (
                    <NeedsAttention
                      reason={`${row.overridesNeedingAttention} of them ${row.overridesNeedingAttention === 1 ? 'breaks' : 'break'} the rules for one-time codes and images: choose the brand to see which.`}
                    />
                  ) : null}
                </>
              )}
            </td>
          </tr>
        )}
      </DataTable>
      {!brand && brandOptions.length ? (
        <p className="text-sm text-slate-700">Choose a brand above to see and edit its own wording.</p>
      ) : null}
    </div>
  )
}
