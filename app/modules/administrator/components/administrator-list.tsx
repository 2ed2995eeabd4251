import type { PageData } from '#app/lib/page-data'
import { Link } from 'react-router'
import { ListPagination, ListSearchForm, ListSection, type HrefFor } from '#app/components/admin-list'
import { Cell, DataTable, RowHeader } from '#app/components/data-table'
import type { loadAdminList } from '#app/modules/administrator/administrator-list.server'
import { AdminStateBadge } from '#app/modules/administrator/components/admin-forms'
import { ADMIN_SORT_LABELS, ADMIN_SORTS } from '#app/modules/administrator/schemas'

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
  return (
    <ListSection title="All administrators">
      <ListSearchForm
        path={path}
        noun="administrators"
        searchLabel="Search by name or e-mail"
        q={query.q}
        sort={query.sort}
        sorts={ADMIN_SORTS}
        sortLabels={ADMIN_SORT_LABELS}
      />
      <DataTable
        caption={`Administrators${query.q ? ` matching “${query.q}”` : ''}, sorted by ${ADMIN_SORT_LABELS[query.sort]}`}
        columns={['Name', { label: 'E-mail', className: 'hidden sm:table-cell' }, 'State', 'Sessions']}
        rows={page.rows}
        empty={
          query.q
            ? `No administrator’s name or e-mail contains “${query.q}”.`
            : 'There are no administrators yet.'
        }
      >
        {(row) => (
          <tr key={row.id}>
            <RowHeader>
              <Link className="link" to={`${path}/${row.id}`}>
                {row.name || row.email}
              </Link>
              {row.id === me ? <span className="ml-2 text-xs text-slate-700">(you)</span> : null}
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
      </DataTable>
      <ListPagination noun="administrators" next={page.next} prev={page.prev} href={href} />
    </ListSection>
  )
}
