import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { richT } from '#app/modules/i18n/rich'
import type { HomeScheme } from '#app/modules/home/home.server'
import { PhaseBadge } from '#app/modules/scheme/components/phase-badge'
import { BrandBand, StatusText } from './home-parts'

/**
 * One programme on the employee's home: its brand, phase and deadline, then the self-assessment's
 * next step, the invited colleagues' progress and the report.
 */
/** The card's heading id: links in a card name their programme to screen readers (aria-describedby). */
const titleIdOf = (scheme: HomeScheme) => `scheme-${scheme.id}`

function Deadline({ scheme }: { scheme: HomeScheme }) {
  const { t } = useTranslation('home')
  const date = <time dateTime={scheme.closesAt}>{scheme.deadline}</time>
  if (scheme.phase === 'closed') return <>{richT(t, 'card.closedOn', { date })}</>
  // The same words as the questionnaire's pages (daysLeftLabel), from the same count (app/lib/dates.ts).
  if (scheme.daysLeft === null) return <>{richT(t, 'card.deadline', { date })}</>
  const left = t('card.daysLeft', { days: scheme.daysLeft })
  return <>{richT(t, 'card.deadlineLeft', { date }, { left })}</>
}

export function SchemeCard({ scheme }: { scheme: HomeScheme }) {
  const { t } = useTranslation('home')
  const titleId = titleIdOf(scheme)
  return (
    <article aria-labelledby={titleId} className="card overflow-hidden p-0">
      {/* Each card wears its own programme's brand: the page itself stays neutral. */}
      <BrandBand brand={scheme.brand} logoAlt={t('card.logo', { name: scheme.brand.name })}>
        {t('card.band', { company: scheme.companyName, brand: scheme.brand.name })}
      </BrandBand>
      <div className="flex flex-col gap-6 p-6">
        <header className="flex flex-col gap-1">
          <h2 id={titleId} className="text-xl font-semibold tracking-tight">
            {scheme.name}
          </h2>
          <p className="flex flex-wrap items-center gap-2 text-sm text-slate-800">
            <PhaseBadge
              phase={scheme.phase}
              label={
                scheme.phase === 'upcoming'
                  ? t('card.opens', { date: scheme.opensOn })
                  : t(`phase.${scheme.phase}`)
              }
            />
            <span>
              <Deadline scheme={scheme} />
            </span>
          </p>
        </header>
        <SelfSection scheme={scheme} />
        <ColleaguesSection scheme={scheme} />
        <ReportSection scheme={scheme} />
      </div>
    </article>
  )
}

function SelfSection({ scheme }: { scheme: HomeScheme }) {
  const { t } = useTranslation('home')
  const { self } = scheme
  const headingId = `self-${scheme.id}`
  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-3">
      <h3 id={headingId} className="text-base font-semibold">
        {t('self.title')}
      </h3>
      {self ? (
        <div className="flex flex-wrap items-center justify-between gap-3">
          <p className="text-slate-800">
            <StatusText
              tone={self.status === 'submitted' ? 'done' : self.status === 'in_progress' ? 'active' : 'idle'}
            >
              {t(`status.${self.status}`)}
            </StatusText>
            {self.submittedOn ? (
              <span className="text-slate-700">{t('self.on', { date: self.submittedOn })}</span>
            ) : null}
            {scheme.phase === 'upcoming' ? (
              <span className="block text-sm text-slate-700">
                {t('self.upcoming', { date: scheme.opensOn })}
              </span>
            ) : null}
            {scheme.phase === 'closed' && self.status !== 'submitted' ? (
              <span className="block text-sm text-slate-700">{t('self.closed')}</span>
            ) : null}
          </p>
          {self.action ? (
            <Link
              to={self.action.href}
              className={`btn ${self.action.kind === 'view' ? 'btn-secondary' : 'btn-primary'}`}
              aria-describedby={titleIdOf(scheme)}
            >
              {t(`self.${self.action.kind}`)}
            </Link>
          ) : null}
        </div>
      ) : (
        <p className="text-slate-700">{t('self.missing')}</p>
      )}
    </section>
  )
}

function ColleaguesSection({ scheme }: { scheme: HomeScheme }) {
  const { t } = useTranslation('home')
  const { colleagues, invite, report } = scheme
  const headingId = `colleagues-${scheme.id}`
  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-3">
      <h3 id={headingId} className="text-base font-semibold">
        {t('colleagues.title')}
      </h3>
      {scheme.managerSeesReportNote ? (
        <p role="note" className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950">
          {t('colleagues.managerSeesReport')}
        </p>
      ) : null}
      {colleagues.length ? (
        <>
          <p className="text-sm text-slate-700">
            {t('colleagues.answered', { answered: report.answered, total: colleagues.length })}
          </p>
          <ul className="divide-y divide-slate-200 rounded-lg border border-slate-200">
            {colleagues.map((c) => (
              <li key={c.id} className="flex flex-wrap items-center justify-between gap-2 px-4 py-3">
                <div className="min-w-0">
                  <p className="font-medium">{c.name}</p>
                  <p className="text-sm break-words text-slate-700">
                    {t('colleagues.line', {
                      relationship: t(`relationship.${c.relationship}`),
                      email: c.email,
                    })}
                  </p>
                </div>
                <StatusText
                  tone={c.status === 'answered' ? 'done' : c.status === 'started' ? 'active' : 'idle'}
                >
                  {t(`inviteStatus.${c.status}`)}
                </StatusText>
              </li>
            ))}
          </ul>
        </>
      ) : (
        <p className="text-slate-700">
          {scheme.phase === 'closed' ? t('colleagues.noneClosed') : t('colleagues.none')}
        </p>
      )}
      {invite.href ? (
        <div className="flex flex-wrap items-center justify-between gap-3">
          <p className="text-sm text-slate-700">
            {invite.remaining > 0
              ? t('colleagues.remaining', { remaining: invite.remaining, limit: invite.limit })
              : t('colleagues.full', { limit: invite.limit })}
          </p>
          <Link to={invite.href} className="btn btn-secondary" aria-describedby={titleIdOf(scheme)}>
            {invite.remaining > 0 ? t('colleagues.invite') : t('colleagues.manage')}
          </Link>
        </div>
      ) : null}
    </section>
  )
}

function ReportSection({ scheme }: { scheme: HomeScheme }) {
  const { t } = useTranslation('home')
  const { report } = scheme
  const headingId = `report-${scheme.id}`
  // The same sentences as the report page (release-status.ts): one story about the release, here in
  // the reader's language (its messages; the loader asks for them).
  const release = report.release.messages
    ? report.release.messages.map((m) => t(`release.${m.key}`, m.values))
    : report.release.lines
  const lines = report.href ? release : [t('report.notYet'), ...release]
  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-3">
      <h3 id={headingId} className="text-base font-semibold">
        {t('report.title')}
      </h3>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="flex flex-col gap-1 text-slate-800">
          {lines.map((line) => (
            <p key={line}>{line}</p>
          ))}
        </div>
        {report.href ? (
          <Link to={report.href} className="btn btn-primary" aria-describedby={titleIdOf(scheme)}>
            {t('report.read')}
          </Link>
        ) : null}
      </div>
      {report.plan ? <PlanLine scheme={scheme} plan={report.plan} /> : null}
    </section>
  )
}

/** Development plan (ADR 043): how far it is and who it is shared with, and the way in. */
function PlanLine({ scheme, plan }: { scheme: HomeScheme; plan: NonNullable<HomeScheme['report']['plan']> }) {
  const { t } = useTranslation('home')
  const text = !plan.focusAreas
    ? t('report.planNone')
    : plan.sharedWith
      ? t('report.planShared', { areas: plan.focusAreas, name: plan.sharedWith })
      : t('report.planPrivate', { areas: plan.focusAreas })
  return (
    <div className="flex flex-wrap items-center justify-between gap-3 border-t border-slate-200 pt-3">
      <p className="text-slate-800">{text}</p>
      <Link to={plan.href} className="btn btn-secondary" aria-describedby={titleIdOf(scheme)}>
        {plan.focusAreas ? t('report.planOpen') : t('report.planStart')}
      </Link>
    </div>
  )
}
