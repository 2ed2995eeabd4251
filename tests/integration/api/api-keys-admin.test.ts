import { eq } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'
import { apiKeys, auditLog } from '#db/schema/index'
import { createCompany } from '#db/factories'
import { hashSecret } from '#app/lib/secret-hash.server'
import { useTestDatabase } from '#tests/support/database'
import { client, location, send, signedIn, useTestServer } from '#tests/support/app'
import { textOf } from '../auth/helpers'

/**
 * The API keys page (issue 21 §1, ADR 054) through the real HTTP stack: create (the key shown once,
 * in the action's answer only, and only its hash stored), bad forms, revoke behind a confirmation,
 * the audit entries, and the key working then refused once revoked.
 */
const db = useTestDatabase()
const server = useTestServer()

const PAGE = '/admin/api-keys'
let adminCookie = ''
let companyId = ''

beforeAll(async () => {
  adminCookie = (await signedIn({ role: 'admin' })).cookie
  companyId = (await createCompany({ name: 'Keyed Company' })).id
})

const { get, post } = client(server, () => adminCookie)

function createForm(fields: Record<string, string | string[]>) {
  const form = new FormData()
  form.append('intent', 'create')
  for (const [name, value] of Object.entries(fields))
    for (const v of Array.isArray(value) ? value : [value]) form.append(name, v)
  return form
}

describe('the page', () => {
  test('lists no key at first, links the reference, and is in the admin navigation', async () => {
    const response = await get(PAGE)
    expect(response.status).toBe(200)
    const html = await response.text()
    expect(textOf(html)).toContain('No API key has been created yet.')
    expect(html).toContain('href="/admin/api-keys/reference"')
    expect(html).toContain('href="/admin/api-keys"')
  })

  test('German: the page speaks German', async () => {
    const response = await send(server, PAGE, { cookie: adminCookie, headers: { 'Accept-Language': 'de' } })
    expect(textOf(await response.text())).toContain('API-Schlüssel erstellen')
  })

  test('the reference page renders the OpenAPI document, with no external script or style', async () => {
    const response = await get(`${PAGE}/reference`)
    expect(response.status).toBe(200)
    const html = await response.text()
    const text = textOf(html)
    for (const path of [
      '/api/v1/companies',
      '/api/v1/companies/{id}',
      '/api/v1/employees',
      '/api/v1/employees/{id}',
    ])
      expect(text).toContain(path)
    expect(text).toContain('company_id')
    expect(text).toContain('application/problem+json')
    expect(html).not.toMatch(/<(script|link)[^>]+(src|href)="https?:\/\//)
  })

  test('the page and the reference are admins’ only', async () => {
    const employee = await signedIn({ role: 'employee' })
    for (const path of [PAGE, `${PAGE}/reference`]) {
      expect((await send(server, path)).status).toBe(302)
      expect((await send(server, path, { cookie: employee.cookie })).status).toBe(302)
    }
    expect(
      (await post(PAGE, createForm({ name: 'x', scopes: 'companies:read' }), employee.cookie)).status,
    ).toBe(302)
  })
})

describe('create and revoke', () => {
  let id = ''
  let key = ''

  test('create: the key is in the answer once (no-store), only its hash is stored, audited without it', async () => {
    const response = await post(
      PAGE,
      createForm({
        name: 'Personio sync',
        scopes: ['employees:read', 'companies:read'],
        companyId,
        expiresInDays: '90',
      }),
    )
    expect(response.status).toBe(200)
    expect(response.headers.get('Cache-Control')).toContain('no-store')
    const html = await response.text()
    key = /value="(pnr_[a-z0-9]{8}_[A-Za-z0-9_-]{43})"/.exec(html)?.[1] ?? ''
    expect(key).not.toBe('')
    expect(textOf(html)).toContain('this is the only time it is shown')

    const [row] = await db().select().from(apiKeys).where(eq(apiKeys.name, 'Personio sync'))
    id = row!.id
    expect(row!.secretHash).toBe(hashSecret(key))
    expect(row!.prefix).toBe(key.slice(0, 12))
    expect(row!.scopes).toEqual(['companies:read', 'employees:read'])
    expect(row!.companyId).toBe(companyId)
    const days = (row!.expiresAt!.getTime() - Date.now()) / 86_400_000
    expect(days).toBeGreaterThan(89.9)
    expect(days).toBeLessThan(90.1)
    // Nowhere in the database but as its hash.
    expect(JSON.stringify(row)).not.toContain(key.slice(13))
    const audit = await db().select().from(auditLog).where(eq(auditLog.entityId, id))
    expect(audit.map((a) => a.action)).toEqual(['api_key.create'])
    expect(JSON.stringify(audit)).not.toContain(key.slice(13))

    // Not shown again: the list shows the prefix only.
    const list = await (await get(PAGE)).text()
    expect(list).not.toContain(key)
    expect(textOf(list)).toContain(`${row!.prefix}…`)
    expect(textOf(list)).toContain('Personio sync')
    expect(textOf(list)).toContain('Keyed Company')
    expect(textOf(list)).toContain('Not used yet')
  })

  test('the key works, and its use is noted on the list', async () => {
    const response = await send(server, '/api/v1/employees', { headers: { Authorization: `Bearer ${key}` } })
    expect(response.status).toBe(200)
    const [row] = await db().select().from(apiKeys).where(eq(apiKeys.id, id))
    expect(row!.lastUsedAt).not.toBeNull()
    expect(row!.lastUsedIp).toBeTruthy()
    expect(textOf(await (await get(PAGE)).text())).not.toContain('Not used yet')
  })

  test('bad forms: no name, no scope, an unknown scope, a made-up expiry, a bad company', async () => {
    const cases: Array<[Record<string, string | string[]>, string]> = [
      [{ scopes: 'companies:read' }, 'Enter a name that says who uses the key'],
      [{ name: 'No scope' }, 'Tick at least one scope.'],
      [
        { name: 'Bad scope', scopes: ['companies:read', 'answers:write'] },
        'A scope could not be identified.',
      ],
      [
        { name: 'Bad expiry', scopes: 'companies:read', expiresInDays: '7' },
        'Choose one of the expiries offered.',
      ],
      [
        { name: 'Bad company', scopes: 'companies:read', companyId: 'nope' },
        'Choose one of the companies offered',
      ],
      [
        { name: 'Gone company', scopes: 'companies:read', companyId: '00000000-0000-4000-8000-000000000000' },
        'That company no longer exists.',
      ],
    ]
    for (const [fields, message] of cases) {
      const response = await post(PAGE, createForm(fields))
      expect(response.status, message).toBe(400)
      expect(textOf(await response.text())).toContain(message)
    }
    expect(await db().select().from(apiKeys)).toHaveLength(1)
  })

  test('revoke: asked first, then refused at once, audited; revoking again changes nothing', async () => {
    const confirm = await get(`${PAGE}?revoke=${id}`)
    expect(textOf(await confirm.text())).toContain('Revoke “Personio sync”?')

    const response = await post(PAGE, { intent: 'revoke', id })
    expect(response.status).toBe(302)
    expect(location(response)).toBe(PAGE)
    const [row] = await db().select().from(apiKeys).where(eq(apiKeys.id, id))
    expect(row!.revokedAt).not.toBeNull()
    const audit = await db().select().from(auditLog).where(eq(auditLog.entityId, id))
    expect(audit.map((a) => a.action).sort()).toEqual(['api_key.create', 'api_key.revoke'])

    const refused = await send(server, '/api/v1/employees', { headers: { Authorization: `Bearer ${key}` } })
    expect(refused.status).toBe(401)

    expect((await post(PAGE, { intent: 'revoke', id })).status).toBe(302)
    expect(
      (await db().select().from(auditLog).where(eq(auditLog.entityId, id))).filter(
        (a) => a.action === 'api_key.revoke',
      ),
    ).toHaveLength(1)
    expect(textOf(await (await get(PAGE)).text())).toContain('Revoked')
  })

  test('revoking an unknown or malformed key is the not-found page', async () => {
    expect((await post(PAGE, { intent: 'revoke', id: '00000000-0000-4000-8000-000000000000' })).status).toBe(
      404,
    )
    expect((await post(PAGE, { intent: 'revoke', id: 'nope' })).status).toBe(400)
  })
})
