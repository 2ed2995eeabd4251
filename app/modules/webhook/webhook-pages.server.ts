import { providerCompanyOptions } from '#app/modules/sso/provider.server'
import { getWebhook, listDeliveries, listWebhooks } from './webhook.server'

/**
 * The webhooks pages' data (issue 21 §2, ADR 057). The list page: every endpoint (never a secret),
 * the companies an endpoint may be restricted to, and the endpoint confirmed for deleting
 * (`?delete=`), one of the listed. A constant number of statements per page.
 */
export async function loadWebhookPage(searchParams: URLSearchParams) {
  const [endpoints, companyOptions] = await Promise.all([listWebhooks(), providerCompanyOptions()])
  const deleteId = searchParams.get('delete')
  const confirmDelete = endpoints.find((e) => e.id === deleteId) ?? null
  return { endpoints, companyOptions, confirmDelete }
}

/** One endpoint's page: its settings, the companies offered, and a page of its delivery log (`?older=`). */
export async function loadWebhookDetail(id: string, searchParams: URLSearchParams) {
  const endpoint = await getWebhook(id)
  if (!endpoint) return null
  const [log, companyOptions] = await Promise.all([
    listDeliveries(endpoint.id, searchParams.get('older')),
    providerCompanyOptions(),
  ])
  return {
    endpoint,
    deliveries: log.rows,
    older: log.older,
    paged: searchParams.has('older'),
    companyOptions,
    confirmRotate: searchParams.get('rotate') === '1',
  }
}
