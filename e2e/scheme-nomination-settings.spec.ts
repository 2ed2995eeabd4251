import { instantToZonedTime } from '../app/lib/dates'
import { expect, expectAccessible, signInAs, test, waitForHydration } from './support/fixtures'

/**
 * An admin sets a scheme's nomination settings in the browser (issue 18 §2): chooses who picks the
 * raters and who approves the lists by their words, sets a nomination deadline, reads them back in
 * the scheme's details, finds the (empty) queue of lists waiting for approval, and opens the edit
 * form with the settings chosen. axe checks the form, the page with the queue and the edit form.
 */

const ZONE = 'Europe/London'
const DAY = 24 * 60 * 60 * 1000

test('nomination settings: chosen by their words, read back, the approval queue on the scheme page', async ({
  page,
}) => {
  const schemeName = `Nominated ${Date.now().toString(36)}`
  await signInAs(page, 'admin@panorama.test')
  await page.goto('/admin/scheme-management')
  await waitForHydration(page)

  const form = page.locator('#create-scheme')
  await form.getByLabel('Scheme name').fill(schemeName)
  await form.getByLabel('Company').selectOption({ label: 'Acme Ltd' })
  await form.getByLabel('Questionnaire').selectOption({ label: 'Leadership 360' })
  await form.getByLabel('Time zone').fill(ZONE)
  await form.getByLabel('Opens').fill(instantToZonedTime(new Date(Date.now() + DAY), ZONE))
  await form.getByLabel('Closes').fill(instantToZonedTime(new Date(Date.now() + 30 * DAY), ZONE))

  const nomination = form.getByRole('group', { name: 'Nomination' })
  await expect(nomination.getByRole('radio', { name: 'The employee', exact: true })).toBeChecked()
  await expect(nomination.getByRole('radio', { name: 'No approval' })).toBeChecked()
  await expectAccessible(page)
  await nomination.getByRole('radio', { name: 'The employee, and administrators may change it' }).check()
  await nomination.getByRole('radio', { name: 'An administrator or coach' }).check()
  await nomination
    .getByLabel('Nomination deadline (optional)')
    .fill(instantToZonedTime(new Date(Date.now() + 10 * DAY), ZONE))
  await form.getByRole('button', { name: 'Create scheme' }).click()

  await expect(page.getByRole('heading', { level: 1, name: schemeName })).toBeVisible()
  const details = page.getByRole('region', { name: 'Details' })
  await expect(details.getByText('The employee, and administrators may change it')).toBeVisible()
  await expect(details.getByText('An administrator or coach')).toBeVisible()
  const queue = page.getByRole('region', { name: 'Nomination lists waiting for approval' })
  await expect(queue.getByText('No list is waiting for approval.')).toBeVisible()
  await expect(
    queue.getByText('Draft 0 · Submitted 0 · Sent back 0 · Approved 0 · Not begun 0'),
  ).toBeVisible()
  await expectAccessible(page)

  await waitForHydration(page)
  await page.getByRole('link', { name: 'Edit the scheme' }).click()
  const edit = page.getByRole('form', { name: 'Edit the scheme' })
  await expect(edit.getByRole('radio', { name: 'An administrator or coach' })).toBeChecked()
  await expect(edit.getByRole('radio', { name: 'An administrator or coach' })).toBeEnabled()
  await expectAccessible(page)
})
