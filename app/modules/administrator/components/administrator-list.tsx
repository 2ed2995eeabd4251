import type { PageData } from '#app/lib/page-data'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { NameList, type HrefFor } from '#app/components/admin-list'
import { Cell, RowHeader } from '#app/components/data-table'
import type { loadAdminList } from '#app/modules/administrator/administrator-list.server'
import { AdminStateBadge } from '#app/modules/administrator/components/admin-forms'

/** Every administrator, searchable by name or e-mail, with their state and live sessions. */
export function AdminList({
  data: { query, page, me },
  path,
  href,
}: {
  data: PageData<typeof loadAdminList>
  path: string
  href: HrefFor
}) {
  const { t } = useTranslation('admins')
  return (
    <NameList
      path={path}
      noun="administrators"
      nounText={t('list.noun')}
      searchLabel={t('list.search')}
      query={query}
      columns={[
        t('list.name'),
        { label: t('list.email'), className: 'hidden sm:table-cell' },
        t('list.state'),
        t('list.sessions'),
      ]}
      page={page}
      noMatch={(q) => t('list.noMatch', { q })}
      empty={t('list.empty')}
      href={href}
    >
      {(row) => (
        <tr key={row.id}>
          <RowHeader>
            <Link className="link" to={`${path}/${row.id}`}>
              {row.name || row.email}
            </Link>
            {row.id === me ? <span className="ml-2 text-xs text-slate-700">{t('list.you')}</span> : null}
            {/* On a phone the e-mail goes under the name instead of a column of its own. */}
            <span className="block font-normal break-all text-slate-700 sm:hidden">{row.email}</span>
          </RowHeader>
          <Cell className="hidden text-slate-800 sm:table-cell">{row.email}</Cell>
          <Cell>
            <AdminStateBadge state={row.state} />
          </Cell>
          <Cell className="text-slate-800">{row.sessionCount}</Cell>
        </tr>
      )}
    </NameList>
  )
}
