import { useTranslation } from 'react-i18next'
import { data } from 'react-router'
import type { Route } from './+types/dashboard'
import { PageHeader } from '#app/components/page-kit'
import { useLiveUpdates } from '#app/lib/use-live-updates'
import { getDashboardCounts } from '#app/modules/dashboard/dashboard.server'
import { CountTiles } from '#app/modules/dashboard/components/count-tiles'
import {
  OutboxHealth,
  RecentActivity,
  RunningSchemes,
  SetupChecklist,
} from '#app/modules/dashboard/components/dashboard-view'
import {
  describeActionIn,
  listRunningSchemes,
  recentActivity,
  SETUP_STEPS,
  setupProgress,
} from '#app/modules/dashboard/overview.server'
import { requireUser } from '#app/modules/auth/guards.server'
import { ROUTE_ROLES } from '#app/modules/auth/permissions'
import { emailDeliveryConfigured } from '#app/modules/email/outbox.server'
import { getFixedT } from '#app/modules/i18n/i18n.server'
import type { RouteHandle } from '#app/root'
import { ADMIN_HANDLE, adminTitleT } from './admin-meta'

export const handle: RouteHandle = { ...ADMIN_HANDLE, i18n: ['admin-dashboard', 'email'] }

export const meta: Route.MetaFunction = ({ matches }) => adminTitleT(matches, 'admin-dashboard:metaTitle')

/**
 * The admin's start page: counts, the running programmes with their progress, recent activity,
 * e-mail delivery, and on a fresh install a checklist. With JavaScript it listens to
 * /api/admin-events and re-reads itself when a self-assessment or a colleague's answers move.
 */
export async function loader({ request }: Route.LoaderArgs) {
  await requireUser(request, { roles: ROUTE_ROLES.admin })
  const [counts, schemes, activity, setup, t] = await Promise.all([
    getDashboardCounts(),
    listRunningSchemes(),
    recentActivity(),
    setupProgress(),
    getFixedT(request, 'admin-dashboard'),
  ])
  return {
    counts,
    schemes,
    activity: activity.map((a) => ({ ...a, text: describeActionIn(t, a.action, a.entity, a) })),
    steps: SETUP_STEPS.map((s) => ({ ...s, done: setup[s.key] })),
    deliveryOff: !emailDeliveryConfigured(),
  }
}

export async function action({ request }: Route.ActionArgs) {
  await requireUser(request, { roles: ROUTE_ROLES.admin })
  return data({ error: 'This page has no form to send.' }, { status: 405 })
}

export default function Dashboard({ loaderData }: Route.ComponentProps) {
  const { counts, schemes, activity, steps, deliveryOff } = loaderData
  const { t } = useTranslation('admin-dashboard')
  const connected = useLiveUpdates('/api/admin-events')
  const setUp = steps.every((s) => s.done)
  return (
    <section aria-labelledby="page-title" className="flex max-w-6xl flex-col gap-8">
      <PageHeader title={t('title')}>{connected ? t('live') : t('intro')}</PageHeader>
      {setUp ? null : <SetupChecklist steps={steps} />}
      <CountTiles counts={counts} />
      <RunningSchemes schemes={schemes} openCount={counts.launched_schemes} />
      <div className="grid gap-8 lg:grid-cols-[2fr_1fr]">
        <RecentActivity items={activity} />
        <OutboxHealth queued={counts.queued_emails} failed={counts.failed_emails} deliveryOff={deliveryOff} />
      </div>
    </section>
  )
}
