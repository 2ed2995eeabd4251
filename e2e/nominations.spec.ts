import type { Page } from '@playwright/test'
import {
  expect,
  expectAccessible,
  expectAccessibleAndFits,
  saveShots,
  signInAs,
  test,
  waitForHydration,
  waitForMail,
  waitForMails,
} from './support/fixtures'

/**
 * Nomination with approval (issue 18 §3, ADR 042) in a real browser, on a world of its own (made by
 * the suite's session door: a manager, their report, and a scheme approved by the manager asking
 * for a manager and three peers), so runs do not depend on each other or on the demo seed. The
 * employee builds the list from the invitations page — the suggested manager in one click, a
 * colleague from the directory's type-ahead, by the form, and by pasting two lines of
 * which one is refused with its reason — reads the group outlook say peers are one short, adds a
 * third and sends the list; the manager, in a browser of their own, opens the link from the e-mail
 * and sends it back with a comment; the employee reads it, swaps a peer and sends again; the manager
 * approves, everyone on the list is e-mailed an invitation, and the employee's invitations page lists
 * them. axe on both list pages, and both fit 360 px. `E2E_SHOTS=<dir>` saves screenshots of the
 * list at 1280 and 390 px (the employee with a sent-back list; the manager reviewing).
 */

const COMMENT = 'Please ask someone from the Leeds office instead of Pia: she joined the team last week.'

type World = {
  schemeId: string
  employeeId: string
  manager: { name: string; email: string }
  employee: { name: string; email: string }
}

async function freshWorld(run: string): Promise<World> {
  const door = new URL('nomination-world', process.env.E2E_SESSION_URL)
  door.searchParams.set('run', run)
  const response = await fetch(door)
  if (!response.ok) throw new Error(`No nomination world: ${await response.text()}`)
  return (await response.json()) as World
}

async function addByForm(page: Page, name: string, email: string, relationship: string) {
  const form = page.getByRole('region', { name: 'Add a colleague' })
  await waitForHydration(page)
  await form.getByLabel('Name').fill(name)
  await form.getByLabel('E-mail address').fill(email)
  await form.getByLabel('Relationship', { exact: true }).selectOption({ label: relationship })
  await form.getByRole('button', { name: 'Add to the list' }).click()
  await expect(page.getByText(`${name} added to your list`)).toBeVisible()
}

/** Finds a colleague in the directory's type-ahead (never shown an address) and adds them. */
async function addFromDirectory(page: Page, query: string, name: string, relationship: string) {
  await waitForHydration(page)
  const box = page.getByRole('combobox', { name: 'Find a colleague in the directory' })
  await box.fill(query)
  await page.getByRole('option', { name: new RegExp(name) }).click()
  const picked = page.locator('form', { has: page.locator('strong', { hasText: name }) })
  await picked.getByLabel('Relationship').selectOption({ label: relationship })
  await picked.getByRole('button', { name: 'Add to the list' }).click()
  await expect(page.getByText(`${name} added to your list`)).toBeVisible()
}

test('an employee builds a list, the manager sends it back, then approves it; everyone is invited', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000)
  const run = Date.now().toString(36)
  const world = await freshWorld(run)
  const peer = (first: string) => ({
    name: `${first} Peer`,
    email: `${first.toLowerCase()}.${run}@example.test`,
  })
  const [ada, pia, raj, sol] = [peer('Ada'), peer('Pia'), peer('Raj'), peer('Sol')]

  // The employee starts where invitations are made, and is sent to their list.
  await signInAs(page, world.employee.email)
  await page.goto('/user/colleague-invite')
  await page.getByRole('link', { name: 'Open your list' }).click()
  await expect(page).toHaveURL(new RegExp(`/user/nominations\\?scheme=${world.schemeId}$`))
  await expect(page.getByRole('heading', { level: 1, name: 'Your feedback list' })).toBeVisible()
  await expect(page.getByText(`send it to ${world.manager.name} for approval`)).toBeVisible()

  // The manager on record is suggested (one button); a colleague comes from the directory.
  await waitForHydration(page)
  await page.getByRole('button', { name: `Add ${world.manager.name} as manager` }).click()
  await expect(page.getByText(`${world.manager.name} added to your list`)).toBeVisible()
  await addFromDirectory(page, 'ada', ada.name, 'Peer')

  // Two pasted lines: one added, the other back in the box with its reason.
  await waitForHydration(page)
  await page.getByText('Paste a list of addresses').click()
  await page.getByLabel('Addresses, one per line').fill(`${pia.name} <${pia.email}>\nnot-an-address`)
  await page.getByLabel('Relationship of everyone pasted').selectOption({ label: 'Peer' })
  await page.getByRole('button', { name: 'Add these to the list' }).click()
  const verdict = page.getByRole('status').filter({ hasText: 'These lines were not' })
  await expect(verdict).toContainText('1 added.')
  await expect(verdict.getByRole('listitem')).toHaveText(
    'not-an-address: Enter an e-mail address like name@example.com.',
  )
  await expect(page.getByLabel('Addresses, one per line')).toHaveValue('not-an-address')

  // The outlook: two peers of the three asked for.
  const list = page.getByRole('region', { name: /^On the list/ })
  await expect(page.getByRole('heading', { name: 'On the list (3)' })).toBeVisible()
  await expect(list.getByText(pia.name, { exact: true })).toBeVisible()
  const outlook = page.getByRole('region', { name: 'How the report will group them' })
  await expect(outlook.getByRole('listitem').filter({ hasText: 'Peers' })).toContainText(
    'The scheme asks for at least 3: add 1 more.',
  )
  await expectAccessible(page)

  await addByForm(page, raj.name, raj.email, 'Peer')
  await expect(outlook).not.toContainText('add 1 more')
  await page.getByRole('button', { name: 'Send for approval' }).click()
  await expect(page.getByText(`The list was sent to ${world.manager.name} for approval`)).toBeVisible()
  await expect(page.getByText(`waiting for ${world.manager.name}`)).toBeVisible()
  await expect(page.getByRole('button', { name: /^Remove/ })).toHaveCount(0)

  // The manager, in a browser of their own, follows the e-mail's link.
  const mail = await waitForMail((m) => m.to.includes(world.manager.email))
  const link = mail.text.match(/https?:\/\/\S+\/user\/nominations\?scheme=[\w-]+&employee=[\w-]+/)?.[0]
  expect(link, 'the e-mail to the manager carries the link to the list').toBeTruthy()
  expect(new URL(link!).searchParams.get('employee')).toBe(world.employeeId)
  const managerContext = await browser.newContext()
  const manager = await managerContext.newPage()
  await signInAs(manager, world.manager.email)
  await manager.goto(link!)
  await expect(
    manager.getByRole('heading', { level: 1, name: `${world.employee.name}’s feedback list` }),
  ).toBeVisible()
  await expect(manager.getByText(/^Waiting for your approval since /)).toBeVisible()
  await expect(manager.getByRole('heading', { name: 'On the list (4)' })).toBeVisible()
  await expectAccessibleAndFits(manager, 'the manager’s review')
  await saveShots(manager, 'nominations-manager-review')
  await waitForHydration(manager)
  await manager.getByLabel('Or send it back with a comment').fill(COMMENT)
  await manager.getByRole('button', { name: 'Send back' }).click()
  await expect(manager.getByText(`${world.employee.name}’s list was sent back`)).toBeVisible()

  // The employee reads the comment, swaps Pia for Sol, and sends again.
  await page.reload()
  await expect(page.getByText(`Sent back by ${world.manager.name}.`)).toBeVisible()
  await expect(page.getByText(COMMENT)).toBeVisible()
  await expectAccessibleAndFits(page, 'the employee’s sent-back list')
  await saveShots(page, 'nominations-sent-back')
  await waitForHydration(page)
  await page.getByRole('button', { name: `Remove ${pia.name} from the list` }).click()
  await expect(page.getByText(`${pia.name} taken off your list`)).toBeVisible()
  await addByForm(page, sol.name, sol.email, 'Peer')
  await page.getByRole('button', { name: 'Send for approval' }).click()
  await expect(page.getByText(`The list was sent to ${world.manager.name} for approval`)).toBeVisible()

  // The manager approves: the invitations go out.
  await manager.reload()
  await expect(manager.getByText(sol.name, { exact: true })).toBeVisible()
  await expect(manager.getByText(pia.name)).toHaveCount(0)
  await waitForHydration(manager)
  await manager.getByRole('button', { name: 'Approve and send the invitations' }).click()
  await expect(manager.getByText(`${world.employee.name}’s list is approved`)).toBeVisible()
  await expect(manager.getByText('4 invitations were sent.')).toBeVisible()
  await managerContext.close()

  const invited = [world.manager, ada, raj, sol]
  for (const person of invited) {
    const [invitation] = await waitForMails(
      (m) => m.to.includes(person.email) && /\/verification\?mode=invite&code=[\w-]+/.test(m.text),
      1,
    )
    expect(invitation!.subject, person.email).toContain(world.employee.name)
  }
  const toPia = await fetch(process.env.E2E_MAILBOX_URL!).then((r) => r.json() as Promise<{ to: string }[]>)
  expect(toPia.filter((m) => m.to.includes(pia.email))).toEqual([])

  // The employee's invitations page lists everyone approved.
  await page.goto(`/user/colleague-invite?scheme=${world.schemeId}`)
  const table = page.getByRole('table', { name: /Colleagues invited to/ })
  for (const person of invited)
    await expect(table.getByRole('row', { name: new RegExp(person.name) })).toBeVisible()
  await expect(table.getByRole('row', { name: new RegExp(pia.name) })).toHaveCount(0)
})
