import path from 'node:path'
import AxeBuilder from '@axe-core/playwright'
import {
  test as base,
  expect,
  type Browser,
  type BrowserContext,
  type Frame,
  type Page,
} from '@playwright/test'

export { expect }

export const PASSWORD = () => process.env.E2E_SEED_PASSWORD ?? 'panorama-demo'

/** axe must find no serious or critical violation on any page the suite visits. */
export async function expectAccessible(page: Page) {
  const axe = new AxeBuilder({ page })
  // A sandboxed frame that may not run scripts (the e-mail previews) cannot run axe either, and axe's
  // frame-by-frame mode waits for it forever; the legacy mode checks the page and skips such frames.
  if (await page.locator('iframe[sandbox]:not([sandbox*="allow-scripts"])').count()) axe.setLegacyMode()
  const results = await axe.analyze()
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

/**
 * An invitation link's interstitial (ADR 007), if the page is on it: hydrated, the page presses its
 * own button and goes on. Wait for that; never race it with a click (a click that started while the
 * page's own submit was under way waited on the next page's buttons until the spec timed out).
 */
export async function passInterstitial(page: Page) {
  if (new URL(page.url()).pathname !== '/verification') return
  await waitForHydration(page)
  await page.waitForURL((url) => url.pathname !== '/verification')
}

export async function signIn(page: Page, email: string, password = PASSWORD()) {
  await page.goto('/sign-in')
  await waitForHydration(page)
  await page.getByLabel('E-mail address').fill(email)
  await page.getByLabel('Password').fill(password)
  await page.getByRole('button', { name: 'Sign in' }).click()
}

/**
 * Signs a seeded user in without the form (epic-stack's pattern): the server makes a session row for
 * them (support/session-door.mjs) and its cookie is set on the page's browser context. The page then
 * opens /sign-in, which sends a signed-in visitor to their home as the form's redirect does. The
 * sign-in specs keep using the form (`signIn`).
 */
export async function signInAs(page: Page, email: string) {
  const response = await fetch(`${process.env.E2E_SESSION_URL}?email=${encodeURIComponent(email)}`)
  if (!response.ok) throw new Error(`No session for ${email}: ${await response.text()}`)
  const { token } = (await response.json()) as { token: string }
  const origin = new URL(page.url().startsWith('http') ? page.url() : BASE_URL()).origin
  await page
    .context()
    .addCookies([
      { name: '__session', value: encodeURIComponent(token), url: origin, httpOnly: true, sameSite: 'Lax' },
    ])
  await page.goto('/sign-in')
  await waitForHydration(page)
}

const BASE_URL = () => `http://localhost:${process.env.E2E_PORT ?? 3311}`

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

// ---------------------------------------------------------------------------------------------
// Phones: every page fits 360 px

/** The narrowest phone the portal supports (a 360 × 740 Android screen). */
export const NARROW_SCREEN = { width: 360, height: 740 } as const

export type Fit = {
  scrollWidth: number
  clientWidth: number
  /** The elements reaching past the right edge (outside any box that scrolls them), widest first. */
  offenders: string[]
}

/** Measures sideways overflow of the page as it is now: the document must be no wider than the window. */
export async function measureFit(page: Page): Promise<Fit> {
  return page.evaluate(() => {
    const root = document.scrollingElement ?? document.documentElement
    const clientWidth = root.clientWidth
    const describe = (el: Element) => {
      const id = el.id ? `#${el.id}` : ''
      const cls =
        typeof el.className === 'string' && el.className
          ? `.${el.className.trim().split(/\s+/).slice(0, 3).join('.')}`
          : ''
      const text = (el.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 40)
      return `${el.tagName.toLowerCase()}${id}${cls}${text ? ` “${text}”` : ''}`
    }
    /**
     * Whether a box that scrolls (or clips) sideways contains the element. Only the element's
     * containing blocks count: an absolutely positioned child (a screen-reader-only label) of a
     * scrolling table escapes it unless something in between is positioned, and widens the page.
     */
    const contained = (el: Element) => {
      let position = getComputedStyle(el).position
      if (position === 'fixed') return true
      for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
        const style = getComputedStyle(p)
        const containingBlock =
          position !== 'absolute' || style.position !== 'static' || style.transform !== 'none'
        if (!containingBlock) continue
        if (style.overflowX !== 'visible') return true
        position = style.position
        if (position === 'fixed') return true
      }
      return false
    }
    const offenders: Array<[number, string]> = []
    for (const el of document.body.querySelectorAll('*')) {
      const rect = el.getBoundingClientRect()
      if (rect.right <= clientWidth + 0.5 || (rect.width === 0 && rect.height === 0)) continue
      if (!contained(el)) offenders.push([rect.right, `${describe(el)} (to ${Math.round(rect.right)} px)`])
    }
    // Text that runs past its own box (a long address that does not break) has no element of its own.
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT)
    const range = document.createRange()
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      range.selectNodeContents(node)
      const rect = range.getBoundingClientRect()
      const parent = node.parentElement
      if (
        !parent ||
        rect.right <= clientWidth + 0.5 ||
        getComputedStyle(parent).overflowX !== 'visible' ||
        contained(parent)
      )
        continue
      offenders.push([rect.right, `text in ${describe(parent)} (to ${Math.round(rect.right)} px)`])
    }
    offenders.sort((a, b) => b[0] - a[0])
    return {
      scrollWidth: root.scrollWidth,
      clientWidth,
      offenders: offenders.slice(0, 5).map(([, text]) => text),
    }
  })
}

/** Waits until the page is hydrated and quiet (charts drawn), without failing pages that never hydrate. */
async function settle(page: Page) {
  await page
    .waitForFunction(
      () =>
        (window as unknown as { __reactRouterRouteModules?: unknown }).__reactRouterRouteModules !==
        undefined,
      undefined,
      { timeout: 10_000 },
    )
    .catch(() => {})
  await page.waitForLoadState('networkidle', { timeout: 10_000 }).catch(() => {})
}

/** Asserts the page as it is now has no sideways scroll (call it on a page opened at NARROW_SCREEN). */
export async function expectFits(page: Page, label = new URL(page.url()).pathname) {
  await settle(page)
  const fit = await measureFit(page)
  expect(
    fit.scrollWidth,
    `${label} scrolls sideways at ${fit.clientWidth} px: ${fit.scrollWidth} px wide (${fit.offenders.join('; ')})`,
  ).toBeLessThanOrEqual(fit.clientWidth)
  return fit
}

/** axe, and no sideways scroll at 360 px, on the page as it is now (then back to its own size). */
export async function expectAccessibleAndFits(page: Page, label: string) {
  await expectAccessible(page)
  const size = page.viewportSize()
  await page.setViewportSize(NARROW_SCREEN)
  await expectFits(page, label)
  if (size) await page.setViewportSize(size)
}

/**
 * With `E2E_SHOTS=<dir>`, full-page screenshots of the page as it is now at 1280 and 390 px, named
 * `<name>-<width>.png`, for a human to look at (then back to its own size); otherwise nothing.
 */
export async function saveShots(page: Page, name: string) {
  const dir = process.env.E2E_SHOTS
  if (!dir) return
  const size = page.viewportSize()
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 })
    await page.screenshot({ path: path.join(dir, `${name}-${width}.png`), fullPage: true })
  }
  if (size) await page.setViewportSize(size)
}

type StorageState = Awaited<ReturnType<BrowserContext['storageState']>>

/** How many addresses are measured at once: each mostly waits for its page to go quiet. */
const NARROW_CHECKS_AT_ONCE = 4

/**
 * Opens each address in a 360 × 740 window with the cookies the visit had, and measures it. Live
 * streams are cut (they would keep the page from going quiet) and nothing is posted: looking is all.
 * A few pages are open at once (each in its own tab, the same measurement), in the order visited.
 */
async function checkAtNarrowWidth(
  browser: Browser,
  baseURL: string,
  visits: Array<{ url: string; state: StorageState | null }>,
) {
  const problems: Array<string | undefined> = visits.map(() => undefined)
  const contexts = new Map<string, Promise<BrowserContext>>()
  const contextFor = (state: StorageState | null) => {
    const key = JSON.stringify(state?.cookies.map((c) => [c.name, c.value]) ?? [])
    let context = contexts.get(key)
    if (!context) {
      context = (async () => {
        const made = await browser.newContext({
          baseURL,
          viewport: NARROW_SCREEN,
          storageState: state ?? undefined,
        })
        await made.route(
          (u) => u.pathname === '/api/events' || u.pathname === '/api/__session',
          (route) => route.abort(),
        )
        await made.route('**/*', (route) =>
          route.request().method() === 'GET' ? route.fallback() : route.abort(),
        )
        return made
      })()
      contexts.set(key, context)
    }
    return context
  }
  const measure = async (index: number) => {
    const { url, state } = visits[index]!
    const page = await (await contextFor(state)).newPage()
    try {
      await page.goto(url)
      await settle(page)
      const fit = await measureFit(page)
      if (fit.scrollWidth > fit.clientWidth)
        problems[index] =
          `${new URL(url).pathname}${new URL(url).search}: ${fit.scrollWidth} px wide at ${fit.clientWidth} px (${fit.offenders.join('; ')})`
    } finally {
      await page.close()
    }
  }
  let next = 0
  const lane = async () => {
    while (next < visits.length) await measure(next++)
  }
  try {
    await Promise.all(Array.from({ length: Math.min(NARROW_CHECKS_AT_ONCE, visits.length) }, lane))
  } finally {
    for (const context of contexts.values()) await (await context).close()
  }
  return problems.filter((problem) => problem !== undefined)
}

/**
 * The suite's `test`: every spec imports it from here, so every page a spec visits is also checked at
 * 360 px once the spec has passed (the spec's own steps stay at its own size). Each address is
 * opened again with the cookies it was visited with, so signed-in pages are checked signed in.
 */
export const test = base.extend<{ everyPageFitsAPhone: void }>({
  everyPageFitsAPhone: [
    async ({ page, browser, baseURL }, use, testInfo) => {
      const origin = new URL(baseURL!).origin
      const visits = new Map<string, Promise<StorageState | null>>()
      const onNavigate = (frame: Frame) => {
        if (frame !== page.mainFrame()) return
        const url = frame.url().split('#')[0]!
        if (!url.startsWith(origin)) return
        // The cookies of this visit: a later sign-out must not turn the page into the sign-in page.
        visits.set(
          url,
          page
            .context()
            .storageState()
            .catch(() => null),
        )
      }
      page.on('framenavigated', onNavigate)
      await use()
      page.off('framenavigated', onNavigate)
      // A failed spec reports its own failure; a spec already at phone width measured what it meant to.
      if (testInfo.status !== testInfo.expectedStatus) return
      if ((page.viewportSize()?.width ?? 1280) <= NARROW_SCREEN.width) return
      const list = await Promise.all([...visits].map(async ([url, state]) => ({ url, state: await state })))
      const problems = await checkAtNarrowWidth(browser, baseURL!, list)
      expect(problems, `pages that scroll sideways at ${NARROW_SCREEN.width} px`).toEqual([])
    },
    { auto: true },
  ],
})
