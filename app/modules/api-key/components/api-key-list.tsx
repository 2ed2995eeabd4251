import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { Cell, DataTable, RowHeader } from '#app/components/data-table'
import type { ApiKeyListRow } from '../api-key.server'

const STATUS_CLASS = {
  active: 'bg-emerald-100 text-emerald-900',
  expired: 'bg-amber-100 text-amber-900',
  revoked: 'bg-slate-200 text-slate-800',
} as const

/** A moment as the list shows it: the day and the minute, in UTC (its ISO instant machine-readable). */
function Moment({ at }: { at: string }) {
  return <time dateTime={at}>{`${at.slice(0, 10)} ${at.slice(11, 16)} UTC`}</time>
}

/** Every key: name, prefix, scopes, company, expiry, last use, status; revoking behind `?revoke=`. */
export function ApiKeyList({ keys }: { keys: ApiKeyListRow[] }) {
  const { t } = useTranslation('api-keys')
  return (
    <section aria-labelledby="api-key-list-title" className="flex flex-col gap-3">
      <h2 id="api-key-list-title" className="text-lg font-semibold">
        {t('list.title')}
      </h2>
      <DataTable
        caption={t('list.title')}
        columns={[
          t('list.name'),
          t('list.scopes'),
          t('list.company'),
          t('list.expires'),
          t('list.lastUsed'),
          t('list.status'),
          { label: <span className="sr-only">{t('list.actions')}</span>, key: 'actions' },
        ]}
        rows={keys}
        empty={t('list.empty')}
      >
        {(key) => (
          <tr key={key.id}>
            <RowHeader detail={<code>{`${key.prefix}…`}</code>}>{key.name}</RowHeader>
            <Cell>
              <ul className="flex flex-col gap-0.5">
                {key.scopes.map((scope) => (
                  <li key={scope}>
                    <code>{scope}</code>
                  </li>
                ))}
              </ul>
            </Cell>
            <Cell>{key.companyName ?? t('list.allCompanies')}</Cell>
            <Cell className="text-slate-700">
              {key.expiresAt ? <Moment at={key.expiresAt} /> : t('list.never')}
            </Cell>
            <Cell className="text-slate-700">
              {key.lastUsedAt ? (
                <>
                  <Moment at={key.lastUsedAt} />
                  {key.lastUsedIp ? (
                    <span className="block">{t('list.from', { ip: key.lastUsedIp })}</span>
                  ) : null}
                </>
              ) : (
                t('list.neverUsed')
              )}
            </Cell>
            <Cell>
              <span className={`rounded px-2 py-0.5 text-xs font-semibold ${STATUS_CLASS[key.status]}`}>
                {t(`status.${key.status}`)}
              </span>
            </Cell>
            <Cell>
              {key.status === 'revoked' ? null : (
                <Link className="link text-red-800" to={`?revoke=${key.id}`}>
                  {t('list.revoke')}
                  <span className="sr-only"> {key.name}</span>
                </Link>
              )}
            </Cell>
          </tr>
        )}
      </DataTable>
    </section>
  )
}
