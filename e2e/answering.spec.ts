import type { Page } from '@playwright/test'
import { expect, expectAccessible, signInAs, test, waitForHydration } from './support/fixtures'

/**
 * Answering in a real browser: the seeded colleague follows their invite link, reads the
 * introduction, answers every section of the demo questionnaire (db/seed.ts DEMO_QUESTIONS) in the
 * rater wording, sees autosave confirm and survive a reload and a dropped connection, submits, and
 * lands on the thank-you page; the link then no longer works. axe checks every page on the way.
 *
 * The demo employee's own self-assessment may already be submitted by the seed, so their part only
 * checks the introduction's way into it (it changes nothing).
 */

// A link of its own when the world provides one (submitting uses the link up); else the seed's shared one.
const INVITE = () => process.env.E2E_ANSWER_INVITE_LINK || process.env.E2E_INVITE_LINK!
const SUBJECT = 'Erin Employee'

/** The questionnaire the seeded invite leads to, read without following (or using up) the link. */
async function questionnairePath(page: Page): Promise<string> {
  const opened = await page.request.get(INVITE(), { maxRedirects: 0 })
  expect(opened.status(), 'the seeded invite link must still be live when this spec starts').toBe(302)
  // The link's GET leads to its "Continue as a colleague…" button; the button's POST says where to.
  const response = await page.request.post('/verification?mode=invite', { form: {}, maxRedirects: 0 })
  expect(response.status()).toBe(302)
  const path = new URL(response.headers()['location']!, 'http://x').pathname
  expect(path).toMatch(/^\/questionnaire\/[0-9a-f-]{36}$/)
  return path
}

async function expectSaved(page: Page) {
  await expect(page.getByText('All changes saved')).toBeVisible()
}

function scale(page: Page, question: string) {
  return page.getByRole('radiogroup', { name: new RegExp(question) })
}

test('the employee’s questionnaire page leads into their self-assessment', async ({ page, context }) => {
  const path = await questionnairePath(page)
  await context.clearCookies()
  await signInAs(page, 'employee@panorama.test')
  await expect(page).toHaveURL(/\/user$/)
  await page.goto(path)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Leadership 360')
  await expect(page.getByText('11 questions in 5 sections')).toBeVisible()
  await expect(page.getByText('About 9 minutes')).toBeVisible()
  await expectAccessible(page)
  // Erin answers this questionnaire in two programmes (the demo follows last year's cycle, ADR 044):
  // the page lists both self-assessments, this year's first.
  const list = page.getByRole('region', { name: 'You have 2 questionnaires to answer' })
  await expect(list.getByRole('listitem')).toHaveCount(2)
  await expect(list.getByRole('listitem').first()).toContainText('Acme leadership programme')
  await expect(list.getByRole('listitem').nth(1)).toContainText('Acme leadership review, last year')
  const way = list
    .getByRole('listitem')
    .first()
    .getByRole('link', { name: /^(Start|Continue where you stopped|View your answers)/ })
  await expect(way).toHaveAttribute('href', /^\/assignment\/[0-9a-f-]{36}/)
  await way.click()
  await expect(page).toHaveURL(/\/assignment\/[0-9a-f-]{36}/)
  // Self wording, in whichever state the seed left it (answering or read-only).
  await expect(page.getByText('I listen carefully before I respond.')).toBeVisible()
  await expectAccessible(page)
})

test('the colleague answers every section through their link, with autosave, and submits', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000)
  const path = await questionnairePath(page)
  await page.goto(INVITE())
  await expect(page).toHaveURL(new RegExp(`${path}$`))

  // The introduction: whose feedback, how long, the deadline, the way in.
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Leadership 360')
  await expect(page.getByText(`Your feedback for ${SUBJECT}`)).toBeVisible()
  await expect(page.getByText('11 questions in 5 sections')).toBeVisible()
  await expect(page.getByText('Deadline')).toBeVisible()
  await expectAccessible(page)
  await page.getByRole('link', { name: /^(Start|Continue where you stopped)$/ }).click()

  // Section 1: Communication, in the rater wording with the employee's name.
  await expect(page).toHaveURL(/\/assignment\/[0-9a-f-]{36}/)
  const assignmentUrl = page.url().split('?')[0]!
  await waitForHydration(page)
  await expect(page.getByText('Section 1 of 5')).toBeVisible()
  // The bar counts answers out of all eleven questions (issue 7 item 17), not sections.
  await expect(page.getByRole('progressbar')).toHaveAttribute('aria-valuemax', '11')
  await expect(page.getByRole('button', { name: /^1\. Communication/ })).toHaveAttribute(
    'aria-current',
    'step',
  )
  await expect(page.getByText(`${SUBJECT} listens carefully before responding.`)).toBeVisible()
  await expectAccessible(page)

  await scale(page, 'listens carefully').getByRole('radio', { name: '4 – Often' }).check()
  await scale(page, 'explains decisions clearly').getByRole('radio', { name: 'Not applicable' }).check()
  await expectSaved(page)

  // The autosave reached the server: a reload (or another device) shows the answers.
  await page.reload()
  await waitForHydration(page)
  await expect(scale(page, 'listens carefully').getByRole('radio', { name: '4 – Often' })).toBeChecked()
  await expect(
    scale(page, 'explains decisions clearly').getByRole('radio', { name: 'Not applicable' }),
  ).toBeChecked()

  // A dropped connection: the answer stays, the status says so, and the retry saves it.
  await page.route(
    (url) => url.pathname.endsWith('.data'),
    (route) => (route.request().method() === 'POST' ? route.abort('internetdisconnected') : route.continue()),
  )
  await scale(page, 'listens carefully').getByRole('radio', { name: '5 – Always' }).check()
  await expect(page.getByText(/Not saved — retrying/)).toBeVisible()
  await expect(scale(page, 'listens carefully').getByRole('radio', { name: '5 – Always' })).toBeChecked()
  await page.unrouteAll({ behavior: 'wait' })
  await expectSaved(page)
  await page.reload()
  await expect(scale(page, 'listens carefully').getByRole('radio', { name: '5 – Always' })).toBeChecked()
  await waitForHydration(page)
  await page.getByRole('button', { name: 'Next section →' }).click()

  // Section 2 on "another device" without JavaScript: plain form posts save and move between steps.
  const noJs = await browser.newContext({ javaScriptEnabled: false })
  await noJs.addCookies(await page.context().cookies())
  const plain = await noJs.newPage()
  await plain.goto(`${assignmentUrl}?section=2`)
  await expect(plain.getByText('Section 2 of 5')).toBeVisible()
  await expect(plain.getByText('Your answers are saved each time you change section.')).toBeVisible()
  await scale(plain, 'shares information').getByRole('radio', { name: '3 – Sometimes' }).check()
  await plain
    .getByRole('radiogroup', { name: new RegExp(`When we disagree, ${SUBJECT} usually`) })
    .getByRole('radio', { name: 'Look for common ground' })
    .check()
  await plain.getByRole('button', { name: 'Next section →' }).click()
  await expect(plain).toHaveURL(/\?section=3$/)
  await expect(plain.getByText('Section 3 of 5')).toBeVisible()
  await noJs.close()

  // Back on the first device: section 2 shows what the other one saved.
  await page.goto(`${assignmentUrl}?section=2`)
  await expect(page.getByText('Section 2 of 5')).toBeVisible()
  // The bar counts answers (issue 7 item 17): two in section 1, two in section 2.
  await expect(page.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '4')
  await expect(page.getByRole('button', { name: /^2\. Collaboration/ })).toHaveAttribute(
    'aria-current',
    'step',
  )
  await expect(scale(page, 'shares information').getByRole('radio', { name: '3 – Sometimes' })).toBeChecked()
  await expect(page.getByRole('radio', { name: 'Look for common ground' })).toBeChecked()
  await expectAccessible(page)
  await waitForHydration(page)
  await page.getByRole('button', { name: 'Next section →' }).click()

  // Section 3: Leadership, with the optional multiple choice.
  await expect(page).toHaveURL(/\?section=3$/)
  await expect(page.getByText(`Which of these are strengths of ${SUBJECT}?`)).toBeVisible()
  await expectAccessible(page)
  await scale(page, 'gives people room').getByRole('radio', { name: '4 – Often' }).check()
  await page.getByRole('checkbox', { name: 'Coaching' }).check()
  await page.getByRole('checkbox', { name: 'Empathy' }).check()
  await page.getByRole('button', { name: 'Next section →' }).click()

  // Section 4: Delivery.
  await expect(page).toHaveURL(/\?section=4$/)
  await expectAccessible(page)
  await scale(page, 'delivers what they promise').getByRole('radio', { name: '5 – Always' }).check()
  await scale(page, 'keeps quality high').getByRole('radio', { name: '4 – Often' }).check()
  await page.getByRole('button', { name: 'Next section →' }).click()

  // Section 5: Growth, with the written answers; autosave keeps them across a reload.
  await expect(page).toHaveURL(/\?section=5$/)
  await expect(page.getByText('Section 5 of 5')).toBeVisible()
  await waitForHydration(page)
  await expectAccessible(page)
  await scale(page, 'asks for feedback').getByRole('radio', { name: '3 – Sometimes' }).check()
  await page.getByLabel(`One thing ${SUBJECT} should keep doing:`).fill('Running the Friday demos.')
  await page
    .getByLabel(`What could ${SUBJECT} do differently to be more effective?`)
    .fill('Share the roadmap earlier.\nInvolve the team in estimates.')
  await expectSaved(page)
  await page.reload()
  await expect(page.getByLabel(`One thing ${SUBJECT} should keep doing:`)).toHaveValue(
    'Running the Friday demos.',
  )
  await expect(page.getByLabel(`What could ${SUBJECT} do differently to be more effective?`)).toHaveValue(
    'Share the roadmap earlier.\nInvolve the team in estimates.',
  )
  await waitForHydration(page)

  // The earlier sections kept their answers (going back by the step buttons).
  await page.getByRole('button', { name: /^3\. Leadership/ }).click()
  await expect(page).toHaveURL(/\?section=3$/)
  await expect(page.getByRole('checkbox', { name: 'Coaching' })).toBeChecked()
  await expect(page.getByRole('checkbox', { name: 'Vision' })).not.toBeChecked()
  await page.getByRole('button', { name: /^5\. Growth/ }).click()
  await expect(page).toHaveURL(/\?section=5$/)

  // "Submit answers" asks first, without JavaScript too: the last section again with the question
  // where its buttons were. "Not yet" goes back and submits nothing.
  const noScript = await browser.newContext({ javaScriptEnabled: false })
  await noScript.addCookies(await page.context().cookies())
  const asked = await noScript.newPage()
  await asked.goto(`${assignmentUrl}?section=5`)
  await asked.getByRole('button', { name: 'Submit answers' }).click()
  await expect(asked).toHaveURL(/\?section=5&confirm=submit#confirm-submit$/)
  await expect(asked.getByRole('heading', { name: 'Ready to submit?' })).toBeVisible()
  await expect(asked.getByText('Once you submit, your answers cannot be changed.')).toBeVisible()
  await expect(asked.getByRole('button', { name: 'Submit answers' })).toHaveCount(0)
  await asked.getByRole('link', { name: 'Not yet' }).click()
  await expect(asked).toHaveURL(/\?section=5$/)
  await expect(asked.getByRole('button', { name: 'Submit answers' })).toBeVisible()
  await noScript.close()

  // With JavaScript: the same step, focused on its question; then the answers go in.
  await page.getByRole('button', { name: 'Submit answers' }).click()
  await expect(page).toHaveURL(/\?section=5&confirm=submit/)
  const question = page.getByRole('heading', { name: 'Ready to submit?' })
  await expect(question).toBeFocused()
  await expect(page.getByText('Once you submit, your answers cannot be changed.')).toBeVisible()
  await expectAccessible(page)
  await page.getByRole('button', { name: 'Yes, submit my answers' }).click()
  await expect(page).toHaveURL(/\/user\/thank-you\?assignment=/)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Thank you')
  await expect(page.getByText(`Your feedback for ${SUBJECT} has been submitted.`)).toBeVisible()
  await expect(page.getByText('Nothing more is needed from you.')).toBeVisible()
  await expect(page.getByRole('heading', { name: /Questions\? Contact/ })).toBeVisible()
  await expectAccessible(page)

  // Read-only afterwards, and the invite link has done its job.
  await page.goto(assignmentUrl)
  await expect(page.getByText('You submitted these answers, so they can no longer be changed.')).toBeVisible()
  await expect(page.getByText('Running the Friday demos.')).toBeVisible()
  await expect(page.getByRole('button', { name: 'Submit answers' })).toHaveCount(0)
  await expectAccessible(page)
  const gone = await page.goto(INVITE())
  expect(gone?.status()).toBe(410)
})
