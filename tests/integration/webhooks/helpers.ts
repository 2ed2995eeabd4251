import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { eq } from 'drizzle-orm'
import { getDb } from '#db/client'
import { webhookDeliveries, webhookEndpoints } from '#db/schema/index'
import { WEBHOOK_EVENTS, type WebhookEvent } from '#db/enums'
import { encryptSecret } from '#app/lib/secret-box.server'
import { newWebhookSecret, secretContext } from '#app/modules/webhook/webhook.server'

/**
 * Shared by the webhook tests (ADR 057): an endpoint written straight to the database (its secret
 * returned), the deliveries queued for it, and a real HTTP receiver on a free local port that
 * records every request, answering with the status a test sets.
 */

export async function insertEndpoint(
  options: { url?: string; events?: WebhookEvent[]; companyId?: string | null; enabled?: boolean } = {},
) {
  const id = crypto.randomUUID()
  const secret = newWebhookSecret()
  await getDb()
    .insert(webhookEndpoints)
    .values({
      id,
      url: options.url ?? 'https://hooks.example.test/panorama',
      events: options.events ?? [...WEBHOOK_EVENTS],
      companyId: options.companyId ?? null,
      enabled: options.enabled ?? true,
      secretSealed: encryptSecret(secret, secretContext(id, 'current')),
    })
  return { id, secret }
}

export async function deliveriesOf(endpointId: string) {
  return getDb()
    .select()
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.endpointId, endpointId))
    .orderBy(webhookDeliveries.createdAt, webhookDeliveries.id)
}

export type Received = { headers: Record<string, string>; body: string; path: string }

/** A receiver on 127.0.0.1:<free port>; `status` is what it answers next (a function of the request count). */
export async function startReceiver() {
  const received: Received[] = []
  const state = { status: (_n: number) => 200 as number }
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (c: Buffer) => chunks.push(c))
    request.on('end', () => {
      const headers: Record<string, string> = {}
      for (const [k, v] of Object.entries(request.headers)) if (typeof v === 'string') headers[k] = v
      received.push({ headers, body: Buffer.concat(chunks).toString('utf8'), path: request.url ?? '' })
      const status = state.status(received.length)
      response.writeHead(
        status,
        status >= 300 && status < 400 ? { Location: 'http://127.0.0.1:9/elsewhere' } : {},
      )
      response.end(status < 300 ? 'ok' : 'nope')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    port,
    received,
    answer: (status: (n: number) => number) => (state.status = status),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
