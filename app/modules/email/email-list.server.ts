import { listNotices } from '#app/lib/list-page.server'
import { listBrandOptions } from '#app/modules/brand/brand.server'
import { emailDeliveryConfigured } from './outbox.server'
import { RECIPIENT_PREFIX_MIN, type EmailListQuery } from './schemas'
import { listOutbox, listTemplateSummaries, outboxCounts } from './template-editing.server'

/**
 * E-mail management's data (the page-props rule: the route returns this, its tabs type their props
 * from it). Outbox: one page of messages and the counts per state. Templates: every e-mail with its
 * default wording and, for the chosen brand, that brand's own.
 */
export async function loadEmailPage(query: EmailListQuery) {
  if (query.tab === 'outbox') {
    const [page, counts] = await Promise.all([listOutbox(query), outboxCounts()])
    return {
      tab: 'outbox' as const,
      query: { state: query.state ?? '', template: query.template ?? '', to: query.to },
      page,
      counts,
      notices: listNotices(
        page,
        page.recipientTooShort &&
          `A recipient prefix needs at least ${RECIPIENT_PREFIX_MIN} characters before the *, such as anna*.`,
      ),
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
