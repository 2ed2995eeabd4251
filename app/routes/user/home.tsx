import { data } from 'react-router'
import type { Route } from './+types/home'
import { requireUser } from '#app/modules/auth/guards.server'
import { ROUTE_ROLES } from '#app/modules/auth/permissions'
import { HomePage } from '#app/modules/home/components/home-page'
import { getEmployeeHome } from '#app/modules/home/home.server'
import { requestLanguage } from '#app/modules/i18n/i18n.server'
import { intlLocale } from '#app/modules/i18n/languages'
import { metaT } from '#app/modules/i18n/meta'
import type { RouteHandle } from '#app/root'

// "Shared with you" for a manager (the `shared` words, a few hundred bytes).
export const handle: RouteHandle = { layout: 'user', transition: true, i18n: ['home', 'shared'] }

export const meta: Route.MetaFunction = ({ matches }) => [{ title: metaT(matches, 'home:metaTitle') }]

/**
 * The employee's home: one card per scheme with the self-assessment's next step, the invited
 * colleagues' progress and the report, then the feedback other employees asked of them. With
 * JavaScript it listens to /api/events and re-reads its data when a colleague starts or answers (or
 * someone asks them for feedback); without, a reload shows the same.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const { user } = await requireUser(request, { roles: ROUTE_ROLES.user })
  // Several programmes, possibly of several brands: a neutral header, each card in its own brand.
  const locale = intlLocale(await requestLanguage(request))
  return { ...(await getEmployeeHome(user.id, new Date(), locale)), brand: null }
}

// Personal and live, like every page (entry.server.tsx): private, no-cache. The back button may show
// it from the back/forward cache, and the page then reads its data again (ADR 009).

export async function action({ request }: Route.ActionArgs) {
  await requireUser(request, { roles: ROUTE_ROLES.user })
  return data({ error: 'This page has no form to send.' }, { status: 405 })
}

export default function Home({ loaderData }: Route.ComponentProps) {
  return <HomePage home={loaderData} />
}
