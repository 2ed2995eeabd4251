import fs from 'node:fs'
import type { Browser } from 'playwright-core'
import { getEnv } from '#app/config/env.server'
import { log } from '#app/lib/logger.server'

/**
 * The one headless Chromium of this process (ADR 046): launched by the first PDF asked for, reused
 * by every one after, relaunched if it crashed, closed at shutdown. At most {@link MAX_PAGES} pages
 * print at once (each is a renderer process and a few tens of MB); the rest wait in line, and a
 * render that takes longer than its timeout is given up.
 */

/** Pages printing at the same time; a request beyond that waits for a free one. */
export const MAX_PAGES = 2
/** Requests waiting for a page beyond which the server says it is busy instead of queueing more. */
export const MAX_WAITING = 50

/** Chromium cannot be used here (not installed, or it failed to start): the PDF is unavailable. */
export class PdfUnavailableError extends Error {}
/** Too many PDFs are waiting already: try again in a moment. */
export class PdfBusyError extends Error {}
/** The page did not print within its time. */
export class PdfTimeoutError extends Error {}

/** The browser's path: CHROMIUM_PATH, by default Debian's /usr/bin/chromium. */
export function chromiumPath(): string {
  return getEnv().CHROMIUM_PATH
}

/** Whether PDFs can be made on this server: the browser is there (a failed launch is reported then). */
export function pdfAvailable(): boolean {
  return !launchFailed && fs.existsSync(chromiumPath())
}

/** The words a page shows instead of a link when PDFs cannot be made here. */
export const PDF_UNAVAILABLE_MESSAGE =
  'PDF download is not available on this server (it needs Chromium; see the README, “Production”). ' +
  'Use “Save as PDF” to print the report from your browser instead.'

let browser: Promise<Browser> | undefined
let launchFailed = false

const ARGS = [
  '--headless',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
  '--mute-audio',
  // Containers run without the user namespaces Chromium's sandbox needs; the browser only ever sees
  // this server's own pages, with every request answered in-process (render.server.ts).
  '--no-sandbox',
]

async function launch(): Promise<Browser> {
  const executablePath = chromiumPath()
  if (!fs.existsSync(executablePath)) throw new PdfUnavailableError(`No Chromium at ${executablePath}`)
  const { chromium } = await import('playwright-core')
  try {
    const launched = await chromium.launch({
      executablePath,
      args: ARGS,
      // The server's own shutdown closes it (closePdfBrowser): no signal handlers of Playwright's.
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
      timeout: 30_000,
    })
    launched.on('disconnected', () => {
      if (browser) log.warn('pdf browser disconnected')
      browser = undefined
    })
    log.info('pdf browser started', { executablePath, version: launched.version() })
    return launched
  } catch (error) {
    launchFailed = true
    log.error('pdf browser failed to start', { error, executablePath })
    throw new PdfUnavailableError(`Chromium at ${executablePath} failed to start`)
  }
}

/** The shared browser, launching it on first use. */
export function getBrowser(): Promise<Browser> {
  browser ??= launch().catch((error: unknown) => {
    browser = undefined
    throw error
  })
  return browser
}

/** Closes the browser (server shutdown, end of a test file); the next PDF launches a new one. */
export async function closePdfBrowser() {
  const open = browser
  browser = undefined
  launchFailed = false
  const closing = await open?.catch(() => undefined)
  await closing?.close().catch(() => undefined)
}

// ---- the line of requests waiting for a page ----

let active = 0
const waiting: (() => void)[] = []

/** Runs `work` once one of the MAX_PAGES slots is free, giving it up after `timeoutMs`. */
export async function withPageSlot<T>(
  work: (signal: AbortSignal) => Promise<T>,
  timeoutMs: number,
): Promise<T> {
  if (active < MAX_PAGES) active++
  else {
    if (waiting.length >= MAX_WAITING) throw new PdfBusyError('Too many PDFs are being made right now')
    // The slot is handed over by the one that frees it (active stays as it is).
    await new Promise<void>((resolve) => waiting.push(resolve))
  }
  const controller = new AbortController()
  let timer: NodeJS.Timeout | undefined
  const working = work(controller.signal)
  try {
    return await Promise.race([
      working,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          controller.abort()
          reject(new PdfTimeoutError(`The PDF took longer than ${timeoutMs / 1000} s`))
        }, timeoutMs)
      }),
    ])
  } finally {
    clearTimeout(timer)
    // A render given up closes its page on the abort: the slot is free once it has.
    if (controller.signal.aborted) await working.catch(() => undefined)
    const next = waiting.shift()
    if (next) next()
    else active--
  }
}

/** For tests: pages printing and requests waiting now. */
export const pdfQueueState = () => ({ active, waiting: waiting.length })
