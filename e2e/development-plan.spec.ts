import type { Page } from '@playwright/test'
import {
  expect,
  expectAccessibleAndFits,
  saveShots,
  signInAs,
  test,
  waitForHydration,
} from './support/fixtures'

/**
 * A development plan and a report shared with the manager (issue 19 §1–2, ADR 043) in a real
 * browser, on the demo seed: Erin opens her released report, adds "Collaboration" to her plan with
 * the button beside it, writes what she will do (the autosave says "All changes saved", and a reload
 * shows it kept), and shares the report and plan with her manager Dana; Dana, in a browser of her
 * own, finds it under "Shared with you" and reads it (figures and plan, no comments); Erin stops
 * sharing and Dana's next look is the not-found page. axe on the plan page and the shared view, and
 * both fit 360 px. `E2E_SHOTS=<dir>` saves both at 1280 and 390 px.
 */

const ERIN = 'employee@panorama.test'
const DANA = 'manager@panorama.test'
const ACTIONS = 'Pair with a peer from another team each sprint and share the notes on Friday.'

async function openReport(page: Page) {
  await page.goto('/user')
  await page.locator('a[href^="/user/response-"]').first().click()
  await expect(page).toHaveURL(/\/user\/response-[0-9a-f-]{36}$/)
  await expect(page.getByRole('heading', { level: 1, name: /Feedback report/ })).toBeVisible()
}

test('Erin writes a plan from her report and shares it; Dana reads it until Erin stops', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000)
  await signInAs(page, ERIN)
  await openReport(page)
  const reportUrl = page.url()
  const rid = new URL(reportUrl).pathname.replace('/user/response-', '')
  const sharedPath = `/user/shared/${rid}`

  // From the report: "Add to my plan" beside the competency.
  await waitForHydration(page)
  await page.getByRole('button', { name: 'Add “Collaboration” to my plan' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Your development plan' })).toBeVisible()
  await expect(page.getByText('“Collaboration” added to your plan')).toBeVisible()
  const area = page.getByRole('group', { name: /Collaboration/ })
  await expect(area).toBeVisible()

  // Autosaved as she types.
  await waitForHydration(page)
  await area.getByLabel('What I will do').fill(ACTIONS)
  await area.getByLabel('Support I need (from whom)').fill('Dana: an introduction to the data team.')
  await expect(page.getByText('All changes saved')).toBeVisible()
  await page.reload()
  await expect(page.getByRole('group', { name: /Collaboration/ }).getByLabel('What I will do')).toHaveValue(
    ACTIONS,
  )
  await expectAccessibleAndFits(page, 'the plan page')
  await saveShots(page, 'plan-page')

  // The seed shared the report already: stop, so that the share below is this run's own.
  const share = page.getByRole('region', { name: 'Share with your manager' })
  if (await share.getByRole('button', { name: 'Stop sharing' }).isVisible()) {
    await share.getByRole('button', { name: 'Stop sharing' }).click()
    await expect(page.getByText('Dana Director can no longer read your report')).toBeVisible()
  }

  const danaContext = await browser.newContext()
  const dana = await danaContext.newPage()
  await signInAs(dana, DANA)
  await dana.goto('/user')
  await expect(dana.getByRole('heading', { name: 'Shared with you' })).toHaveCount(0)
  const closed = await dana.goto(sharedPath)
  expect(closed?.status()).toBe(404)

  await waitForHydration(page)
  await expect(share.getByLabel('Include my development plan')).toBeChecked()
  await share.getByRole('button', { name: 'Share with Dana Director' }).click()
  await expect(page.getByText('Shared with Dana Director', { exact: true })).toBeVisible()
  await expect(share.getByRole('status')).toContainText('Shared with Dana Director since')

  // Dana: "Shared with you" on her home, then the report read-only with the plan.
  await dana.goto('/user')
  const list = dana.getByRole('region', { name: 'Shared with you' })
  await expect(list).toBeVisible()
  await list.getByRole('link', { name: 'Erin Employee' }).click()
  await expect(dana.getByRole('heading', { level: 1, name: /Feedback report/ })).toBeVisible()
  await expect(dana.getByText('Erin Employee shared this report with you')).toBeVisible()
  await expect(dana.getByRole('heading', { name: 'Erin Employee’s development plan' })).toBeVisible()
  await expect(dana.getByText(ACTIONS)).toBeVisible()
  await expect(dana.getByRole('heading', { name: 'Comments from colleagues' })).toHaveCount(0)
  await expect(dana.getByRole('button', { name: /to my plan/ })).toHaveCount(0)
  await expectAccessibleAndFits(dana, 'the shared report')
  await saveShots(dana, 'shared-report')

  // Erin stops sharing: Dana's next look is the not-found page, and her list is gone.
  await share.getByRole('button', { name: 'Stop sharing' }).click()
  await expect(page.getByText('Dana Director can no longer read your report')).toBeVisible()
  const gone = await dana.goto(sharedPath)
  expect(gone?.status()).toBe(404)
  await dana.goto('/user')
  await expect(dana.getByRole('region', { name: 'Shared with you' })).toHaveCount(0)
  await danaContext.close()
})
