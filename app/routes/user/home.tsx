import { useEffect, useRef, useState } from 'react'
import { data, Link } from 'react-router'
import type { Route } from './+types/home'
import { ContactLinks } from '#app/components/layouts'
import { useLiveUpdates } from '#app/lib/use-live-updates'
import { daysLeftLabel } from '#app/lib/words'
import { requireUser } from '#app/modules/auth/guards.server'
import { ROUTE_ROLES } from '#app/modules/auth/permissions'
import { brandStyle, type BrandLook } from '#app/components/brand-look'
import {
  getEmployeeHome,
  type FeedbackRequest,
  type HomeColleague,
  type HomeScheme,
} from '#app/modules/home/home.server'
import { useRootData, type RouteHandle } from '#app/root'
import { PhaseBadge } from '#app/modules/scheme/components/phase-badge'

export const handle: RouteHandle = { layout: 'user', transition: true }

export const meta: Route.MetaFunction = () => [{ title: 'My feedback · Panorama' }]

/**
 * The employee's home: one card per scheme with the self-assessment's next step, the invited
 * colleagues' progress and the report, then the feedback other employees asked of them. With
 * JavaScript it listens to /api/events and re-reads its data when a colleague starts or answers (or
 * someone asks them for feedback); without, a reload shows the same.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const { user } = await requireUser(request, { roles: ROUTE_ROLES.user })
  const home = await getEmployeeHome(user.id)
  // Several programmes, possibly of several brands: a neutral header, each card in its own brand.
  return { ...home, brand: null }
}

// Personal and live, like every page (entry.server.tsx): private, no-cache. The back button may show
// it from the back/forward cache, and the page then reads its data again (ADR 009).

export async function action({ request }: Route.ActionArgs) {
  await requireUser(request, { roles: ROUTE_ROLES.user })
  return data({ error: 'This page has no form to send.' }, { status: 405 })
}

/** "Casey Colleague has answered." for each colleague whose status changed while the page was open. */
function useStatusAnnouncements(schemes: HomeScheme[]) {
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
        return before.has(id) ? `${c.name}: ${c.statusLabel.toLowerCase()}.` : `${c.name} invited.`
      })
    if (changes.length) setMessage(changes.join(' '))
  }, [schemes])
  return message
}

export default function Home({ loaderData }: Route.ComponentProps) {
  const { schemes, requests } = loaderData
  const connected = useLiveUpdates('/api/events')
  const announcement = useStatusAnnouncements(schemes)
  return (
    <section aria-labelledby="page-title" className="flex max-w-4xl flex-col gap-8">
      <div>
        <h1 id="page-title" className="text-2xl font-bold tracking-tight">
          My feedback
        </h1>
        <p className="mt-1 text-slate-700">
          Your own view, the colleagues you asked for theirs, and your report, for each feedback programme you
          take part in.
        </p>
        {schemes.length ? (
          // Its line is there from the first paint, shown once the live connection is up: appearing
          // after hydration, it pushed the whole list down (a layout shift of 0.03 on a phone).
          // Without JavaScript there are no live updates, and no empty line either.
          <p
            className={`mt-2 flex items-center gap-2 text-sm text-slate-700 noscript:hidden ${connected ? '' : 'invisible'}`}
          >
            <span aria-hidden="true" className="inline-block h-2 w-2 rounded-full bg-emerald-600" />
            Colleagues’ progress updates on this page as it happens.
          </p>
        ) : null}
        <p role="status" aria-live="polite" className="sr-only">
          {announcement}
        </p>
      </div>
      {schemes.length ? (
        <ul className="flex flex-col gap-8" aria-label="Your feedback programmes">
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

/** The programme's brand across the top of a card: logo, name, colours (contrast-checked). */
function BrandBand({
  brand,
  children,
}: {
  brand: Pick<BrandLook, 'name' | 'logoFileId' | 'primaryColor' | 'accentColor'> | null
  children: React.ReactNode
}) {
  if (!brand)
    return <div className="border-b border-slate-200 px-6 py-3 text-sm text-slate-700">{children}</div>
  return (
    <div style={brandStyle(brand)}>
      <div className="flex flex-wrap items-center gap-3 bg-[var(--brand-primary)] px-6 py-3 text-sm text-[var(--brand-on-primary)]">
        {brand.logoFileId ? (
          <span className="flex shrink-0 items-center rounded bg-white p-1">
            <img
              src={`/files/${brand.logoFileId}`}
              alt={`${brand.name} logo`}
              className="h-6 w-auto max-w-28 object-contain"
            />
          </span>
        ) : null}
        <p className="min-w-0 font-medium">{children}</p>
      </div>
      <div aria-hidden="true" className="h-1 bg-[var(--brand-accent)]" />
    </div>
  )
}

/** Feedback other employees asked of this one: whose, which programme, by when, how far, and the way in. */
function RequestsSection({ requests }: { requests: FeedbackRequest[] }) {
  return (
    <section aria-labelledby="requests-title" className="flex flex-col gap-4">
      <div>
        <h2 id="requests-title" className="text-xl font-semibold tracking-tight">
          Feedback requested from you
        </h2>
        <p className="mt-1 text-slate-700">
          Colleagues who asked for your view. They see your answers only combined with others’, never with
          your name.
        </p>
      </div>
      <ul className="flex flex-col gap-4">
        {requests.map((r) => {
          const titleId = `request-${r.id}`
          return (
            <li key={r.id}>
              <article aria-labelledby={titleId} className="card overflow-hidden p-0">
                <BrandBand brand={r.brand}>
                  {r.schemeName}
                  {r.brand ? ` · with ${r.brand.name}` : ''}
                </BrandBand>
                <div className="flex flex-wrap items-center justify-between gap-4 p-6">
                  <div className="flex min-w-0 flex-col gap-2">
                    <h3 id={titleId} className="text-lg font-semibold">
                      Feedback for {r.subjectName}
                    </h3>
                    <p className="flex flex-wrap items-center gap-2 text-sm text-slate-800">
                      <StatusText
                        tone={
                          r.status === 'submitted' ? 'done' : r.status === 'in_progress' ? 'active' : 'idle'
                        }
                      >
                        {r.statusLabel}
                      </StatusText>
                      <span>
                        {r.phase === 'closed'
                          ? 'Closed on '
                          : r.phase === 'upcoming'
                            ? 'Opens soon · due '
                            : 'Due '}
                        <time dateTime={r.deadlineIso}>{r.deadline}</time>
                      </span>
                    </p>
                  </div>
                  {r.action ? (
                    <Link
                      to={r.action.href}
                      className={`btn ${r.action.kind === 'view' ? 'btn-secondary' : 'btn-primary'}`}
                      aria-describedby={titleId}
                    >
                      {r.action.label}
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
  const contact = useRootData()?.publicEnv.contact ?? null
  return (
    <div className="card flex flex-col gap-3">
      <h2 className="text-lg font-semibold">Nothing to do here yet</h2>
      <p className="text-slate-700">
        You are not taking part in a feedback programme at the moment. When you are enrolled in one, it
        appears here with your self-assessment, the colleagues you invite and, later, your report. You will
        also get an e-mail.
      </p>
      {contact ? (
        <>
          <p className="text-slate-700">If you expected to see a programme here, please get in touch:</p>
          <ContactLinks contact={contact} />
        </>
      ) : null}
    </div>
  )
}

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

function SchemeCard({ scheme }: { scheme: HomeScheme }) {
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
    </section>
  )
}

/** A status as words with a shape beside them: colour is never the only signal. */
function StatusText({ tone, children }: { tone: 'idle' | 'active' | 'done'; children: React.ReactNode }) {
  const style =
    tone === 'done'
      ? 'border-emerald-300 bg-emerald-50 text-emerald-900'
      : tone === 'active'
        ? 'border-amber-300 bg-amber-50 text-amber-950'
        : 'border-slate-300 bg-slate-50 text-slate-800'
  return (
    <span
      className={`inline-flex items-center gap-1.5 rounded-full border px-2.5 py-0.5 text-sm font-medium ${style}`}
    >
      <svg aria-hidden="true" viewBox="0 0 16 16" className="h-3.5 w-3.5">
        {tone === 'done' ? (
          <path d="M3 8.5l3 3 7-7" fill="none" stroke="currentColor" strokeWidth="2" />
        ) : tone === 'active' ? (
          <>
            <circle cx="8" cy="8" r="6" fill="none" stroke="currentColor" strokeWidth="2" />
            <path d="M8 2a6 6 0 0 1 0 12z" fill="currentColor" />
          </>
        ) : (
          <circle cx="8" cy="8" r="6" fill="none" stroke="currentColor" strokeWidth="2" />
        )}
      </svg>
      {children}
    </span>
  )
}
