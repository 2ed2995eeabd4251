import { Form, Link } from 'react-router'
import { possessive } from '#app/lib/words'
import { FilterSelect } from '#app/components/admin-list'
import { TEMPLATE_DESCRIPTIONS, TEMPLATE_LABELS, templateId } from '../schemas'
import type { TemplateKey } from '../templates'

type Row = {
  key: TemplateKey
  defaultSubject: string
  defaultEdited: boolean
  defaultAttention: string | null
  overrides: number
  overridesNeedingAttention: number
  brand: { subject: string; updatedAt: string; hasHtml: boolean; attention: string | null } | null
}

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

/**
 * Every e-mail the product sends, one row per template key. Brands are a filter, not columns, so
 * the table stays the same width with one brand or a thousand: the default wording is always shown,
 * and for the chosen brand whether it has its own wording or uses the default.
 */
export function TemplateList({
  rows,
  brand,
  brandOptions,
}: {
  rows: Row[]
  brand: { id: string; name: string } | null
  brandOptions: Array<{ id: string; name: string }>
}) {
  return (
    <div className="flex flex-col gap-4">
      <Form method="get" role="search" aria-label="Choose a brand" className="flex flex-wrap items-end gap-3">
        <FilterSelect
          id="template-brand"
          name="brand"
          label="Brand"
          value={brand?.id}
          anyLabel="Default wording only"
          options={brandOptions.map((b) => ({ value: b.id, label: b.name }))}
        />
        <button type="submit" className="btn btn-secondary">
          Show
        </button>
        {brand ? (
          <Link to={PATH} className="link self-center">
            Show the defaults only
          </Link>
        ) : null}
      </Form>
      <div className="relative overflow-x-auto rounded-xl border border-slate-200 bg-white">
        <table className="w-full text-left text-sm">
          <caption className="sr-only">
            E-mail templates{brand ? `, with ${possessive(brand.name)} wording` : ''}
          </caption>
          <thead className="border-b border-slate-200 bg-slate-50 text-slate-800">
            <tr>
              <th scope="col" className="px-4 py-3 font-semibold">
                E-mail
              </th>
              <th scope="col" className="px-4 py-3 font-semibold">
                Default wording
              </th>
              <th scope="col" className="px-4 py-3 font-semibold">
                {brand ? brand.name : 'Brands with their own'}
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-200">
            {rows.map((row) => (
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
            ))}
          </tbody>
        </table>
      </div>
      {!brand && brandOptions.length ? (
        <p className="text-sm text-slate-700">Choose a brand above to see and edit its own wording.</p>
      ) : null}
    </div>
  )
}
