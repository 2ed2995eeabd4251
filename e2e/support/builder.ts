import type { Locator, Page } from '@playwright/test'
import { expect } from './fixtures'

/** The builder's parts, as an admin finds them on /admin/questionnaire-management/:qid. */

export const sectionRegion = (page: Page, n: number, title: string) =>
  page.getByRole('region', { name: `Section ${n}: ${title}` })

export const questionCards = (scope: Locator) => scope.locator('[id^="question-"]')

/** Opens the section's "Add a question" disclosure, unless it is open already. */
export async function openAddForm(scope: Locator) {
  const details = scope.locator('details')
  if (!(await details.evaluate((d: HTMLDetailsElement) => d.open)))
    await scope.getByText(/^Add a question to section/).click()
}

export async function addSection(page: Page, title: string) {
  await page.getByLabel('New section’s title').fill(title)
  await page.getByRole('button', { name: 'Add section' }).click()
  await expect(page.getByRole('heading', { name: new RegExp(`^Section \\d: ${title}$`) })).toBeVisible()
}

export async function addQuestion(
  page: Page,
  scope: Locator,
  input: { kind: string; text: string; rater: string; competency: string },
) {
  const before = await questionCards(scope).count()
  await openAddForm(scope)
  const form = scope.locator('form').filter({ has: page.getByRole('button', { name: 'Add question' }) })
  await form.getByLabel('Kind').selectOption({ label: input.kind })
  await form.getByLabel('Competency').fill(input.competency)
  await form.getByLabel('Self wording').fill(input.text)
  await form.getByLabel('Colleague wording').fill(input.rater)
  await form.getByRole('button', { name: 'Add question' }).click()
  await expect(questionCards(scope)).toHaveCount(before + 1)
}

export async function addChoice(page: Page, card: Locator, label: string) {
  const count = await card.getByRole('button', { name: /^Rename choice/ }).count()
  await card.getByLabel('New choice').fill(label)
  await card.getByRole('button', { name: 'Add choice' }).click()
  await expect(card.getByRole('button', { name: /^Rename choice/ })).toHaveCount(count + 1)
}
