import type { OutboxStatus } from '#db/enums'
import { useTranslation } from 'react-i18next'

const TONE: Record<OutboxStatus, string> = {
  queued: 'bg-slate-100 text-slate-900',
  sending: 'bg-sky-100 text-sky-950',
  sent: 'bg-emerald-100 text-emerald-950',
  failed: 'bg-red-100 text-red-950',
}

/** A message's state as a labelled badge; "sending" whose lease ran out says so (a worker will take it over). */
export function OutboxState({ status, leaseExpired }: { status: OutboxStatus; leaseExpired?: boolean }) {
  const { t } = useTranslation('email')
  const label = t(`states.${status}`)
  return (
    <span className={`inline-block rounded px-2 py-0.5 text-xs font-semibold ${TONE[status]}`}>
      {status === 'sending' && leaseExpired ? t('states.stalled', { state: label }) : label}
    </span>
  )
}
