import type { Locator, Page } from '@playwright/test'
import { expect, expectAccessible, passInterstitial, test, waitForHydration } from './support/fixtures'

/**
 * The answering page's progress in a real browser (issue 7, item 17), on the seeded colleague Casey
 * (who is never asked to submit by the suite): the bar counts answers, not sections; the "still
 * unanswered" summary follows what autosave just saved, without a reload; and an answer longer than
 * its limit is kept whole, counted, and refused with the numbers — never cut.
 */

const SUBJECT = 'Erin Employee'

/** "3 of 11 questions answered · 7 of 8 required still to answer" → [3, 11]. */
async function answered(page: Page): Promise<[number, number]> {
  const text = (await page.locator('#progress-label').innerText()).replace(/\s+/g, ' ')
  const match = /^(\d+) of (\d+) questions? answered/.exec(text)
  expect(match, text).not.toBeNull()
  return [Number(match![1]), Number(match![2])]
}

function scale(page: Page, question: string) {
  return page.getByRole('radiogroup', { name: new RegExp(question) })
}

/** Chooses a value other than the one chosen now (so the change is a real one). */
async function choose(group: Locator) {
  const radios = group.getByRole('radio', { name: /^[1-5] – / })
  const checked = await radios.evaluateAll((list) => list.findIndex((r) => (r as HTMLInputElement).checked))
  await radios.nth(checked === 2 ? 3 : 2).check()
}

/** Casey's invite link, followed to their assignment: its path. */
async function openAssignment(page: Page): Promise<string> {
  await page.goto(process.env.E2E_INVITE_LINK!)
  await passInterstitial(page)
  await expect(page).toHaveURL(/\/questionnaire\/[0-9a-f-]{36}/)
  await page.getByRole('link', { name: /^(Start|Continue where you stopped)$/ }).click()
  await expect(page).toHaveURL(/\/assignment\/[0-9a-f-]{36}/)
  return new URL(page.url()).pathname
}

test('the bar counts answers and the summary follows each autosave; long text is counted, kept and refused', async ({
  page,
}) => {
  test.setTimeout(120_000)
  const assignment = await openAssignment(page)

  // Section 1: clearing the first answer (if any) and giving it again moves the count, live.
  await page.goto(`${assignment}?section=1`)
  await waitForHydration(page)
  await expect(page.getByText('Section 1 of 5')).toBeVisible()
  const listens = scale(page, 'listens carefully')
  const [before, total] = await answered(page)
  expect(total).toBe(11)
  const bar = page.getByRole('progressbar')
  await expect(bar).toHaveAttribute('aria-valuemax', '11')
  await expect(bar).toHaveAttribute('aria-valuenow', String(before))
  const wasAnswered = await listens
    .getByRole('radio')
    .evaluateAll((list) => list.some((r) => (r as HTMLInputElement).checked))
  await choose(listens)
  await expect(page.getByText('All changes saved')).toBeVisible()
  const now = wasAnswered ? before : before + 1
  await expect.poll(() => answered(page)).toEqual([now, 11])
  await expect(bar).toHaveAttribute('aria-valuenow', String(now))

  // The last section: its required question is listed as still unanswered until autosave saves it.
  await page.goto(`${assignment}?section=5`)
  await waitForHydration(page)
  const summary = page
    .locator('.card')
    .filter({ has: page.getByRole('heading', { name: 'Ready to submit?' }) })
  const growth = scale(page, 'asks for feedback and acts on it')
  // A fresh world: nobody else answers for Casey, so the section's required question is still open.
  await expect(summary.getByRole('link', { name: 'Growth (1)' })).toBeVisible()
  await choose(growth)
  await expect(page.getByText('All changes saved')).toBeVisible()
  await expect(summary).not.toContainText(/Growth \(\d+\)/)
  await expect(summary.getByRole('link', { name: /^Growth/ })).toHaveCount(0)
  await expectAccessible(page)

  // A written answer longer than its limit: all of it stays in the box, the counter says by how much,
  // and the save is refused with the same numbers.
  const keep = page.getByLabel(`One thing ${SUBJECT} should keep doing:`)
  const tooLong = 'Keeps every meeting short and focused. '.repeat(14).slice(0, 520)
  await keep.fill(tooLong)
  await expect(keep).toHaveValue(tooLong)
  expect((await keep.inputValue()).length).toBe(520)
  await expect(page.getByText('520 of 500: 20 too many')).toBeVisible()
  await expect(keep).toHaveAttribute('aria-invalid', 'true')
  await expect(page.getByText('Not saved — check the answers marked below')).toBeVisible()
  await expect(page.getByText('Keep your answer to 500 characters or fewer (it has 520).')).toBeVisible()

  // Shortened, it saves.
  await keep.fill(tooLong.slice(0, 480))
  await expect(page.getByText('480 of 500')).toBeVisible()
  await expect(page.getByText('All changes saved')).toBeVisible()
  await page.reload()
  await expect(page.getByLabel(`One thing ${SUBJECT} should keep doing:`)).toHaveValue(
    tooLong.slice(0, 480).trim(),
  )
})

test('one autosave is one request: neither the page nor the root reloads its data after it', async ({
  page,
  baseURL,
}) => {
  const assignment = await openAssignment(page)
  await page.goto(`${assignment}?section=1`)
  await waitForHydration(page)
  const sent: string[] = []
  page.on('request', (request) => {
    const url = new URL(request.url())
    // A reload of the page's or the root's data is a `.data` request (or a document); the start-up
    // session sync (POST /api/__session) and the router's route discovery (/__manifest) are neither,
    // and on a slow machine they may still be on their way when the answering starts.
    const load = url.pathname.endsWith('.data') || request.resourceType() === 'document'
    if (url.origin === new URL(baseURL!).origin && load)
      sent.push(`${request.method()} ${url.pathname}${url.search}`)
  })
  await choose(scale(page, 'listens carefully'))
  // "Saved" shows once the fetcher is idle again, that is after any reload that followed the save.
  await expect(page.getByText('All changes saved')).toBeVisible()
  await page.waitForLoadState('networkidle')
  expect(sent).toEqual([`POST ${assignment}.data?section=1`])
})
