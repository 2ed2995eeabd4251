import { eq } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'
import { emailOutbox } from '#db/schema/index'
import { createBrand, createUser } from '#db/factories'
import { formatDateTime } from '#app/lib/dates'
import { enqueueEmail } from '#app/modules/email/outbox.server'
import { useTestDatabase } from '#tests/support/database'
import { client, send, sessionCookieFor, useTestServer } from '#tests/support/app'
import { fieldErrors, textOf, titleOf } from '#tests/integration/auth/helpers'
import { usePreviewLanguages } from '#tests/support/languages'

/**
 * The e-mail admin pages (list, template editor, outbox message) in the reader's language (issue
 * 20 §3, ADR 050/052): German through LANGUAGES_PREVIEW for an admin who chose it, with its dates,
 * a form message and a toast; English unchanged without it. The templates' own wording is data,
 * not page words, and stays as written.
 */

const db = useTestDatabase()
const server = useTestServer()

const preview = usePreviewLanguages(server)

const LIST = '/admin/email-management'
let cookie = ''
let brand = { id: '', name: '' }
let messageId = ''
const queuedAt = new Date('2031-06-30T12:00:00Z')

beforeAll(async () => {
  const admin = await createUser({ role: 'admin', displayName: 'Dora Deutsch', language: 'de' })
  cookie = await sessionCookieFor(admin.id)
  brand = await createBrand({ name: 'Marke Eins' })
  const { id } = await enqueueEmail(db(), {
    to: 'empfang@example.com',
    template: 'response_ready',
    values: { link: 'https://x.test/r' },
  })
  await db()
    .update(emailOutbox)
    .set({ status: 'failed', lastError: '550 mailbox unavailable', createdAt: queuedAt })
    .where(eq(emailOutbox.id, id))
  messageId = id
})

const admin$ = client(server, () => cookie)
const page = async (path: string, as = cookie) => {
  const response = await send(server, path, { cookie: as })
  expect(response.status).toBe(200)
  return response.text()
}
const langOf = (html: string) => /<html lang="([^"]*)"/.exec(html)?.[1]

describe('in German (previewed, the admin’s own choice)', () => {
  test('the list: templates and outbox tabs, states, a German date', async () => {
    preview('de')
    const html = await page(LIST)
    expect(langOf(html)).toBe('de')
    expect(titleOf(html)).toBe('E-Mail-Verwaltung · Panorama admin')
    const text = textOf(html)
    expect(text).toContain('Postausgang')
    expect(text).toContain('Kontoaktivierung')
    expect(text).toContain('Standardwortlaut')
    expect(text).not.toContain('Account activation')
    const outbox = textOf(await page(`${LIST}?tab=outbox`))
    expect(outbox).toContain('Fehlgeschlagen')
    expect(outbox).toContain('Nachrichten, neueste zuerst')
    expect(outbox).toContain('Bericht bereit')
    expect(outbox).toContain(formatDateTime(queuedAt, 'UTC', 'de-DE'))
    expect(outbox).toContain('30. Juni 2031')
  })

  test('the editor: its words, a form message, a toast', async () => {
    preview('de')
    const html = await page(`${LIST}/colleague_invite.${brand.id}?language=de`)
    expect(titleOf(html)).toBe('Einladung an Kolleginnen und Kollegen · Marke Eins · E-Mail · Panorama admin')
    const text = textOf(html)
    expect(text).toContain('Sprachen')
    expect(text).toContain('Platzhalter')
    expect(text).toContain('Vorschau auf Deutsch mit Beispielwerten')
    expect(text).toContain('Test an mich senden')
    // The preview's sample values in German too: a German date, the sample scheme, the privacy note.
    expect(text).toContain('30. Juni 2026')
    expect(text).toContain('Ihre Antworten werden mit denen anderer Kolleginnen und Kollegen zusammengefasst')
    expect(text).not.toMatch(/30 June 2026|\(sample\)|Your answers are combined/)
    const empty = await admin$.post(`${LIST}/colleague_invite.${brand.id}`, {
      intent: 'save',
      language: 'de',
      subject: '',
      body: 'Hallo {{colleagueName}},\n\n{{link}}',
      html: '',
    })
    expect(fieldErrors(await empty.text(), 'subject')).toEqual(['Geben Sie den Betreff ein.'])
    const saved = await admin$.post(`${LIST}/colleague_invite.${brand.id}`, {
      intent: 'save',
      language: 'de',
      subject: '{{employeeName}} bittet um Ihre Sicht',
      body: 'Hallo {{colleagueName}},\n\n{{link}}',
      html: '',
    })
    const after = textOf(await admin$.follow(saved))
    expect(after).toContain('Eigener Wortlaut erstellt')
    expect(after).toContain(
      '„Einladung an Kolleginnen und Kollegen“ wird für die nächste gesendete Nachricht verwendet.',
    )
  })

  test('the outbox message: its facts, a German date, the retry toast', async () => {
    preview('de')
    const html = await page(`${LIST}/outbox/${messageId}`)
    const text = textOf(html)
    expect(text).toContain('An empfang@example.com')
    expect(text).toContain('Zustellung')
    expect(text).toContain('Nachricht erneut senden')
    expect(text).toContain(formatDateTime(queuedAt, 'UTC', 'de-DE'))
    const retried = await admin$.post(`${LIST}/outbox/${messageId}`, { intent: 'retry' })
    const after = textOf(await admin$.follow(retried))
    expect(after).toContain('Nachricht erneut eingereiht')
    expect(after).toContain('Die Nachricht an empfang@example.com wird gleich gesendet.')
  })
})

describe('in English (the admin chose French, which is not shipped)', () => {
  test('the same pages read as before', async () => {
    const french = await sessionCookieFor((await createUser({ role: 'admin', language: 'fr' })).id)
    const list = await page(LIST, french)
    expect(langOf(list)).toBe('en')
    expect(titleOf(list)).toBe('E-mail management · Panorama admin')
    expect(textOf(list)).toContain('Account activation')
    expect(textOf(await page(`${LIST}?tab=outbox`, french))).toContain('Messages, newest first')
    const editor = await page(`${LIST}/colleague_invite`, french)
    expect(titleOf(editor)).toBe('Colleague invitation · E-mail · Panorama admin')
    expect(textOf(editor)).toContain('Preview in English with sample values')
    expect(textOf(editor)).toContain('Please respond by 30 June 2026')
    const message = textOf(await page(`${LIST}/outbox/${messageId}`, french))
    expect(message).toContain('Delivery')
    expect(message).toContain(formatDateTime(queuedAt, 'UTC', 'en-GB'))
  })
})
