import { and, eq, isNull, sql } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'
import { auditLog, emailOutbox, emailTemplates } from '#db/schema/index'
import { createBrand } from '#db/factories'
import { retryMessage } from '#app/modules/email/template-editing.server'
import { enqueueEmail } from '#app/modules/email/outbox.server'
import { DEFAULT_TEMPLATES } from '#app/modules/email/templates'
import { CODE_MASK } from '#app/modules/email/mask'
import { useTestDatabase } from '#tests/support/database'
import { client, signedIn, useTestServer } from '#tests/support/app'
import { textOf } from '#tests/integration/auth/helpers'

/**
 * E-mail management through the real HTTP stack (the production build): the templates and outbox
 * tabs, the template editor's intents, the outbox message and its retry, and every way a request
 * can be wrong (400 with a clear message or 404, never 500).
 */
const db = useTestDatabase()
const server = useTestServer()

const LIST = '/admin/email-management'
let admin = { id: '', email: '' }
let adminCookie = ''
let employeeCookie = ''
let brand = { id: '', name: '' }

beforeAll(async () => {
  ;({ user: admin, cookie: adminCookie } = await signedIn({ role: 'admin' }))
  employeeCookie = (await signedIn({ role: 'employee' })).cookie
  brand = await createBrand({ name: `Mail Brand ${Date.now()}` })
})

const { get, post, follow } = client(server, () => adminCookie)

const decode = (html: string) =>
  html
    .replace(/<!-- -->/g, '')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')

const editor = (key: string, brandId?: string) => `${LIST}/${brandId ? `${key}.${brandId}` : key}`
const brandRow = async (key: string, brandId: string) =>
  (
    await db()
      .select()
      .from(emailTemplates)
      .where(and(eq(emailTemplates.key, key as never), eq(emailTemplates.brandId, brandId)))
  )[0]
const defaultRow = async (key: string) =>
  (
    await db()
      .select()
      .from(emailTemplates)
      .where(and(eq(emailTemplates.key, key as never), isNull(emailTemplates.brandId)))
  )[0]
const audits = (action: string) =>
  db().select().from(auditLog).where(eq(auditLog.action, action)).orderBy(auditLog.at)

const valid = (overrides: Record<string, string> = {}) => ({
  intent: 'save',
  subject: '{{employeeName}} asks for your view',
  body: 'Hello {{colleagueName}},\n\nPlease answer by {{dueDate}}:\n\n{{link}}',
  html: '',
  ...overrides,
})

describe('the list page', () => {
  test('only admins see it; the templates tab lists every e-mail and the chosen brand’s state', async () => {
    expect((await get(LIST, employeeCookie)).status).toBe(302)
    const page = await get(`${LIST}?brand=${brand.id}`)
    expect(page.status).toBe(200)
    const html = decode(await page.text())
    for (const label of ['Colleague invitation', 'Password reset', 'Administrator invitation'])
      expect(html).toContain(label)
    expect(html).toContain('Uses the default')
    expect(html).toContain(`${editor('colleague_invite', brand.id)}`)
  })

  test('bad query values fall back instead of failing the page', async () => {
    for (const query of [
      '?tab=nope',
      '?brand=not-a-uuid',
      '?tab=outbox&state=bogus&template=nope',
      '?tab=outbox&after=%%%garbage',
      '?tab=outbox&before=eyJzIjoiY3JlYXRlZCIsInYiOiJ4IiwiaWQiOiJ5In0',
      '?tab=outbox&to=%00abc',
      `?tab=outbox&to=${'a'.repeat(5000)}`,
    ]) {
      const response = await get(`${LIST}${query}`)
      expect(response.status, query).toBe(200)
    }
    const stale = decode(await (await get(`${LIST}?tab=outbox&after=garbage`)).text())
    expect(stale).toContain('That page link is out of date')
    const unknownBrand = decode(
      await (await get(`${LIST}?brand=00000000-0000-4000-8000-000000000000`)).text(),
    )
    expect(unknownBrand).toContain('That brand does not exist')
    const short = decode(await (await get(`${LIST}?tab=outbox&to=ab*`)).text())
    expect(short).toContain('A recipient prefix needs at least 3 characters')
  })

  test('the dashboard’s link to failed messages shows the outbox filtered by state, with counts', async () => {
    const to = `failed-${Date.now()}@example.com`
    const { id } = await enqueueEmail(db(), {
      to,
      template: 'response_ready',
      values: { link: 'https://x.test/r' },
    })
    await db()
      .update(emailOutbox)
      .set({ status: 'failed', lastError: '550 mailbox unavailable' })
      .where(eq(emailOutbox.id, id))
    const html = decode(await (await get(`${LIST}?tab=outbox&state=failed`)).text())
    expect(html).toContain(to)
    expect(html).toContain('550 mailbox unavailable')
    expect(html).toMatch(/aria-current="page"[^>]*>Failed<span[^>]*>\d/)
    // Other states are filtered out.
    const queued = decode(await (await get(`${LIST}?tab=outbox&state=queued`)).text())
    expect(queued).not.toContain(to)
    // Recipient: exact and prefix.
    expect(decode(await (await get(`${LIST}?tab=outbox&to=${encodeURIComponent(to)}`)).text())).toContain(to)
    expect(
      decode(await (await get(`${LIST}?tab=outbox&to=${encodeURIComponent(to.slice(0, 12))}*`)).text()),
    ).toContain(to)
    expect(
      decode(await (await get(`${LIST}?tab=outbox&to=nobody-${Date.now()}@x.test`)).text()),
    ).not.toContain(to)
  })

  test('a sending message whose lease ran out is shown as stalled', async () => {
    const to = `stalled-${Date.now()}@example.com`
    const { id } = await enqueueEmail(db(), {
      to,
      template: 'response_ready',
      values: { link: 'https://x.test/r' },
    })
    await db()
      .update(emailOutbox)
      .set({
        status: 'sending',
        lockedBy: 'dead-worker',
        lockedUntil: new Date(Date.now() - 60_000),
        attempts: 1,
      })
      .where(eq(emailOutbox.id, id))
    const html = decode(
      await (await get(`${LIST}?tab=outbox&state=sending&to=${encodeURIComponent(to)}`)).text(),
    )
    expect(html).toContain('Sending (stalled, will be taken over)')
    const page = decode(await (await get(`${LIST}/outbox/${id}`)).text())
    expect(page).toContain('Sending (stalled, will be taken over)')
    // The visible text: the raw page also carries the e-mail namespace's catalogue (ADR 050).
    expect(textOf(page)).not.toContain('Retry this message')
  })

  test('the list page has no action', async () => {
    expect((await post(LIST, { intent: 'save' })).status).toBe(405)
  })
})

describe('the template editor', () => {
  test('ids: a key, or a key and a brand; anything else is a 404', async () => {
    expect((await get(editor('colleague_invite'))).status).toBe(200)
    expect((await get(editor('colleague_invite', brand.id))).status).toBe(200)
    for (const bad of [
      'nope',
      'colleague_invite.not-a-uuid',
      'colleague_invite.00000000-0000-4000-8000-000000000000',
      'colleague_invite.a.b',
    ])
      expect((await get(`${LIST}/${bad}`)).status, bad).toBe(404)
    expect((await post(`${LIST}/nope`, valid())).status).toBe(404)
    expect((await get(editor('colleague_invite'), employeeCookie)).status).toBe(302)
  })

  test('bad input is a 400 with a clear message, never a 500', async () => {
    const path = editor('colleague_invite', brand.id)
    const cases: Array<[Record<string, string>, string]> = [
      [{}, 'could not be read'],
      [{ intent: 'fly' }, 'could not be read'],
      [valid({ subject: '' }), 'Enter the subject.'],
      [valid({ subject: 'a'.repeat(201) }), 'The subject must be 200 characters or fewer.'],
      [valid({ subject: 'Hi\u0000there' }), 'Use one line of ordinary text'],
      [valid({ body: '' }), 'Enter the text body.'],
      [valid({ body: 'No link here' }), 'Include {{link}}'],
      [valid({ html: '<p>No link</p>' }), 'Include {{link}}'],
      [valid({ body: 'x\u0000 {{link}}' }), 'Remove the invisible control characters'],
      // Unknown and misspelt placeholders, in each field.
      [
        valid({ subject: 'For {{employeName}}' }),
        '{{employeName}} is not a placeholder of this e-mail. Did you mean {{employeeName}}?',
      ],
      [
        valid({ body: '{{Link}} and {{link}}' }),
        '{{Link}} is not a placeholder of this e-mail. Did you mean {{link}}?',
      ],
      [
        valid({ html: '<p>{{ inviterName }} {{link}}</p>' }),
        '{{inviterName}} is not a placeholder of this e-mail. It can use:',
      ],
      [valid({ body: '{{}} {{link}}' }), '{{}} is not a placeholder'],
    ]
    for (const [form, message] of cases) {
      const response = await post(path, form)
      expect(response.status, JSON.stringify(form)).toBe(400)
      expect(decode(await response.text()), JSON.stringify(form)).toContain(message)
    }
    expect(await brandRow('colleague_invite', brand.id)).toBeUndefined()
    // A field sent twice is bad input too.
    const twice = new FormData()
    for (const [k, v] of Object.entries(valid())) twice.append(k, v)
    twice.append('subject', 'again')
    expect((await post(path, twice)).status).toBe(400)
  })

  test('saving a brand’s wording creates its own row (sanitised HTML), audited; saving again updates it', async () => {
    const path = editor('reminder', brand.id)
    const html =
      '<p onclick="steal()">Hi {{recipientName}}</p><script>alert(1)</script><a href="javascript:alert(1)">x</a><a href="{{link}}">Continue</a><p style="color:#ff0000;position:fixed">red</p>'
    const page = await follow(
      await post(path, valid({ subject: 'Still open: {{schemeName}}', body: 'Hi\n\n{{link}}', html })),
    )
    expect(decode(page)).toContain('Some HTML that e-mail cannot safely carry was removed')
    const row = await brandRow('reminder', brand.id)
    expect(row).toMatchObject({ subject: 'Still open: {{schemeName}}', body: 'Hi\n\n{{link}}' })
    expect(row!.htmlBody).toBe(
      '<p>Hi {{recipientName}}</p><a>x</a><a href="{{link}}">Continue</a><p style="color:#ff0000">red</p>',
    )
    expect((await audits('email_template.create')).some((a) => a.entityId === row!.id)).toBe(true)

    await follow(await post(path, valid({ subject: 'Second {{schemeName}}', body: 'Hello\n\n{{link}}' })))
    const again = await brandRow('reminder', brand.id)
    expect(again).toMatchObject({ id: row!.id, subject: 'Second {{schemeName}}', htmlBody: null })
    expect((await audits('email_template.update')).some((a) => a.entityId === row!.id)).toBe(true)
  })

  test('a message rendered from an admin’s HTML keeps values escaped and is sanitised again', async () => {
    const b = await createBrand({ name: `Render Brand ${Date.now()}` })
    // A row written around the editor (by hand, an older version): the render still cleans it.
    await db().insert(emailTemplates).values({
      key: 'response_ready',
      brandId: b.id,
      subject: 'Ready',
      body: 'Text {{link}}',
      htmlBody:
        '<p>Dear {{recipientName}}</p><a href="{{link}}">Open</a><script>bad()</script><img src=x onerror=alert(1)>',
    })
    const { id } = await enqueueEmail(db(), {
      to: `render-${Date.now()}@example.com`,
      template: 'response_ready',
      brandId: b.id,
      values: { recipientName: '<b onmouseover="x()">Eve</b>', link: 'javascript:alert(1)' },
    })
    const [row] = await db().select().from(emailOutbox).where(eq(emailOutbox.id, id))
    expect(row!.brandId).toBe(b.id)
    expect(row!.html).toContain('<p>Dear &lt;b onmouseover="x()"&gt;Eve&lt;/b&gt;</p>')
    expect(row!.html).not.toMatch(/<script|onerror|javascript:/i)
    expect(row!.html).toContain('<a>Open</a>')
    expect(row!.text).toBe('Text javascript:alert(1)\n')
  })

  test('"send a test to me" queues one message to the admin through the outbox, audited', async () => {
    const path = editor('colleague_invite', brand.id)
    await follow(await post(path, valid({ subject: 'Test {{employeeName}} {{brandName}}' })))
    const before = Date.now()
    const page = await follow(await post(path, { intent: 'test' }))
    expect(decode(page)).toContain(`is on its way to ${admin.email}`)
    const rows = await db()
      .select()
      .from(emailOutbox)
      .where(and(eq(emailOutbox.recipient, admin.email), eq(emailOutbox.entity, 'email_template_test')))
    const row = rows.find((r) => r.createdAt.getTime() >= before - 1000)!
    expect(row).toMatchObject({
      status: 'queued',
      templateKey: 'colleague_invite',
      brandId: brand.id,
      subject: `Test Sam Example ${brand.name}`,
      linkExpiresAt: null,
    })
    expect(row.text).toContain('Please answer by 30 June 2026:')
    expect(
      (await audits('email_template.test')).some((a) => a.entityId === row.id && a.actorId === admin.id),
    ).toBe(true)
  })

  test('restore the default: a brand’s own wording is deleted, with a confirmation; twice is refused', async () => {
    const path = editor('verify_email', brand.id)
    await follow(await post(path, { intent: 'override' }))
    expect(await brandRow('verify_email', brand.id)).toMatchObject({
      subject: DEFAULT_TEMPLATES.verify_email.subject,
    })
    const twice = await post(path, { intent: 'override' })
    expect(twice.status).toBe(400)
    expect(decode(await twice.text())).toContain('already has its own wording')

    const confirm = decode(await (await get(`${path}?restore`)).text())
    expect(confirm).toContain('Delete ' + brand.name + '’s own wording?')
    await follow(await post(path, { intent: 'restore' }))
    expect(await brandRow('verify_email', brand.id)).toBeUndefined()
    expect((await audits('email_template.restore')).length).toBeGreaterThan(0)
    const again = await post(path, { intent: 'restore' })
    expect(again.status).toBe(400)
    expect(decode(await again.text())).toContain('already uses the default wording')
    // The default has no "override" intent.
    expect((await post(editor('verify_email'), { intent: 'override' })).status).toBe(400)
  })

  test('restore the default on the default itself puts the shipped wording back', async () => {
    const path = editor('setup_admin')
    await follow(
      await post(path, valid({ subject: 'Changed', body: 'Go: {{link}}', html: '<p>{{link}}</p>' })),
    )
    expect(await defaultRow('setup_admin')).toMatchObject({ subject: 'Changed', htmlBody: '<p>{{link}}</p>' })
    await follow(await post(path, { intent: 'restore' }))
    expect(await defaultRow('setup_admin')).toMatchObject({
      subject: DEFAULT_TEMPLATES.setup_admin.subject,
      body: DEFAULT_TEMPLATES.setup_admin.body,
      htmlBody: null,
    })
  })
})

describe('an outbox message', () => {
  const messagePath = (id: string) => `${LIST}/outbox/${id}`

  async function failed(overrides: Partial<typeof emailOutbox.$inferInsert> = {}) {
    const { id } = await enqueueEmail(db(), {
      to: `retry-${Date.now()}-${Math.random()}@example.com`,
      template: 'reset_password',
      values: { link: 'https://x.test/reset?code=SECRETCODE123' },
    })
    await db()
      .update(emailOutbox)
      .set({ status: 'failed', attempts: 8, lastError: '451 try later', ...overrides })
      .where(eq(emailOutbox.id, id))
    return id
  }

  test('unknown and malformed ids are a 404 for the page and the retry', async () => {
    for (const id of ['not-a-uuid', '00000000-0000-4000-8000-000000000000']) {
      expect((await get(messagePath(id))).status).toBe(404)
      expect((await post(messagePath(id), { intent: 'retry' })).status).toBe(404)
    }
    expect((await post(messagePath('00000000-0000-4000-8000-000000000000'), {})).status).toBe(400)
  })

  test('the body shows with one-time codes masked; an erased body says so', async () => {
    const id = await failed()
    const html = decode(await (await get(messagePath(id))).text())
    expect(html).not.toContain('SECRETCODE123')
    expect(html).toContain(`code=${CODE_MASK}`)
    expect(html).toContain('Retry this message')

    const erased = await failed({ html: '', text: '', bodyErasedAt: new Date() })
    const page = decode(await (await get(messagePath(erased))).text())
    expect(page).toContain('The body was erased on')
    expect(page).toContain('Send a fresh one from where it was made')
    const refused = await post(messagePath(erased), { intent: 'retry' })
    expect(refused.status).toBe(400)
    expect(decode(await refused.text())).toContain('its body was erased')
  })

  test('retry: failed → queued only, attempts kept, audited; anything else is refused clearly', async () => {
    const id = await failed()
    await follow(await post(messagePath(id), { intent: 'retry' }))
    const [row] = await db().select().from(emailOutbox).where(eq(emailOutbox.id, id))
    expect(row).toMatchObject({ status: 'queued', attempts: 8 })
    const [audit] = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'email_outbox.retry'), eq(auditLog.entityId, id)))
    expect(audit).toMatchObject({ actorId: admin.id })

    const queued = await post(messagePath(id), { intent: 'retry' })
    expect(queued.status).toBe(400)
    expect(decode(await queued.text())).toContain('already queued; only a failed message can be retried')
    await db().update(emailOutbox).set({ status: 'sent' }).where(eq(emailOutbox.id, id))
    const sent = await post(messagePath(id), { intent: 'retry' })
    expect(sent.status).toBe(400)
    expect(decode(await sent.text())).toContain('This message was sent')
  })

  test('concurrent retries queue a message once', async () => {
    const id = await failed()
    const outcomes = await Promise.all(Array.from({ length: 5 }, () => retryMessage({ id: admin.id }, id)))
    expect(outcomes.filter((o) => o.ok)).toHaveLength(1)
    const [{ n }] = await db()
      .select({ n: sql<number>`count(*)::int` })
      .from(auditLog)
      .where(and(eq(auditLog.action, 'email_outbox.retry'), eq(auditLog.entityId, id)))
    expect(n).toBe(1)
  })
})
