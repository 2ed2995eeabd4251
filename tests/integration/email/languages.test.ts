import { and, eq, isNull } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { auditLog, emailOutbox, emailTemplates } from '#db/schema/index'
import { createBrand, createCompany, createUser } from '#db/factories'
import {
  createSmtpTransport,
  enqueueEmail,
  enqueueEmails,
  processOutboxOnce,
  type MailTransport,
} from '#app/modules/email/outbox.server'
import { GERMAN_TEMPLATES } from '#app/modules/email/templates-de'
import { DEFAULT_TEMPLATES, TEMPLATE_KEYS } from '#app/modules/email/templates'
import { LANGUAGE_VERSION_MESSAGES } from '#app/modules/email/template-editing.server'
import { useTestDatabase } from '#tests/support/database'
import { client, signedIn, useTestServer } from '#tests/support/app'
import { startSmtpCatcher, type SmtpCatcher } from '#tests/support/smtp-catcher'
import { usePreviewLanguages } from '#tests/support/languages'

/**
 * E-mails per language (issue 20 §3, ADR 053): the recipient's language, the fallback chain step by
 * step, a colleague's language, a language not offered falling through, dates in the language, a
 * German message delivered through SMTP, and the editor's language versions through the built
 * server, with its bad input answered clearly and never with a 500.
 */
const db = useTestDatabase()
const server = useTestServer()

const preview = usePreviewLanguages(server)

let catcher: SmtpCatcher
let transport: MailTransport
let adminCookie = ''
beforeAll(async () => {
  catcher = await startSmtpCatcher()
  transport = createSmtpTransport(catcher.url)
  adminCookie = (await signedIn({ role: 'admin' })).cookie
})
afterAll(async () => {
  transport?.close?.()
  await catcher?.close()
})

const { get, post } = client(server, () => adminCookie)

let n = 0
const address = () => `lang-${Date.now()}-${n++}@example.test`

async function version(
  key: (typeof TEMPLATE_KEYS)[number],
  brandId: string | null,
  language: string,
  subject: string,
) {
  await db()
    .insert(emailTemplates)
    .values({ key, brandId, language, subject, body: `${subject}\n\n{{link}}` })
}

async function sent(id: string) {
  const [row] = await db().select().from(emailOutbox).where(eq(emailOutbox.id, id))
  return row!
}

async function mail(
  to: string,
  brandId: string | null,
  extra: Partial<Parameters<typeof enqueueEmail>[1]> = {},
) {
  const { id } = await enqueueEmail(db(), {
    to,
    template: 'response_ready',
    brandId,
    values: { link: 'https://x.test/r', schemeName: 'Programm' },
    ...extra,
  })
  return sent(id)
}

describe('the language of a message', () => {
  test('is the recipient’s own, else their brand’s default, else English; only offered languages count', async () => {
    const brand = await createBrand({ defaultLanguage: 'de' })
    const company = await createCompany({ brandId: brand.id })
    const german = await createUser({ email: address(), companyId: company.id, language: 'de' })
    const french = await createUser({ email: address(), companyId: company.id, language: 'fr' })
    const unset = await createUser({ email: address(), companyId: company.id })
    const plain = await createBrand()
    const elsewhere = await createUser({
      email: address(),
      companyId: (await createCompany({ brandId: plain.id })).id,
    })

    // A French brand's people read English while French is not offered (in preview only).
    const frenchBrand = await createBrand({ defaultLanguage: 'fr' })
    const frenchCompany = await createCompany({ brandId: frenchBrand.id })
    const frenchOnly = await createUser({ email: address(), companyId: frenchCompany.id, language: 'fr' })
    const frenchUnset = await createUser({ email: address(), companyId: frenchCompany.id })
    for (const user of [frenchOnly, frenchUnset])
      expect((await mail(user.email, frenchBrand.id)).language).toBe('en')

    const toGerman = await mail(german.email, brand.id)
    expect(toGerman.language).toBe('de')
    // No German version is installed here: the English default words it, in a German frame.
    expect(toGerman.subject).toBe(DEFAULT_TEMPLATES.response_ready.subject)
    // French is not offered: the brand's default (German) instead.
    expect((await mail(french.email, brand.id)).language).toBe('de')
    // No language of their own: the brand's default.
    expect((await mail(unset.email, brand.id)).language).toBe('de')
    // An English brand's employee without a language: English.
    expect((await mail(elsewhere.email, plain.id)).language).toBe('en')
    // An address with the mixed case a caller may pass finds the account.
    expect((await mail(german.email.toUpperCase(), brand.id)).language).toBe('de')

    preview('de,fr')
    expect((await mail(french.email, brand.id)).language).toBe('fr')
  })

  test('a colleague without an account, or without a language, reads the inviting employee’s brand’s default', async () => {
    preview('de')
    const brand = await createBrand({ defaultLanguage: 'de' })
    const colleague = await createUser({ email: address(), role: 'colleague', companyId: null })
    expect((await mail(address(), brand.id)).language).toBe('de')
    expect((await mail(colleague.email, brand.id)).language).toBe('de')
    // A colleague who chose English keeps it.
    const english = await createUser({ email: address(), role: 'colleague', companyId: null, language: 'en' })
    expect((await mail(english.email, brand.id)).language).toBe('en')
    // No brand at all (an admin's message): English.
    expect((await mail(address(), null)).language).toBe('en')
  })
})

describe('the version that words it', () => {
  test('falls back brand × language, brand × brand default, brand × English, then the install default in that order', async () => {
    preview('fr')
    const key = 'reminder'
    const brand = await createBrand({ defaultLanguage: 'de' })
    const company = await createCompany({ brandId: brand.id })
    const reader = await createUser({ email: address(), companyId: company.id, language: 'fr' })
    const send = async (to = reader.email, brandId = brand.id) => {
      const { id } = await enqueueEmail(db(), {
        to,
        template: key,
        brandId,
        values: { link: 'https://x.test/a' },
      })
      return (await sent(id)).subject
    }
    // Nothing of the brand's, no French or German default: the English default.
    expect(await send()).toBe(DEFAULT_TEMPLATES.reminder.subject)
    await version(key, null, 'de', 'install de')
    expect(await send()).toBe('install de')
    await version(key, null, 'fr', 'install fr')
    expect(await send()).toBe('install fr')
    // Any version of the brand's wins over the install's.
    await version(key, brand.id, 'en', 'brand en')
    expect(await send()).toBe('brand en')
    await version(key, brand.id, 'de', 'brand de')
    expect(await send()).toBe('brand de')
    await version(key, brand.id, 'fr', 'brand fr')
    expect(await send()).toBe('brand fr')
    // French no longer offered: the reader falls to the brand's default language, German.
    preview(null)
    expect(await send()).toBe('brand de')
    // Neither the reader's language nor the brand's offered: English, the brand's own.
    const french = await createBrand({ defaultLanguage: 'fr' })
    const frenchReader = await createUser({
      email: address(),
      companyId: (await createCompany({ brandId: french.id })).id,
      language: 'fr',
    })
    await version(key, french.id, 'fr', 'french brand fr')
    await version(key, french.id, 'en', 'french brand en')
    expect(await send(frenchReader.email, french.id)).toBe('french brand en')
  })

  test('dates are written in the message’s language, and the frame’s words and lang follow it', async () => {
    preview('de')
    const brand = await createBrand({ defaultLanguage: 'de' })
    const at = new Date('2026-06-30T22:59:00Z')
    const messages = [address(), address()]
    await createUser({ email: messages[1]!, role: 'colleague', companyId: null, language: 'en' })
    await enqueueEmails(
      db(),
      messages.map((to) => ({
        to,
        template: 'colleague_invite' as const,
        brandId: brand.id,
        values: { link: 'https://x.test/i', employeeName: 'Erin', colleagueName: 'Kim', dueDate: 'ignored' },
        dates: { dueDate: { at, timeZone: 'Europe/Berlin' } },
      })),
    )
    const [de] = await db().select().from(emailOutbox).where(eq(emailOutbox.recipient, messages[0]!))
    const [en] = await db().select().from(emailOutbox).where(eq(emailOutbox.recipient, messages[1]!))
    // No German version of the invitation installed here: English wording, German frame and date.
    expect(de!.language).toBe('de')
    expect(de!.text).toContain('1. Juli 2026')
    expect(de!.html).toContain('<html lang="de">')
    expect(de!.html).toContain('Feedback geben')
    expect(de!.html).toContain('Gesendet im Auftrag von')
    expect(en!.language).toBe('en')
    expect(en!.text).toContain('1 July 2026')
    expect(en!.html).toContain('<html lang="en">')
  })

  test('a German e-mail is delivered through SMTP, in German', async () => {
    preview('de')
    await db()
      .insert(emailTemplates)
      .values({ key: 'reset_password', brandId: null, language: 'de', ...GERMAN_TEMPLATES.reset_password })
      .onConflictDoNothing()
    const reader = await createUser({ email: address(), language: 'de' })
    await db().delete(emailOutbox)
    catcher.messages.length = 0
    await enqueueEmail(db(), {
      to: reader.email,
      template: 'reset_password',
      values: { link: 'https://x.test/reset', recipientName: 'Jonas' },
    })
    expect((await processOutboxOnce({ transport, mailFrom: 'Panorama <mail@panorama.test>' })).sent).toBe(1)
    const caught = await catcher.waitFor((m) => m.to.includes(reader.email))
    expect(caught.subject).toBe('Setzen Sie Ihr Passwort für das Feedback-Portal von Panorama zurück')
    expect(caught.text).toContain('Guten Tag Jonas,')
    expect(caught.html).toContain('Neues Passwort wählen')
  })
})

describe('the seeded German copy', () => {
  test('every key has one, with the English copy’s placeholders', () => {
    const names = (text: string) => [...new Set([...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]))].sort()
    for (const key of TEMPLATE_KEYS) {
      const en = DEFAULT_TEMPLATES[key]
      const de = GERMAN_TEMPLATES[key]
      expect(names(de.subject + de.body), key).toEqual(names(en.subject + en.body))
      expect(de.subject, key).not.toBe(en.subject)
    }
  })
})

describe('the editor', () => {
  const LIST = '/admin/email-management'
  const decode = (html: string) =>
    html
      .replace(/<!-- -->/g, '')
      .replace(/&#x27;|&#39;/g, "'")
      .replace(/&quot;/g, '"')
      .replace(/&amp;/g, '&')

  test('adds a German version, edits it alone, shows it in the list, and deletes it; English stays', async () => {
    preview('de')
    const brand = await createBrand()
    const id = `programme_open.${brand.id}`
    const added = await post(`${LIST}/${id}`, { intent: 'add-language', language: 'de' })
    expect(added.status).toBe(302)
    expect(added.headers.get('location')).toBe(`${LIST}/${id}?language=de`)
    const page = decode(await (await get(`${LIST}/${id}?language=de`)).text())
    expect(page).toContain('Wording · German')
    // Started from the shipped German copy.
    expect(page).toContain(GERMAN_TEMPLATES.programme_open.subject)
    expect(page).toContain('Delete the German version')

    // Saving the German version leaves English alone.
    const saved = await post(`${LIST}/${id}?language=de`, {
      intent: 'save',
      language: 'de',
      subject: 'Ihr Programm {{schemeName}} beginnt',
      body: 'Guten Tag {{recipientName}},\n\n{{link}}',
      html: '',
    })
    expect(saved.status).toBe(302)
    const rows = await db()
      .select({ language: emailTemplates.language, subject: emailTemplates.subject })
      .from(emailTemplates)
      .where(and(eq(emailTemplates.key, 'programme_open'), eq(emailTemplates.brandId, brand.id)))
    expect(rows).toEqual([{ language: 'de', subject: 'Ihr Programm {{schemeName}} beginnt' }])

    // The list shows the brand's languages.
    const list = decode(await (await get(`${LIST}?brand=${brand.id}`)).text())
    expect(list).toContain(`${LIST}/${id}?language=de`)
    expect(list).toContain('Programme opens for ' + brand.name + ', German version')

    // A duplicate is refused with a clear message.
    const again = await post(`${LIST}/${id}`, { intent: 'add-language', language: 'de' })
    expect(again.status).toBe(400)
    expect(decode(await again.text())).toContain('This e-mail already has a German version.')

    // Delete it: the German readers fall back; audited.
    const deleted = await post(`${LIST}/${id}?language=de`, { intent: 'delete-language', language: 'de' })
    expect(deleted.status).toBe(302)
    expect(
      await db()
        .select()
        .from(emailTemplates)
        .where(and(eq(emailTemplates.key, 'programme_open'), eq(emailTemplates.brandId, brand.id))),
    ).toEqual([])
    const [audit] = await db().select().from(auditLog).where(eq(auditLog.action, 'email_template.delete'))
    expect(audit!.details).toMatchObject({ key: 'programme_open', brandId: brand.id, language: 'de' })
  })

  test('bad input is refused clearly, never with a 500', async () => {
    preview('de')
    const id = 'nomination_reminder'
    // An unknown or unoffered language to add.
    for (const language of ['xx', 'fr', '']) {
      const r = await post(`${LIST}/${id}`, { intent: 'add-language', language })
      expect(r.status, language).toBe(400)
      expect(decode(await r.text())).toContain(LANGUAGE_VERSION_MESSAGES.unknown)
    }
    // The install default's English version exists always: adding it is a duplicate.
    const english = await post(`${LIST}/${id}`, { intent: 'add-language', language: 'en' })
    expect(english.status).toBe(400)
    expect(decode(await english.text())).toContain('This e-mail already has a English version.')
    // Deleting English is refused.
    const del = await post(`${LIST}/${id}`, { intent: 'delete-language', language: 'en' })
    expect(del.status).toBe(400)
    expect(decode(await del.text())).toContain(LANGUAGE_VERSION_MESSAGES.englishKept)
    const [defaultEnglish] = await db()
      .select()
      .from(emailTemplates)
      .where(
        and(
          eq(emailTemplates.key, 'nomination_reminder'),
          isNull(emailTemplates.brandId),
          eq(emailTemplates.language, 'en'),
        ),
      )
    expect(defaultEnglish).toBeDefined()
    // Deleting a version that does not exist; saving with an unknown language.
    const missing = await post(`${LIST}/${id}?language=de`, { intent: 'delete-language', language: 'de' })
    expect(missing.status).toBe(400)
    expect(decode(await missing.text())).toContain(LANGUAGE_VERSION_MESSAGES.missing)
    const unknown = await post(`${LIST}/${id}`, {
      intent: 'save',
      language: 'klingon',
      subject: 'Hallo',
      body: 'Hallo\n\n{{link}}',
      html: '',
    })
    expect(unknown.status).toBe(400)
    expect(decode(await unknown.text())).toContain(LANGUAGE_VERSION_MESSAGES.unknown)
    // A too-long subject in a German version.
    const long = await post(`${LIST}/${id}?language=de`, {
      intent: 'save',
      language: 'de',
      subject: 'x'.repeat(201),
      body: 'Hallo\n\n{{link}}',
      html: '',
    })
    expect(long.status).toBe(400)
    expect(decode(await long.text())).toContain('The subject must be 200 characters or fewer.')
    // An unknown language in the address is a 404, not a 500.
    expect((await get(`${LIST}/${id}?language=xx`)).status).toBe(404)
  })

  test('the outbox shows a message’s language', async () => {
    preview('de')
    const reader = await createUser({ email: address(), language: 'de' })
    const row = await mail(reader.email, null)
    const page = decode(await (await get(`${LIST}/outbox/${row.id}`)).text())
    expect(page).toContain('Language')
    expect(page).toContain('German')
  })
})
