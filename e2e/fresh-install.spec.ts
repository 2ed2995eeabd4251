import type { Browser, Page } from '@playwright/test'
import { instantToZonedTime } from '../app/lib/dates'
import { possessive } from '../app/lib/words'
import { addChoice, addQuestion, addSection, questionCards, sectionRegion } from './support/builder'
import { expect, expectAccessible, test, waitForHydration } from './support/fixtures'
import { FRESH_URL, startFreshInstall, type FreshInstall } from './support/fresh-install'
import { tinyPng } from './support/png'

/**
 * A consultancy's first day, in the browser only, on a deployment with an empty database (no seed,
 * no admin): the first admin comes in through the setup link the server printed, creates a brand
 * with a logo and a company, builds and publishes a questionnaire with two sections and all five
 * question kinds, creates a scheme, imports three employees from CSV into it, edits the invitation
 * template and sends a test, launches; an employee activates from the e-mail, answers and submits,
 * invites a colleague, and the colleague answers from their e-mail. No step touches the database.
 */

test.use({ baseURL: FRESH_URL })

let fresh: FreshInstall
test.beforeAll(async () => {
  fresh = await startFreshInstall()
})
test.afterAll(async () => {
  await fresh?.stop()
})

const ZONE = 'Europe/London'
const HOUR = 60 * 60 * 1000
const ADMIN = { name: 'Fran First', email: 'fran@consultancy.test', password: 'first-admin-passphrase-7' }
const EMPLOYEES = [
  { name: 'Olu Okafor', email: 'olu@harbour.test' },
  { name: 'Priya Patel', email: 'priya@harbour.test' },
  { name: 'Quinn Quarry', email: 'quinn@harbour.test' },
]
const COLLEAGUE = { name: 'Rae Rivers', email: 'rae@harbour.test' }
const INVITATION_SUBJECT = 'Harbour asks: how does {{employeeName}} work?'

/** Answers every question on the page: a scale point or choice, a box, the text fields. */
async function answerPage(page: Page, pick: number) {
  for (const group of await page.getByRole('radiogroup').all()) {
    const radios = group.getByRole('radio', { name: /^(?!Not applicable)/ })
    const count = await radios.count()
    await radios.nth((pick + count) % count).check()
  }
  const boxes = page.getByRole('checkbox')
  if ((await boxes.count()) > 0) await boxes.nth(pick % (await boxes.count())).check()
  for (const field of await page.getByRole('textbox').all())
    await field.fill(`Steady under pressure ${pick}.`)
}

/** Both sections of the questionnaire, then submit. */
async function answerQuestionnaire(page: Page, pick: number) {
  await waitForHydration(page)
  await expect(page.getByText('Section 1 of 2')).toBeVisible()
  await answerPage(page, pick)
  await page.getByRole('button', { name: 'Next section →' }).click()
  await expect(page).toHaveURL(/\?section=2$/)
  await waitForHydration(page)
  await answerPage(page, pick + 1)
  await page.getByRole('button', { name: 'Submit answers' }).click()
  // It asks first (issue 15, B11).
  await expect(page.getByRole('heading', { name: 'Ready to submit?' })).toBeFocused()
  await page.getByRole('button', { name: 'Yes, submit my answers' }).click()
  await expect(page).toHaveURL(/\/user\/thank-you/)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Thank you')
}

async function openLinkInNewBrowser(browser: Browser, link: string) {
  const context = await browser.newContext({ baseURL: FRESH_URL })
  const page = await context.newPage()
  await page.goto(link)
  return { context, page }
}

test('from an empty database to a colleague’s answers, in the browser only', async ({ page, browser }) => {
  test.setTimeout(300_000)
  const brandName = 'Harbour Partners'
  const companyName = 'Harbour Logistics'
  const questionnaireTitle = 'Harbour leadership 360'
  const schemeName = 'Harbour 360 — spring'

  // 1. The first admin, from the setup link the server printed.
  await page.goto(fresh.setupLink)
  await expect(page.getByRole('heading', { name: 'Create the first admin account' })).toBeVisible()
  await waitForHydration(page)
  await page.getByLabel('Your name').fill(ADMIN.name)
  await page.getByLabel('E-mail address').fill(ADMIN.email)
  await page.getByLabel('New password', { exact: true }).fill(ADMIN.password)
  await page.getByLabel('Repeat the password').fill(ADMIN.password)
  await page.getByRole('button', { name: 'Create admin account' }).click()
  await expect(page).toHaveURL(/\/admin$/)
  await expectAccessible(page)

  // 2. A brand with a logo.
  await page.goto('/admin/brand-management')
  await waitForHydration(page)
  await page.getByLabel('Brand name').fill(brandName)
  await page.getByRole('button', { name: /create brand/i }).click()
  await expect(page).toHaveURL(/\/admin\/brand-management\/[0-9a-f-]{36}$/)
  await page
    .getByLabel('Upload a logo')
    .setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: tinyPng() })
  await page.getByRole('button', { name: 'Save brand' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Brand saved' })).toBeVisible()
  await expect(page.getByRole('img', { name: `Current logo of ${brandName}` })).toBeVisible()

  // 3. A company under that brand.
  await page.goto('/admin/company-management')
  await waitForHydration(page)
  await page.getByLabel('Company name').fill(companyName)
  await page.getByLabel('Brand').first().selectOption({ label: brandName })
  await page.getByRole('button', { name: 'Add company' }).click()
  await expect(page.getByText(companyName).first()).toBeVisible()
  await expectAccessible(page)

  // 4. A questionnaire: two sections, all five kinds, previewed, published.
  await page.goto('/admin/questionnaire-management')
  await waitForHydration(page)
  await page.getByLabel('Title', { exact: true }).fill(questionnaireTitle)
  await page.getByRole('button', { name: 'Create questionnaire' }).click()
  await expect(page).toHaveURL(/\/admin\/questionnaire-management\/[0-9a-f-]{36}$/)
  await waitForHydration(page)
  await addSection(page, 'Working together')
  await addSection(page, 'Growing')
  const first = sectionRegion(page, 1, 'Working together')
  const second = sectionRegion(page, 2, 'Growing')
  await addQuestion(page, first, {
    kind: 'Rating scale',
    text: 'I listen before I decide.',
    rater: '{{name}} listens before deciding.',
    competency: 'Listening',
  })
  await addQuestion(page, first, {
    kind: 'One choice',
    text: 'Under pressure I usually…',
    rater: 'Under pressure {{name}} usually…',
    competency: 'Resilience',
  })
  await addQuestion(page, first, {
    kind: 'Several choices',
    text: 'My strengths are…',
    rater: 'The strengths of {{name}} are…',
    competency: 'Resilience',
  })
  await addQuestion(page, second, {
    kind: 'Short text',
    text: 'One word for how I work:',
    rater: 'One word for how {{name}} works:',
    competency: 'Growth',
  })
  await addQuestion(page, second, {
    kind: 'Long text',
    text: 'What should I do more of?',
    rater: 'What should {{name}} do more of?',
    competency: 'Growth',
  })
  const single = questionCards(first).filter({ has: page.getByText(/· One choice$/) })
  for (const label of ['Slow down', 'Speed up']) await addChoice(page, single, label)
  const multi = questionCards(first).filter({ has: page.getByText(/· Several choices$/) })
  for (const label of ['Clarity', 'Calm']) await addChoice(page, multi, label)
  await expect(page.getByText('Nothing blocks publishing.')).toBeVisible()
  await page.getByRole('link', { name: 'Preview as a colleague' }).click()
  await expect(page.getByText('Alex Example listens before deciding.')).toBeVisible()
  await page.getByRole('link', { name: 'Preview as self' }).click()
  await expect(page.getByText('I listen before I decide.')).toBeVisible()
  await page.getByRole('link', { name: '← Back to the builder' }).click()
  await waitForHydration(page)
  await page.getByRole('link', { name: 'Publish…' }).click()
  await page.getByRole('button', { name: 'Publish', exact: true }).click()
  await expect(page.getByText('Questionnaire published')).toBeVisible()

  // 5. A scheme for the company on that questionnaire, opened an hour ago.
  await page.goto('/admin/scheme-management')
  await waitForHydration(page)
  const create = page.locator('#create-scheme')
  await create.getByLabel('Scheme name').fill(schemeName)
  await create.getByLabel('Company').selectOption({ label: companyName })
  await create.getByLabel('Questionnaire').selectOption({ label: questionnaireTitle })
  await create.getByLabel('Time zone').fill(ZONE)
  await create.getByLabel('Opens').fill(instantToZonedTime(new Date(Date.now() - HOUR), ZONE))
  await create.getByLabel('Closes').fill(instantToZonedTime(new Date(Date.now() + 30 * 24 * HOUR), ZONE))
  await create.getByRole('button', { name: 'Create scheme' }).click()
  await expect(page).toHaveURL(/\/admin\/scheme-management\/[0-9a-f-]{36}$/)
  await expect(page.getByText('Scheme created')).toBeVisible()
  const schemeUrl = page.url()

  // 6. Three employees from a CSV file, enrolled into the scheme on import.
  await page.goto('/admin/employee-management')
  await waitForHydration(page)
  const csv = `\uFEFFName;E-mail;Company;Phone\r\n${EMPLOYEES.map((e) => `${e.name};${e.email};${companyName};`).join('\r\n')}\r\n`
  await page
    .getByLabel('CSV file', { exact: true })
    .setInputFiles({ name: 'harbour.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) })
  await page.getByRole('button', { name: 'Upload and preview' }).click()
  await expect(page.getByText('3 rows read: 3 rows are ready to import')).toBeVisible()
  await waitForHydration(page)
  await page
    .getByLabel('Also enrol them into a scheme (optional)')
    .selectOption({ label: `${schemeName} (${companyName})` })
  await page.getByRole('button', { name: 'Import 3 employees' }).click()
  await expect(page.getByText('3 employees created, 0 updated, 0 unchanged, 0 rows skipped.')).toBeVisible()

  // 7. The colleague invitation, in the brand's own words, and a test sent to the admin.
  await page.goto('/admin/email-management')
  await page.getByLabel('Brand', { exact: true }).selectOption({ label: brandName })
  await page.getByRole('button', { name: 'Show' }).click()
  const invitationRow = page.getByRole('row', { name: /Colleague invitation/ })
  await expect(invitationRow.getByText('Uses the default')).toBeVisible()
  await invitationRow.getByRole('link', { name: /uses the default, open/ }).click()
  await expect(page).toHaveURL(/\/admin\/email-management\/colleague_invite\.[0-9a-f-]{36}$/)
  await expect(page.getByRole('button', { name: /Insert \{\{link\}\}/ })).toBeVisible()
  await page.getByLabel('Subject', { exact: true }).fill(INVITATION_SUBJECT)
  await expect(page.getByTestId('preview-subject')).toHaveText('Harbour asks: how does Sam Example work?')
  await page.getByRole('button', { name: `Save as ${possessive(brandName)} own` }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Own wording created' })).toBeVisible()
  await page.getByRole('button', { name: 'Send a test to me' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Test queued' })).toBeVisible()
  const testMail = await fresh.waitForMail((m) => m.envelopeTo.includes(ADMIN.email))
  expect(testMail.subject).toBe('Harbour asks: how does Sam Example work?')
  expect(testMail.html).toContain(brandName)
  await expectAccessible(page)

  // 8. Launch: each employee gets an activation e-mail.
  await page.goto(schemeUrl)
  const participants = page.getByRole('table', { name: /Participants/ })
  for (const employee of EMPLOYEES)
    await expect(participants.getByRole('rowheader', { name: new RegExp(employee.name) })).toBeVisible()
  await waitForHydration(page)
  await page.getByRole('link', { name: 'Launch the scheme' }).click()
  await page.getByRole('button', { name: 'Yes, launch and send the e-mails' }).click()
  await expect(page.getByText('Scheme launched')).toBeVisible()
  await expectAccessible(page)

  // 9. The first employee activates from the e-mail, answers about themself and invites a colleague.
  const [employee] = EMPLOYEES
  const activation = await fresh.waitForMail((m) => m.envelopeTo.includes(employee!.email))
  const activateLink = activation.text.match(/https?:\/\/\S+\/verification\?mode=activate&code=[\w-]+/)?.[0]
  expect(activateLink, 'the activation e-mail carries its link').toBeTruthy()
  const own = await openLinkInNewBrowser(browser, activateLink!)
  const me = own.page
  await expect(me.getByRole('heading', { name: 'Activate your account' })).toBeVisible()
  await waitForHydration(me)
  await me.getByLabel('New password', { exact: true }).fill('olu-own-passphrase-2026')
  await me.getByLabel('Repeat the password').fill('olu-own-passphrase-2026')
  await me.getByRole('button', { name: 'Activate account' }).click()
  await expect(me).toHaveURL(/\/user$/)
  const card = me.getByRole('article', { name: schemeName })
  await card.getByRole('region', { name: 'Your self-assessment' }).getByRole('link').first().click()
  await expect(me).toHaveURL(/\/(questionnaire|assignment)\/[0-9a-f-]{36}/)
  if (me.url().includes('/questionnaire/')) {
    await me.getByRole('link', { name: /^(Start|Continue where you stopped)$/ }).click()
  }
  await expect(me.getByText('I listen before I decide.')).toBeVisible()
  await answerQuestionnaire(me, 0)
  await expectAccessible(me)

  await me.goto('/user/colleague-invite')
  await waitForHydration(me)
  const invite = me.getByRole('region', { name: 'Invite a colleague' })
  await invite.getByLabel('Name').fill(COLLEAGUE.name)
  await invite.getByLabel('E-mail address').fill(COLLEAGUE.email)
  await invite.getByLabel('Relationship').selectOption({ label: 'Peer' })
  await invite.getByRole('button', { name: 'Send invitation' }).click()
  await expect(me.getByRole('status').getByText(`Invitation sent to ${COLLEAGUE.name}`)).toBeVisible()

  // 10. The colleague answers from the e-mail, reading the colleague wording with the name in it.
  const invitation = await fresh.waitForMail((m) => m.envelopeTo.includes(COLLEAGUE.email))
  // In the brand's own words, edited in step 7.
  expect(invitation.subject).toBe(`Harbour asks: how does ${employee!.name} work?`)
  const inviteLink = invitation.text.match(/https?:\/\/\S+\/verification\?mode=invite&code=[\w-]+/)?.[0]
  expect(inviteLink, 'the invitation carries its link').toBeTruthy()
  const theirs = await openLinkInNewBrowser(browser, inviteLink!)
  const colleague = theirs.page
  await expect(colleague).toHaveURL(/\/questionnaire\/[0-9a-f-]{36}/)
  await expect(colleague.getByText(`Your feedback for ${employee!.name}`)).toBeVisible()
  await colleague.getByRole('link', { name: /^(Start|Continue where you stopped)$/ }).click()
  await expect(colleague.getByText(`${employee!.name} listens before deciding.`)).toBeVisible()
  await answerQuestionnaire(colleague, 1)
  await expect(colleague.getByText('Nothing more is needed from you.')).toBeVisible()
  await theirs.context.close()

  // The employee's home shows the colleague as answered.
  await me.goto('/user')
  await expect(
    card
      .getByRole('region', { name: 'Colleagues you invited' })
      .getByRole('listitem')
      .filter({ hasText: COLLEAGUE.name })
      .getByText('Answered'),
  ).toBeVisible()
  await own.context.close()
})
