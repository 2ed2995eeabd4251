import { Link } from 'react-router'

/**
 * Said wherever an admin looks at e-mail while no SMTP_URL is configured: nothing is sent, so
 * "Queued" is not "on its way". What an admin can do is said as it is: a message's page shows its
 * body with one-time codes hidden; the working links are only in the server log (outbox.server.ts
 * logs them at info level while delivery is off, as the README says).
 */
export function DeliveryOffNotice({ showOutboxLink = false }: { showOutboxLink?: boolean }) {
  return (
    <div
      role="status"
      className="flex flex-col gap-1 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950"
    >
      <p className="font-semibold">E-mail delivery is off (no SMTP_URL configured).</p>
      <p>
        Messages wait in the outbox as “Queued” and are not sent to anyone.{' '}
        {showOutboxLink ? (
          <>
            <Link className="link" to="/admin/email-management?tab=outbox">
              Open the outbox
            </Link>{' '}
            to read a message (its one-time codes are hidden there).
          </>
        ) : (
          'Open a message to read it (its one-time codes are hidden there).'
        )}{' '}
        While delivery is off, each message’s link is written to the server log (at the info level), which is
        where to find it on a local or test installation.
      </p>
      <p>
        To deliver them, set SMTP_URL and restart the server: waiting messages are then sent, except those
        whose one-time link has expired in the meantime.
      </p>
    </div>
  )
}
