import type { Page } from '@playwright/test'
import {
  expect,
  expectAccessible,
  expectFits,
  NARROW_SCREEN,
  signInAs,
  test,
  waitForHydration,
} from './support/fixtures'
import { startTestProvider, type TestProvider } from '../tests/support/oidc-provider'

/**
 * Answering in German (issue 20 §3, ADR 050 and 051): an employee of a company whose brand's default
 * language is German (the suite's server previews German, global-setup.ts) signs in through their
 * organisation's OpenID provider (`oidc-provider` in this Playwright process, as in
 * sso-sign-in.spec.ts) and answers their self-assessment: the page's own words and the questions read
 * German, <html lang="de">, axe finds nothing serious, and nothing scrolls sideways at 360 px. The
 * world is the spec's own (support/session-door.mjs): the demo seed and the other specs' English are
 * untouched, and the provider is deleted again at the end.
 */

const APP = `http://localhost:${process.env.E2E_PORT ?? 3311}`
const LIST = '/admin/identity-provider-management'
const NAME = 'Nordlicht Single Sign-On'
const RUN = `de${Date.now().toString(36)}`

type World = {
  companyName: string
  domain: string
  employee: { name: string; email: string }
  questionnaireId: string
  assignmentId: string
}

let idp: TestProvider
let world: World

test.beforeAll(async () => {
  const door = new URL('german-world', process.env.E2E_SESSION_URL)
  door.searchParams.set('run', RUN)
  const response = await fetch(door)
  if (!response.ok) throw new Error(`No German world: ${await response.text()}`)
  world = (await response.json()) as World
  idp = await startTestProvider({
    redirectUris: [`${APP}/sign-in/sso/callback`],
    accounts: [{ sub: 'greta', email: world.employee.email, emailVerified: true, name: world.employee.name }],
  })
})

/** Deletes the provider through its page (the admin must be signed in). */
async function deleteProvider(page: Page) {
  await page.goto(LIST)
  const link = page.getByRole('link', { name: NAME })
  if (!(await link.count())) return
  await link.click()
  await page.getByRole('link', { name: 'Delete provider…' }).click()
  await page.getByRole('button', { name: 'Yes, delete the provider' }).click()
  await expect(page).toHaveURL(new RegExp(`${LIST}$`))
}

test.afterAll(async ({ browser }) => {
  // Should the spec stop half-way, the suite's other specs must still find no provider.
  const context = await browser.newContext({ baseURL: APP })
  const page = await context.newPage()
  await signInAs(page, 'admin@panorama.test')
  await deleteProvider(page)
  await context.close()
  await idp?.close()
})

const langOf = (page: Page) => page.locator('html').getAttribute('lang')

function scale(page: Page, question: string) {
  return page.getByRole('radiogroup', { name: new RegExp(question) })
}

/** axe, and no sideways scroll at 360 px, on the page as it is now (then back to the desktop). */
async function expectAccessibleAndNarrow(page: Page, label: string) {
  await expectAccessible(page)
  await page.setViewportSize(NARROW_SCREEN)
  await expectFits(page, label)
  await page.setViewportSize({ width: 1280, height: 720 })
}

test('an employee of a German-speaking company signs in through their provider and answers in German', async ({
  page,
}) => {
  // Two sites, five sections and the checks on each: longer than the suite's usual minute.
  test.setTimeout(240_000)

  // The admin sets up the company's provider for its domain (the back office stays English).
  await signInAs(page, 'admin@panorama.test')
  await page.goto(LIST)
  await page.getByLabel('Name', { exact: true }).fill(NAME)
  await page.getByLabel('Issuer URL').fill(idp.issuer)
  await page.getByLabel('Client ID').fill(idp.clientId)
  await page.getByLabel('Client secret').fill(idp.clientSecret)
  await page.getByLabel('E-mail domains it signs in').fill(world.domain)
  await page.getByRole('checkbox', { name: world.companyName }).check()
  await page.getByRole('button', { name: 'Add provider' }).click()
  await expect(page).toHaveURL(new RegExp(`${LIST}/[0-9a-f-]{36}$`))

  // The employee, in a browser asking for English: the sign-in page is English until they are known.
  await page.context().clearCookies()
  await page.goto('/sign-in')
  await waitForHydration(page)
  expect(await langOf(page)).toBe('en')
  await page.getByLabel('E-mail address').fill(world.employee.email)
  await page.getByRole('button', { name: 'Continue' }).click()
  await expect(page).toHaveURL(new RegExp(`^${idp.issuer}/interaction/`))
  await page.locator('input[name="login"]').fill('greta')
  await page.locator('input[name="password"]').fill('anything')
  await page.getByRole('button', { name: 'Sign-in' }).click()
  await page.getByRole('button', { name: 'Continue' }).click()
  await expect(page).toHaveURL(new RegExp(`^${APP}/user$`))
  // Signed in: their brand's German from now on, whatever the browser asks for.
  expect(await langOf(page)).toBe('de')

  // The introduction, in German: the questionnaire's own words (ADR 051) and the page's around them.
  await page.goto(`/questionnaire/${world.questionnaireId}?assignment=${world.assignmentId}`)
  expect(await langOf(page)).toBe('de')
  await expect(page).toHaveTitle('Führung 360 · Einführung · Panorama')
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Führung 360')
  await expect(page.getByText('Ihre Selbsteinschätzung: Die Fragen betreffen Sie selbst.')).toBeVisible()
  await expect(page.getByText('11 Fragen in 5 Abschnitten')).toBeVisible()
  await expect(page.getByText('Etwa 9 Minuten')).toBeVisible()
  await expect(page.getByText('Frist', { exact: true })).toBeVisible()
  await expect(page.getByText('Status: Nicht begonnen')).toBeVisible()
  await expectAccessibleAndNarrow(page, 'the introduction in German')
  await page.getByRole('link', { name: 'Beginnen', exact: true }).click()

  // Section 1: Kommunikation.
  await expect(page).toHaveURL(/\/assignment\/[0-9a-f-]{36}/)
  await waitForHydration(page)
  expect(await langOf(page)).toBe('de')
  await expect(page.getByText('Abschnitt 1 von 5')).toBeVisible()
  await expect(page.getByText('0 von 11 Fragen beantwortet')).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Kommunikation', level: 2 })).toBeVisible()
  await expect(page.getByText('Ihre Selbsteinschätzung: Die Fragen betreffen Sie.')).toBeVisible()
  await expect(page.getByText(/^Bitte antworten Sie bis \d+\. \w+ \d{4} um \d{2}:\d{2} /)).toBeVisible()
  await expect(page.getByText('Pflichtfrage').first()).toBeVisible()
  await expect(page.getByRole('navigation', { name: 'Abschnitte' })).toBeVisible()
  await expectAccessibleAndNarrow(page, 'section 1 in German')
  await scale(page, 'Ich höre aufmerksam zu').getByRole('radio', { name: '4 – Oft' }).check()
  await scale(page, 'Ich erkläre Entscheidungen').getByRole('radio', { name: 'Nicht zutreffend' }).check()
  await expect(page.getByText('Alle Änderungen gespeichert')).toBeVisible()

  // "Save and finish later": home, with the toast in German; then back where they stopped.
  await page.getByRole('button', { name: 'Speichern und später fertigstellen' }).click()
  await expect(page).toHaveURL(/\/user$/)
  // Title and description together: the toast goes after six seconds.
  await expect(page.getByRole('status').filter({ hasText: 'Antworten gespeichert' })).toContainText(
    'Kommen Sie jederzeit vor der Frist zurück: Sie machen bei Abschnitt 1 weiter.',
  )
  await page.goto(`/questionnaire/${world.questionnaireId}?assignment=${world.assignmentId}`)
  await expect(page.getByText('Status: In Bearbeitung (Sie waren bei Abschnitt 1)')).toBeVisible()
  await page.getByRole('link', { name: 'Dort weitermachen, wo Sie aufgehört haben' }).click()
  await expect(page).toHaveURL(/\?section=1$/)
  await waitForHydration(page)
  await expect(page.getByText('2 von 11 Fragen beantwortet')).toBeVisible()
  await expect(scale(page, 'Ich höre aufmerksam zu').getByRole('radio', { name: '4 – Oft' })).toBeChecked()
  await page.getByRole('button', { name: 'Nächster Abschnitt →' }).click()

  // Section 2: Zusammenarbeit, with a single choice in German.
  await expect(page).toHaveURL(/\?section=2$/)
  await waitForHydration(page)
  await scale(page, 'Ich teile Informationen offen').getByRole('radio', { name: '3 – Manchmal' }).check()
  await page
    .getByRole('radiogroup', { name: /Bei Meinungsverschiedenheiten neige ich dazu/ })
    .getByRole('radio', { name: 'Gemeinsamkeiten zu suchen' })
    .check()
  await page.getByRole('button', { name: 'Nächster Abschnitt →' }).click()

  // Section 3: Führung, with the optional multiple choice.
  await expect(page).toHaveURL(/\?section=3$/)
  await expect(page.getByText('Wählen Sie alle zutreffenden aus.')).toBeVisible()
  await scale(page, 'Ich lasse anderen Raum').getByRole('radio', { name: '4 – Oft' }).check()
  await page.getByRole('checkbox', { name: 'Empathie' }).check()
  await page.getByRole('button', { name: 'Nächster Abschnitt →' }).click()

  // Section 4: Ergebnisse.
  await expect(page).toHaveURL(/\?section=4$/)
  await scale(page, 'Ich halte meine Zusagen ein').getByRole('radio', { name: '5 – Immer' }).check()
  await scale(page, 'Auch unter Druck').getByRole('radio', { name: '4 – Oft' }).check()
  await page.getByRole('button', { name: 'Nächster Abschnitt →' }).click()

  // Section 5: Entwicklung, with the written answers and their counters; then submitting asks first.
  await expect(page).toHaveURL(/\?section=5$/)
  await waitForHydration(page)
  await expect(page.getByText('Abschnitt 5 von 5')).toBeVisible()
  await scale(page, 'Ich bitte um Feedback').getByRole('radio', { name: '3 – Manchmal' }).check()
  await page.getByLabel('Eine Sache, die ich beibehalten sollte:').fill('Die Freitagsdemos.')
  await expect(page.getByText('Bis zu 500 Zeichen.')).toBeVisible()
  await expect(page.getByText('Bereit zum Abschicken?')).toBeVisible()
  await expectAccessibleAndNarrow(page, 'the last section in German')
  await page.getByRole('button', { name: 'Antworten abschicken' }).click()
  await expect(page).toHaveURL(/confirm=submit/)
  await expect(page.getByRole('heading', { name: 'Bereit zum Abschicken?' })).toBeFocused()
  await expect(page.getByText(/1 freiwillige Frage ist unbeantwortet/)).toBeVisible()
  await expectAccessibleAndNarrow(page, 'the confirmation in German')
  await page.getByRole('button', { name: 'Ja, meine Antworten abschicken' }).click()
  await expect(page).toHaveURL(/\/user\/thank-you\?assignment=/)

  // The answers, read back in German.
  await page.goto(`/assignment/${world.assignmentId}`)
  expect(await langOf(page)).toBe('de')
  await expect(
    page.getByText(
      'Sie haben diese Antworten abgeschickt, daher können sie nicht mehr geändert werden. Vielen Dank!',
    ),
  ).toBeVisible()
  await expect(page.getByText('4 – Oft').first()).toBeVisible()
  await expect(page.getByText('Nicht zutreffend')).toBeVisible()
  await expect(page.getByText('Keine Antwort')).toBeVisible()
  await expectAccessibleAndNarrow(page, 'the submitted answers in German')
})
