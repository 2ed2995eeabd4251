import { useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { ContactLinks } from '#app/components/layouts'
import { useLiveUpdates } from '#app/lib/use-live-updates'
import type {
  FeedbackRequest,
  getEmployeeHome,
  HomeColleague,
  HomeScheme,
} from '#app/modules/home/home.server'
import { useRootData } from '#app/root'
import { BrandBand, StatusText } from './home-parts'
import { SchemeCard } from './scheme-card'
import { SharedWithYouSection } from '#app/modules/plan/components/shared-with-you'
import { richT } from '#app/modules/i18n/rich'

/** What the home page shows: the domain's own page data (the route returns it unchanged). */
export type EmployeeHomePage = Awaited<ReturnType<typeof getEmployeeHome>>

/** "Casey Colleague has answered." for each colleague whose status changed while the page was open. */
function useStatusAnnouncements(schemes: HomeScheme[]) {
  const { t } = useTranslation('home')
  const previous = useRef<Map<string, string> | null>(null)
  const [message, setMessage] = useState('')
  useEffect(() => {
    const current = new Map<string, string>()
    const names = new Map<string, HomeColleague>()
    for (const scheme of schemes)
      for (const c of scheme.colleagues) {
        current.set(c.id, c.status)
        names.set(c.id, c)
      }
    const before = previous.current
    previous.current = current
    if (!before) return
    const changes = [...current]
      .filter(([id, status]) => before.get(id) !== status)
      .map(([id]) => {
        const c = names.get(id)!
        return t(before.has(id) ? `announce.${c.status}` : 'announce.invited', { name: c.name })
      })
    if (changes.length) setMessage(changes.join(' '))
  }, [schemes, t])
  return message
}

/** The employee's home page (app/routes/user/home.tsx): their programmes, then what others asked of them. */
export function HomePage({ home }: { home: EmployeeHomePage }) {
  const { t } = useTranslation('home')
  const { schemes, requests, waiting } = home
  const connected = useLiveUpdates('/api/events')
  const announcement = useStatusAnnouncements(schemes)
  return (
    <section aria-labelledby="page-title" className="flex max-w-4xl flex-col gap-8">
      <div>
        <h1 id="page-title" className="text-2xl font-bold tracking-tight">
          {t('title')}
        </h1>
        <p className="mt-1 text-slate-700">{t('intro')}</p>
        {schemes.length ? (
          // Its line is there from the first paint, shown once the live connection is up: appearing
          // after hydration, it pushed the whole list down (a layout shift of 0.03 on a phone).
          // Without JavaScript there are no live updates, and no empty line either.
          <p
            className={`mt-2 flex items-center gap-2 text-sm text-slate-700 noscript:hidden ${connected ? '' : 'invisible'}`}
          >
            <span aria-hidden="true" className="inline-block h-2 w-2 rounded-full bg-emerald-600" />
            {t('live')}
          </p>
        ) : null}
        <p role="status" aria-live="polite" className="sr-only">
          {announcement}
        </p>
      </div>
      {waiting.length ? (
        <section
          aria-labelledby="waiting-title"
          className="card flex flex-col gap-3 border border-amber-300 bg-amber-50"
        >
          <h2 id="waiting-title" className="text-lg font-semibold text-amber-950">
            {t('waiting.title')}
          </h2>
          <p className="text-sm text-amber-950">{t('waiting.text')}</p>
          <ul className="flex flex-col gap-2">
            {waiting.map((w) => (
              <li key={`${w.schemeId}:${w.employeeId}`}>
                <Link className="link font-medium" to={w.href}>
                  {w.employeeName}
                </Link>{' '}
                <span className="text-sm text-slate-800">
                  {t('waiting.line', { scheme: w.schemeName, people: w.people, date: w.submittedOn })}
                </span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {home.shared.length ? <SharedWithYouSection shared={home.shared} /> : null}
      {schemes.length ? (
        <ul className="flex flex-col gap-8" aria-label={t('programmes')}>
          {schemes.map((scheme) => (
            <li key={scheme.id}>
              <SchemeCard scheme={scheme} />
            </li>
          ))}
        </ul>
      ) : requests.length ? null : (
        <EmptyState />
      )}
      {requests.length ? <RequestsSection requests={requests} /> : null}
    </section>
  )
}

/** Feedback other employees asked of this one: whose, which programme, by when, how far, and the way in. */
function RequestsSection({ requests }: { requests: FeedbackRequest[] }) {
  const { t } = useTranslation('home')
  return (
    <section aria-labelledby="requests-title" className="flex flex-col gap-4">
      <div>
        <h2 id="requests-title" className="text-xl font-semibold tracking-tight">
          {t('requests.title')}
        </h2>
        <p className="mt-1 text-slate-700">{t('requests.text')}</p>
      </div>
      <ul className="flex flex-col gap-4">
        {requests.map((r) => {
          const titleId = `request-${r.id}`
          return (
            <li key={r.id}>
              <article aria-labelledby={titleId} className="card overflow-hidden p-0">
                <BrandBand
                  brand={r.brand}
                  logoAlt={r.brand ? t('card.logo', { name: r.brand.name }) : undefined}
                >
                  {r.brand
                    ? t('requests.withBrand', { scheme: r.schemeName, brand: r.brand.name })
                    : r.schemeName}
                </BrandBand>
                <div className="flex flex-wrap items-center justify-between gap-4 p-6">
                  <div className="flex min-w-0 flex-col gap-2">
                    <h3 id={titleId} className="text-lg font-semibold">
                      {t('requests.for', { name: r.subjectName })}
                    </h3>
                    <p className="flex flex-wrap items-center gap-2 text-sm text-slate-800">
                      <StatusText
                        tone={
                          r.status === 'submitted' ? 'done' : r.status === 'in_progress' ? 'active' : 'idle'
                        }
                      >
                        {r.phase === 'closed' && r.status !== 'submitted'
                          ? t('requests.closed')
                          : t(`status.${r.status}`)}
                      </StatusText>
                      <span>
                        {richT(
                          t,
                          r.phase === 'closed'
                            ? 'requests.closedOn'
                            : r.phase === 'upcoming'
                              ? 'requests.opensSoon'
                              : 'requests.due',
                          { date: <time dateTime={r.deadlineIso}>{r.deadline}</time> },
                        )}
                      </span>
                    </p>
                  </div>
                  {r.action ? (
                    <Link
                      to={r.action.href}
                      className={`btn ${r.action.kind === 'view' ? 'btn-secondary' : 'btn-primary'}`}
                      aria-describedby={titleId}
                    >
                      {t(`requests.${r.action.kind}`)}
                    </Link>
                  ) : null}
                </div>
              </article>
            </li>
          )
        })}
      </ul>
    </section>
  )
}

function EmptyState() {
  const { t } = useTranslation('home')
  const contact = useRootData()?.publicEnv.contact ?? null
  return (
    <div className="card flex flex-col gap-3">
      <h2 className="text-lg font-semibold">{t('empty.title')}</h2>
      <p className="text-slate-700">{t('empty.text')}</p>
      {contact ? (
        <>
          <p className="text-slate-700">{t('empty.contact')}</p>
          <ContactLinks contact={contact} />
        </>
      ) : null}
    </div>
  )
}
