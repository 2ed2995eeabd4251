import AxeBuilder from '@axe-core/playwright'
import { expect, type Page } from '@playwright/test'

export const PASSWORD = () => process.env.E2E_SEED_PASSWORD ?? 'panorama-demo'

/** axe must find no serious or critical violation on any page the suite visits. */
export async function expectAccessible(page: Page) {
  const results = await new AxeBuilder({ page }).analyze()
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
  expect(
    serious.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`),
    `axe violations on ${page.url()}`,
  ).toEqual([])
}

/** React Router hydrates after the HTML arrives; clicks before that are lost. */
export async function waitForHydration(page: Page) {
  await page.waitForFunction(
    () =>
      (window as unknown as { __reactRouterRouteModules?: unknown }).__reactRouterRouteModules !== undefined,
  )
  await page.waitForLoadState('networkidle')
}

export async function signIn(page: Page, email: string, password = PASSWORD()) {
  await page.goto('/sign-in')
  await waitForHydration(page)
  await page.getByLabel('E-mail address').fill(email)
  await page.getByLabel('Password').fill(password)
  await page.getByRole('button', { name: 'Sign in' }).click()
}

type Mail = { to: string; subject: string; text: string; html: string }

/** Waits for an e-mail to arrive at the suite's SMTP catcher. */
export async function waitForMail(predicate: (mail: Mail) => boolean, timeoutMs = 20_000): Promise<Mail> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const mails = (await fetch(process.env.E2E_MAILBOX_URL!).then((r) => r.json())) as Mail[]
    const found = mails.find(predicate)
    if (found) return found
    if (Date.now() > deadline) throw new Error('No matching e-mail arrived')
    await new Promise((r) => setTimeout(r, 250))
  }
}

/** Waits until at least `count` e-mails match; returns them oldest first. */
export async function waitForMails(predicate: (mail: Mail) => boolean, count: number, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const mails = ((await fetch(process.env.E2E_MAILBOX_URL!).then((r) => r.json())) as Mail[]).filter(
      predicate,
    )
    if (mails.length >= count) return mails
    if (Date.now() > deadline) throw new Error(`Expected ${count} matching e-mails, got ${mails.length}`)
    await new Promise((r) => setTimeout(r, 250))
  }
}
