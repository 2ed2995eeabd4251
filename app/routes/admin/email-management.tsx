import { useTranslation } from 'react-i18next'
import { data } from 'react-router'
import type { RouteHandle } from '#app/root'
import type { Route } from './+types/email-management'
import { Notices, PageHeader } from '#app/components/page-kit'
import { requireUser } from '#app/modules/auth/guards.server'
import { ROUTE_ROLES } from '#app/modules/auth/permissions'
import { DeliveryOffNotice } from '#app/modules/email/components/delivery-off'
import { EmailTabs } from '#app/modules/email/components/email-tabs'
import { OutboxList } from '#app/modules/email/components/outbox-list'
import { TemplateList } from '#app/modules/email/components/template-list'
import { loadEmailPage } from '#app/modules/email/email-list.server'
import { parseEmailListQuery } from '#app/modules/email/schemas'
import { ADMIN_HANDLE, adminTitleT } from './admin-meta'

export const handle: RouteHandle = { ...ADMIN_HANDLE, i18n: 'email' }

export const meta: Route.MetaFunction = ({ matches }) => adminTitleT(matches, 'email:metaTitle')

/**
 * E-mail management: two tabs in the URL. Templates (the default view): every e-mail the product
 * sends, its default wording and, for the brand chosen in the filter, whether that brand has its
 * own. Outbox (`?tab=outbox`): every message, newest first, filtered by state, template and
 * recipient, with counts per state, in keyset pages. Read-only; changes happen on the template's
 * and the message's own pages.
 */
export async function loader({ request }: Route.LoaderArgs) {
  await requireUser(request, { roles: ROUTE_ROLES.admin })
  return await loadEmailPage(parseEmailListQuery(new URL(request.url).searchParams))
}

// Nothing is changed from the list itself (templates and messages change on their own pages), but
// a POST still meets the guard first, as on every admin page.
export async function action({ request }: Route.ActionArgs) {
  await requireUser(request, { roles: ROUTE_ROLES.admin })
  return data(null, { status: 405 })
}

export default function EmailManagement({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('email')
  return (
    <section aria-labelledby="page-title" className="flex max-w-6xl flex-col gap-6">
      <PageHeader title={t('title')}>{t('intro')}</PageHeader>
      <EmailTabs current={loaderData.tab} />
      <Notices notices={loaderData.notices} />
      {loaderData.tab === 'outbox' && loaderData.deliveryOff ? <DeliveryOffNotice /> : null}
      {loaderData.tab === 'outbox' ? <OutboxList data={loaderData} /> : <TemplateList data={loaderData} />}
    </section>
  )
}
