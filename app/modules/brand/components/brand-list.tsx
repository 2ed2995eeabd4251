import type { PageData } from '#app/lib/page-data'
import { Link } from 'react-router'
import { ListPagination, ListSearchForm, ListSection, type HrefFor } from '#app/components/admin-list'
import { Cell, CreatedCell, DataTable, RowHeader } from '#app/components/data-table'
import type { loadBrandList } from '#app/modules/brand/brand-list.server'
import { Swatch } from '#app/modules/brand/components/swatch'
import { BRAND_SORT_LABELS, BRAND_SORTS } from '#app/modules/brand/schemas'

/** Every brand, searchable and sorted, with its colours and how many companies use it. */
export function BrandList({
  data: { query, page },
  path,
  href,
}: {
  data: PageData<typeof loadBrandList>
  path: string
  href: HrefFor
}) {
  return (
    <ListSection title="All brands">
      <ListSearchForm
        path={path}
        noun="brands"
        q={query.q}
        sort={query.sort}
        sorts={BRAND_SORTS}
        sortLabels={BRAND_SORT_LABELS}
      />
      <DataTable
        caption={`Brands${query.q ? ` matching “${query.q}”` : ''}, sorted by ${BRAND_SORT_LABELS[query.sort]}`}
        columns={['Name', 'Colours', { label: 'Companies', className: 'text-right' }, 'Created']}
        rows={page.rows}
        empty={
          query.q
            ? `No brand’s name contains “${query.q}”.`
            : 'There are no brands yet. Create the first one above.'
        }
      >
        {(row) => (
          <tr key={row.id}>
            <RowHeader className="font-medium">
              <div className="flex items-center gap-3">
                {row.logoFileId ? (
                  // Decorative: the brand's name is the link text right beside it.
                  <img
                    src={`/files/${row.logoFileId}`}
                    alt=""
                    width={32}
                    height={32}
                    loading="lazy"
                    className="h-8 w-8 rounded object-contain"
                  />
                ) : (
                  <span aria-hidden="true" className="h-8 w-8 rounded bg-slate-100" />
                )}
                <Link className="link" to={`${path}/${row.id}`}>
                  {row.name}
                </Link>
              </div>
            </RowHeader>
            <Cell>
              <div className="flex items-center gap-2">
                <Swatch colour={row.primaryColor} />
                <Swatch colour={row.accentColor} />
                <span className="font-mono text-xs text-slate-700">
                  {row.primaryColor} / {row.accentColor}
                </span>
              </div>
            </Cell>
            <Cell className="text-right tabular-nums">{row.companyCount}</Cell>
            <CreatedCell at={row.createdAt} />
          </tr>
        )}
      </DataTable>
      <ListPagination noun="brands" next={page.next} prev={page.prev} href={href} />
    </ListSection>
  )
}
