import { Link } from 'react-router'
import { daysLeftLabel } from '#app/lib/words'
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
  const time = <time dateTime={scheme.closesAt}>{scheme.deadline}</time>
  if (scheme.phase === 'closed') return <>Closed on {time}</>
  // The same words as the questionnaire's pages, from the same count (app/lib/dates.ts).
  const label = daysLeftLabel(scheme.daysLeft)
  const left = label ? ` (${label})` : ''
  return (
    <>
      Deadline: {time}
      {left}
    </>
  )
}

export function SchemeCard({ scheme }: { scheme: HomeScheme }) {
  const titleId = titleIdOf(scheme)
  return (
    <article aria-labelledby={titleId} className="card overflow-hidden p-0">
      {/* Each card wears its own programme's brand: the page itself stays neutral. */}
      <BrandBand brand={scheme.brand}>
        {scheme.companyName} · with {scheme.brand.name}
      </BrandBand>
      <div className="flex flex-col gap-6 p-6">
        <header className="flex flex-col gap-1">
          <h2 id={titleId} className="text-xl font-semibold tracking-tight">
            {scheme.name}
          </h2>
          <p className="flex flex-wrap items-center gap-2 text-sm text-slate-800">
            <PhaseBadge
              phase={scheme.phase}
              label={scheme.phase === 'upcoming' ? `Opens ${scheme.opensOn}` : undefined}
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
  const { self } = scheme
  const headingId = `self-${scheme.id}`
  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-3">
      <h3 id={headingId} className="text-base font-semibold">
        Your self-assessment
      </h3>
      {self ? (
        <div className="flex flex-wrap items-center justify-between gap-3">
          <p className="text-slate-800">
            <StatusText
              tone={self.status === 'submitted' ? 'done' : self.status === 'in_progress' ? 'active' : 'idle'}
            >
              {self.statusLabel}
            </StatusText>
            {self.submittedOn ? <span className="text-slate-700"> on {self.submittedOn}</span> : null}
            {scheme.phase === 'upcoming' ? (
              <span className="block text-sm text-slate-700">
                You can start it when the programme opens on {scheme.opensOn}.
              </span>
            ) : null}
            {scheme.phase === 'closed' && self.status !== 'submitted' ? (
              <span className="block text-sm text-slate-700">
                The programme has closed, so it can no longer be answered.
              </span>
            ) : null}
          </p>
          {self.action ? (
            <Link
              to={self.action.href}
              className={`btn ${self.action.kind === 'view' ? 'btn-secondary' : 'btn-primary'}`}
              aria-describedby={titleIdOf(scheme)}
            >
              {self.action.label}
            </Link>
          ) : null}
        </div>
      ) : (
        <p className="text-slate-700">
          Your self-assessment is not set up for this programme. Please contact the consultancy running it.
        </p>
      )}
    </section>
  )
}

function ColleaguesSection({ scheme }: { scheme: HomeScheme }) {
  const { colleagues, invite, report } = scheme
  const headingId = `colleagues-${scheme.id}`
  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-3">
      <h3 id={headingId} className="text-base font-semibold">
        Colleagues you invited
      </h3>
      {scheme.managerSeesReportNote ? (
        <p role="note" className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950">
          {scheme.managerSeesReportNote}
        </p>
      ) : null}
      {colleagues.length ? (
        <>
          <p className="text-sm text-slate-700">
            {report.answered} of {colleagues.length} {colleagues.length === 1 ? 'has' : 'have'} answered.
          </p>
          <ul className="divide-y divide-slate-200 rounded-lg border border-slate-200">
            {colleagues.map((c) => (
              <li key={c.id} className="flex flex-wrap items-center justify-between gap-2 px-4 py-3">
                <div className="min-w-0">
                  <p className="font-medium">{c.name}</p>
                  <p className="text-sm break-words text-slate-700">
                    {c.relationshipLabel} · {c.email}
                  </p>
                </div>
                <StatusText
                  tone={c.status === 'answered' ? 'done' : c.status === 'started' ? 'active' : 'idle'}
                >
                  {c.statusLabel}
                </StatusText>
              </li>
            ))}
          </ul>
        </>
      ) : (
        <p className="text-slate-700">
          {scheme.phase === 'closed'
            ? 'You did not invite any colleagues in this programme.'
            : 'You have not invited anyone yet. Colleagues who know your work well give the most useful feedback.'}
        </p>
      )}
      {invite.href ? (
        <div className="flex flex-wrap items-center justify-between gap-3">
          <p className="text-sm text-slate-700">
            {invite.remaining > 0
              ? `You can invite ${invite.remaining} more ${invite.remaining === 1 ? 'colleague' : 'colleagues'} (up to ${invite.limit}).`
              : `You have invited ${invite.limit} colleagues, the most this programme allows.`}
          </p>
          <Link to={invite.href} className="btn btn-secondary" aria-describedby={titleIdOf(scheme)}>
            {invite.remaining > 0 ? 'Invite colleagues' : 'Manage invitations'}
          </Link>
        </div>
      ) : null}
    </section>
  )
}

function ReportSection({ scheme }: { scheme: HomeScheme }) {
  const { report } = scheme
  const headingId = `report-${scheme.id}`
  // The same sentences as the report page (release-status.ts): one story about the release.
  const lines = report.href
    ? report.release.lines
    : ['Your report opens once you have submitted your self-assessment.', ...report.release.lines]
  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-3">
      <h3 id={headingId} className="text-base font-semibold">
        Your report
      </h3>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="flex flex-col gap-1 text-slate-800">
          {lines.map((line) => (
            <p key={line}>{line}</p>
          ))}
        </div>
        {report.href ? (
          <Link to={report.href} className="btn btn-primary" aria-describedby={titleIdOf(scheme)}>
            Read your report
          </Link>
        ) : null}
      </div>
      {report.plan ? <PlanLine scheme={scheme} plan={report.plan} /> : null}
    </section>
  )
}

/** Development plan (ADR 043): how far it is and who it is shared with, and the way in. */
function PlanLine({ scheme, plan }: { scheme: HomeScheme; plan: NonNullable<HomeScheme['report']['plan']> }) {
  const text = plan.focusAreas
    ? `Development plan: ${plan.focusAreas} focus ${plan.focusAreas === 1 ? 'area' : 'areas'}${plan.sharedWith ? `, shared with ${plan.sharedWith}` : ', private'}.`
    : 'Turn your report into a development plan: one to three focus areas, with actions and a check-in date.'
  return (
    <div className="flex flex-wrap items-center justify-between gap-3 border-t border-slate-200 pt-3">
      <p className="text-slate-800">{text}</p>
      <Link to={plan.href} className="btn btn-secondary" aria-describedby={titleIdOf(scheme)}>
        {plan.focusAreas ? 'Open your plan' : 'Start your plan'}
      </Link>
    </div>
  )
}
