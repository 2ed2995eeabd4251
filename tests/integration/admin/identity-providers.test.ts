import { and, eq, sql } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'
import {
  auditLog,
  identityProviderCompanies,
  identityProviderDomains,
  identityProviders,
} from '#db/schema/index'
import { createCompany } from '#db/factories'
import { decryptSecret } from '#app/lib/secret-box.server'
import { SECRET_CONTEXT } from '#app/modules/sso/provider.server'
import { useTestDatabase } from '#tests/support/database'
import { client, location, send, signedIn, useTestServer } from '#tests/support/app'
import { textOf } from '../auth/helpers'

/**
 * The Identity providers page (issue 20 §1, ADR 049) through the real HTTP stack: list, create, edit
 * with a write-only secret, delete, every way a form can be wrong, and what the sign-in page does
 * before, with and after a provider.
 */
const db = useTestDatabase()
const server = useTestServer()

const LIST = '/admin/identity-provider-management'
let adminCookie = ''
const companies: Array<{ id: string; name: string }> = []

beforeAll(async () => {
  adminCookie = (await signedIn({ role: 'admin' })).cookie
  companies.push(await createCompany({ name: 'Contoso Ltd' }), await createCompany({ name: 'Contoso GmbH' }))
})

const { get, post } = client(server, () => adminCookie)

const SECRET = 'the-client-secret-5f2b9c'

function createForm(overrides: Record<string, string> = {}) {
  const form = new FormData()
  const fields = {
    intent: 'create',
    name: 'Contoso',
    issuer: 'https://login.contoso.example/tenant/v2.0',
    clientId: 'panorama-app',
    clientSecret: SECRET,
    scopes: 'openid email profile',
    domains: 'Contoso.example\n@contoso.de, contoso.example',
    allowPassword: 'on',
    ...overrides,
  }
  for (const [k, v] of Object.entries(fields)) if (v !== '') form.append(k, v)
  return form
}

const countProviders = async () =>
  (
    await db()
      .select({ n: sql<number>`count(*)::int` })
      .from(identityProviders)
  )[0]!.n

const signInHtml = async () => (await send(server, '/sign-in')).text()

describe('the list and the sign-in page', () => {
  test('with no provider the sign-in page is the password form as before', async () => {
    const html = await signInHtml()
    expect(html).toContain('type="password"')
    expect(html).not.toContain('name="intent" value="continue"')
    const page = await get(LIST)
    expect(page.status).toBe(200)
    const text = textOf(await page.text())
    expect(text).toContain('Identity providers')
    expect(text).toContain('http://localhost:3000/sign-in/sso/callback')
    expect(text).toContain('No identity provider is set up')
  })
})

describe('create, edit, delete', () => {
  let id = ''

  test('create: the secret is sealed, domains cleaned, companies linked, audited without the secret', async () => {
    const form = createForm()
    form.append('companyIds', companies[0]!.id)
    form.append('companyIds', companies[1]!.id)
    form.append('jitCompanyId', companies[1]!.id)
    const response = await post(LIST, form)
    expect(response.status, textOf(await response.clone().text()).slice(0, 600)).toBe(302)
    id = location(response)!.split('/').pop()!
    const [row] = await db().select().from(identityProviders).where(eq(identityProviders.id, id))
    expect(row).toMatchObject({
      name: 'Contoso',
      issuer: 'https://login.contoso.example/tenant/v2.0',
      clientId: 'panorama-app',
      scopes: 'openid email profile',
      allowPassword: true,
      jitCompanyId: companies[1]!.id,
    })
    expect(row!.clientSecretSealed).not.toContain(SECRET)
    expect(decryptSecret(row!.clientSecretSealed, SECRET_CONTEXT)).toBe(SECRET)
    // Sealed for its column: it does not open anywhere else.
    expect(() => decryptSecret(row!.clientSecretSealed, 'somewhere else')).toThrow()
    const domains = await db()
      .select()
      .from(identityProviderDomains)
      .where(eq(identityProviderDomains.providerId, id))
    expect(domains.map((d) => d.domain).sort()).toEqual(['contoso.de', 'contoso.example'])
    const linked = await db()
      .select()
      .from(identityProviderCompanies)
      .where(eq(identityProviderCompanies.providerId, id))
    expect(linked).toHaveLength(2)
    const [audit] = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'identity_provider'), eq(auditLog.entityId, id)))
    expect(audit?.action).toBe('identity_provider.create')
    expect(JSON.stringify(audit)).not.toContain(SECRET)
    expect(JSON.stringify(audit)).not.toContain(row!.clientSecretSealed)
  })

  test('its page shows every setting but never the secret; the list shows it; the sign-in page asks for the address first', async () => {
    const page = await get(`${LIST}/${id}`)
    expect(page.status).toBe(200)
    const html = await page.text()
    expect(html).toContain('panorama-app')
    expect(html).toContain('contoso.example')
    expect(html).not.toContain(SECRET)
    const [row] = await db().select().from(identityProviders).where(eq(identityProviders.id, id))
    expect(html).not.toContain(row!.clientSecretSealed)
    expect(textOf(html)).toContain('Leave blank to keep the current secret.')
    expect(textOf(await (await get(LIST)).text())).toContain('contoso.de, contoso.example')

    const signIn = await signInHtml()
    expect(signIn).toContain('name="intent" value="continue"')
    expect(signIn).not.toContain('type="password"')
  })

  test('edit with the secret left blank keeps it; a new one replaces it (audited as replaced, never shown)', async () => {
    const [before] = await db().select().from(identityProviders).where(eq(identityProviders.id, id))
    const update = (overrides: Record<string, string> = {}) => {
      const form = createForm({ intent: 'update', clientSecret: '', name: 'Contoso SSO', ...overrides })
      form.append('companyIds', companies[0]!.id)
      return form
    }
    const kept = await post(`${LIST}/${id}`, update())
    expect(kept.status).toBe(302)
    const [afterKeep] = await db().select().from(identityProviders).where(eq(identityProviders.id, id))
    expect(afterKeep!.clientSecretSealed).toBe(before!.clientSecretSealed)
    expect(afterKeep!.name).toBe('Contoso SSO')
    // The just-in-time company was no longer ticked: refused, nothing saved.
    const jit = update({ jitCompanyId: companies[1]!.id, name: 'Renamed' })
    const refused = await post(`${LIST}/${id}`, jit)
    expect(refused.status).toBe(400)
    expect(textOf(await refused.text())).toContain(
      'New accounts can only join a company that uses this provider',
    )

    const replaced = await post(`${LIST}/${id}`, update({ clientSecret: 'a-brand-new-secret' }))
    expect(replaced.status).toBe(302)
    const [afterReplace] = await db().select().from(identityProviders).where(eq(identityProviders.id, id))
    expect(decryptSecret(afterReplace!.clientSecretSealed, SECRET_CONTEXT)).toBe('a-brand-new-secret')
    const audits = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'identity_provider.update'), eq(auditLog.entityId, id)))
    expect(JSON.stringify(audits)).not.toContain('a-brand-new-secret')
    expect(JSON.stringify(audits)).toContain('replaced')
  })

  test('bad input: words beside the field, 400, nothing written', async () => {
    const before = await countProviders()
    const cases: Array<[Record<string, string>, string]> = [
      [{ name: '' }, 'Enter the name people see on the sign-in page'],
      [{ issuer: '' }, 'Enter the issuer URL.'],
      [{ issuer: 'http://login.example.com' }, 'Enter the issuer as an https:// address'],
      [{ issuer: 'https://login.example.com/?tenant=1' }, 'Enter the issuer as an https:// address'],
      [{ issuer: 'not a url' }, 'Enter the issuer as an https:// address'],
      [{ clientId: '' }, 'Enter the client ID'],
      [{ clientSecret: '' }, 'Enter the client secret'],
      [{ scopes: 'email profile' }, 'The scopes must include openid'],
      [{ scopes: 'openid "email"' }, 'Separate scopes with spaces'],
      [{ domains: '' }, 'Enter the e-mail domains this provider signs in'],
      [{ domains: 'someone@contoso.example' }, 'Enter domains only'],
      [{ domains: 'https://contoso.example' }, 'Enter domains only'],
      [
        { name: 'Other', domains: 'contoso.example' },
        'contoso.example is already signed in by “Contoso SSO”',
      ],
      [{ name: 'contoso sso', domains: 'other.example' }, 'A provider called “contoso sso” already exists'],
      [
        { name: 'Other', domains: 'other.example', companyIds: '00000000-0000-4000-8000-000000000000' },
        'no longer exists',
      ],
      [
        { name: 'Other', domains: 'other.example', companyIds: 'not-a-uuid' },
        'A company could not be identified',
      ],
      [
        { name: 'Other', domains: 'other.example', jitCompanyId: companies[0]!.id },
        'New accounts can only join',
      ],
      [{ name: 'x'.repeat(61) }, 'The name must be 60 characters or fewer.'],
    ]
    for (const [overrides, message] of cases) {
      const response = await post(LIST, createForm(overrides))
      const html = await response.text()
      const text = textOf(html)
      expect(response.status, JSON.stringify(overrides)).toBe(400)
      expect(text, JSON.stringify(overrides)).toContain(message)
      // Whatever was refused, the secret typed does not come back in the page (nor in its data).
      expect(html).not.toContain(SECRET)
    }
    expect(await countProviders()).toBe(before)
    // No intent, an unknown one, an unknown provider.
    expect((await post(LIST, new FormData())).status).toBe(400)
    expect(
      (await post(`${LIST}/00000000-0000-4000-8000-000000000000`, createForm({ intent: 'update' }))).status,
    ).toBe(404)
  })

  test('delete behind a confirmation: its domains go back to the password form', async () => {
    const confirm = await get(`${LIST}/${id}?delete`)
    expect(confirm.status).toBe(200)
    expect(textOf(await confirm.text())).toContain('Delete “Contoso SSO”?')
    const form = new FormData()
    form.append('intent', 'delete')
    const deleted = await post(`${LIST}/${id}`, form)
    expect(deleted.status).toBe(302)
    expect(location(deleted)).toBe(LIST)
    expect(await db().select().from(identityProviders).where(eq(identityProviders.id, id))).toEqual([])
    expect(
      await db().select().from(identityProviderDomains).where(eq(identityProviderDomains.providerId, id)),
    ).toEqual([])
    expect((await get(`${LIST}/${id}`)).status).toBe(404)
    expect(await signInHtml()).toContain('type="password"')
  })
})
