import { and, eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { auditLog, brands, users } from '#db/schema/index'
import { createBrand, createCompany, createUser } from '#db/factories'
import { AUTH_ERROR_MESSAGES } from '#app/modules/auth/errors'
import { LANGUAGE_NOT_OFFERED } from '#app/modules/i18n/languages'
import { useTestDatabase } from '#tests/support/database'
import { cookiesFrom, location, send, sessionCookieFor, useTestServer } from '#tests/support/app'
import { fieldErrors, postSignIn, textOf, titleOf } from '#tests/integration/auth/helpers'
import { usePreviewLanguages } from '#tests/support/languages'

/**
 * The portal's languages (issue 20 §3, ADR 050) through the built server: which language a page is
 * served in (the user's setting, else the brand's default, else Accept-Language, else English; only
 * shipped languages, or those LANGUAGES_PREVIEW names), <html lang>, the words, the messages the page
 * hands the browser, and the profile's and the brand's language settings.
 */

const db = useTestDatabase()
const server = useTestServer()

/** Ships (for this test) the languages translators would preview: the build reads its variables again. */
const preview = usePreviewLanguages(server)

async function get(path: string, { cookie, accept }: { cookie?: string; accept?: string } = {}) {
  const response = await send(server, path, {
    cookie: cookie ?? null,
    headers: accept ? { 'Accept-Language': accept } : {},
  })
  return { status: response.status, html: await response.text() }
}

const langOf = (html: string) => /<html lang="([^"]*)" dir="(ltr|rtl)"/.exec(html)?.[1]

/** The messages the page hands the browser (i18n boot block). */
function bootOf(html: string) {
  const match = /<script id="i18n-boot" type="application\/json"[^>]*>([\s\S]*?)<\/script>/.exec(html)
  expect(match, 'the page carries its messages').not.toBeNull()
  return JSON.parse(match![1]!) as {
    lng: string
    ns: string[]
    resources: Record<string, Record<string, unknown>>
  }
}

describe('the sign-in page', () => {
  test('is English for a browser asking for a language not shipped (French, in preview only)', async () => {
    const { status, html } = await get('/sign-in', { accept: 'fr-FR,fr;q=0.9' })
    expect(status).toBe(200)
    expect(langOf(html)).toBe('en')
    expect(titleOf(html)).toBe('Sign In')
    expect(textOf(html)).toContain('Welcome back. Sign in to see your feedback.')
    expect(textOf(html)).not.toContain('Bon retour')
    // Only the page's namespaces, in its language alone.
    const boot = bootOf(html)
    expect(boot.lng).toBe('en')
    expect(boot.ns.sort()).toEqual(['auth', 'common'])
    expect(Object.keys(boot.resources)).toEqual(['en'])
  })

  test('is German, with <html lang="de">, German being shipped, when the browser asks for it', async () => {
    const { html } = await get('/sign-in', { accept: 'de-DE,de;q=0.9,en;q=0.5' })
    expect(langOf(html)).toBe('de')
    expect(titleOf(html)).toBe('Anmelden')
    const text = textOf(html)
    expect(text).toContain('Willkommen zurück. Melden Sie sich an, um Ihr Feedback zu sehen.')
    expect(text).toContain('Passwort vergessen?')
    expect(text).toContain('Zum Inhalt springen')
    expect(text).not.toContain('Welcome back')
    // A shipped language has every key: it alone reaches the browser.
    expect(bootOf(html).lng).toBe('de')
    expect(Object.keys(bootOf(html).resources)).toEqual(['de'])
    // A language in preview carries English beneath it, for the keys it may still lack.
    preview('fr')
    const french = bootOf((await get('/sign-in', { accept: 'fr' })).html)
    expect(french.lng).toBe('fr')
    expect(Object.keys(french.resources).sort()).toEqual(['en', 'fr'])
  })

  test('follows the q-values, a region falling back to its language, and English for anything else', async () => {
    preview('de,fr')
    expect(langOf((await get('/sign-in', { accept: 'fr;q=0.5, de-AT;q=0.9' })).html)).toBe('de')
    expect(langOf((await get('/sign-in', { accept: 'fr-CA' })).html)).toBe('fr')
    expect(textOf((await get('/sign-in', { accept: 'fr-CA' })).html)).toContain('Mot de passe oublié ?')
    expect(langOf((await get('/sign-in', { accept: 'es, it;q=0.8' })).html)).toBe('en')
    expect(langOf((await get('/sign-in')).html)).toBe('en')
  })

  test('a refused sign-in says why in the page’s language; in English, the wording modules export', async () => {
    const employee = await createUser({ role: 'employee' })
    preview('de')
    const german = await postSignIn(
      server,
      { email: employee.email, password: 'not the password' },
      { headers: { 'Accept-Language': 'de' } },
    )
    expect(textOf(await german.text())).toContain(
      'Diese E-Mail-Adresse und dieses Passwort passen zu keinem Konto.',
    )
    const english = await postSignIn(server, { email: employee.email, password: 'not the password' })
    expect(textOf(await english.text())).toContain(AUTH_ERROR_MESSAGES['auth/invalid-credential'])
  })

  test('a form’s own messages (Zod’s, answered in English) show in the page’s language, numbers kept', async () => {
    const employee = await createUser({ role: 'employee' })
    preview('de,fr')
    const headers = { 'Accept-Language': 'de' }
    const empty = await postSignIn(server, { email: employee.email, password: '' }, { headers })
    expect(fieldErrors(await empty.text(), 'password')).toEqual(['Geben Sie Ihr Passwort ein.'])
    const french = await postSignIn(
      server,
      { email: 'not an address', password: 'x' },
      { headers: { 'Accept-Language': 'fr' } },
    )
    expect(fieldErrors(await french.text(), 'email')).toEqual(['Saisissez une adresse e-mail valide.'])
    const english = await postSignIn(server, { email: employee.email, password: '' })
    expect(fieldErrors(await english.text(), 'password')).toEqual(['Enter your password.'])
  })

  test('the single sign-on failure page speaks the same language', async () => {
    preview('de')
    const { status, html } = await get('/sign-in/sso/callback?state=forged&code=x', { accept: 'de' })
    expect(status).toBe(400)
    expect(langOf(html)).toBe('de')
    expect(textOf(html)).toContain('Diese Anmeldung ist abgelaufen')
    expect(textOf(html)).toContain('innerhalb von 10 Minuten')
    const english = await get('/sign-in/sso/callback?state=forged&code=x', { accept: 'en' })
    expect(textOf(english.html)).toContain('This sign-in has expired or was already used.')
  })

  test('the e-mail links’ page (reset, one-time sign-in link) speaks it too, its refusals included', async () => {
    preview('de')
    const reset = await get('/verification?mode=resetPassword', { accept: 'de' })
    expect(langOf(reset.html)).toBe('de')
    expect(titleOf(reset.html)).toBe('Neues Passwort wählen · Panorama')
    expect(textOf(reset.html)).toContain('Dieser Link ist abgelaufen oder wurde schon verwendet.')
    expect(textOf(reset.html)).toContain('einen neuen Link für ein Passwort anfordern')
    const link = await get('/verification?mode=signIn', { accept: 'de' })
    expect(textOf(link.html)).toContain('Ein Anmeldelink gilt einmal, für 15 Minuten.')
    // Its own messages only: not the sign-in page's.
    expect(bootOf(link.html).ns.sort()).toEqual(['common', 'verification'])
    const english = await get('/verification?mode=signIn', { accept: 'en' })
    expect(textOf(english.html)).toContain(AUTH_ERROR_MESSAGES['auth/expired-action-code'])
    expect(textOf(english.html)).toContain('A sign-in link works once, for 15 minutes.')
  })

  test('the landing page hands the browser the chrome’s messages and its own only', async () => {
    const boot = bootOf((await get('/')).html)
    expect(boot.ns.sort()).toEqual(['common', 'landing'])
    expect(Object.keys(boot.resources.en!).sort()).toEqual(['common', 'landing'])
  })
})

describe('the order: the user’s setting, the brand’s default, Accept-Language', () => {
  async function employeeOf(brandLanguage: 'en' | 'de' | 'fr', language: 'en' | 'de' | 'fr' | null) {
    const brand = await createBrand({ defaultLanguage: brandLanguage })
    const company = await createCompany({ brandId: brand.id })
    const user = await createUser({ role: 'employee', companyId: company.id, language })
    return { user, cookie: await sessionCookieFor(user.id) }
  }

  test('the user’s own language wins over the brand’s and the browser’s', async () => {
    preview('de,fr')
    const { cookie } = await employeeOf('fr', 'de')
    const { html } = await get('/no-such-page', { cookie, accept: 'fr' })
    expect(langOf(html)).toBe('de')
    expect(textOf(html)).toContain('Seite nicht gefunden')
    expect(titleOf(html)).toBe('Seite nicht gefunden · Panorama')
  })

  test('without one, the brand’s default wins over the browser’s', async () => {
    preview('de,fr')
    const { cookie } = await employeeOf('fr', null)
    const { html } = await get('/no-such-page', { cookie, accept: 'de' })
    expect(langOf(html)).toBe('fr')
    expect(textOf(html)).toContain('Page introuvable')
  })

  test('a stored language that is not offered is passed over for the next rule', async () => {
    preview('fr')
    const { cookie } = await employeeOf('de', 'fr')
    expect(langOf((await get('/no-such-page', { cookie, accept: 'en' })).html)).toBe('fr')
    preview(null)
    // French is not shipped: the brand's German is next.
    expect(langOf((await get('/no-such-page', { cookie, accept: 'en' })).html)).toBe('de')
    // With neither setting offered, the browser's; and at last English.
    const other = await employeeOf('fr', 'fr')
    expect(langOf((await get('/no-such-page', { cookie: other.cookie, accept: 'fr, de;q=0.5' })).html)).toBe(
      'de',
    )
    expect(langOf((await get('/no-such-page', { cookie: other.cookie, accept: 'fr' })).html)).toBe('en')
  })

  test('an admin (no brand) follows their setting, else the browser', async () => {
    preview('de,fr')
    const admin = await createUser({ role: 'admin' })
    const cookie = await sessionCookieFor(admin.id)
    expect(langOf((await get('/no-such-page', { cookie, accept: 'fr' })).html)).toBe('fr')
    await db().update(users).set({ language: 'de' }).where(eq(users.id, admin.id))
    expect(langOf((await get('/no-such-page', { cookie, accept: 'fr' })).html)).toBe('de')
  })
})

describe('the profile’s language', () => {
  const PAGE = '/user/edit-profile'
  const post = (cookie: string, language: string) =>
    send(server, PAGE, { cookie, form: { intent: 'language', language } })

  test('offers the shipped languages and "Use the default"; a language not offered is refused in words', async () => {
    const company = await createCompany()
    const user = await createUser({ role: 'employee', companyId: company.id })
    const cookie = await sessionCookieFor(user.id)
    const { html } = await get(PAGE, { cookie })
    const select = /<select[^>]*name="language"[\s\S]*?<\/select>/.exec(html)![0]
    expect([...select.matchAll(/<option value="([^"]*)"/g)].map((m) => m[1])).toEqual(['', 'en', 'de'])
    expect(textOf(select)).toContain('Use the default')

    for (const bad of ['fr', 'xx', 'en; DROP TABLE users']) {
      const refused = await post(cookie, bad)
      expect(refused.status).toBe(400)
      expect(fieldErrors(await refused.text(), 'language')).toEqual([LANGUAGE_NOT_OFFERED])
    }
    expect((await db().select().from(users).where(eq(users.id, user.id)))[0]!.language).toBeNull()
  })

  test('saves an offered language (audited) and serves the pages in it; blank goes back to the default', async () => {
    const company = await createCompany()
    const user = await createUser({ role: 'employee', companyId: company.id })
    const cookie = await sessionCookieFor(user.id)
    const saved = await post(cookie, 'de')
    expect(saved.status).toBe(302)
    expect(location(saved)).toBe(PAGE)
    expect((await db().select().from(users).where(eq(users.id, user.id)))[0]!.language).toBe('de')
    const audit = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityId, user.id), eq(auditLog.action, 'user.language_changed')))
    expect(audit).toHaveLength(1)
    const { html } = await get(PAGE, { cookie: cookiesFrom(saved, cookie), accept: 'en' })
    expect(langOf(html)).toBe('de')

    expect((await post(cookie, '')).status).toBe(302)
    expect((await db().select().from(users).where(eq(users.id, user.id)))[0]!.language).toBeNull()
  })

  test('an admin’s profile has it too', async () => {
    const admin = await createUser({ role: 'admin' })
    const cookie = await sessionCookieFor(admin.id)
    const { html } = await get('/admin/profile', { cookie })
    expect(html).toMatch(/<select[^>]*name="language"/)
    const refused = await send(server, '/admin/profile', {
      cookie,
      form: { intent: 'language', language: 'fr' },
    })
    expect(refused.status).toBe(400)
    expect(fieldErrors(await refused.text(), 'language')).toEqual([LANGUAGE_NOT_OFFERED])
    expect(
      (await send(server, '/admin/profile', { cookie, form: { intent: 'language', language: 'en' } })).status,
    ).toBe(302)
    expect((await db().select().from(users).where(eq(users.id, admin.id)))[0]!.language).toBe('en')
  })
})

describe('the brand’s default language', () => {
  test('is chosen among the languages offered; another is refused beside the field', async () => {
    const admin = await createUser({ role: 'admin' })
    const cookie = await sessionCookieFor(admin.id)
    const brand = await createBrand()
    const PAGE = `/admin/brand-management/${brand.id}`
    const form = (defaultLanguage: string) => ({
      intent: 'update',
      name: brand.name,
      primaryColor: brand.primaryColor,
      accentColor: brand.accentColor,
      defaultLanguage,
    })
    const { html } = await get(PAGE, { cookie })
    expect(textOf(html)).toContain('Default language')

    for (const bad of ['fr', 'klingon']) {
      const refused = await send(server, PAGE, { cookie, form: form(bad) })
      expect(refused.status).toBe(400)
      expect(fieldErrors(await refused.text(), 'defaultLanguage')).toEqual([LANGUAGE_NOT_OFFERED])
    }
    expect((await db().select().from(brands).where(eq(brands.id, brand.id)))[0]!.defaultLanguage).toBe('en')

    expect((await send(server, PAGE, { cookie, form: form('de') })).status).toBe(302)
    expect((await db().select().from(brands).where(eq(brands.id, brand.id)))[0]!.defaultLanguage).toBe('de')
  })

  test('the database refuses a language it does not know, whatever the code does', async () => {
    await expect(createBrand({ defaultLanguage: 'xx' })).rejects.toThrow()
    await expect(createUser({ role: 'admin', language: 'xx' })).rejects.toThrow()
  })
})
