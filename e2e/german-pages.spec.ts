import fs from 'node:fs'
import path from 'node:path'
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
 * The portal in German (issue 20 §3): a browser that asks for German (the suite's server offers it,
 * global-setup.ts) gets every page in German — `<html lang="de">`, no line of the page reading as an
 * English message of the catalogues (a key German lacks falls back to English while German is only
 * previewed, and that is what this would catch), axe finding nothing serious or critical, and nothing
 * scrolling sideways on a 360 px phone. The demo's users have no language of their own, so the browser
 * decides; their data (names, the demo questionnaire's English wording) stays as it is.
 */
test.use({ locale: 'de-DE', viewport: NARROW_SCREEN })

type Messages = { [key: string]: string | Messages }

function flatten(messages: Messages, prefix = '', out = new Map<string, string>()) {
  for (const [key, value] of Object.entries(messages)) {
    const at = prefix ? `${prefix}.${key}` : key
    if (typeof value === 'string') out.set(at, value)
    else flatten(value, at, out)
  }
  return out
}

/**
 * English messages that German words differently: whole sentences or phrases (a space, no ICU
 * argument), so a line of the page equal to one is an English leftover, not a name or a shared word.
 */
const ENGLISH_LINES = (() => {
  const root = path.resolve('app/modules/i18n/locales')
  const lines = new Set<string>()
  for (const file of fs.readdirSync(path.join(root, 'en'))) {
    const en = flatten(JSON.parse(fs.readFileSync(path.join(root, 'en', file), 'utf8')) as Messages)
    const dePath = path.join(root, 'de', file)
    const de = fs.existsSync(dePath)
      ? flatten(JSON.parse(fs.readFileSync(dePath, 'utf8')) as Messages)
      : new Map<string, string>()
    for (const [key, text] of en) {
      if (text.includes('{') || !text.includes(' ') || text.length < 12) continue
      if (de.get(key) !== text) lines.add(text)
    }
  }
  return lines
})()

/** Opens a page and checks it; what fails is listed rather than stopping at the first. */
async function visit(page: Page, at: string, problems: string[], label = at) {
  const response = await page.goto(at)
  expect(response, at).not.toBeNull()
  await check(page, problems, label)
}

async function check(page: Page, problems: string[], label: string) {
  await waitForHydration(page)
  const lang = await page.locator('html').getAttribute('lang')
  if (lang !== 'de') problems.push(`${label}: <html lang="${lang}">`)
  const text = await page.locator('body').innerText()
  // Text the page marks as English on purpose (the API reference's OpenAPI texts) is not a leftover.
  const marked = new Set(
    (await page.locator('body [lang="en"]').allInnerTexts()).flatMap((t) =>
      t.split('\n').map((l) => l.trim()),
    ),
  )
  for (const line of text.split('\n').map((l) => l.trim()))
    if (ENGLISH_LINES.has(line) && !marked.has(line)) problems.push(`${label}: English left: “${line}”`)
  try {
    await expectFits(page, label)
  } catch (error) {
    problems.push(`${label}: ${(error as Error).message.split('\n')[0]}`)
  }
  await expectAccessible(page)
}

test('the public pages and a colleague’s pages read German', async ({ page }) => {
  const problems: string[] = []
  for (const at of ['/', '/sign-in', '/forgot-password', '/verification?mode=invite', '/no/such/page'])
    await visit(page, at, problems)
  await page.goto(process.env.E2E_INVITE_LINK!)
  await passInterstitial(page)
  await expect(page).toHaveURL(/\/questionnaire\/[0-9a-f-]{36}/)
  await check(page, problems, '/questionnaire/:id (colleague)')
  expect(problems).toEqual([])
})

/**
 * The employee's portal language, set on their profile as a person would (the demo brand's default,
 * English, would otherwise win over the browser's German); `''` goes back to the brand's default.
 */
async function chooseLanguage(page: Page, language: 'de' | '') {
  await page.goto('/user/edit-profile')
  await waitForHydration(page)
  const form = page.locator('form#profile-language')
  await form.locator('select[name="language"]').selectOption(language)
  await form.locator('button[type="submit"]').click()
  await expect(page.locator('html')).toHaveAttribute('lang', language || 'en')
}

test('an employee’s pages read German: home, answering, invitations, profile and the report', async ({
  page,
}) => {
  const problems: string[] = []
  await signInAs(page, 'employee@panorama.test')
  await expect(page).toHaveURL(/\/user$/)
  await chooseLanguage(page, 'de')
  try {
    await visitEmployeePages(page, problems)
  } finally {
    // The demo employee is every other spec's too: English again, whatever happened above.
    await chooseLanguage(page, '')
  }
  expect(problems).toEqual([])
})

async function visitEmployeePages(page: Page, problems: string[]) {
  await visit(page, '/user', problems)
  for (const at of ['/user/colleague-invite', '/user/edit-profile', '/user/thank-you'])
    await visit(page, at, problems)
  await page.goto('/user')
  const self = await page.locator('a[href^="/assignment/"]').first().getAttribute('href')
  if (self) await visit(page, self, problems, '/assignment/:id')
  await page.goto('/user')
  const report = await page.locator('a[href^="/user/response-"]').first().getAttribute('href')
  if (report) await visit(page, report, problems, '/user/response-:rid')
}

test('every admin page reads German', async ({ page }) => {
  test.setTimeout(180_000)
  const problems: string[] = []
  await signInAs(page, 'admin@panorama.test')
  await expect(page).toHaveURL(/\/admin$/)
  for (const at of [
    '/admin',
    '/admin/company-management',
    '/admin/brand-management',
    '/admin/email-management',
    '/admin/email-management?tab=outbox',
    '/admin/email-management/colleague_invite',
    '/admin/admin-management',
    '/admin/identity-provider-management',
    '/admin/api-keys',
    '/admin/api-keys/reference',
    '/admin/employee-management',
    '/admin/employee-management?tab=import',
    '/admin/scheme-management',
    '/admin/questionnaire-management',
    '/admin/answer-management',
    '/admin/answer-management/reopen-requests',
    '/admin/profile',
  ])
    await visit(page, at, problems)
  for (const list of [
    '/admin/brand-management',
    '/admin/employee-management',
    '/admin/scheme-management',
    '/admin/questionnaire-management',
    '/admin/answer-management',
  ]) {
    await page.goto(list)
    // A record's own page (not a download such as the answers' CSV).
    const hrefs = await page
      .locator(`main a[href^="${list}/"]`)
      .evaluateAll((links) => links.map((a) => a.getAttribute('href') ?? ''))
    const one = hrefs.find((href) => /\/[0-9a-f-]{36}$/.test(href))
    if (one) await visit(page, one, problems, `${list}/:id`)
  }
  await page.goto('/admin/scheme-management')
  const scheme = await page.locator('main a[href^="/admin/scheme-management/"]').first().getAttribute('href')
  for (const part of ['group-report', 'heatmap'])
    await visit(page, `${scheme}/${part}`, problems, `scheme ${part}`)
  expect(problems).toEqual([])
})
