import { instantToZonedTime } from '../app/lib/dates'
import { expect, expectAccessible, signInAs, test, waitForHydration, waitForMail } from './support/fixtures'

/**
 * An admin runs a programme from the browser: creates a scheme from the seed's company and
 * questionnaire, enrols someone new (no password yet) and an existing employee from the company's
 * list, launches it; the newcomer activates their account from the e-mail the SMTP catcher received
 * and finds the programme on /user. axe checks the admin pages on the way (and the suite's fixture
 * checks every page at 360 px).
 */

const ZONE = 'Europe/London'
const HOUR = 60 * 60 * 1000

test('create, enrol, launch; the newcomer activates from the e-mail and sees the programme', async ({
  page,
  browser,
}) => {
  const run = Date.now().toString(36)
  const schemeName = `Launch journey ${run}`
  const newcomer = { name: 'Ada Activate', email: `ada.${run}@example.test` }

  await signInAs(page, 'admin@panorama.test')
  await expect(page).toHaveURL(/\/admin$/)
  await page.goto('/admin/scheme-management')
  await expect(page.getByRole('heading', { level: 1, name: 'Schemes' })).toBeVisible()
  await expectAccessible(page)
  await waitForHydration(page)

  // Create: the seed's company and questionnaire, dates typed in London time.
  const form = page.locator('#create-scheme')
  await form.getByLabel('Scheme name').fill(schemeName)
  await form.getByLabel('Company').selectOption({ label: 'Acme Ltd' })
  await form.getByLabel('Questionnaire').selectOption({ label: 'Leadership 360' })
  await form.getByLabel('Time zone').fill(ZONE)
  // Opened an hour ago, so the e-mails go out at launch rather than waiting for the opening.
  await form.getByLabel('Opens').fill(instantToZonedTime(new Date(Date.now() - HOUR), ZONE))
  await form.getByLabel('Closes').fill(instantToZonedTime(new Date(Date.now() + 30 * 24 * HOUR), ZONE))
  await form.getByRole('button', { name: 'Create scheme' }).click()
  await expect(page).toHaveURL(/\/admin\/scheme-management\/[0-9a-f-]{36}$/)
  await expect(page.getByRole('heading', { level: 1, name: schemeName })).toBeVisible()
  await expect(page.getByText('Scheme created')).toBeVisible()
  await expectAccessible(page)
  const schemeUrl = page.url()

  // Enrol someone new (no password) …
  await waitForHydration(page)
  const add = page.getByRole('form', { name: 'Someone new' })
  await add.getByLabel('Name').fill(newcomer.name)
  await add.getByLabel('E-mail address').fill(newcomer.email)
  await add.getByRole('button', { name: 'Add and enrol' }).click()
  await expect(page.getByText('Employee enrolled')).toBeVisible()
  const participants = page.getByRole('table', { name: /Participants/ })
  await expect(participants.getByRole('rowheader', { name: new RegExp(newcomer.name) })).toBeVisible()

  // … and an existing employee, picked from the company's list.
  await waitForHydration(page)
  await page.getByRole('checkbox', { name: /Sam Second/ }).check()
  await page.getByRole('button', { name: 'Enrol the chosen employees' }).click()
  await expect(page.getByText('1 employee enrolled.')).toBeVisible()
  await expect(participants.getByRole('rowheader', { name: /Sam Second/ })).toBeVisible()

  // Launch, behind its confirmation.
  await waitForHydration(page)
  await page.getByRole('link', { name: 'Launch the scheme' }).click()
  await expect(page.getByRole('heading', { name: `Launch “${schemeName}”?` })).toBeVisible()
  await expect(page.getByText('Each of the 2 enrolled employees gets one e-mail')).toBeVisible()
  await expectAccessible(page)
  await page.getByRole('button', { name: 'Yes, launch and send the e-mails' }).click()
  await expect(page.getByText('Scheme launched')).toBeVisible()
  await expect(
    page.getByText('2 e-mails queued (1 to activate an account, 1 “your programme is open”)'),
  ).toBeVisible()
  await expect(page.getByText('Open', { exact: true }).first()).toBeVisible()
  await expectAccessible(page)

  // The existing employee hears that the programme is open; the newcomer gets an activation link.
  const open = await waitForMail(
    (m) => m.to.includes('employee2@panorama.test') && m.subject.includes(schemeName),
  )
  expect(open.text).toContain('/user')
  const mail = await waitForMail((m) => m.to.includes(newcomer.email))
  expect(mail.subject).toContain('activate your account')
  const link = mail.text.match(/https?:\/\/\S+\/verification\?mode=activate&code=[\w-]+/)?.[0]
  expect(link, 'the e-mail carries an activation link').toBeTruthy()

  // The newcomer, in a browser of their own.
  const context = await browser.newContext()
  const newcomerPage = await context.newPage()
  await newcomerPage.goto(link!)
  await expect(newcomerPage.getByRole('heading', { name: 'Activate your account' })).toBeVisible()
  await waitForHydration(newcomerPage)
  await newcomerPage.getByLabel('New password', { exact: true }).fill('a-fresh-passphrase-42')
  await newcomerPage.getByLabel('Repeat the password').fill('a-fresh-passphrase-42')
  await newcomerPage.getByRole('button', { name: 'Activate account' }).click()
  await expect(newcomerPage).toHaveURL(/\/user$/)
  await expect(newcomerPage.getByRole('heading', { name: schemeName })).toBeVisible()
  await expect(newcomerPage.getByRole('link', { name: 'Start your self-assessment' })).toBeVisible()
  await expectAccessible(newcomerPage)
  await context.close()

  // Back on the scheme page, the newcomer's account is active now.
  await page.goto(schemeUrl)
  const row = participants.getByRole('row', { name: new RegExp(newcomer.name) })
  await expect(row.getByRole('cell', { name: 'Active', exact: true })).toBeVisible()
  await expect(row.getByRole('link', { name: /Invite on their behalf/ })).toHaveAttribute(
    'href',
    /\/user\/colleague-invite\?employee=[0-9a-f-]{36}&scheme=[0-9a-f-]{36}/,
  )
})
