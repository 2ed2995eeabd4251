import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import type { Route } from './+types/index'
import { ContactLinks } from '#app/components/layouts'
import { requireAnonymous } from '#app/modules/auth/guards.server'
import { metaT } from '#app/modules/i18n/meta'
import { useRootData, type RouteHandle } from '#app/root'

export const handle: RouteHandle = { layout: 'default', i18n: 'landing' }

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: metaT(matches, 'landing:metaTitle') },
  { name: 'description', content: metaT(matches, 'landing:metaDescription') },
]

export async function loader({ request }: Route.LoaderArgs) {
  await requireAnonymous(request)
  return null
}

export async function action({ request }: Route.ActionArgs) {
  await requireAnonymous(request)
  throw new Response('Method Not Allowed', { status: 405 })
}

/** The three steps, each with its title and text in landing:steps.<step>. */
const STEPS = ['reflect', 'invite', 'compare'] as const

export default function Landing() {
  const { t } = useTranslation('landing')
  const contact = useRootData()?.publicEnv.contact ?? null
  return (
    <div>
      <section className="bg-gradient-to-b from-indigo-50 to-slate-50">
        <div className="mx-auto flex max-w-6xl flex-col gap-6 px-4 py-12 sm:px-6 sm:py-20">
          <p className="text-sm font-semibold uppercase tracking-widest text-indigo-800">{t('kicker')}</p>
          <h1 className="max-w-3xl text-4xl font-bold tracking-tight text-slate-900 sm:text-5xl">
            {t('title')}
          </h1>
          <p className="max-w-2xl text-lg text-slate-700">{t('intro')}</p>
          <div className="flex flex-wrap gap-3">
            <Link to="/sign-in" className="btn btn-primary">
              {t('signIn')}
            </Link>
            {contact?.callbackUrl ? (
              <a
                href={contact.callbackUrl}
                className="btn btn-secondary"
                rel="noopener noreferrer"
                target="_blank"
              >
                {t('callback')}
              </a>
            ) : null}
          </div>
        </div>
      </section>
      <section aria-labelledby="how" className="mx-auto max-w-6xl px-4 py-16 sm:px-6">
        <h2 id="how" className="text-2xl font-bold tracking-tight">
          {t('how')}
        </h2>
        <ol className="mt-8 grid gap-6 sm:grid-cols-3">
          {STEPS.map((step, i) => (
            <li key={step} className="card">
              <p className="text-sm font-semibold text-indigo-800">{t('step', { n: i + 1 })}</p>
              <h3 className="mt-1 text-lg font-semibold">{t(`steps.${step}.title`)}</h3>
              <p className="mt-2 text-slate-700">{t(`steps.${step}.text`)}</p>
            </li>
          ))}
        </ol>
      </section>
      {/* Without configured contact links there is nothing to talk through here (no placeholders). */}
      {contact ? (
        <section aria-labelledby="contact" className="mx-auto max-w-6xl px-4 pb-16 sm:px-6">
          <div className="card flex flex-col gap-3">
            <h2 id="contact" className="text-xl font-semibold">
              {t('talk')}
            </h2>
            <p className="text-slate-700">{t('talkText')}</p>
            <ContactLinks contact={contact} />
          </div>
        </section>
      ) : null}
    </div>
  )
}
