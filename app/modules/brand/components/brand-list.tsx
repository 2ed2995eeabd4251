import type { PageData } from '#app/lib/page-data'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { NameList, type HrefFor } from '#app/components/admin-list'
import { Cell, CreatedCell, RowHeader } from '#app/components/data-table'
import type { loadBrandList } from '#app/modules/brand/brand-list.server'
import { Swatch } from '#app/modules/brand/components/swatch'

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
  const { t } = useTranslation('brands')
  return (
    <NameList
      path={path}
      noun="brands"
      nounText={t('list.noun')}
      query={query}
      columns={[
        t('list.name'),
        t('list.colours'),
        { label: t('list.companies'), className: 'text-right' },
        t('list.created'),
      ]}
      page={page}
      noMatch={(q) => t('list.noMatch', { q })}
      empty={t('list.empty')}
      href={href}
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
    </NameList>
  )
}
