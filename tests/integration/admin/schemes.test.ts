import { and, eq, sql } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'
import { auditLog, schemes } from '#db/schema/index'
import {
  createCompany,
  createQuestionnaire,
  createRaterAssignment,
  createResponse,
  createScheme,
  createUser,
  enrolEmployee,
} from '#db/factories'
import { useTestDatabase } from '#tests/support/database'
import { client, cookiesFrom, location, send, signedIn, useTestServer } from '#tests/support/app'
import { textOf } from '#tests/integration/auth/helpers'

/**
 * The schemes list and the create form, through the real HTTP stack (the production build): the
 * empty install's first steps, the list's phase, company, dates and progress, search, filters,
 * sorts and keyset pages, and every way a new scheme's fields can be wrong.
 */
const db = useTestDatabase()
const server = useTestServer()

const PAGE = '/admin/scheme-management'
const DAY = 24 * 60 * 60 * 1000
let adminCookie = ''
let employeeCookie = ''

beforeAll(async () => {
  adminCookie = (await signedIn({ role: 'admin' })).cookie
  employeeCookie = (await signedIn({ role: 'employee' })).cookie
})

const page = async (path = PAGE) => {
  const response = await send(server, path, { cookie: adminCookie })
  expect(response.status).toBe(200)
  return response.text()
}
const admin = client(server, () => adminCookie)
const post = (form: Record<string, string>, cookie = adminCookie) => admin.post(PAGE, form, cookie)
const countSchemes = async () =>
  (
    await db()
      .select({ n: sql<number>`count(*)::int` })
      .from(schemes)
  )[0]!.n
/** "YYYY-MM-DDTHH:mm" of an instant in UTC, as a datetime-local input sends it. */
const local = (date: Date) => date.toISOString().slice(0, 16)

describe('an empty install', () => {
  test('says what a scheme needs first, with links to where to make it', async () => {
    const html = await page()
    expect(html).toContain('<title>Scheme management · Panorama admin</title>')
    expect(html).toContain('A scheme needs a company and a published questionnaire first')
    expect(html).toMatch(/<a[^>]*href="\/admin\/company-management"[^>]*>Add a company<\/a>/)
    expect(html).toMatch(/<a[^>]*href="\/admin\/questionnaire-management"[^>]*>Publish a questionnaire<\/a>/)
    expect(html).not.toContain('name="intent" value="create"')
  })

  test('with a company but only a draft questionnaire, still asks for a published one', async () => {
    await createCompany({ name: 'First Co' })
    await createQuestionnaire({ title: 'Unfinished', status: 'draft' })
    const html = await page()
    expect(html).not.toContain('>Add a company</a>')
    expect(html).toContain('>Publish a questionnaire</a>')
  })
})

describe('create', () => {
  let company = { id: '' }
  let questionnaire = { id: '' }
  let draftQuestionnaire = { id: '' }
  const valid = () => ({
    intent: 'create',
    name: 'Spring leadership 360',
    companyId: company.id,
    questionnaireId: questionnaire.id,
    timeZone: 'Europe/London',
    opensAt: '2031-06-01T09:00',
    closesAt: '2031-06-30T17:30',
    maxColleagues: '6',
    minRaters: '3',
    reminderCadenceDays: '7',
    reportRelease: 'by_admin',
  })

  beforeAll(async () => {
    company = await createCompany({ name: 'Create Co' })
    questionnaire = await createQuestionnaire({ title: 'Published 360' })
    draftQuestionnaire = await createQuestionnaire({ title: 'Draft 360', status: 'draft' })
  })

  test('the form lists companies and only published questionnaires', async () => {
    const html = await page()
    expect(html).toContain(`<option value="${company.id}">Create Co</option>`)
    expect(html).toContain(`<option value="${questionnaire.id}">Published 360</option>`)
    expect(html).not.toContain(draftQuestionnaire.id)
    expect(html).toMatch(/<label for="create-scheme-timeZone"[^>]*>Time zone<\/label>/)
    expect(html).toContain('type="datetime-local"')
  })

  test('creates a draft with its dates read in its time zone, audits it, and opens its page with a toast', async () => {
    const response = await post(valid())
    expect(response.status).toBe(302)
    const target = location(response)!
    expect(target).toMatch(/^\/admin\/scheme-management\/[0-9a-f-]{36}$/)
    const id = target.split('/').pop()!
    const [row] = await db().select().from(schemes).where(eq(schemes.id, id))
    expect(row).toMatchObject({
      name: 'Spring leadership 360',
      companyId: company.id,
      questionnaireId: questionnaire.id,
      status: 'draft',
      timeZone: 'Europe/London',
      maxColleagues: 6,
      minRaters: 3,
      reminderCadenceDays: 7,
      reportRelease: 'by_admin',
      launchedAt: null,
    })
    // 09:00 in London in June is 08:00 UTC (summer time).
    expect(row!.opensAt.toISOString()).toBe('2031-06-01T08:00:00.000Z')
    expect(row!.closesAt.toISOString()).toBe('2031-06-30T16:30:00.000Z')
    const [audit] = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'scheme'), eq(auditLog.entityId, id)))
    expect(audit).toMatchObject({ action: 'scheme.create' })
    expect(audit!.details).toMatchObject({
      name: 'Spring leadership 360',
      opensAt: '2031-06-01T08:00:00.000Z',
    })
    const next = await send(server, target, { cookie: cookiesFrom(response, adminCookie) })
    const html = await next.text()
    expect(html).toContain('Scheme created')
    expect(html).toContain('1 June 2031 at 09:00 BST')
  })

  test('a zone typed in any case is stored as the runtime spells it', async () => {
    const response = await post({ ...valid(), name: 'Lower-case zone', timeZone: 'america/new_york' })
    expect(response.status).toBe(302)
    const [row] = await db().select().from(schemes).where(eq(schemes.name, 'Lower-case zone'))
    expect(row!.timeZone).toBe('America/New_York')
    expect(row!.opensAt.toISOString()).toBe('2031-06-01T13:00:00.000Z')
  })

  const cases: Array<[string, Record<string, string>, string]> = [
    ['an empty name', { name: '' }, 'Enter the scheme’s name.'],
    ['a name over 120 characters', { name: 'n'.repeat(121) }, 'The name must be 120 characters or fewer.'],
    ['a name with a line break', { name: 'Two\nlines' }, 'Use one line of ordinary text'],
    ['no company', { companyId: '' }, 'Choose the company whose employees take part.'],
    ['a malformed company', { companyId: 'acme' }, 'Choose the company whose employees take part.'],
    [
      'a company that does not exist',
      { companyId: '00000000-0000-4000-8000-000000000000' },
      'That company no longer exists.',
    ],
    ['no questionnaire', { questionnaireId: '' }, 'Choose a published questionnaire.'],
    [
      'a questionnaire that does not exist',
      { questionnaireId: '00000000-0000-4000-8000-000000000000' },
      'That questionnaire is not published',
    ],
    ['an unknown time zone', { timeZone: 'Mars/Olympus_Mons' }, 'Enter a time zone by its IANA name'],
    ['an offset for a zone', { timeZone: '+01:00' }, 'Enter a time zone by its IANA name'],
    ['an abbreviation for a zone', { timeZone: 'BST' }, 'Enter a time zone by its IANA name'],
    ['no time zone', { timeZone: '' }, 'Enter a time zone by its IANA name'],
    ['no opening time', { opensAt: '' }, 'Enter when the scheme opens, as a date and a time.'],
    ['an opening date only', { opensAt: '2031-06-01' }, 'Enter when the scheme opens, as a date and a time.'],
    [
      'an impossible date',
      { opensAt: '2031-02-30T09:00' },
      'Enter when the scheme opens, as a date and a time.',
    ],
    [
      'a junk closing time',
      { closesAt: 'next Friday' },
      'Enter when the scheme closes, as a date and a time.',
    ],
    [
      'a time the clocks skip',
      { opensAt: '2031-03-30T01:30' },
      'That time does not exist in Europe/London: the clocks go forward then.',
    ],
    ['a close before the opening', { closesAt: '2031-05-31T09:00' }, 'The scheme must close after it opens.'],
    [
      'a close equal to the opening',
      { closesAt: '2031-06-01T09:00' },
      'The scheme must close after it opens.',
    ],
    [
      'a close already past',
      {
        opensAt: local(new Date(Date.now() - 10 * DAY)),
        closesAt: local(new Date(Date.now() - DAY)),
        timeZone: 'UTC',
      },
      'That time has already passed.',
    ],
    ['max colleagues 0', { maxColleagues: '0' }, 'Enter a number of colleagues from 1 to 8.'],
    ['max colleagues 9', { maxColleagues: '9' }, 'Enter a number of colleagues from 1 to 8.'],
    ['max colleagues 2.5', { maxColleagues: '2.5' }, 'Enter a number of colleagues from 1 to 8.'],
    ['max colleagues as words', { maxColleagues: 'eight' }, 'Enter a number of colleagues from 1 to 8.'],
    ['min raters 0', { minRaters: '0' }, 'Enter a number of colleagues from 1 to 8.'],
    ['min raters 9', { minRaters: '9' }, 'Enter a number of colleagues from 1 to 8.'],
    ['no min raters', { minRaters: '' }, 'Enter a number of colleagues from 1 to 8.'],
    ['a negative group minimum', { minPeer: '-1' }, 'Enter a number from 0 to 8.'],
    ['a group minimum of 9', { minManager: '9' }, 'Enter a number from 0 to 8.'],
    ['a group minimum in words', { minOther: 'three' }, 'Enter a number from 0 to 8.'],
    [
      'group minimums above the most colleagues',
      { maxColleagues: '6', minManager: '1', minPeer: '3', minDirectReport: '3' },
      'The minimums add up to 7, more than the 6 colleagues each employee may invite.',
    ],
    [
      'a negative reminder cadence',
      { reminderCadenceDays: '-1' },
      'Enter a number of days from 0 (no reminders) to 30.',
    ],
    [
      'a reminder cadence of 31',
      { reminderCadenceDays: '31' },
      'Enter a number of days from 0 (no reminders) to 30.',
    ],
    [
      'an unknown report release',
      { reportRelease: 'never' },
      'Choose when the reports show colleagues’ answers.',
    ],
  ]
  test.each(cases)(
    'refuses %s with a message beside the field and writes nothing',
    async (_label, overrides, message) => {
      const before = await countSchemes()
      const response = await post({ ...valid(), ...overrides })
      expect(response.status).toBe(400)
      const html = await response.text()
      expect(html).toContain(message)
      expect(html).toContain('aria-invalid="true"')
      expect(await countSchemes()).toBe(before)
    },
  )

  test('stores the minimums per group (absent ones as 0) and audits them with the rest', async () => {
    const response = await post({ ...valid(), name: 'Minimums 360', minManager: '1', minPeer: '3' })
    expect(response.status).toBe(302)
    const id = location(response)!.split('/').pop()!
    const [row] = await db().select().from(schemes).where(eq(schemes.id, id))
    expect(row).toMatchObject({ minManager: 1, minPeer: 3, minDirectReport: 0, minOther: 0 })
    expect(await page(`${PAGE}/${id}`)).toContain('Manager 1 · Peers 3')
  })

  test('refuses a questionnaire that is not published', async () => {
    const before = await countSchemes()
    const response = await post({ ...valid(), questionnaireId: draftQuestionnaire.id })
    expect(response.status).toBe(400)
    expect(await response.text()).toContain('That questionnaire is not published')
    expect(await countSchemes()).toBe(before)
  })

  test('a 0 reminder cadence (no reminders) and 1 and 8 as bounds are accepted', async () => {
    const response = await post({
      ...valid(),
      name: 'Bounds',
      maxColleagues: '1',
      minRaters: '8',
      reminderCadenceDays: '0',
      reportRelease: 'on_close',
    })
    expect(response.status).toBe(302)
  })

  test('an empty POST, an unknown intent and a non-form body are 400s with a message', async () => {
    for (const response of [
      await post({}),
      await post({ intent: 'explode' }),
      await send(server, PAGE, { json: { intent: 'create' }, cookie: adminCookie }),
    ]) {
      expect(response.status).toBe(400)
      expect(await response.text()).toContain('This form could not be read.')
    }
  })

  test('an employee is sent home, reading or posting, and nothing is written', async () => {
    const before = await countSchemes()
    const read = await send(server, PAGE, { cookie: employeeCookie })
    expect(read.status).toBe(302)
    expect(location(read)).toBe('/user')
    const write = await post(valid(), employeeCookie)
    expect(write.status).toBe(302)
    expect(location(write)).toBe('/user')
    expect(await countSchemes()).toBe(before)
  })
})

describe('the list', () => {
  const names = (html: string) =>
    [
      ...html.matchAll(/<a class="link" href="\/admin\/scheme-management\/[0-9a-f-]{36}"[^>]*>([^<]+)<\/a>/g),
    ].map((m) => m[1]!)
  let acme = { id: '' }
  let globex = { id: '' }

  beforeAll(async () => {
    acme = await createCompany({ name: 'Acme Listing' })
    globex = await createCompany({ name: 'Globex Listing' })
    const now = Date.now()
    const q = await createQuestionnaire({ title: 'Listed' })
    // One of each phase, and progress on the open one.
    await createScheme({ name: 'List Draft', companyId: acme.id, questionnaireId: q.id, status: 'draft' })
    await createScheme({
      name: 'List Upcoming',
      companyId: acme.id,
      questionnaireId: q.id,
      status: 'open',
      opensAt: new Date(now + 2 * DAY),
      closesAt: new Date(now + 9 * DAY),
    })
    await createScheme({
      name: 'List Closed',
      companyId: globex.id,
      questionnaireId: q.id,
      status: 'open',
      opensAt: new Date(now - 9 * DAY),
      closesAt: new Date(now - DAY),
    })
    const open = await createScheme({
      name: 'List Open',
      companyId: globex.id,
      questionnaireId: q.id,
      timeZone: 'Asia/Tokyo',
      opensAt: new Date('2026-01-10T00:00:00Z'),
      closesAt: new Date('2099-12-31T15:30:00Z'),
    })
    for (let i = 0; i < 3; i++) {
      const employee = await createUser({ role: 'employee', companyId: globex.id })
      const self = await enrolEmployee(open, employee.id)
      if (i < 2) await createResponse({ assignmentId: self!.id, submitted: i === 0 })
      for (let k = 0; k < 2; k++) {
        const colleague = await createUser({ role: 'colleague' })
        const rater = await createRaterAssignment({
          scheme: open,
          subjectId: employee.id,
          respondentId: colleague.id,
        })
        if (k === 0 && i === 0) await createResponse({ assignmentId: rater.id, submitted: true })
      }
    }
  })

  test('shows each scheme’s phase, company, dates in its zone and progress', async () => {
    const html = await page(`${PAGE}?q=List+`)
    expect(names(html).sort()).toEqual(['List Closed', 'List Draft', 'List Open', 'List Upcoming'])
    const row = html.slice(html.indexOf('>List Open<'), html.indexOf('</tr>', html.indexOf('>List Open<')))
    expect(row).toContain('>Open<')
    expect(row).toContain('Globex Listing')
    // Tokyo is nine hours ahead: the closing instant is 1 January 2100 there.
    expect(row).toContain('1 January 2100')
    expect(row).toMatch(/Self-assessments<!-- -->: <!-- -->1<!-- --> of <!-- -->3/)
    expect(row).toMatch(/Colleagues answered<!-- -->: <!-- -->1<!-- --> of <!-- -->6/)
    const upcoming = html.slice(html.indexOf('>List Upcoming<'))
    expect(upcoming).toMatch(/^[^]*?Launched, not open yet/)
    expect(html.slice(html.indexOf('>List Closed<'))).toMatch(/^[^]*?>Closed</)
    expect(html.slice(html.indexOf('>List Draft<'))).toMatch(/^[^]*?>Draft</)
  })

  test('filters by company and by phase (the one state rule), and searches by name', async () => {
    expect(names(await page(`${PAGE}?q=List+&company=${acme.id}`)).sort()).toEqual([
      'List Draft',
      'List Upcoming',
    ])
    expect(names(await page(`${PAGE}?q=List+&phase=upcoming`))).toEqual(['List Upcoming'])
    expect(names(await page(`${PAGE}?q=List+&phase=closed`))).toEqual(['List Closed'])
    expect(names(await page(`${PAGE}?q=List+&phase=open&company=${globex.id}`))).toEqual(['List Open'])
    expect(names(await page(`${PAGE}?q=list+dra`))).toEqual(['List Draft'])
    const none = await page(`${PAGE}?q=${encodeURIComponent('%_')}`)
    expect(none).toContain('No scheme matches this search and these filters.')
    // Bad filter values fall back rather than failing the page.
    expect(
      (await send(server, `${PAGE}?company=nope&phase=later&sort=sideways`, { cookie: adminCookie })).status,
    ).toBe(200)
  })

  test('filters by questionnaire version (where the questionnaire pages link), with a select in the filter bar', async () => {
    const other = await createQuestionnaire({ title: 'Other listed', status: 'published' })
    const archived = await createQuestionnaire({ title: 'Old listed', status: 'archived' })
    await createQuestionnaire({ title: 'Draft listed', status: 'draft' })
    await createScheme({ name: 'Other round', companyId: acme.id, questionnaireId: other.id })
    const listed = (await db().select().from(schemes).where(eq(schemes.name, 'List Open')))[0]!
    const html = await page(`${PAGE}?q=List+&questionnaire=${listed.questionnaireId}`)
    expect(names(html).sort()).toEqual(['List Closed', 'List Draft', 'List Open', 'List Upcoming'])
    expect(names(await page(`${PAGE}?questionnaire=${other.id}`))).toEqual(['Other round'])
    expect(
      names(
        await page(`${PAGE}?q=List+&questionnaire=${listed.questionnaireId}&phase=open&company=${globex.id}`),
      ),
    ).toEqual(['List Open'])
    // The bar's select: every version a scheme can use (archived ones too, no drafts), the current one chosen.
    const select = html.slice(html.indexOf('<select id="schemes-questionnaire"'))
    const options = select.slice(0, select.indexOf('</select>'))
    expect(options).toContain('<option value="">All questionnaires</option>')
    expect(options).toContain(`<option value="${listed.questionnaireId}" selected="">Listed</option>`)
    expect(options).toContain(`<option value="${other.id}">Other listed</option>`)
    expect(options).toContain(`<option value="${archived.id}">Old listed (archived)</option>`)
    expect(options).not.toContain('Draft listed')
    // "Clear" drops it with the other filters.
    expect(html).toMatch(
      /<a class="link self-center" href="\/admin\/scheme-management\?sort=created-desc"[^>]*>Clear<\/a>/,
    )
  })

  test('a questionnaire filter that is not an id is dropped and named; an unknown one says so', async () => {
    for (const junk of ['nope', '1234', '%00']) {
      const response = await send(server, `${PAGE}?q=List+&questionnaire=${junk}`, { cookie: adminCookie })
      expect(response.status).toBe(200)
      const html = await response.text()
      expect(html).toContain('The questionnaire in this link was not understood, so it is not applied.')
      expect(names(html)).toContain('List Draft')
    }
    const junk = await page(`${PAGE}?q=List+&company=acme&phase=later`)
    expect(junk).toContain('The company in this link was not understood, so it is not applied.')
    expect(junk).toContain('The status in this link was not understood, so it is not applied.')
    expect(names(junk)).toContain('List Draft')
    const gone = await page(`${PAGE}?q=List+&questionnaire=00000000-0000-4000-8000-000000000000`)
    expect(gone).toContain('That questionnaire does not exist (any more).')
    expect(gone).toContain('No scheme matches this search and these filters.')
    // No filter and an empty one are not problems.
    for (const clean of [`${PAGE}?q=List+`, `${PAGE}?q=List+&questionnaire=&company=&phase=`]) {
      // The page's text: the chrome's words (ADR 050's data block) include the 404 page's "does not exist".
      const text = textOf(await page(clean))
      expect(text).not.toContain('was not understood')
      expect(text).not.toContain('does not exist')
    }
  })

  test('sorts and pages by keyset: every scheme exactly once, in order, across pages', async () => {
    const q = await createQuestionnaire({ title: 'Paged' })
    for (let i = 1; i <= 23; i++)
      await createScheme({
        name: `Paged Scheme ${String(i).padStart(2, '0')}`,
        companyId: acme.id,
        questionnaireId: q.id,
      })
    for (const sort of ['name-asc', 'name-desc', 'created-desc', 'created-asc']) {
      const seen: string[] = []
      let path: string | null = `${PAGE}?${new URLSearchParams({ q: 'paged scheme', sort })}`
      let pages = 0
      while (path && pages < 4) {
        pages++
        const html = await page(path)
        seen.push(...names(html))
        path =
          [...html.matchAll(/<a[^>]*rel="next"[^>]*href="([^"]+)"/g)].map((m) =>
            m[1]!.replaceAll('&amp;', '&'),
          )[0] ?? null
      }
      expect(pages).toBe(2)
      expect(seen).toHaveLength(23)
      if (sort === 'name-asc') expect(seen).toEqual([...seen].sort())
      if (sort === 'name-desc') expect(seen).toEqual([...seen].sort().reverse())
      expect(new Set(seen).size).toBe(23)
    }
  })
})
