import { beforeAll, describe, expect, test } from 'vitest'
import { createCompany, createScheme, createUser, enrolEmployee } from '#db/factories'
import { formatDate } from '#app/lib/dates'
import { useTestDatabase } from '#tests/support/database'
import { client, send, sessionCookieFor, useTestServer } from '#tests/support/app'
import { fieldErrors, textOf, titleOf } from '#tests/integration/auth/helpers'
import { usePreviewLanguages } from '#tests/support/languages'

/**
 * The back office's employees (list, employee page, CSV import) in the reader's language (issue 20
 * §3, ADR 050/052): German through LANGUAGES_PREVIEW for an admin who chose it, with its dates, a
 * form's message, a row problem of an import and toasts; English unchanged without it.
 */

useTestDatabase()
const server = useTestServer()

const preview = usePreviewLanguages(server)

const PAGE = '/admin/employee-management'
const closesAt = new Date('2031-06-30T12:00:00Z')
let cookie = ''
let company = { id: '', name: '' }
let employee = { id: '' }

beforeAll(async () => {
  const admin = await createUser({ role: 'admin', displayName: 'Dora Deutsch', language: 'de' })
  cookie = await sessionCookieFor(admin.id)
  company = await createCompany({ name: 'Firma Eins' })
  const manager = await createUser({ displayName: 'Max Muster', companyId: company.id })
  employee = await createUser({
    displayName: 'Erika Beispiel',
    companyId: company.id,
    managerId: manager.id,
  })
  const scheme = await createScheme({
    companyId: company.id,
    name: 'Frühjahr',
    closesAt,
    timeZone: 'Europe/Berlin',
  })
  await enrolEmployee(scheme, employee.id)
})

const admin$ = client(server, () => cookie)
const page = async (path: string) => {
  const response = await send(server, path, { cookie })
  expect(response.status).toBe(200)
  return response.text()
}
const langOf = (html: string) => /<html lang="([^"]*)"/.exec(html)?.[1]

function upload(content: string) {
  const form = new FormData()
  form.append('intent', 'upload')
  form.append('file', new Blob([content]), 'leute.csv')
  return send(server, PAGE, { form, cookie })
}

describe('in German (previewed, the admin’s own choice)', () => {
  test('the list: words, title, <html lang>, states', async () => {
    preview('de')
    const html = await page(PAGE)
    expect(langOf(html)).toBe('de')
    expect(titleOf(html)).toBe('Mitarbeiterverwaltung · Panorama admin')
    const text = textOf(html)
    expect(text).toContain('Mitarbeiterin oder Mitarbeiter hinzufügen')
    expect(text).toContain('Aus einer CSV-Datei importieren')
    expect(text).toContain('Berichtet an')
    expect(text).toContain('Eingeladen')
    expect(text).not.toContain('Add an employee')
  })

  test('the employee page: reporting line, schemes, a date in German', async () => {
    preview('de')
    const html = await page(`${PAGE}/${employee.id}`)
    expect(titleOf(html)).toBe('Erika Beispiel · Mitarbeitende · Panorama admin')
    const text = textOf(html)
    expect(text).toContain('Berichtslinie')
    expect(text).toContain('Berichtet an Max Muster')
    expect(text).toContain('Selbsteinschätzung')
    expect(text).toContain(`endet am ${formatDate(closesAt, 'Europe/Berlin', 'de-DE')}`)
    expect(text).toContain('30. Juni 2031')
    expect(text).toContain('Niemand hat Erika Beispiel um Feedback gebeten.')
  })

  test('a form message, a refusal with a name and a toast', async () => {
    preview('de')
    const empty = await admin$.post(PAGE, {
      intent: 'create',
      name: '',
      email: 'neu@example.com',
      companyId: company.id,
    })
    expect(fieldErrors(await empty.text(), 'name')).toEqual(['Geben Sie den Namen der Person ein.'])
    const unknownManager = await admin$.post(PAGE, {
      intent: 'create',
      name: 'Nina Neu',
      email: 'nina.neu@example.com',
      companyId: company.id,
      managerEmail: 'niemand@example.com',
    })
    expect(fieldErrors(await unknownManager.text(), 'managerEmail')).toEqual([
      'Niemand bei Firma Eins hat diese Adresse. Die Führungskraft muss im selben Unternehmen beschäftigt sein.',
    ])
    const created = await admin$.post(PAGE, {
      intent: 'create',
      name: 'Nina Neu',
      email: 'nina.neu@example.com',
      companyId: company.id,
    })
    const after = textOf(await admin$.follow(created))
    expect(after).toContain('Mitarbeiterin/Mitarbeiter hinzugefügt')
    expect(after).toContain('Nina Neu wurde hinzugefügt.')
  })

  test('an import with a problem, its toast and preview', async () => {
    preview('de')
    const uploaded = await upload(
      'name,email,company\nAnna Alt,anna.alt@example.com,Firma Eins\n,ohne.name@example.com,Firma Eins\n',
    )
    expect(uploaded.status).toBe(302)
    const text = textOf(await admin$.follow(uploaded))
    expect(text).toContain('Datei gelesen')
    expect(text).toContain('2 Zeilen, 1 mit einem Problem.')
    expect(text).toContain('Vorschau von „leute.csv“')
    expect(text).toContain('Der Name fehlt.')
    expect(text).toContain('1 × Name fehlt')
    expect(text).toContain('1 Person importieren')
  })
})

describe('in English (the admin chose French, which is not shipped)', () => {
  test('the same pages read as before', async () => {
    // The last test of the file: from here on the pages are read by a French-speaking admin.
    cookie = await sessionCookieFor((await createUser({ role: 'admin', language: 'fr' })).id)
    const list = await page(PAGE)
    expect(langOf(list)).toBe('en')
    expect(titleOf(list)).toBe('Employee management · Panorama admin')
    expect(textOf(list)).toContain('Add an employee')
    expect(textOf(list)).toContain('Import from a CSV file')
    const text = textOf(await page(`${PAGE}/${employee.id}`))
    expect(text).toContain('Reports to Max Muster')
    expect(text).toContain(`closes ${formatDate(closesAt, 'Europe/Berlin')}`)
    const uploaded = await upload('name,email,company\n,ohne.name.en@example.com,Firma Eins\n')
    const preview = textOf(await admin$.follow(uploaded))
    expect(preview).toContain('1 row, 1 with a problem. Check the preview, then import.')
    expect(preview).toContain('The name is missing.')
    expect(preview).toContain('1 × name missing')
  })
})
