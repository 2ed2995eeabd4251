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
  return (
    <NameList
      path={path}
      noun="identity providers"
      query={query}
      columns={[
        'Name',
        'E-mail domains',
        { label: 'Companies', className: 'text-right' },
        'Passwords',
        'Created',
      ]}
      page={page}
      noMatch={(q) => `No provider’s name contains “${q}”.`}
      empty="No identity provider is set up: everyone signs in with a password. Add one above."
      href={href}
    >
      {(row) => (
        <tr key={row.id}>
          <RowHeader href={`${path}/${row.id}`} detail={<span className="break-all">{row.issuer}</span>}>
            {row.name}
          </RowHeader>
          <Cell className="break-words">{row.domains.join(', ')}</Cell>
          <Cell className="text-right tabular-nums">{row.companyCount}</Cell>
          <Cell>{row.allowPassword ? 'Allowed' : 'Not allowed'}</Cell>
          <CreatedCell at={row.createdAt} />
        </tr>
      )}
    </NameList>
  )
}
