import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { Cell, DataTable, RowHeader } from '#app/components/data-table'
import type { WebhookListRow } from '../webhook.server'

/** Every endpoint: URL and description, events, company, state, deliveries waiting or failed; delete behind `?delete=`. */
export function WebhookList({ endpoints }: { endpoints: WebhookListRow[] }) {
  const { t } = useTranslation('webhooks')
  return (
    <section aria-labelledby="webhook-list-title" className="flex flex-col gap-3">
      <h2 id="webhook-list-title" className="text-lg font-semibold">
        {t('list.title')}
      </h2>
      <DataTable
        caption={t('list.title')}
        columns={[
          t('list.endpoint'),
          t('list.events'),
          t('list.company'),
          t('list.state'),
          t('list.deliveries'),
          { label: <span className="sr-only">{t('list.actions')}</span>, key: 'actions' },
        ]}
        rows={endpoints}
        empty={t('list.empty')}
      >
        {(endpoint) => (
          <tr key={endpoint.id}>
            <RowHeader detail={endpoint.description || null}>
              <Link className="link break-all" to={`/admin/webhooks/${endpoint.id}`}>
                {endpoint.url}
              </Link>
            </RowHeader>
            <Cell>
              <ul className="flex flex-col gap-0.5">
                {endpoint.events.map((event) => (
                  <li key={event}>
                    <code>{event}</code>
                  </li>
                ))}
              </ul>
            </Cell>
            <Cell>{endpoint.companyName ?? t('list.allCompanies')}</Cell>
            <Cell>
              <span
                className={`rounded px-2 py-0.5 text-xs font-semibold ${
                  endpoint.enabled ? 'bg-emerald-100 text-emerald-900' : 'bg-slate-200 text-slate-800'
                }`}
              >
                {endpoint.enabled ? t('state.enabled') : t('state.disabled')}
              </span>
            </Cell>
            <Cell className="text-slate-700">
              {t('list.counts', { queued: endpoint.queued, failed: endpoint.failed })}
            </Cell>
            <Cell>
              <Link className="link text-red-800" to={`?delete=${endpoint.id}`}>
                {t('list.delete')}
                <span className="sr-only"> {endpoint.url}</span>
              </Link>
            </Cell>
          </tr>
        )}
      </DataTable>
    </section>
  )
}
