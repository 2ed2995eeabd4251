import { useTranslation } from 'react-i18next'
import { NameList, type HrefFor } from '#app/components/admin-list'
import { Cell, CreatedCell, RowHeader } from '#app/components/data-table'
import type { PageData } from '#app/lib/page-data'
import type { loadProviderList } from '#app/modules/sso/provider-pages.server'

/** Every identity provider, searchable and sorted, with its domains and how many companies use it. */
export function ProviderList({
  data: { query, page },
  path,
  href,
}: {
  data: PageData<typeof loadProviderList>
  path: string
  href: HrefFor
}) {
  const { t } = useTranslation('identity-providers')
  return (
    <NameList
      path={path}
      noun="identity providers"
      nounText={t('list.noun')}
      query={query}
      columns={[
        t('list.name'),
        t('list.domains'),
        { label: t('list.companies'), className: 'text-right' },
        t('list.passwords'),
        t('list.created'),
      ]}
      page={page}
      noMatch={(q) => t('list.noMatch', { q })}
      empty={t('list.empty')}
      href={href}
    >
      {(row) => (
        <tr key={row.id}>
          <RowHeader href={`${path}/${row.id}`} detail={<span className="break-all">{row.issuer}</span>}>
            {row.name}
          </RowHeader>
          <Cell className="break-words">{row.domains.join(', ')}</Cell>
          <Cell className="text-right tabular-nums">{row.companyCount}</Cell>
          <Cell>{row.allowPassword ? t('list.allowed') : t('list.notAllowed')}</Cell>
          <CreatedCell at={row.createdAt} />
        </tr>
      )}
    </NameList>
  )
}
