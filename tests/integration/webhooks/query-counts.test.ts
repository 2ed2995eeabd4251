import { beforeAll, expect, test } from 'vitest'
import { createCompany } from '#db/factories'
import { enqueueWebhookEvents } from '#app/modules/webhook/events.server'
import { useTestDatabase } from '#tests/support/database'
import { sessionCookieFor } from '#tests/support/app'
import { useQueryCountingServer } from '#tests/support/query-count'
import { createUser } from '#db/factories'
import { insertEndpoint } from './helpers'

/**
 * The webhooks pages run a constant number of statements whatever the number of endpoints and
 * deliveries (ADR 057): the list one statement for all endpoints and their counts, the log one
 * keyset page.
 */
const { request } = useQueryCountingServer()
const db = useTestDatabase()
let cookie = ''
let endpointId = ''

beforeAll(async () => {
  cookie = await sessionCookieFor((await createUser({ role: 'admin' })).id)
  endpointId = (await insertEndpoint()).id
})

async function queue(n: number) {
  const companyId = (await createCompany()).id
  await db().transaction((tx) =>
    enqueueWebhookEvents(
      tx,
      Array.from({ length: n }, () => ({
        type: 'scheme.launched' as const,
        companyId,
        data: { scheme_id: crypto.randomUUID(), state: 'open' },
      })),
    ),
  )
}

test('the list and an endpoint’s log: the same statements with 1 or 120 deliveries and 1 or 6 endpoints', async () => {
  await queue(1)
  const list1 = await request('/admin/webhooks', { cookie })
  const log1 = await request(`/admin/webhooks/${endpointId}`, { cookie })
  expect(list1.response.status).toBe(200)
  expect(log1.response.status).toBe(200)
  for (let i = 0; i < 5; i++) await insertEndpoint()
  await queue(120)
  const listN = await request('/admin/webhooks', { cookie })
  const logN = await request(`/admin/webhooks/${endpointId}`, { cookie })
  const older = /\?older=([0-9a-f-]{36})"/.exec(logN.body)?.[1]
  expect(older).toBeTruthy()
  const page2 = await request(`/admin/webhooks/${endpointId}?older=${older}`, { cookie })
  expect(listN.queries).toBe(list1.queries)
  expect(logN.queries).toBe(log1.queries)
  expect(page2.queries).toBe(log1.queries)
})
