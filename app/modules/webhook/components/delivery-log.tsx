import { useTranslation } from 'react-i18next'
import { Form, Link } from 'react-router'
import { Cell, DataTable, RowHeader } from '#app/components/data-table'
import { usePendingIntent } from '#app/components/form-kit'
import type { DeliveryRow } from '../webhook.server'

const STATUS_CLASS = {
  queued: 'bg-amber-100 text-amber-900',
  sending: 'bg-indigo-100 text-indigo-900',
  delivered: 'bg-emerald-100 text-emerald-900',
  failed: 'bg-red-100 text-red-900',
} as const

/** A moment as the log shows it: the day and the minute, in UTC (its ISO instant machine-readable). */
function Moment({ at }: { at: string }) {
  return <time dateTime={at}>{`${at.slice(0, 10)} ${at.slice(11, 16)} UTC`}</time>
}

/**
 * An endpoint's delivery log (issue 21 §2), newest first: event, status, attempts, last response
 * code or error, when it was queued and last tried, the next attempt; "Redeliver" on each row.
 */
export function DeliveryLog({
  deliveries,
  older,
  paged,
}: {
  deliveries: DeliveryRow[]
  older: string | null
  paged: boolean
}) {
  const { t } = useTranslation('webhooks')
  const busy = usePendingIntent('redeliver')
  return (
    <section aria-labelledby="delivery-log-title" className="flex flex-col gap-3">
      <h2 id="delivery-log-title" className="text-lg font-semibold">
        {t('log.title')}
      </h2>
      <DataTable
        caption={t('log.title')}
        columns={[
          t('log.event'),
          t('log.status'),
          t('log.attempts'),
          t('log.response'),
          t('log.time'),
          t('log.next'),
          { label: <span className="sr-only">{t('log.actions')}</span>, key: 'actions' },
        ]}
        rows={deliveries}
        empty={t('log.empty')}
      >
        {(delivery) => (
          <tr key={delivery.id}>
            <RowHeader detail={<code className="text-xs">{delivery.id}</code>}>
              <code>{delivery.eventType}</code>
            </RowHeader>
            <Cell>
              <span className={`rounded px-2 py-0.5 text-xs font-semibold ${STATUS_CLASS[delivery.status]}`}>
                {t(`status.${delivery.status}`)}
              </span>
            </Cell>
            <Cell>{delivery.attempts}</Cell>
            <Cell className="text-slate-700">
              {delivery.lastResponseCode ?? '—'}
              {delivery.lastError ? (
                <span className="block break-all text-xs">{delivery.lastError}</span>
              ) : null}
            </Cell>
            <Cell className="text-slate-700">
              <Moment at={delivery.lastAttemptAt ?? delivery.createdAt} />
            </Cell>
            <Cell className="text-slate-700">
              {delivery.nextAttemptAt ? <Moment at={delivery.nextAttemptAt} /> : '—'}
            </Cell>
            <Cell>
              {delivery.status === 'sending' ? null : (
                <Form method="post">
                  <input type="hidden" name="intent" value="redeliver" />
                  <input type="hidden" name="deliveryId" value={delivery.id} />
                  <button type="submit" className="btn btn-secondary text-sm" disabled={busy}>
                    {t('log.redeliver')}
                    <span className="sr-only">
                      {' '}
                      {t('log.redeliverWhich', { event: delivery.eventType, id: delivery.id })}
                    </span>
                  </button>
                </Form>
              )}
            </Cell>
          </tr>
        )}
      </DataTable>
      <nav aria-label={t('log.pages')} className="flex gap-4">
        {paged ? (
          <Link className="link" to="?">
            {t('log.newest')}
          </Link>
        ) : null}
        {older ? (
          <Link className="link" to={`?older=${older}`}>
            {t('log.older')}
          </Link>
        ) : null}
      </nav>
    </section>
  )
}
