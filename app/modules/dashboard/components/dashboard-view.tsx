import { Link } from 'react-router'
import { formatDate, formatDateTime } from '#app/lib/dates'
import type { Activity, SchemeProgress, SetupStep } from '#app/modules/dashboard/overview.server'
import { DeliveryOffNotice } from '#app/modules/email/components/delivery-off'
import { Card, Section } from '#app/components/card'

type Step = { key: SetupStep; label: string; href: string; done: boolean }

/** The getting-started checklist: each step ticks itself off as the install fills up. */
export function SetupChecklist({ steps }: { steps: Step[] }) {
  const done = steps.filter((s) => s.done).length
  return (
    <Card id="setup-title" title="Getting started" className="gap-3">
      <p className="text-slate-700">
        {done} of {steps.length} steps done. Each one ticks itself off when it is done.
      </p>
      <ol className="flex flex-col gap-2">
        {steps.map((step, i) => (
          <li key={step.key} className="flex items-start gap-3">
            <span
              aria-hidden="true"
              className={`mt-0.5 inline-flex h-6 w-6 shrink-0 items-center justify-center rounded-full text-sm font-semibold ${
                step.done ? 'bg-emerald-600 text-white' : 'bg-slate-200 text-slate-800'
              }`}
            >
              {step.done ? '✓' : i + 1}
            </span>
            <span>
              {step.done ? (
                <span className="text-slate-700">
                  {step.label} <span className="sr-only">(done)</span>
                </span>
              ) : (
                <Link className="link" to={step.href}>
                  {step.label}
                </Link>
              )}
            </span>
          </li>
        ))}
      </ol>
    </Card>
  )
}

function Bar({ label, value, total }: { label: string; value: number; total: number }) {
  const percent = total ? Math.round((value / total) * 100) : 0
  return (
    <div className="flex flex-col gap-1">
      <div className="flex justify-between gap-2 text-sm">
        <span className="text-slate-800">{label}</span>
        <span className="text-slate-700">
          {value} of {total}
        </span>
      </div>
      <progress
        className="progress h-2 w-full"
        max={Math.max(total, 1)}
        value={value}
        aria-label={`${label}: ${value} of ${total}`}
      >
        {percent}%
      </progress>
    </div>
  )
}

/** Every running programme with its progress: self-assessments done, colleagues who answered. */
export function RunningSchemes({ schemes, openCount }: { schemes: SchemeProgress[]; openCount: number }) {
  return (
    <Section
      id="running-title"
      title="Running programmes"
      aside={
        <Link className="link text-sm" to="/admin/scheme-management">
          All schemes
        </Link>
      }
    >
      {schemes.length ? (
        <ul className="grid gap-4 lg:grid-cols-2">
          {schemes.map((s) => (
            <li key={s.id} className="card flex flex-col gap-3">
              <div>
                <Link className="link font-semibold" to={`/admin/scheme-management/${s.id}`}>
                  {s.name}
                </Link>
                <p className="text-sm text-slate-700">
                  {s.companyName} ·{' '}
                  {s.phase === 'upcoming' ? (
                    <>opens {formatDate(s.opensAt, s.timeZone)}</>
                  ) : (
                    <>closes {formatDateTime(s.closesAt, s.timeZone)}</>
                  )}
                </p>
              </div>
              <Bar label="Self-assessments submitted" value={s.selfSubmitted} total={s.enrolled} />
              <Bar label="Colleagues who answered" value={s.answered} total={s.invited} />
            </li>
          ))}
        </ul>
      ) : (
        <p className="card text-slate-700">
          No programme is running.{' '}
          <Link className="link" to="/admin/scheme-management">
            Create or launch a scheme
          </Link>{' '}
          to start one.
        </p>
      )}
      {openCount > schemes.length ? (
        <p className="text-sm text-slate-700">
          Showing the {schemes.length === 1 ? 'one that closes' : `${schemes.length} that close`} soonest of{' '}
          {openCount} open schemes.
        </p>
      ) : null}
    </Section>
  )
}

/** The latest changes from the audit log, in words. */
export function RecentActivity({ items }: { items: (Activity & { text: string })[] }) {
  return (
    <Section id="activity-title" title="Recent activity">
      {items.length ? (
        <ol className="card flex flex-col divide-y divide-slate-200 p-0">
          {items.map((a) => (
            <li key={a.id} className="flex flex-wrap justify-between gap-x-4 gap-y-1 px-4 py-3 text-sm">
              <span>
                <span className="font-medium text-slate-900">{a.actor ?? 'The system'}</span> {a.text}
              </span>
              <time className="text-slate-700" dateTime={a.at}>
                {formatDateTime(a.at)}
              </time>
            </li>
          ))}
        </ol>
      ) : (
        <p className="card text-slate-700">
          Nothing has happened yet. Changes made in the back office appear here.
        </p>
      )}
    </Section>
  )
}

/** Outbox health: messages waiting and given up on, with the way to the outbox. */
export function OutboxHealth({
  queued,
  failed,
  deliveryOff,
}: {
  queued: number
  failed: number
  /** No SMTP_URL: nothing is sent, so nothing is "on its way". */
  deliveryOff: boolean
}) {
  return (
    <Card id="outbox-title" title="E-mail delivery" className="gap-2">
      <p className="text-slate-800">
        {queued} waiting to be sent · {failed} failed
      </p>
      {deliveryOff ? <DeliveryOffNotice showOutboxLink /> : null}
      {failed ? (
        <p className="text-sm text-red-800">
          Some e-mails could not be delivered.{' '}
          <Link className="link" to="/admin/email-management?tab=outbox&state=failed">
            Review and retry them
          </Link>
          .
        </p>
      ) : deliveryOff ? null : (
        <p className="text-sm text-slate-700">Every e-mail so far has been delivered or is on its way.</p>
      )}
    </Card>
  )
}
