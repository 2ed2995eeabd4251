import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { Webhook } from 'standardwebhooks'
import { expect, expectAccessibleAndFits, signInAs, test, waitForHydration } from './support/fixtures'

/**
 * Webhooks in a real browser (issue 21 §2, ADR 057): an admin registers a receiver on this machine
 * (allowed by the suite's WEBHOOK_ALLOWED_HOSTS, as an intranet install would), sees its signing
 * secret once, adds an employee, and finds the event delivered in the endpoint's log; the receiver
 * verifies the signature with the `standardwebhooks` verifier. axe and 360 px on both pages.
 */

type Received = { body: string; headers: Record<string, string> }

test('an admin registers an endpoint, sees the secret once, and reads the delivery log', async ({ page }) => {
  const received: Received[] = []
  const receiver = http.createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (c: Buffer) => chunks.push(c))
    request.on('end', () => {
      const headers: Record<string, string> = {}
      for (const [k, v] of Object.entries(request.headers)) if (typeof v === 'string') headers[k] = v
      received.push({ body: Buffer.concat(chunks).toString('utf8'), headers })
      response.writeHead(204).end()
    })
  })
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/panorama-events`
  try {
    await signInAs(page, 'admin@panorama.test')
    await page.goto('/admin/webhooks')
    await expect(page.getByRole('heading', { level: 1, name: 'Webhooks' })).toBeVisible()
    await expect(page.getByRole('navigation').getByRole('link', { name: 'Webhooks' })).toBeVisible()
    await expectAccessibleAndFits(page, '/admin/webhooks')
    await waitForHydration(page)

    // A private address is refused with its reason.
    const form = page.getByRole('form', { name: 'Register an endpoint' })
    await form.getByLabel('Address (URL)').fill('https://10.0.0.7/hooks')
    await form.getByRole('checkbox', { name: /employee\.created/ }).check()
    await form.getByRole('button', { name: 'Register endpoint' }).click()
    await expect(form.getByText(/private, loopback or link-local network/)).toBeVisible()

    await form.getByLabel('Address (URL)').fill(url)
    await form.getByLabel('Description').fill('HR system (e2e)')
    await form.getByRole('button', { name: 'Register endpoint' }).click()
    const shown = page.getByRole('heading', { name: /signing secret/ })
    await expect(shown).toBeFocused()
    const secret = await page.getByRole('textbox', { name: 'Signing secret' }).inputValue()
    expect(secret).toMatch(/^whsec_/)
    await expectAccessibleAndFits(page, '/admin/webhooks (secret shown)')

    // Shown once: not on the page again.
    await page.reload()
    await expect(page.getByRole('textbox', { name: 'Signing secret' })).toHaveCount(0)
    expect(await page.content()).not.toContain(secret)

    // An event: an employee added.
    await page.goto('/admin/employee-management')
    await waitForHydration(page)
    const add = page.locator('form').filter({ has: page.getByRole('button', { name: 'Add employee' }) })
    await add.getByLabel('Name', { exact: true }).fill('Wendy Webhook')
    await add.getByLabel('E-mail address', { exact: true }).fill(`e2e-webhook-${Date.now()}@example.test`)
    await add.getByLabel('Company', { exact: true }).selectOption({ label: 'Acme Ltd' })
    await add.getByRole('button', { name: 'Add employee' }).click()
    await expect(page.getByText('Wendy Webhook was added.')).toBeVisible()

    // The worker delivers it; the receiver verifies the signature.
    await expect.poll(() => received.length, { timeout: 15_000 }).toBeGreaterThan(0)
    const delivered = received[0]!
    const payload = new Webhook(secret).verify(delivered.body, delivered.headers) as {
      type: string
      data: Record<string, unknown>
    }
    expect(payload.type).toBe('employee.created')
    expect(Object.keys(payload.data).sort()).toEqual(['company_id', 'employee_id', 'enabled'])
    expect(delivered.body).not.toContain('Wendy')

    // The log shows it delivered, with the receiver's answer.
    await page.goto('/admin/webhooks')
    await page.getByRole('link', { name: url, exact: true }).click()
    await expect(page.getByRole('heading', { level: 1, name: 'Webhook endpoint' })).toBeVisible()
    const log = page.getByRole('region', { name: 'Delivery log' })
    await expect(log.getByRole('row', { name: /employee\.created/ })).toContainText('Delivered')
    await expect(log.getByRole('row', { name: /employee\.created/ })).toContainText('204')
    await expectAccessibleAndFits(page, '/admin/webhooks/:id')

    // Redeliver: queued again and delivered once more.
    await waitForHydration(page)
    await log
      .getByRole('button', { name: /Redeliver/ })
      .first()
      .click()
    await expect(page.getByText('Delivery queued again')).toBeVisible()
    await expect.poll(() => received.length, { timeout: 15_000 }).toBeGreaterThan(1)
    expect(received[1]!.headers['webhook-id']).toBe(delivered.headers['webhook-id'])

    // Tidy up: the endpoint goes, so other specs' events are not sent anywhere.
    await page.getByRole('link', { name: 'Delete this endpoint' }).click()
    await page.getByRole('button', { name: 'Yes, delete the endpoint' }).click()
    await expect(page.getByText('Endpoint deleted')).toBeVisible()
  } finally {
    await new Promise((resolve) => receiver.close(resolve))
  }
})
