import type { Page } from '@playwright/test'
import {
  expect,
  expectAccessible,
  expectFits,
  NARROW_SCREEN,
  passInterstitial,
  signInAs,
  test,
  waitForHydration,
} from './support/fixtures'

/**
 * Every page of the product on a 360 × 740 phone, as each kind of visitor (issue 7, item 14): none
 * may scroll sideways; wide tables scroll inside their own box and charts shrink to the screen. The
 * suite's `test` also re-checks every page any other spec visits at this width (support/fixtures.ts);
 * this spec makes sure the pages no other spec reaches are covered too.
 *
 * Each page's width is printed (`360 px: <path> <scrollWidth>/<clientWidth>`) for the record.
 */
test.use({ viewport: NARROW_SCREEN })

/** Opens a page, checks it, and lists what did not fit instead of stopping at the first one. */
async function visit(page: Page, path: string, problems: string[], label = path) {
  const response = await page.goto(path)
  expect(response, path).not.toBeNull()
  try {
    const fit = await expectFits(page, label)
    console.log(`360 px: ${label} ${fit.scrollWidth}/${fit.clientWidth}`)
  } catch (error) {
    console.log(`360 px: ${label} FAILS ${(error as Error).message.split('\n')[0]}`)
    problems.push((error as Error).message.split('\n')[0]!)
  }
}

/** The invitation link's questionnaire (the interstitial, if any, is passed through with its button). */
async function openInvite(page: Page, link: string) {
  await page.goto(link)
  await passInterstitial(page)
  await expect(page).toHaveURL(/\/questionnaire\/[0-9a-f-]{36}/)
  return new URL(page.url()).pathname
}

test('public pages fit a 360 px phone', async ({ page }) => {
  const problems: string[] = []
  for (const path of [
    '/',
    '/sign-in',
    '/forgot-password',
    '/verification?mode=invite',
    '/verification?mode=resetPassword',
    '/this/page/does-not-exist',
  ])
    await visit(page, path, problems)
  expect(problems).toEqual([])
})

test('a colleague’s pages fit a 360 px phone: introduction, questions, thank-you', async ({ page }) => {
  const problems: string[] = []
  const intro = await openInvite(page, process.env.E2E_INVITE_LINK!)
  await visit(page, intro, problems, '/questionnaire/:id (colleague)')
  await expectAccessible(page)
  await page.getByRole('link', { name: /^(Start|Continue where you stopped|View your answers)$/ }).click()
  await expect(page).toHaveURL(/\/assignment\/[0-9a-f-]{36}/)
  const assignment = new URL(page.url()).pathname
  for (const section of [1, 5])
    await visit(
      page,
      `${assignment}?section=${section}`,
      problems,
      `/assignment/:id?section=${section} (colleague)`,
    )
  await visit(page, '/user/thank-you', problems, '/user/thank-you (colleague)')
  expect(problems).toEqual([])
})

test('an employee’s pages fit a 360 px phone, the invite list and the report included', async ({
  page,
  browser,
}) => {
  const problems: string[] = []
  // The questionnaire's address, from a colleague's link into the same questionnaire (in a window of its own).
  const colleague = await browser.newContext({ viewport: NARROW_SCREEN })
  const intro = await openInvite(await colleague.newPage(), process.env.E2E_INVITE_LINK!)
  await colleague.close()

  await signInAs(page, 'employee@panorama.test')
  await expect(page).toHaveURL(/\/user$/)
  await visit(page, '/user', problems)
  await visit(page, intro, problems, '/questionnaire/:id (employee)')
  // Erin has two self-assessments of this questionnaire (the demo follows last year's cycle): this year's is first.
  const self = await page
    .getByRole('link', { name: /^(Start|Continue where you stopped|View your answers)/ })
    .first()
    .getAttribute('href')
  await visit(page, self!, problems, '/assignment/:id (employee)')
  await visit(page, '/user/edit-profile', problems)
  await visit(page, '/user/thank-you', problems)

  // The invite list with a long address in it: e-mails break sensibly, Resend and Revoke stay on screen.
  // Wren's list (Erin's eight places are taken), in a window of her own; Erin's report follows.
  const wren = await browser.newContext({ viewport: NARROW_SCREEN })
  const wrenPage = await wren.newPage()
  await signInAs(wrenPage, 'employee3@panorama.test')
  await expect(wrenPage).toHaveURL(/\/user$/)
  await wrenPage.goto('/user/colleague-invite')
  await waitForHydration(wrenPage)
  const stamp = Date.now()
  const name = `Maximiliana Wolfeschlegelsteinhausen ${stamp}`
  const email = `maximiliana.wolfeschlegelsteinhausen.${stamp}@subsidiary.example-consultancy.test`
  const form = wrenPage.getByRole('region', { name: 'Invite a colleague' })
  await form.getByLabel('Name').fill(name)
  await form.getByLabel('E-mail address').fill(email)
  await form.getByLabel('Relationship').selectOption({ label: 'Peer' })
  await form.getByRole('button', { name: 'Send invitation' }).click()
  await expect(wrenPage.getByRole('status').getByText(`Invitation sent to ${name}`)).toBeVisible()
  await visit(wrenPage, wrenPage.url(), problems, '/user/colleague-invite (with a long address)')
  const entry = wrenPage.getByRole('row').filter({ hasText: email })
  for (const button of [
    entry.getByRole('button', { name: /^Resend/ }),
    entry.getByRole('link', { name: /^Revoke/ }),
  ]) {
    await expect(button).toBeVisible()
    const box = (await button.boundingBox())!
    if (box.x + box.width > NARROW_SCREEN.width)
      problems.push(`${await button.innerText()} is off-screen (${Math.round(box.x + box.width)} px)`)
  }
  await expectAccessible(wrenPage)
  // Withdrawn again, so the demo employee keeps their free places for the other specs.
  await entry.getByRole('link', { name: /^Revoke/ }).click()
  await expect(wrenPage).toHaveURL(/revoke=/)
  await visit(wrenPage, wrenPage.url(), problems, '/user/colleague-invite?revoke=… (confirmation)')
  await wrenPage.getByRole('button', { name: 'Yes, revoke the invitation' }).click()
  await expect(wrenPage.getByRole('status').getByText(`Invitation to ${name} revoked`)).toBeVisible()
  await wren.close()

  // The report: tables scroll inside their own box, the charts take the screen's width.
  await page.goto('/user')
  const report = await page.locator('a[href^="/user/response-"]').first().getAttribute('href')
  await visit(page, report!, problems, '/user/response-:rid (charts)')
  // A chart is drawn when it comes near the screen (issue 8): scroll past every one first.
  for (const box of await page.locator('.report-chart').all()) {
    await box.scrollIntoViewIfNeeded()
    await expect(box.locator('canvas')).toBeVisible()
  }
  const charts = page.getByRole('img', { name: /^(Radar|Bar) chart/ })
  await expect(charts.first()).toBeVisible()
  for (const chart of await charts.all()) {
    const box = (await chart.boundingBox())!
    expect(box.width).toBeGreaterThan(200)
    if (box.x + box.width > NARROW_SCREEN.width)
      problems.push(`a chart reaches ${Math.round(box.x + box.width)} px`)
  }
  await expectAccessible(page)
  expect(problems).toEqual([])
})

test('the report below the threshold fits a 360 px phone', async ({ page }) => {
  const problems: string[] = []
  await signInAs(page, 'employee2@panorama.test')
  await expect(page).toHaveURL(/\/user$/)
  const report = await page.locator('a[href^="/user/response-"]').first().getAttribute('href')
  await visit(page, report!, problems, '/user/response-:rid (below the threshold)')
  expect(problems).toEqual([])
})

test('every admin page fits a 360 px phone', async ({ page }) => {
  const problems: string[] = []
  await signInAs(page, 'admin@panorama.test')
  await expect(page).toHaveURL(/\/admin$/)
  for (const path of [
    '/admin',
    '/admin/company-management',
    '/admin/brand-management',
    '/admin/email-management',
    '/admin/email-management?tab=outbox',
    '/admin/email-management/colleague_invite',
    '/admin/admin-management',
    '/admin/employee-management',
    '/admin/scheme-management',
    '/admin/questionnaire-management',
    '/admin/answer-management',
    `/admin/employee-management/${crypto.randomUUID()}`,
    `/admin/admin-management/${crypto.randomUUID()}`,
    `/admin/scheme-management/${crypto.randomUUID()}`,
    `/admin/questionnaire-management/${crypto.randomUUID()}`,
    `/admin/email-management/outbox/${crypto.randomUUID()}`,
    '/user/colleague-invite',
  ])
    await visit(page, path, problems, path.replace(/[0-9a-f-]{36}$/, ':id'))

  await page.goto('/admin/brand-management')
  const brand = await page.locator('a[href^="/admin/brand-management/"]').first().getAttribute('href')
  await visit(page, brand!, problems, '/admin/brand-management/:id')
  await page.goto('/admin/questionnaire-management')
  const questionnaire = await page
    .locator('a[href^="/admin/questionnaire-management/"]')
    .first()
    .getAttribute('href')
  await visit(page, questionnaire!, problems, '/admin/questionnaire-management/:qid')
  await visit(
    page,
    `${questionnaire}?preview=colleague`,
    problems,
    '/admin/questionnaire-management/:qid?preview',
  )
  await page.goto('/admin/company-management')
  const edit = await page.getByRole('link', { name: /^Edit/ }).first().getAttribute('href')
  await visit(page, edit!, problems, '/admin/company-management?edit=…')
  expect(problems).toEqual([])
})
