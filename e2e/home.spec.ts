import type { Page } from '@playwright/test'
import { expect, expectAccessible, signInAs, test } from './support/fixtures'
import { layoutShifts, recordLayoutShifts } from './support/layout-shift'

/**
 * The employee's home in a real browser: the seeded employee's programme card with the
 * self-assessment's state and next step, the invited colleague and their state, and the report
 * section; live updates over /api/events. The assertions hold whether or not the seed has already
 * submitted answers for the demo employee.
 */

const SCHEME = 'Acme leadership programme'

async function openHome(page: Page) {
  await signInAs(page, 'employee@panorama.test')
  await expect(page).toHaveURL(/\/user$/)
}

test('the employee sees their programme, their self-assessment and the colleague they invited', async ({
  page,
}) => {
  await openHome(page)
  await expect(page).toHaveTitle('My feedback · Panorama')
  await expect(page.getByRole('heading', { level: 1, name: 'My feedback' })).toBeVisible()

  const card = page.getByRole('article', { name: SCHEME })
  await expect(card).toBeVisible()
  await expect(card.getByText(/^Deadline: \d{1,2} [A-Z][a-z]+ \d{4} \(\d+ days? left\)$/)).toBeVisible()
  await expect(card.getByText('Acme Ltd · with Northwind Consulting')).toBeVisible()

  const self = card.getByRole('region', { name: 'Your self-assessment' })
  await expect(self.getByText(/^(Not started|In progress|Submitted)$/)).toBeVisible()
  // Exactly one next step, whichever state the seed left it in.
  await expect(
    self.getByRole('link', {
      name: /^(Start your self-assessment|Continue your self-assessment|View your answers)$/,
    }),
  ).toHaveCount(1)

  const colleagues = card.getByRole('region', { name: 'Colleagues you invited' })
  const casey = colleagues.getByRole('listitem').filter({ hasText: 'Casey Colleague' })
  await expect(casey).toHaveCount(1)
  await expect(casey).toContainText('colleague@panorama.test')
  await expect(casey.getByText(/^(Invited|Started|Answered)$/)).toBeVisible()
  await expect(colleagues.getByText(/^\d+ of \d+ (has|have) answered\.$/)).toBeVisible()

  const report = card.getByRole('region', { name: 'Your report' })
  await expect(report).toBeVisible()
  const submitted = (await self.getByText('Submitted', { exact: true }).count()) > 0
  if (submitted) {
    await expect(report.getByRole('link', { name: 'Read your report' })).toHaveAttribute(
      'href',
      /^\/user\/response-[0-9a-f-]{36}$/,
    )
  } else {
    await expect(
      report.getByText('Your report opens once you have submitted your self-assessment.'),
    ).toBeVisible()
  }

  await expectAccessible(page)
})

test('the page opens a live event stream and says it updates by itself', async ({ page }) => {
  const stream = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/events')
  await openHome(page)
  const response = await stream
  expect(response.status()).toBe(200)
  expect(response.headers()['content-type']).toMatch(/^text\/event-stream/)
  await expect(page.getByText('Colleagues’ progress updates on this page as it happens.')).toBeVisible()
})

test('on a phone the page does not move when its live updates connect', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 })
  await openHome(page)
  await recordLayoutShifts(page)
  await page.reload()
  // The line saying so was there, unseen, from the first paint: showing it moves nothing.
  await expect(page.getByText('Colleagues’ progress updates on this page as it happens.')).toBeVisible()
  const { cls, described } = await layoutShifts(page)
  expect(cls, described).toBe(0)
})

test('an update event makes the page re-read its data without a reload', async ({ page }) => {
  await openHome(page)
  // The server's side (who gets which event, and when) is proven by the integration tests; here the
  // browser's side: an `assignment.updated` arriving on the stream refreshes the page's data.
  let serveEvent = false
  await page.route('**/api/events', (route) =>
    route.fulfill({
      status: 200,
      headers: { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-store' },
      body: serveEvent
        ? 'retry: 60000\n\nevent: assignment.updated\ndata: {"assignmentId":"x","status":"submitted"}\n\n'
        : 'retry: 60000\n\n: connected\n\n',
    }),
  )
  const dataRequests: string[] = []
  page.on('request', (r) => {
    if (new URL(r.url()).pathname === '/user.data') dataRequests.push(r.url())
  })

  // A stream without events: nothing is re-read.
  await page.goto('/user')
  await expect(page.getByRole('article', { name: SCHEME })).toBeVisible()
  await page.waitForTimeout(1_000)
  expect(dataRequests).toEqual([])

  serveEvent = true
  const revalidated = page.waitForRequest((r) => new URL(r.url()).pathname === '/user.data')
  await page.goto('/user')
  await revalidated
  // Still the same document: no navigation happened.
  await expect(page).toHaveURL(/\/user$/)
  await expect(page.getByRole('article', { name: SCHEME })).toBeVisible()
})
