import type { Browser, Page } from '@playwright/test'
import { expect, expectAccessible, signInAs, test, waitForHydration, waitForMail } from './support/fixtures'

/**
 * The whole 360° loop in a real browser, on the seeded newcomer (who has not started): they answer
 * and submit their self-assessment, invite three colleagues; each colleague opens the link from the
 * e-mail the SMTP catcher received, answers and submits; the newcomer then reads a report with
 * charts and tables. axe checks the pages on the way.
 */

const EMPLOYEE = 'new.employee@panorama.test'
const EMPLOYEE_NAME = 'Noah Newcomer'

/** Answers every question of the current section (a varied, valid answer each), then moves on. */
async function answerSection(page: Page, pick: number) {
  for (const group of await page.getByRole('radiogroup').all()) {
    const radios = group.getByRole('radio', { name: /^(?!Not applicable)/ })
    const count = await radios.count()
    await radios.nth((pick + count) % count).check()
  }
  const boxes = page.getByRole('checkbox')
  if ((await boxes.count()) > 0) await boxes.nth(pick % (await boxes.count())).check()
  for (const field of await page.getByRole('textbox').all())
    await field.fill(`Observation ${pick}: keeps the team focused.`)
}

async function answerQuestionnaire(page: Page, pick: number) {
  await waitForHydration(page)
  for (let section = 1; section <= 5; section++) {
    await expect(page.getByText(`Section ${section} of 5`)).toBeVisible()
    await answerSection(page, pick + section)
    if (section < 5) {
      await page.getByRole('button', { name: 'Next section →' }).click()
      await expect(page).toHaveURL(new RegExp(`\\?section=${section + 1}$`))
      await waitForHydration(page)
    }
  }
  await page.getByRole('button', { name: 'Submit answers' }).click()
  // It asks first (issue 15, B11).
  await expect(page.getByRole('heading', { name: 'Ready to submit?' })).toBeFocused()
  await page.getByRole('button', { name: 'Yes, submit my answers' }).click()
  await expect(page).toHaveURL(/\/user\/thank-you/)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Thank you')
}

async function colleagueAnswers(browser: Browser, email: string, pick: number) {
  const mail = await waitForMail((m) => m.to.includes(email))
  const link = mail.text.match(/https?:\/\/\S+\/verification\?mode=invite&code=[\w-]+/)?.[0]
  expect(link, `the invitation to ${email} carries its link`).toBeTruthy()
  const context = await browser.newContext()
  const page = await context.newPage()
  await page.goto(link!)
  await expect(page).toHaveURL(/\/questionnaire\/[0-9a-f-]{36}/)
  await expect(page.getByText(`Your feedback for ${EMPLOYEE_NAME}`)).toBeVisible()
  await page.getByRole('link', { name: /^(Start|Continue where you stopped)$/ }).click()
  await expect(page).toHaveURL(/\/assignment\/[0-9a-f-]{36}/)
  // Colleagues read the rater wording, with the employee's name filled in.
  await expect(page.getByText(`${EMPLOYEE_NAME} listens carefully before responding.`)).toBeVisible()
  await answerQuestionnaire(page, pick)
  await expect(page.getByText('Nothing more is needed from you.')).toBeVisible()
  await context.close()
}

test('self-assessment, three colleagues, and the report with charts', async ({ page, browser }) => {
  test.setTimeout(240_000)
  await signInAs(page, EMPLOYEE)
  await expect(page).toHaveURL(/\/user$/)
  const card = page.getByRole('article', { name: 'Acme leadership programme' })
  await expect(
    card.getByRole('region', { name: 'Your self-assessment' }).getByText('Not started'),
  ).toBeVisible()
  await expectAccessible(page)

  // The self-assessment: introduction, then every section, then submit.
  await card.getByRole('region', { name: 'Your self-assessment' }).getByRole('link').first().click()
  await expect(page).toHaveURL(/\/(questionnaire|assignment)\/[0-9a-f-]{36}/)
  if (page.url().includes('/questionnaire/')) {
    await expect(page.getByText('Your self-assessment: the questions are about yourself.')).toBeVisible()
    await page.getByRole('link', { name: /^(Start|Continue where you stopped)$/ }).click()
  }
  await expect(page.getByText('I listen carefully before I respond.')).toBeVisible()
  await answerQuestionnaire(page, 0)
  await expectAccessible(page)

  // Three colleagues invited from the invite page.
  const stamp = Date.now()
  const colleagues = [1, 2, 3].map((n) => ({
    name: `Colleague ${n} ${stamp}`,
    email: `loop-${n}-${stamp}@example.test`,
  }))
  await page.goto('/user/colleague-invite')
  await waitForHydration(page)
  const form = page.getByRole('region', { name: 'Invite a colleague' })
  for (const [i, colleague] of colleagues.entries()) {
    await form.getByLabel('Name').fill(colleague.name)
    await form.getByLabel('E-mail address').fill(colleague.email)
    await form.getByLabel('Relationship').selectOption({ label: i === 0 ? 'Manager' : 'Peer' })
    await form.getByRole('button', { name: 'Send invitation' }).click()
    await expect(page.getByRole('status').getByText(`Invitation sent to ${colleague.name}`)).toBeVisible()
    await expect(page.getByRole('row', { name: new RegExp(colleague.name) })).toContainText('Invited')
  }
  await expectAccessible(page)

  // Before anyone answers, the report says when colleagues' results appear (ADR 022).
  await page.goto('/user')
  await card.getByRole('link', { name: 'Read your report' }).click()
  await expect(
    page.getByRole('status').filter({ hasText: 'Colleagues’ results are not released yet' }),
  ).toBeVisible()

  // Each colleague answers through the link in their e-mail.
  for (const [i, colleague] of colleagues.entries()) await colleagueAnswers(browser, colleague.email, i + 1)

  // Home shows them as answered; the report now has colleague data, charts and tables.
  await page.goto('/user')
  const invited = card.getByRole('region', { name: 'Colleagues you invited' })
  for (const colleague of colleagues) {
    await expect(
      invited.getByRole('listitem').filter({ hasText: colleague.name }).getByText('Answered'),
    ).toBeVisible()
  }
  // Three answers are in, but nothing shows until the report is released: the admin releases it.
  await card.getByRole('link', { name: 'Read your report' }).click()
  await expect(page).toHaveURL(/\/user\/response-[0-9a-f-]{36}$/)
  await expect(
    page.getByRole('status').filter({ hasText: 'Colleagues’ results are not released yet' }),
  ).toBeVisible()
  await expect(page.getByRole('heading', { name: 'At a glance' })).toHaveCount(0)
  const admin = await (await browser.newContext()).newPage()
  await signInAs(admin, 'admin@panorama.test')
  await expect(admin).toHaveURL(/\/admin$/)
  await admin.goto(`/admin/scheme-management?q=${encodeURIComponent('Acme leadership programme')}`)
  await admin.getByRole('link', { name: 'Acme leadership programme', exact: true }).first().click()
  await expect(admin).toHaveURL(/\/admin\/scheme-management\/[0-9a-f-]{36}/)
  await admin.getByRole('link', { name: `Release report (${EMPLOYEE_NAME})` }).click()
  await admin.getByRole('button', { name: 'Yes, release the report' }).click()
  await expect(admin.getByText('Report released')).toBeVisible()
  await admin.context().close()
  await page.reload()
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Feedback report: ${EMPLOYEE_NAME}`)
  await expect(page.getByText('More answers needed')).toHaveCount(0)
  // The insight comes first; the charts below draw when they come near the screen.
  await page.getByRole('heading', { name: 'By category', level: 2 }).scrollIntoViewIfNeeded()
  await expect(page.getByRole('img', { name: /^Radar chart: Average score per category/ })).toBeVisible()
  const categories = page.getByRole('table', { name: /^Average score per category/ })
  // Colleagues as one aggregate: a manager and two peers are each below the threshold of three, so
  // no group shows on its own, and never one column per colleague (ADR 021).
  await expect(categories.getByRole('columnheader', { name: 'All colleagues' })).toBeVisible()
  await expect(categories.getByRole('columnheader')).toHaveCount(3)
  await expect(page.getByText(/Colleague [A-H]\b/)).toHaveCount(0)
  await expect(page.getByRole('heading', { name: 'At a glance' })).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Comments from colleagues' })).toBeVisible()
  // Nobody is named.
  for (const colleague of colleagues) await expect(page.getByText(colleague.name)).toHaveCount(0)
  await expectAccessible(page)
})
