import {
  expect,
  expectAccessible,
  expectFits,
  signInAs,
  test,
  waitForHydration,
  waitForMail,
} from './support/fixtures'

test('an admin filters responses, opens one, reveals who answered for a reason, reopens it and exports the answers', async ({
  page,
  browser,
}) => {
  await signInAs(page, 'admin@panorama.test')
  await expect(page).toHaveURL(/\/admin$/)

  await page.goto('/admin/answer-management')
  await expect(page.getByRole('heading', { level: 1, name: 'Answer management' })).toBeVisible()
  await expectAccessible(page)

  // Filters live in the URL.
  await page.getByLabel('State', { exact: true }).selectOption({ label: 'Submitted' })
  // A peer's answers about Erin: her report is released, so reopening them changes no report (ADR
  // 022) and leaves the other specs' demo states (Wren waiting, Sam below the threshold) alone.
  await page.getByLabel('Relationship', { exact: true }).selectOption({ value: 'peer' })
  await page.getByLabel('Subject (name or e-mail)').fill('employee@panorama.test')
  await page.getByRole('button', { name: 'Show' }).click()
  await expect(page).toHaveURL(/state=submitted/)
  await expect(page).toHaveURL(/relationship=peer/)
  const rows = page.getByRole('table').getByRole('row')
  await expect(rows.nth(1)).toBeVisible()
  await expectAccessible(page)

  // The export keeps the filters; a download, UTF-8 with a BOM, with the analysis columns.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download CSV', exact: true }).click(),
  ])
  expect(download.suggestedFilename()).toMatch(/^answers-\d{4}-\d{2}-\d{2}\.csv$/)
  const stream = await download.createReadStream()
  const chunks: Buffer[] = []
  for await (const chunk of stream) chunks.push(chunk as Buffer)
  const csv = Buffer.concat(chunks)
  expect([...csv.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf])
  expect(csv.toString('utf8')).toContain(
    'scheme,subject,subject id,subject e-mail,relationship group,rater,submitted on,question key,section,competency,question,kind,scale min,scale max,value,value label,text\r\n',
  )
  expect(csv.toString('utf8')).not.toContain('respondent name')

  // Open one response: read-only, and who answered is not on the page (ADR 024).
  await rows.nth(1).getByRole('link').click()
  await expect(page).toHaveURL(/\/admin\/answer-management\/[0-9a-f-]{36}$/)
  await expect(page.getByRole('heading', { level: 1, name: /Response about/ })).toBeVisible()
  await expect(page.getByText('Not shown: a colleague’s answers are read without their name.')).toBeVisible()
  await expectAccessible(page)

  // Revealing needs a reason; then the name shows in that reply only, and is gone on reload.
  await waitForHydration(page)
  const reveal = page.getByRole('button', { name: 'Reveal who answered' })
  await page.getByLabel('Reason (recorded in the audit log)').fill('curious')
  await reveal.click()
  await expect(page.getByText('at least 10 characters')).toBeVisible()
  await page.getByLabel('Reason (recorded in the audit log)').fill('Complaint about a comment, case HR-7')
  await reveal.click()
  const shown = page.getByText(/^.+ \(.+@.+\)$/)
  await expect(shown).toBeVisible()
  const respondentEmail = /\(([^()]+@[^()]+)\)$/.exec((await shown.textContent())!)![1]!
  await expectAccessible(page)
  await page.reload()
  await expect(page.getByText('Not shown: a colleague’s answers are read without their name.')).toBeVisible()
  await expect(page.getByText(respondentEmail)).toHaveCount(0)
  // The dashboard's recent activity says who looked, where and why.
  const responsePage = page.url()
  await page.goto('/admin')
  await expect(
    page.getByText(/revealed who answered a response in .+: “Complaint about a comment, case HR-7”/),
  ).toBeVisible()
  await page.goto(responsePage)
  await waitForHydration(page)

  // Reopen: a reason is required; then the respondent can answer again (or the page says why not).
  const reopen = page.getByRole('button', { name: 'Reopen' })
  const reason = 'Please check your answers to section one.'
  if (await reopen.isVisible()) {
    await reopen.click()
    await expect(page.getByText('Say why the answers are reopened')).toBeVisible()
    await page.getByLabel('Reason (sent to the respondent)').fill(reason)
    await reopen.click()
    await expect(page.getByRole('status').filter({ hasText: 'Answers reopened' })).toBeVisible()
    await expect(page.getByText('The respondent was told by e-mail')).toBeVisible()
    await expect(page.getByText(respondentEmail)).toHaveCount(0)
    await expect(page.getByText('Reopened', { exact: true }).first()).toBeVisible()
    await expectAccessible(page)

    // The respondent's e-mail leads back in; on a phone, the reopened questionnaire says why.
    const mail = await waitForMail((m) => m.to.includes(respondentEmail) && m.text.includes(reason))
    const link = /(https?:\/\/\S+\/verification\?mode=invite&code=[\w-]+)/.exec(mail.text)![1]!
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 } })
    const colleague = await phone.newPage()
    // The link's page presses its "Continue as a colleague…" button itself (ADR 007).
    await colleague.goto(link)
    await expect(colleague).toHaveURL(/\/questionnaire\/[0-9a-f-]{36}/)
    const notice = `Your administrator reopened your answers: “${reason}”. Change what you need and submit again.`
    await expect(colleague.getByText(notice)).toBeVisible()
    // The way in: the one button, or this one among the colleague's other questionnaires.
    await colleague
      .getByRole('link', { name: /^(Continue where you stopped|Continue feedback for Erin Employee)$/ })
      .click()
    await expect(colleague).toHaveURL(/\/assignment\/[0-9a-f-]{36}/)
    await expect(colleague.getByText(notice)).toBeVisible()
    await expectAccessible(colleague)
    await expectFits(colleague)
    await phone.close()
  } else {
    await expect(page.getByText(/only while their scheme is open|Only submitted answers/)).toBeVisible()
  }
  await expectAccessible(page)
})
