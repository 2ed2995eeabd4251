import { data } from 'react-router'
import type { Route } from './+types/email-management'
import { Notices, PageHeader } from '#app/components/form-kit'
import { requireUser } from '#app/modules/auth/guards.server'
import { ROUTE_ROLES } from '#app/modules/auth/permissions'
import { listBrandOptions } from '#app/modules/brand/brand.server'
import { DeliveryOffNotice } from '#app/modules/email/components/delivery-off'
import { EmailTabs } from '#app/modules/email/components/email-tabs'
import { OutboxList } from '#app/modules/email/components/outbox-list'
import { TemplateList } from '#app/modules/email/components/template-list'
import { listOutbox, listTemplateSummaries, outboxCounts } from '#app/modules/email/template-editing.server'
import { emailDeliveryConfigured } from '#app/modules/email/outbox.server'
import { parseEmailListQuery, RECIPIENT_PREFIX_MIN } from '#app/modules/email/schemas'
import type { RouteHandle } from '#app/root'

export const handle: RouteHandle = { layout: 'admin', transition: true }

export const meta: Route.MetaFunction = () => [{ title: 'E-mail management · Panorama admin' }]

/**
 * E-mail management: two tabs in the URL. Templates (the default view): every e-mail the product
 * sends, its default wording and, for the brand chosen in the filter, whether that brand has its
 * own. Outbox (`?tab=outbox`): every message, newest first, filtered by state, template and
 * recipient, with counts per state, in keyset pages. Read-only; changes happen on the template's
 * and the message's own pages.
 */
export async function loader({ request }: Route.LoaderArgs) {
  await requireUser(request, { roles: ROUTE_ROLES.admin })
  const query = parseEmailListQuery(new URL(request.url).searchParams)
  if (query.tab === 'outbox') {
    const [page, counts] = await Promise.all([listOutbox(query), outboxCounts()])
    const notices: string[] = []
    if (page.staleCursor) notices.push('That page link is out of date, so the first page is shown.')
    if (page.recipientTooShort)
      notices.push(
        `A recipient prefix needs at least ${RECIPIENT_PREFIX_MIN} characters before the *, such as anna*.`,
      )
    return {
      tab: 'outbox' as const,
      query: { state: query.state ?? '', template: query.template ?? '', to: query.to },
      page,
      counts,
      notices,
      deliveryOff: !emailDeliveryConfigured(),
    }
  }
  const [summaries, brandOptions] = await Promise.all([
    listTemplateSummaries(query.brand ?? null),
    listBrandOptions(),
  ])
  return {
    tab: 'templates' as const,
    summaries,
    brandOptions,
    notices:
      query.brand && !summaries.brand
        ? ['That brand does not exist (it may have been deleted).']
        : ([] as string[]),
  }
}

// Nothing is changed from the list itself (templates and messages change on their own pages), but
// a POST still meets the guard first, as on every admin page.
export async function action({ request }: Route.ActionArgs) {
  await requireUser(request, { roles: ROUTE_ROLES.admin })
  return data(null, { status: 405 })
}

export default function EmailManagement({ loaderData }: Route.ComponentProps) {
  return (
    <section aria-labelledby="page-title" className="flex max-w-6xl flex-col gap-6">
      <PageHeader title="E-mail">
        The wording of every e-mail Panorama sends, per brand, and every message waiting, sent or failed.
      </PageHeader>
      <EmailTabs current={loaderData.tab} />
      <Notices notices={loaderData.notices} />
      {loaderData.tab === 'outbox' && loaderData.deliveryOff ? <DeliveryOffNotice /> : null}
      {loaderData.tab === 'outbox' ? (
        <OutboxList page={loaderData.page} counts={loaderData.counts} query={loaderData.query} />
      ) : (
        <TemplateList
          rows={loaderData.summaries.rows}
          brand={loaderData.summaries.brand}
          brandOptions={loaderData.brandOptions}
        />
      )}
    </section>
  )
}
