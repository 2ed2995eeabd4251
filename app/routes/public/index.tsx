import { Link } from 'react-router'
import type { Route } from './+types/index'
import { ContactLinks } from '#app/components/layouts'
import { requireAnonymous } from '#app/modules/auth/guards.server'
import { useRootData, type RouteHandle } from '#app/root'

export const handle: RouteHandle = { layout: 'default' }

export const meta: Route.MetaFunction = () => [
  { title: 'Panorama · 360° feedback' },
  {
    name: 'description',
    content: 'See yourself as your colleagues see you: a confidential 360° feedback programme.',
  },
]

export async function loader({ request }: Route.LoaderArgs) {
  await requireAnonymous(request)
  return null
}

export async function action({ request }: Route.ActionArgs) {
  await requireAnonymous(request)
  throw new Response('Method Not Allowed', { status: 405 })
}

const STEPS = [
  ['Reflect', 'Answer a short questionnaire about how you work: your own view, in your own time.'],
  ['Invite', 'Ask up to eight colleagues — your manager, peers and reports — for their honest view.'],
  ['Compare', 'Read a report that sets your view beside theirs, by competency and question, with charts.'],
] as const

export default function Landing() {
  const contact = useRootData()?.publicEnv.contact ?? null
  return (
    <div>
      <section className="bg-gradient-to-b from-indigo-50 to-slate-50">
        <div className="mx-auto flex max-w-6xl flex-col gap-6 px-4 py-12 sm:px-6 sm:py-20">
          <p className="text-sm font-semibold uppercase tracking-widest text-indigo-800">360° feedback</p>
          <h1 className="max-w-3xl text-4xl font-bold tracking-tight text-slate-900 sm:text-5xl">
            See yourself the way your colleagues do.
          </h1>
          <p className="max-w-2xl text-lg text-slate-700">
            Panorama runs confidential feedback programmes for your organisation. Colleagues&apos; answers are
            combined and shown only when enough of them have replied, so everybody can be candid.
          </p>
          <div className="flex flex-wrap gap-3">
            <Link to="/sign-in" className="btn btn-primary">
              Sign in
            </Link>
            {contact?.callbackUrl ? (
              <a
                href={contact.callbackUrl}
                className="btn btn-secondary"
                rel="noopener noreferrer"
                target="_blank"
              >
                Request a callback
              </a>
            ) : null}
          </div>
        </div>
      </section>
      <section aria-labelledby="how" className="mx-auto max-w-6xl px-4 py-16 sm:px-6">
        <h2 id="how" className="text-2xl font-bold tracking-tight">
          How it works
        </h2>
        <ol className="mt-8 grid gap-6 sm:grid-cols-3">
          {STEPS.map(([title, text], i) => (
            <li key={title} className="card">
              <p className="text-sm font-semibold text-indigo-800">Step {i + 1}</p>
              <h3 className="mt-1 text-lg font-semibold">{title}</h3>
              <p className="mt-2 text-slate-700">{text}</p>
            </li>
          ))}
        </ol>
      </section>
      {/* Without configured contact links there is nothing to talk through here (no placeholders). */}
      {contact ? (
        <section aria-labelledby="contact" className="mx-auto max-w-6xl px-4 pb-16 sm:px-6">
          <div className="card flex flex-col gap-3">
            <h2 id="contact" className="text-xl font-semibold">
              Talk to us
            </h2>
            <p className="text-slate-700">Planning a programme for your team? We are happy to help.</p>
            <ContactLinks contact={contact} />
          </div>
        </section>
      ) : null}
    </div>
  )
}
