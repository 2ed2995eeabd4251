import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { auditLog, webhookDeliveries, webhookEndpoints } from '#db/schema/index'
import { createCompany } from '#db/factories'
import { resetEnvCache } from '#app/config/env.server'
import { decryptSecret } from '#app/lib/secret-box.server'
import { enqueueWebhookEvents } from '#app/modules/webhook/events.server'
import { secretContext } from '#app/modules/webhook/webhook.server'
import { useTestDatabase } from '#tests/support/database'
import { client, location, send, signedIn, useTestServer } from '#tests/support/app'
import { textOf } from '../auth/helpers'

/**
 * The webhooks pages (issue 21 §2, ADR 057) through the real HTTP stack: admins only; registering
 * (the secret shown once, sealed at rest, audited without it); every bad address refused with its
 * reason (private, loopback, link-local and IPv4-mapped addresses unless WEBHOOK_ALLOWED_HOSTS
 * allows them); changing, rotating, deleting and redelivering, each audited; the delivery log.
 */
const db = useTestDatabase()
const server = useTestServer()

const PAGE = '/admin/webhooks'
let adminCookie = ''
let companyId = ''

function setAllowList(value: string | undefined) {
  if (value === undefined) delete process.env.WEBHOOK_ALLOWED_HOSTS
  else process.env.WEBHOOK_ALLOWED_HOSTS = value
  resetEnvCache()
  server.build!.resetEnvCache()
}

beforeAll(async () => {
  adminCookie = (await signedIn({ role: 'admin' })).cookie
  companyId = (await createCompany({ name: 'Hooked Company' })).id
  setAllowList(undefined)
})

afterAll(() => setAllowList(undefined))

const { get, post } = client(server, () => adminCookie)

function form(intent: string, fields: Record<string, string | string[]>) {
  const data = new FormData()
  data.append('intent', intent)
  for (const [name, value] of Object.entries(fields))
    for (const v of Array.isArray(value) ? value : [value]) data.append(name, v)
  return data
}

const register = (fields: Record<string, string | string[]>) => post(PAGE, form('create', fields))

describe('the page', () => {
  test('lists no endpoint at first, and is in the admin navigation beside API keys', async () => {
    const response = await get(PAGE)
    expect(response.status).toBe(200)
    const html = await response.text()
    expect(textOf(html)).toContain('No webhook endpoint has been registered yet.')
    expect(html.indexOf('href="/admin/webhooks"')).toBeGreaterThan(html.indexOf('href="/admin/api-keys"'))
  })

  test('German: the page speaks German', async () => {
    const response = await send(server, PAGE, { cookie: adminCookie, headers: { 'Accept-Language': 'de' } })
    expect(textOf(await response.text())).toContain('Endpunkt registrieren')
  })

  test('admins only: signed-out visitors and employees are sent away, from the pages and their forms', async () => {
    const employee = await signedIn({ role: 'employee' })
    const made = await db()
      .insert(webhookEndpoints)
      .values({ url: 'https://x.example.test/', events: ['scheme.closed'], secretSealed: 'v1.x.x.x' })
      .returning({ id: webhookEndpoints.id })
    for (const path of [PAGE, `${PAGE}/${made[0]!.id}`]) {
      expect((await send(server, path)).status).toBe(302)
      const asEmployee = await send(server, path, { cookie: employee.cookie })
      expect(asEmployee.status).toBe(302)
      expect(location(asEmployee)).toBe('/user')
    }
    const create = await post(
      PAGE,
      form('create', { url: 'https://93.184.216.34/', events: 'scheme.closed' }),
      employee.cookie,
    )
    expect(create.status).toBe(302)
    const rotate = await post(`${PAGE}/${made[0]!.id}`, form('rotate', { id: made[0]!.id }), employee.cookie)
    expect(rotate.status).toBe(302)
    expect(await db().select().from(webhookEndpoints)).toHaveLength(1)
    await db().delete(webhookEndpoints).where(eq(webhookEndpoints.id, made[0]!.id))
  })
})

describe('registration', () => {
  test('bad forms: each says what is wrong, nothing is stored', async () => {
    const cases: Array<[Record<string, string | string[]>, string]> = [
      [{ events: 'scheme.closed' }, 'Enter the address that receives the events'],
      [{ url: 'not a url', events: 'scheme.closed' }, 'Enter a full web address that starts with https://.'],
      [{ url: 'ftp://files.example.test/', events: 'scheme.closed' }, 'Enter a full web address'],
      [{ url: 'https://93.184.216.34/' }, 'Tick at least one event.'],
      [
        { url: 'https://93.184.216.34/', events: ['scheme.closed', 'answers.leaked'] },
        'An event could not be identified.',
      ],
      [
        { url: 'https://user:pw@93.184.216.34/', events: 'scheme.closed' },
        'Leave the user name and password out',
      ],
      [{ url: 'http://93.184.216.34/', events: 'scheme.closed' }, 'Use https://.'],
      [
        { url: 'https://93.184.216.34/', events: 'scheme.closed', companyId: 'acme' },
        'Choose one of the companies offered',
      ],
      [
        {
          url: 'https://93.184.216.34/',
          events: 'scheme.closed',
          companyId: '00000000-0000-4000-8000-000000000000',
        },
        'That company no longer exists.',
      ],
      [
        { url: 'https://no-such-host.invalid/', events: 'scheme.closed' },
        'This server cannot find that host.',
      ],
    ]
    for (const [fields, message] of cases) {
      const response = await register(fields)
      expect(response.status, JSON.stringify(fields)).toBe(400)
      expect(textOf(await response.text()), JSON.stringify(fields)).toContain(message)
    }
    expect(await db().select().from(webhookEndpoints)).toHaveLength(0)
  })

  test('loopback, private, link-local, unspecified, multicast and IPv4-mapped addresses are refused', async () => {
    for (const url of [
      'https://127.0.0.1/hook',
      'https://localhost/hook',
      'https://10.0.0.5/hook',
      'https://172.16.4.4/hook',
      'https://192.168.1.10/hook',
      'https://100.64.0.1/hook',
      'https://169.254.169.254/latest/meta-data',
      'https://0.0.0.0/hook',
      'https://224.0.0.1/hook',
      'https://[::1]/hook',
      'https://[fd00::1]/hook',
      'https://[fe80::1]/hook',
      'https://[::ffff:127.0.0.1]/hook',
      'https://[::ffff:a9fe:a9fe]/hook',
    ]) {
      const response = await register({ url, events: 'scheme.closed' })
      expect(response.status, url).toBe(400)
      expect(textOf(await response.text()), url).toContain(
        'That address is on a private, loopback or link-local network',
      )
    }
    expect(await db().select().from(webhookEndpoints)).toHaveLength(0)
  })

  test('WEBHOOK_ALLOWED_HOSTS lets an intranet receiver in, plain http too; others stay refused', async () => {
    setAllowList('127.0.0.1, 10.20.0.0/16')
    try {
      for (const url of ['http://127.0.0.1:8080/hook', 'https://10.20.3.4/hook'])
        expect((await register({ url, events: 'scheme.closed' })).status, url).toBe(200)
      expect((await register({ url: 'https://10.21.0.1/hook', events: 'scheme.closed' })).status).toBe(400)
    } finally {
      setAllowList(undefined)
    }
    await db().delete(webhookEndpoints)
  })

  test('registered: the secret is in the answer once (no-store), sealed at rest, audited without it', async () => {
    const response = await register({
      url: 'https://93.184.216.34/panorama?token=abc',
      description: 'Personio events',
      events: ['report.released', 'employee.created'],
      companyId,
    })
    expect(response.status).toBe(200)
    expect(response.headers.get('Cache-Control')).toContain('no-store')
    const html = await response.text()
    const secret = /value="(whsec_[A-Za-z0-9+/=]+)"/.exec(html)?.[1] ?? ''
    expect(secret).toMatch(/^whsec_/)
    expect(textOf(html)).toContain('this is the only time it is shown')

    const [row] = await db().select().from(webhookEndpoints)
    expect(row).toMatchObject({
      url: 'https://93.184.216.34/panorama?token=abc',
      description: 'Personio events',
      events: ['employee.created', 'report.released'],
      companyId,
      enabled: true,
    })
    expect(JSON.stringify(row)).not.toContain(secret.slice(6))
    expect(decryptSecret(row!.secretSealed, secretContext(row!.id, 'current'))).toBe(secret)
    const audit = await db().select().from(auditLog).where(eq(auditLog.entityId, row!.id))
    expect(audit.map((a) => a.action)).toEqual(['webhook.create'])
    expect(audit[0]!.details).toMatchObject({ url: 'https://93.184.216.34/panorama?…' })
    expect(JSON.stringify(audit)).not.toContain(secret.slice(6))
    expect(JSON.stringify(audit)).not.toContain('token=abc')

    // Not shown again.
    const list = await (await get(PAGE)).text()
    expect(list).not.toContain(secret)
    expect(textOf(list)).toContain('Personio events')
    expect(textOf(list)).toContain('Hooked Company')
    const detail = await (await get(`${PAGE}/${row!.id}`)).text()
    expect(detail).not.toContain(secret)
    expect(textOf(detail)).toContain('No event has been queued for this endpoint yet.')
  })
})

describe('an endpoint’s page', () => {
  let id = ''
  beforeAll(async () => {
    ;[{ id }] = await db().select({ id: webhookEndpoints.id }).from(webhookEndpoints)
  })

  test('change: URL checked again, what changed audited; nothing changed says so', async () => {
    const here = `${PAGE}/${id}`
    const refused = await post(
      here,
      form('update', { url: 'https://192.168.0.1/', events: 'scheme.closed', enabled: 'on' }),
    )
    expect(refused.status).toBe(400)
    expect(textOf(await refused.text())).toContain('private, loopback or link-local')
    const saved = await post(
      here,
      form('update', { url: 'https://93.184.216.34/v2', events: ['scheme.closed'] }),
    )
    expect(saved.status).toBe(302)
    const [row] = await db().select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id))
    expect(row).toMatchObject({
      url: 'https://93.184.216.34/v2',
      events: ['scheme.closed'],
      enabled: false,
      companyId: null,
    })
    const audit = await db().select().from(auditLog).where(eq(auditLog.action, 'webhook.update'))
    expect(Object.keys((audit[0]!.details as { changes: object }).changes).sort()).toEqual(
      ['companyId', 'description', 'enabled', 'events', 'url'].sort(),
    )
    const again = await post(
      here,
      form('update', { url: 'https://93.184.216.34/v2', events: ['scheme.closed'] }),
    )
    expect(again.status).toBe(302)
    expect(await db().select().from(auditLog).where(eq(auditLog.action, 'webhook.update'))).toHaveLength(1)
    await post(
      here,
      form('update', { url: 'https://93.184.216.34/v2', events: ['scheme.closed'], enabled: 'on' }),
    )
  })

  test('rotate: behind a confirmation, the new secret shown once, the overlap said on the page', async () => {
    const here = `${PAGE}/${id}`
    expect(textOf(await (await get(`${here}?rotate=1`)).text())).toContain('Rotate the signing secret?')
    const response = await post(here, form('rotate', { id }))
    expect(response.status).toBe(200)
    expect(response.headers.get('Cache-Control')).toContain('no-store')
    const html = await response.text()
    const secret = /value="(whsec_[A-Za-z0-9+/=]+)"/.exec(html)?.[1] ?? ''
    expect(secret).toMatch(/^whsec_/)
    const [row] = await db().select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id))
    expect(decryptSecret(row!.secretSealed, secretContext(id, 'current'))).toBe(secret)
    expect(row!.previousSecretSealed).not.toBeNull()
    expect(textOf(await (await get(here)).text())).toContain(
      'requests are signed with both the new and the previous secret',
    )
  })

  test('the delivery log: event, status, attempts, answer; paged by keyset; redeliver', async () => {
    const here = `${PAGE}/${id}`
    await db().transaction(async (tx) =>
      enqueueWebhookEvents(
        tx,
        Array.from({ length: 55 }, (_, i) => ({
          type: 'scheme.closed' as const,
          companyId,
          data: { scheme_id: crypto.randomUUID(), state: 'closed', n: i },
        })),
      ),
    )
    const rows = await db().select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, id))
    expect(rows).toHaveLength(55)
    await db()
      .update(webhookDeliveries)
      .set({ status: 'failed', attempts: 8, lastResponseCode: 500, lastError: 'HTTP 500' })
      .where(eq(webhookDeliveries.id, rows[0]!.id))
    const first = { result: await (await get(here)).text() }
    const text = textOf(first.result)
    expect(text).toContain('Delivery log')
    expect(text).toContain('scheme.closed')
    expect(text).toContain('Waiting')
    const older = /\?older=([0-9a-f-]{36})"/.exec(first.result)?.[1]
    expect(older).toBeTruthy()
    const second = { result: await (await get(`${here}?older=${older}`)).text() }
    const ids = (html: string) =>
      [...html.matchAll(/name="deliveryId" value="([0-9a-f-]{36})"/g)].map((m) => m[1])
    const shown = [...ids(first.result), ...ids(second.result)]
    expect(shown).toHaveLength(55)
    expect(new Set(shown).size).toBe(55)

    const redeliver = await post(here, form('redeliver', { deliveryId: rows[0]!.id }))
    expect(redeliver.status).toBe(302)
    const [after] = await db().select().from(webhookDeliveries).where(eq(webhookDeliveries.id, rows[0]!.id))
    expect(after).toMatchObject({ status: 'queued', attempts: 0 })
    expect(await db().select().from(auditLog).where(eq(auditLog.action, 'webhook.redeliver'))).toHaveLength(1)
    const unknown = await post(
      here,
      form('redeliver', { deliveryId: '00000000-0000-4000-8000-000000000000' }),
    )
    expect(unknown.status).toBe(400)
    expect(textOf(await unknown.text())).toContain('This delivery no longer exists.')
  })

  test('delete: behind a confirmation, the log goes with it, audited', async () => {
    expect(textOf(await (await get(`${PAGE}?delete=${id}`)).text())).toContain('Delete this endpoint?')
    const response = await post(PAGE, form('delete', { id }))
    expect(response.status).toBe(302)
    expect(await db().select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id))).toHaveLength(0)
    expect(
      await db().select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, id)),
    ).toHaveLength(0)
    expect(await db().select().from(auditLog).where(eq(auditLog.action, 'webhook.delete'))).toHaveLength(1)
    expect((await get(`${PAGE}/${id}`)).status).toBe(404)
  })
})
