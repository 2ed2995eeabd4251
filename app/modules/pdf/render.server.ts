import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { createRequestHandler, type AppLoadContext, type ServerBuild } from 'react-router'
import type { BrowserContext, Route } from 'playwright-core'
import { projectRoot } from '#db/client'
import { log } from '#app/lib/logger.server'
import { runInRequestScope } from '#app/lib/request-scope.server'
import type { SessionResult } from '#app/modules/auth/session.server'
import { intlLocale, SOURCE_LANGUAGE, type Language } from '#app/modules/i18n/languages'
import { pdfT } from './words.server'
import { getBrowser, withPageSlot } from './browser.server'
import { coverHtml, footerTemplate, headerTemplate, type PdfBrand, type PdfCover } from './cover'

/**
 * Any page of the app, printed to PDF by headless Chromium for one viewer (ADR 046) — the page the
 * viewer would see, with its charts drawn, under its print sheet, so the PDF shows exactly what the
 * page shows to them (anonymity included: it *is* the page).
 *
 * Chromium never reaches the network nor the HTTP server. It opens the page at a made-up origin and
 * every request it makes is answered in this process: the document by React Router's own handler,
 * with the viewer in the load context (which no HTTP request can set; session.server.ts reads it
 * for that one path only), the hashed bundles from build/client, an uploaded image (the brand's
 * logo) by the handler again as an anonymous visitor; anything else is refused. No cookie, token or
 * password is ever handed to the browser.
 */

const ORIGIN = 'http://panorama.print'
/** The printable width of A4 between 12 mm margins, in CSS pixels: the page lays out as on paper. */
const VIEWPORT = { width: 720, height: 1040 }
/** Canvas pixels per CSS pixel: charts are drawn at twice the resolution (≈ 190 dpi on paper). */
const SCALE = 2
const DEFAULT_TIMEOUT_MS = 45_000
/** How long the page may take to hydrate and draw its charts; past it the PDF has the tables only. */
const CHARTS_WAIT_MS = 15_000

export type RenderPdfOptions = {
  /** The page's path (and query), e.g. `/user/response-<id>`. */
  path: string
  /** Whose page it is: the session the download's guard returned. */
  viewer: SessionResult
  /** A cover page put before the page's content. */
  cover?: PdfCover
  /** The running header: the brand on the left, `headerRight` on the right. */
  brand?: PdfBrand | null
  headerRight?: string
  /** The running footer's left part (the right is "Page n of N"). */
  footer?: string
  /** The PDF's title (its metadata, what a viewer's window shows); else the page's own title. */
  title?: string
  /**
   * The reader's language (ADR 050): the one the download's request resolved. The page is asked for
   * in it (the viewer's own setting, which the page's rule puts first, gives the same answer), the
   * browser formats in its locale, and the footer's "Page n of N" is written in it. English without.
   */
  language?: Language
  timeoutMs?: number
}

export type RenderedPdf = {
  pdf: Buffer
  /** The page's printed text (print media): what tests read instead of parsing the PDF. */
  text: string
  pages: number
  ms: number
}

/** The page as the viewer would get it from the server, rendered in this process. */
export class PageNotRendered extends Error {
  constructor(readonly status: number) {
    super(`The page answered ${status}`)
  }
}

let handler: Promise<(request: Request, context: AppLoadContext) => Promise<Response>> | undefined

function pageHandler() {
  handler ??= (import('virtual:react-router/server-build') as unknown as Promise<ServerBuild>).then(
    (build) =>
      createRequestHandler(build, process.env.NODE_ENV === 'production' ? 'production' : 'development'),
    (error: unknown) => {
      handler = undefined
      throw error
    },
  )
  return handler
}

/** One request through React Router, as `viewer` for `viewer.path` only, else as nobody. */
async function serveInProcess(url: URL, viewer?: SessionResult, language?: Language): Promise<Response> {
  const handle = await pageHandler()
  let sent: () => void = () => undefined
  const context: AppLoadContext = {
    nonce: crypto.randomBytes(16).toString('base64'),
    requestId: `pdf-${crypto.randomUUID()}`,
    ip: '',
    responseSent: new Promise<void>((resolve) => (sent = resolve)),
    ...(viewer ? { renderAs: { path: url.pathname, session: viewer } } : {}),
  }
  const request = new Request(url, {
    headers: { Accept: 'text/html,*/*', 'Accept-Language': language ? `${language}, en;q=0.5` : 'en-GB' },
  })
  try {
    return await runInRequestScope(context, () => handle(request, context))
  } finally {
    sent()
  }
}

const clientDir = () => path.join(projectRoot(), process.env.BUILD_DIR || 'build', 'client')

/** A file of the browser build under /assets, never outside it. */
function assetFile(pathname: string): string | null {
  const root = path.join(clientDir(), 'assets')
  const file = path.resolve(root, decodeURIComponent(pathname.slice('/assets/'.length)))
  if (!file.startsWith(root + path.sep)) return null
  return fs.existsSync(file) ? file : null
}

async function answer(route: Route, documentUrl: URL, html: string) {
  const request = route.request()
  let url: URL
  try {
    url = new URL(request.url())
  } catch {
    return route.abort()
  }
  if (url.origin !== ORIGIN || request.method() !== 'GET') return route.abort()
  if (url.pathname === documentUrl.pathname && request.resourceType() === 'document')
    return route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: html })
  if (url.pathname.startsWith('/assets/')) {
    const file = assetFile(url.pathname)
    return file ? route.fulfill({ path: file }) : route.abort()
  }
  if (url.pathname.startsWith('/files/')) {
    const response = await serveInProcess(url)
    return route.fulfill({
      status: response.status,
      contentType: response.headers.get('Content-Type') ?? 'application/octet-stream',
      body: Buffer.from(await response.arrayBuffer()),
    })
  }
  return route.abort()
}

/**
 * In the page: every chart drawn before printing. The report's boxes fetch Chart.js when one comes
 * near the screen, and its `beforeprint` listener draws them all at once, without animation, once
 * Chart.js is there (report-view.tsx, DrawAllCharts): bring the first box into view, then ask.
 */
function chartsDrawn() {
  const boxes = [...document.querySelectorAll('.report-chart')]
  if (!boxes.length) return true
  if (boxes.every((box) => box.querySelector('canvas'))) return true
  boxes[0]!.scrollIntoView()
  window.dispatchEvent(new Event('beforeprint'))
  return false
}

async function printPage(context: BrowserContext, options: RenderPdfOptions, html: string, documentUrl: URL) {
  await context.route('**/*', (route) => answer(route, documentUrl, html))
  const page = await context.newPage()
  page.on('pageerror', (error) => log.warn('pdf page error', { path: documentUrl.pathname, error }))
  await page.goto(documentUrl.href, { waitUntil: 'load' })
  // Hydration first: a title or cover set before React has settled the document would be undone.
  await page
    .waitForFunction(() => 'hydrated' in document.documentElement.dataset, undefined, {
      timeout: CHARTS_WAIT_MS,
      polling: 50,
    })
    .catch(() => log.warn('pdf page not hydrated in time', { path: documentUrl.pathname }))
  await page
    .waitForFunction(chartsDrawn, undefined, { timeout: CHARTS_WAIT_MS, polling: 100 })
    .catch(() =>
      log.warn('pdf charts not drawn in time: the tables stand alone', { path: documentUrl.pathname }),
    )
  // Two frames: the charts drawn in the last one are on the canvas.
  await page.evaluate(
    () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
  )
  if (options.cover) {
    await page.evaluate((cover) => {
      const main = document.querySelector('#main') ?? document.body
      main.insertAdjacentHTML('afterbegin', cover)
    }, coverHtml(options.cover))
  }
  if (options.title) await page.evaluate((title) => (document.title = title), options.title)
  await page.waitForFunction(() => [...document.images].every((image) => image.complete), undefined, {
    timeout: 5_000,
  })
  await page.emulateMedia({ media: 'print' })
  const text = await page.evaluate(() => document.body.innerText)
  const pdf = await page.pdf({
    format: 'A4',
    printBackground: true,
    displayHeaderFooter: true,
    headerTemplate: headerTemplate(options.brand ?? options.cover?.brand ?? null, options.headerRight ?? ''),
    footerTemplate: footerTemplate(options.footer ?? '', (page, pages) =>
      pdfT(options.language ?? SOURCE_LANGUAGE)('page', { page, pages }),
    ),
    margin: { top: '16mm', bottom: '16mm', left: '12mm', right: '12mm' },
  })
  return { pdf, text }
}

/** Pages of a PDF Chromium wrote (each page object is a plain `/Type /Page` dictionary). */
export function pdfPageCount(pdf: Uint8Array): number {
  return (
    Buffer.from(pdf)
      .toString('latin1')
      .match(/\/Type\s*\/Page(?![a-zA-Z])/g)?.length ?? 0
  )
}

/** The page at `path` as `viewer` sees it, printed to an A4 PDF (see the module's comment). */
export async function renderPagePdf(options: RenderPdfOptions): Promise<RenderedPdf> {
  const started = performance.now()
  const documentUrl = new URL(options.path, ORIGIN)
  const browser = await getBrowser()
  return withPageSlot(async (signal) => {
    const response = await serveInProcess(documentUrl, options.viewer, options.language)
    if (response.status !== 200 || !response.headers.get('Content-Type')?.startsWith('text/html')) {
      await response.body?.cancel()
      throw new PageNotRendered(response.status)
    }
    const html = await response.text()
    const context = await browser.newContext({
      viewport: VIEWPORT,
      deviceScaleFactor: SCALE,
      serviceWorkers: 'block',
      acceptDownloads: false,
      locale: intlLocale(options.language ?? SOURCE_LANGUAGE),
      reducedMotion: 'reduce',
    })
    const close = () => void context.close().catch(() => undefined)
    signal.addEventListener('abort', close, { once: true })
    try {
      const { pdf, text } = await printPage(context, options, html, documentUrl)
      return { pdf, text, pages: pdfPageCount(pdf), ms: Math.round(performance.now() - started) }
    } finally {
      signal.removeEventListener('abort', close)
      await context.close().catch(() => undefined)
    }
  }, options.timeoutMs ?? DEFAULT_TIMEOUT_MS)
}
