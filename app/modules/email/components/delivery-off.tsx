import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'

/**
 * Said wherever an admin looks at e-mail while no SMTP_URL is configured: nothing is sent, so
 * "Queued" is not "on its way". What an admin can do is said as it is: a message's page shows its
 * body with one-time codes hidden; the working links are only in the server log (outbox.server.ts
 * logs them at info level while delivery is off, as the README says).
 */
export function DeliveryOffNotice({ showOutboxLink = false }: { showOutboxLink?: boolean }) {
  const { t } = useTranslation('email')
  return (
    <div
      role="status"
      className="flex flex-col gap-1 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950"
    >
      <p className="font-semibold">{t('deliveryOff.title')}</p>
      <p>
        {t('deliveryOff.waiting')}{' '}
        {showOutboxLink ? (
          <>
            <Link className="link" to="/admin/email-management?tab=outbox">
              {t('deliveryOff.openOutbox')}
            </Link>{' '}
            {t('deliveryOff.toRead')}
          </>
        ) : (
          t('deliveryOff.openMessage')
        )}{' '}
        {t('deliveryOff.log')}
      </p>
      <p>{t('deliveryOff.toDeliver')}</p>
    </div>
  )
}
