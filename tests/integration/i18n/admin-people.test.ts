import { beforeAll, describe, expect, test } from 'vitest'
import { createBrand, createCompany, createScheme, createUser } from '#db/factories'
import { formatDateTime } from '#app/lib/dates'
import { useTestDatabase } from '#tests/support/database'
import { client, send, sessionCookieFor, useTestServer } from '#tests/support/app'
import { fieldErrors, textOf, titleOf } from '#tests/integration/auth/helpers'
import { usePreviewLanguages } from '#tests/support/languages'
import { getDb } from '#db/client'
import { auditLog } from '#db/schema/index'

/**
 * The back office's people and organisations pages (dashboard, companies, brands, administrators,
 * identity providers, the admin's profile) in the reader's language (issue 20 §3, ADR 050/052):
 * German through LANGUAGES_PREVIEW for an admin who chose it, with its dates, forms' messages,
 * refusals with names and toasts; English unchanged without it.
 */

useTestDatabase()
const server = useTestServer()

const preview = usePreviewLanguages(server)

let cookie = ''
let adminId = ''
let brand = { id: '', name: '' }
const closesAt = new Date('2031-06-30T12:00:00Z')

beforeAll(async () => {
  const admin = await createUser({ role: 'admin', displayName: 'Dora Deutsch', language: 'de' })
  adminId = admin.id
  cookie = await sessionCookieFor(admin.id)
  brand = await createBrand({ name: 'Marke Eins' })
  const company = await createCompany({ name: 'Firma Eins', brandId: brand.id })
  await createScheme({ companyId: company.id, name: 'Frühjahr', closesAt, timeZone: 'Europe/Berlin' })
})

const admin$ = client(server, () => cookie)
const page = async (path: string, as = cookie) => {
  const response = await send(server, path, { cookie: as })
  expect(response.status).toBe(200)
  return response.text()
}
const langOf = (html: string) => /<html lang="([^"]*)"/.exec(html)?.[1]

describe('in German (previewed, the admin’s own choice)', () => {
  test('the dashboard: words, title, <html lang>, a date in German', async () => {
    preview('de')
    const html = await page('/admin')
    expect(langOf(html)).toBe('de')
    expect(titleOf(html)).toBe('Übersicht · Panorama admin')
    const text = textOf(html)
    expect(text).toContain('Laufende Programme')
    expect(text).toContain('Abgegebene Selbsteinschätzungen')
    expect(text).toContain(`endet am ${formatDateTime(closesAt, 'Europe/Berlin', 'de-DE')}`)
    expect(text).toContain('30. Juni 2031')
    expect(text).not.toContain('Running programmes')
  })

  test('the dashboard’s activity words the actions English shows as their code', async () => {
    preview('de')
    await getDb()
      .insert(auditLog)
      .values([
        { actorId: adminId, action: 'user.language_changed', entity: 'user', entityId: adminId },
        { actorId: null, action: 'scheme.close', entity: 'scheme', entityId: null },
      ])
    const text = textOf(await page('/admin'))
    expect(text).toContain('Dora Deutsch hat die eigene Sprache geändert')
    expect(text).toContain('Das System hat ein Programm geschlossen')
    expect(text).not.toContain('user: language changed')
    expect(text).not.toContain('scheme: close')
  })

  test('the companies page: its words, a form message, a refusal with a name, a toast', async () => {
    preview('de')
    const text = textOf(await page('/admin/company-management'))
    expect(text).toContain('Unternehmen hinzufügen')
    expect(text).toContain('Name des Unternehmens')
    const empty = await admin$.post('/admin/company-management', {
      intent: 'create',
      name: '',
      brandId: brand.id,
    })
    expect(fieldErrors(await empty.text(), 'name')).toEqual(['Geben Sie den Namen des Unternehmens ein.'])
    const taken = await admin$.post('/admin/company-management', {
      intent: 'create',
      name: 'Firma Eins',
      brandId: brand.id,
    })
    expect(fieldErrors(await taken.text(), 'name')).toEqual([
      'Ein Unternehmen namens „Firma Eins“ gibt es bereits. Wählen Sie einen anderen Namen.',
    ])
    const created = await admin$.post('/admin/company-management', {
      intent: 'create',
      name: 'Firma Zwei',
      brandId: brand.id,
    })
    const after = textOf(await admin$.follow(created))
    expect(after).toContain('Unternehmen angelegt')
    expect(after).toContain('„Firma Zwei“ wurde hinzugefügt.')
  })

  test('brands, administrators, identity providers and the profile', async () => {
    preview('de')
    const brands = textOf(await page('/admin/brand-management'))
    expect(brands).toContain('Marke anlegen')
    expect(textOf(await page(`/admin/brand-management/${brand.id}`))).toContain('Angaben zur Marke')
    const admins = textOf(await page('/admin/admin-management'))
    expect(admins).toContain('Administrator einladen')
    const providers = textOf(await page('/admin/identity-provider-management'))
    expect(providers).toContain('Identitätsanbieter hinzufügen')
    // The name lists' own words: title, caption, the filter's button, a state.
    const companies = textOf(await page('/admin/company-management'))
    expect(companies).toContain('Unternehmen, sortiert nach Name, A bis Z')
    expect(brands).toContain('Alle Marken')
    expect(brands).toContain('Marken, sortiert nach Name, A bis Z')
    expect(admins).toContain('Administratoren, sortiert nach Name, A bis Z')
    expect(admins).toContain('Aktiv')
    expect(providers).toContain('Alle Identitätsanbieter')
    for (const text of [companies, brands, admins, providers]) {
      expect(text).toContain('Anzeigen')
      expect(text).not.toMatch(/\b(Show|Active|Invited|Companies|Brands|Administrators|identity providers)\b/)
    }
    const profile = await page('/admin/profile')
    expect(titleOf(profile)).toBe('Ihr Profil · Panorama')
    expect(textOf(profile)).toContain('Ihr Name erscheint in der Kopfzeile')
  })
})

describe('in English (the admin chose French, which is not shipped)', () => {
  test('the same pages read as before', async () => {
    const french = await sessionCookieFor((await createUser({ role: 'admin', language: 'fr' })).id)
    const dashboard = await page('/admin', french)
    expect(langOf(dashboard)).toBe('en')
    expect(titleOf(dashboard)).toBe('Dashboard · Panorama admin')
    expect(textOf(dashboard)).toContain('Running programmes')
    expect(textOf(dashboard)).toContain(`closes ${formatDateTime(closesAt, 'Europe/Berlin')}`)
    expect(textOf(await page('/admin/company-management', french))).toContain('Add a company')
    expect(textOf(await page('/admin/brand-management', french))).toContain('Create a brand')
    expect(textOf(await page('/admin/admin-management', french))).toContain('Invite an administrator')
    expect(textOf(await page('/admin/identity-provider-management', french))).toContain(
      'Add an identity provider',
    )
    expect(textOf(await page('/admin/profile', french))).toContain('Your name appears in the header')
  })
})
