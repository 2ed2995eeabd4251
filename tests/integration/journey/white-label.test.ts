import { eq } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'
import { actionCodes, assignments, type QuestionOptions } from '#db/schema/index'
import {
  createBrand,
  createCompany,
  createQuestionnaire,
  createRaterAssignment,
  createResponse,
  createScheme,
  createUser,
  enrolEmployee,
  questionsOf,
} from '#db/factories'
import { storeImage } from '#app/modules/file/file.server'
import { useTestDatabase } from '#tests/support/database'
import { cookiesFrom, location, send, sessionCookieFor, useTestServer } from '#tests/support/app'
import { openInvite, textOf } from '#tests/integration/auth/helpers'
import { createActionCode } from '#app/modules/action-code/action-code.server'
import { hashSecret } from '#app/lib/secret-hash.server'

/**
 * White label where it counts (issue 7, item 22): every employee and colleague page wears the brand of
 * its programme in the header — logo, name, primary and accent colours with readable text — and
 * Panorama's name appears only in the footer. An employee in programmes of two brands sees each
 * page in its own programme's brand; the home page, about several programmes, stays neutral.
 */
const db = useTestDatabase()
const server = useTestServer()

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
)
const SCALE: QuestionOptions = { min: 1, max: 5, labels: ['1', '2', '3', '4', '5'], allowNa: false }

const w = {} as {
  harbour: { id: string }
  summit: { id: string }
  logoFileId: string
  erinCookie: string
  caseyCookie: string
  adminCookie: string
  selfA: string
  selfB: string
  rater: string
  questionnaire: string
  schemeB: string
  reportA: string
  erinId: string
}

beforeAll(async () => {
  w.logoFileId = await storeImage(db(), { bytes: PNG, mime: 'image/png' }, null)
  const harbour = await createBrand({
    name: 'Harbour Consulting',
    primaryColor: '#123456',
    accentColor: '#abcdef',
    logoFileId: w.logoFileId,
    callbackUrl: 'https://harbour.test/call-me',
  })
  // A light primary: white text would not read on it.
  const summit = await createBrand({
    name: 'Summit Partners',
    primaryColor: '#fde047',
    accentColor: '#facc15',
  })
  w.harbour = harbour
  w.summit = summit
  const companyA = await createCompany({ name: 'Harbour Client', brandId: harbour.id })
  const companyB = await createCompany({ name: 'Summit Client', brandId: summit.id })
  const q = await createQuestionnaire({
    questions: [
      {
        section: 'A',
        kind: 'scale',
        text: 'I plan.',
        raterText: '{{name}} plans.',
        category: 'Plan',
        options: SCALE,
      },
    ],
  })
  w.questionnaire = q.id
  const erin = await createUser({ role: 'employee', displayName: 'Erin Twobrands', companyId: companyA.id })
  const casey = await createUser({ role: 'colleague', displayName: 'Casey Rater' })
  const admin = await createUser({ role: 'admin' })
  const schemeA = await createScheme({
    name: 'Harbour programme',
    companyId: companyA.id,
    questionnaireId: q.id,
  })
  const schemeB = await createScheme({
    name: 'Summit programme',
    companyId: companyB.id,
    questionnaireId: q.id,
  })
  w.schemeB = schemeB.id
  w.erinId = erin.id
  w.selfA = (await enrolEmployee(schemeA, erin.id))!.id
  w.selfB = (await enrolEmployee(schemeB, erin.id))!.id
  const [question] = await questionsOf(q.id)
  w.reportA = (
    await createResponse({
      assignmentId: w.selfA,
      submitted: true,
      answers: [{ questionId: question!.id, numericValue: 4 }],
    })
  ).id
  w.rater = (await createRaterAssignment({ scheme: schemeB, subjectId: erin.id, respondentId: casey.id })).id
  w.erinCookie = await sessionCookieFor(erin.id)
  w.caseyCookie = await sessionCookieFor(casey.id)
  w.adminCookie = await sessionCookieFor(admin.id)
})

async function page(path: string, cookie?: string, status = 200) {
  const response = await send(server, path, { cookie })
  expect(response.status, path).toBe(status)
  const html = await response.text()
  const header = /<header[\s\S]*?<\/header>/.exec(html)![0]
  const footer = /<footer[\s\S]*?<\/footer>/.exec(html)?.[0] ?? ''
  return { html, header, headerText: textOf(header), footerText: textOf(footer) }
}

function expectBrand(p: Awaited<ReturnType<typeof page>>, name: string, notName: string) {
  expect(p.headerText).toContain(name)
  expect(p.headerText).not.toContain(notName)
  // Panorama's name only in the footer.
  expect(p.headerText).not.toContain('Panorama')
  expect(p.footerText).toContain(`${name} · 360° feedback · powered by Panorama`)
}

describe('a programme’s pages wear its brand', () => {
  test('the employee’s self-assessment in the first programme: its logo, name and colours', async () => {
    const p = await page(`/assignment/${w.selfA}`, w.erinCookie)
    expectBrand(p, 'Harbour Consulting', 'Summit')
    expect(p.header).toContain(`src="/files/${w.logoFileId}"`)
    // Contrast-checked colours for the header: white text on the dark navy, the accent stripe.
    expect(p.html).toMatch(/--brand-primary:#123456;--brand-on-primary:#ffffff;--brand-accent:#abcdef/)
  })

  test('the same employee’s self-assessment in the other programme: that brand, with dark text on its light colour', async () => {
    const p = await page(`/assignment/${w.selfB}`, w.erinCookie)
    expectBrand(p, 'Summit Partners', 'Harbour')
    expect(p.html).toMatch(/--brand-primary:#fde047;--brand-on-primary:#0f172a/)
    // As text on white, the yellow accent is darkened until it reads (AA).
    expect(p.html).not.toMatch(/--brand-accent-text:#facc15/)
  })

  test('the home page, about both programmes, is neutral; each card carries its own brand', async () => {
    const p = await page('/user', w.erinCookie)
    expect(p.headerText).toContain('360° feedback')
    for (const name of ['Harbour', 'Summit', 'Panorama']) expect(p.headerText).not.toContain(name)
    const main = textOf(/<main[\s\S]*<\/main>/.exec(p.html)![0])
    expect(main).toContain('Harbour Client · with Harbour Consulting')
    expect(main).toContain('Summit Client · with Summit Partners')
  })

  test('the report, the invite page (per scheme) and the profile (the employee’s company)', async () => {
    expectBrand(await page(`/user/response-${w.reportA}`, w.erinCookie), 'Harbour Consulting', 'Summit')
    expectBrand(
      await page(`/user/colleague-invite?scheme=${w.schemeB}`, w.erinCookie),
      'Summit Partners',
      'Harbour',
    )
    expectBrand(await page('/user/edit-profile', w.erinCookie), 'Harbour Consulting', 'Summit')
  })

  test('a colleague’s introduction, questions and thank-you page', async () => {
    expectBrand(await page(`/questionnaire/${w.questionnaire}`, w.caseyCookie), 'Summit Partners', 'Harbour')
    expectBrand(await page(`/assignment/${w.rater}`, w.caseyCookie), 'Summit Partners', 'Harbour')
    expectBrand(
      await page(`/user/thank-you?assignment=${w.rater}`, w.caseyCookie),
      'Summit Partners',
      'Harbour',
    )
  })

  test('the brand’s own contact links replace the deployment’s, link by link', async () => {
    const p = await page(`/assignment/${w.selfA}`, w.erinCookie)
    const footer = /<footer[\s\S]*?<\/footer>/.exec(p.html)![0]
    expect(footer).toContain('href="https://harbour.test/call-me"')
    expect(footer).toContain(`href="mailto:${process.env.CONTACT_EMAIL}"`)
  })
})

describe('the sign-in step of an invitation', () => {
  test('the invitation’s landing wears the programme’s brand; an employee asked is sent to a branded sign-in', async () => {
    // A colleague's link: the "Continue as a colleague" page is in the programme's brand.
    const { code } = await createActionCode(db(), {
      kind: 'colleague_invite',
      assignmentId: w.rater,
      expiresAt: new Date(Date.now() + 86_400_000),
    })
    const opened = await send(server, `/verification?mode=invite&code=${code}`)
    const jar = cookiesFrom(opened)
    const landing = await page('/verification?mode=invite', jar)
    expectBrand(landing, 'Summit Partners', 'Harbour')

    // An employee asked for feedback signs in with their password: that step wears the brand too.
    const peer = await createUser({ role: 'employee' })
    const schemeB = {
      id: w.schemeB,
      questionnaireId: w.questionnaire,
      closesAt: new Date(Date.now() + 86_400_000),
    }
    const asked = await createRaterAssignment({ scheme: schemeB, subjectId: w.erinId, respondentId: peer.id })
    const second = await createActionCode(db(), {
      kind: 'colleague_invite',
      assignmentId: asked.id,
      expiresAt: new Date(Date.now() + 86_400_000),
    })
    const pressed = await openInvite(server, `/verification?mode=invite&code=${second.code}`)
    expect(pressed.status).toBe(302)
    const target = new URL(location(pressed)!, 'http://x')
    expect(target.pathname).toBe('/sign-in')
    expect(target.searchParams.get('brand')).toBe(w.summit.id)
    expectBrand(await page(target.pathname + target.search), 'Summit Partners', 'Harbour')
  })

  test('/sign-in?brand=<id> wears that brand; plain /sign-in and an unknown id stay Panorama’s', async () => {
    const branded = await page(`/sign-in?brand=${w.summit.id}`)
    expectBrand(branded, 'Summit Partners', 'Harbour')
    const plain = await page('/sign-in')
    expect(plain.headerText).toContain('Panorama')
    expect(plain.headerText).not.toContain('Summit')
    for (const odd of [crypto.randomUUID(), 'not-an-id'])
      expect((await page(`/sign-in?brand=${odd}`)).headerText).toContain('Panorama')
  })
})

describe('the activation page and links that no longer work (issue 15, B10)', () => {
  /** An employee of Harbour's client who has not activated yet, with a live activation link. */
  async function newcomer() {
    const company = await createCompany({
      name: `Harbour newcomers ${crypto.randomUUID()}`,
      brandId: w.harbour.id,
    })
    const employee = await createUser({
      role: 'employee',
      displayName: 'Nina Newcomer',
      email: `nina-${crypto.randomUUID()}@example.test`,
      companyId: company.id,
      password: null,
    })
    const { code } = await createActionCode(db(), { kind: 'activate_account', userId: employee.id })
    return { employee, code, link: `/verification?mode=activate&code=${code}` }
  }

  /** Nothing of the account on a page about a link that no longer works. */
  function expectNothingOfTheAccount(html: string, employee: { email: string; displayName: string }) {
    expect(html).not.toContain(employee.email)
    expect(html).not.toContain(employee.displayName)
  }

  test('the activation page wears the programme’s brand: logo, name, colours, and the tab’s title', async () => {
    const { link } = await newcomer()
    const opened = await send(server, link)
    expect(opened.status).toBe(302)
    const p = await page('/verification?mode=activate', cookiesFrom(opened))
    expectBrand(p, 'Harbour Consulting', 'Summit')
    expect(p.header).toContain(`src="/files/${w.logoFileId}"`)
    expect(p.html).toMatch(/--brand-primary:#123456;--brand-on-primary:#ffffff;--brand-accent:#abcdef/)
    expect(p.html).toContain('<title>Activate your account · Harbour Consulting</title>')
    expect(textOf(p.html)).toContain('Activate account')
  })

  test('a used activation link still shows whose programme it is, and nothing of the account', async () => {
    const { employee, link } = await newcomer()
    const opened = await send(server, link)
    const activated = await send(server, '/verification?mode=activate', {
      cookie: cookiesFrom(opened),
      form: { password: 'a brand new password', confirmPassword: 'a brand new password' },
    })
    expect(activated.status).toBe(302)
    const used = await page(link, undefined, 410)
    expectBrand(used, 'Harbour Consulting', 'Summit')
    expect(used.html).toContain('<title>Activate your account · Harbour Consulting</title>')
    expectNothingOfTheAccount(used.html, employee)
  })

  test('an expired activation link too; an unknown code stays Panorama’s', async () => {
    const { employee, code, link } = await newcomer()
    await db()
      .update(actionCodes)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(actionCodes.codeHash, hashSecret(code)))
    const expired = await page(link, undefined, 410)
    expectBrand(expired, 'Harbour Consulting', 'Summit')
    expectNothingOfTheAccount(expired.html, employee)

    const unknown = await page(`/verification?mode=activate&code=${'Q'.repeat(32)}`, undefined, 410)
    expect(unknown.headerText).toContain('Panorama')
    expect(unknown.html).not.toContain('--brand-primary')
  })

  test('a colleague’s link after their answers are in, and a withdrawn one, wear the programme’s brand', async () => {
    const colleague = await createUser({ role: 'colleague', displayName: 'Cora Colleague' })
    const schemeB = {
      id: w.schemeB,
      questionnaireId: w.questionnaire,
      closesAt: new Date(Date.now() + 86_400_000),
    }
    const answered = await createRaterAssignment({
      scheme: schemeB,
      subjectId: w.erinId,
      respondentId: colleague.id,
    })
    const first = await createActionCode(db(), {
      kind: 'colleague_invite',
      assignmentId: answered.id,
      expiresAt: schemeB.closesAt,
    })
    await db()
      .update(assignments)
      .set({ status: 'submitted', submittedAt: new Date() })
      .where(eq(assignments.id, answered.id))
    const done = await page(`/verification?mode=invite&code=${first.code}`, undefined, 410)
    expectBrand(done, 'Summit Partners', 'Harbour')
    expect(textOf(done.html)).toContain('Your feedback is in')
    expectNothingOfTheAccount(done.html, colleague)

    const other = await createUser({ role: 'colleague' })
    const withdrawn = await createRaterAssignment({
      scheme: schemeB,
      subjectId: w.erinId,
      respondentId: other.id,
    })
    const second = await createActionCode(db(), {
      kind: 'colleague_invite',
      assignmentId: withdrawn.id,
      expiresAt: schemeB.closesAt,
    })
    await db().update(assignments).set({ status: 'revoked' }).where(eq(assignments.id, withdrawn.id))
    const gone = await page(`/verification?mode=invite&code=${second.code}`, undefined, 410)
    expectBrand(gone, 'Summit Partners', 'Harbour')
    expect(textOf(gone.html)).toContain('Invitation links work until the feedback is in')
  })
})

test('admin pages keep Panorama’s own header', async () => {
  const p = await page('/admin', w.adminCookie)
  expect(p.headerText).toContain('Panorama')
  expect(p.html).not.toContain('--brand-primary')
})
