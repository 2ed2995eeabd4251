import path from 'node:path'
import type { Page } from '@playwright/test'
import { expect, expectAccessible, signInAs, test, waitForHydration } from './support/fixtures'

/**
 * Reopen requests (issue 18 §5, ADR 039) in a real browser: a colleague who submitted (the seed's
 * Jordan Peer, on Sam Second) asks from the thank-you page to change their answers, with a note; an
 * admin reopens them in one click from the list of requests; the colleague finds the questionnaire
 * open again with their note as the reason, and submits again (so Sam's demo state is as before).
 * axe on every page; the suite's fixture checks each at 360 px. `E2E_SHOTS=<dir>` saves screenshots
 * of the new pages at 1280 and 390 px.
 */

const COLLEAGUE = 'jordan.peer@panorama.test'
const NOTE = 'I mixed up two people in the collaboration section.'
const SHOTS = process.env.E2E_SHOTS

async function shoot(page: Page, name: string) {
  if (!SHOTS) return
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 })
    await page.screenshot({ path: path.join(SHOTS, `${name}-${width}.png`), fullPage: true })
  }
  await page.setViewportSize({ width: 1280, height: 720 })
}

test('a colleague asks to change their submitted answers; an admin reopens them in one click', async ({
  page,
  browser,
}) => {
  test.setTimeout(90_000)
  await signInAs(page, COLLEAGUE)
  await page.goto('/user/thank-you')
  await expect(page.getByText('Your feedback for Sam Second has been submitted.')).toBeVisible()
  const card = page.getByRole('region', { name: 'I need to change my answers' })
  await expect(card).toBeVisible()
  await expectAccessible(page)
  await shoot(page, 'reopen-request-form')

  await waitForHydration(page)
  const note = card.getByLabel('What do you need to change? (optional)')
  await note.fill('x'.repeat(500))
  await expect(note).toHaveValue('x'.repeat(500))
  await note.fill(NOTE)
  await card.getByRole('button', { name: 'Ask to change my answers' }).click()
  await expect(card.getByText('Your request has been sent.')).toBeVisible()
  const thankYou = page.url()
  await page.reload()
  await expect(
    page
      .getByRole('region', { name: 'I need to change my answers' })
      .getByText('Your request has been sent.'),
  ).toBeVisible()
  await expectAccessible(page)
  await shoot(page, 'reopen-request-sent')

  // The admin, in a browser of their own: the count on answer management, the list, one click.
  const adminContext = await browser.newContext()
  const admin = await adminContext.newPage()
  await signInAs(admin, 'admin@panorama.test')
  await admin.goto('/admin/answer-management')
  await admin.getByRole('link', { name: /reopen request(s are| is) waiting/ }).click()
  await expect(admin.getByRole('heading', { level: 1, name: 'Reopen requests' })).toBeVisible()
  const request = admin.getByRole('article', { name: 'A peer’s feedback about Sam Second' })
  await expect(request.getByText(`“${NOTE}”`)).toBeVisible()
  // Who answered is not on the page (ADR 024).
  await expect(admin.getByText('Jordan')).toHaveCount(0)
  await expectAccessible(admin)
  await shoot(admin, 'reopen-requests-list')
  await waitForHydration(admin)
  await request.getByRole('button', { name: /^Reopen/ }).click()
  await expect(admin.getByText('Answers reopened')).toBeVisible()
  await expect(admin.getByRole('article', { name: 'A peer’s feedback about Sam Second' })).toHaveCount(0)
  await expectAccessible(admin)
  await adminContext.close()

  // The colleague: the questionnaire is open again and says why, in their own words.
  const assignmentId = /assignment=([0-9a-f-]{36})/.exec(thankYou)![1]!
  await page.goto(`/assignment/${assignmentId}`)
  await expect(
    page.getByText(`Your administrator reopened your answers: “As you asked. Your note: ${NOTE}”.`),
  ).toBeVisible()
  await expectAccessible(page)
  await shoot(page, 'reopened-questionnaire')

  // …and submits again from the last section.
  await page.goto(`/assignment/${assignmentId}?section=5`)
  await waitForHydration(page)
  await page.getByRole('button', { name: 'Submit answers' }).click()
  await page.getByRole('button', { name: 'Yes, submit my answers' }).click()
  await expect(page).toHaveURL(/\/user\/thank-you\?assignment=/)
  await expect(page.getByText('Your feedback for Sam Second has been submitted.')).toBeVisible()
  await expect(page.getByRole('button', { name: 'Ask to change my answers' })).toBeVisible()
})

test('an admin declines a request with a reason; the colleague reads it and may ask again', async ({
  page,
  browser,
}) => {
  await signInAs(page, COLLEAGUE)
  await page.goto('/user/thank-you')
  await waitForHydration(page)
  const card = page.getByRole('region', { name: 'I need to change my answers' })
  await card.getByRole('button', { name: 'Ask to change my answers' }).click()
  await expect(card.getByText('Your request has been sent.')).toBeVisible()

  const adminContext = await browser.newContext()
  const admin = await adminContext.newPage()
  await signInAs(admin, 'admin@panorama.test')
  await admin.goto('/admin/answer-management/reopen-requests')
  const request = admin.getByRole('article', { name: 'A peer’s feedback about Sam Second' })
  await expect(request.getByText('No note.')).toBeVisible()
  await waitForHydration(admin)
  await request.getByText('Decline').first().click()
  await request
    .getByLabel('Reason (optional, shown to the respondent)')
    .fill('The round closes on Friday; please add it as a comment in your next programme.')
  await expectAccessible(admin)
  await shoot(admin, 'reopen-requests-decline')
  await request.getByRole('button', { name: 'Decline the request' }).click()
  await expect(admin.getByText('Request declined')).toBeVisible()
  await expect(admin.getByText('No request is waiting.')).toBeVisible()
  await adminContext.close()

  await page.reload()
  const declined = page.getByRole('region', { name: 'I need to change my answers' })
  await expect(declined.getByText('The programme team did not reopen your answers.')).toBeVisible()
  await expect(declined.getByText(/The round closes on Friday/)).toBeVisible()
  await expect(declined.getByRole('button', { name: 'Ask to change my answers' })).toBeVisible()
  await expectAccessible(page)
  await shoot(page, 'reopen-request-declined')
})
