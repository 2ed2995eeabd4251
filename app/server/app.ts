import crypto from 'node:crypto'
import fs from 'node:fs'
import http from 'node:http'
import path from 'node:path'
import express from 'express'
import expressStaticGzip from 'express-static-gzip'
import type { AppLoadContext, ServerBuild } from 'react-router'
import {
  closeDatabase,
  getHandle,
  isDatabaseDown,
  openDatabase,
  pingDatabase,
  projectRoot,
  runMigrations,
} from '#db/client'
import { ConfigError, contactWarning, getEnv, type Env } from '#app/config/env.server'
import { settleBackgroundWork } from '#app/lib/background.server'
import { log } from '#app/lib/logger.server'
import { runInRequestScope } from '#app/lib/request-scope.server'
import { ensureFirstAdmin } from '#app/modules/auth/bootstrap.server'
import { reviewSavedTemplates } from '#app/modules/email/template-editing.server'
import { startOutboxWorker } from '#app/modules/email/outbox.server'
import { startWebhookWorker } from '#app/modules/webhook/delivery.server'
import { startReminderWorker, startRetentionWorker } from '#app/server/workers'
import { startSchemeClock } from '#app/modules/scheme/clock.server'
import { initSentry, flushSentry } from '#app/modules/monitoring/sentry.server'
import { closeRealtime } from '#app/modules/realtime/listener.server'
import { closePdfBrowser } from '#app/modules/pdf/browser.server'
import { compressResponses } from './compression'
import { OUTAGE_RETRY_AFTER_SECONDS, outageAnswer, wantsPage } from './outage'
import { installProcessGuards } from './process-guards'
import { createRequestHandler } from './request-handler'
import { problemParts } from '#app/modules/api-key/api.server'

const isApiPath = (path: string) => path.startsWith('/api/v1/')
import { securityHeaders } from './security-headers'
import './context'

const MAX_BODY_BYTES = 3 * 1024 * 1024

type BuildSource = ServerBuild | (() => Promise<ServerBuild>)

export type AppOptions = {
  env?: Env
  build?: BuildSource
  /** Vite's dev middlewares (npm run dev). */
  devMiddleware?: express.RequestHandler
  clientDir?: string
}

/** The Express app: headers, health checks, static files and the React Router handler. */
export function createApp(options: AppOptions = {}) {
  const env = options.env ?? getEnv()
  const dev = Boolean(options.devMiddleware)
  const app = express()
  app.disable('x-powered-by')
  // A hop count, never `true`: trusting every hop would let a client choose its own address.
  app.set('trust proxy', env.TRUST_PROXY)

  app.use((req, res, next) => {
    const requestId = (env.TRUST_PROXY > 0 && req.get('x-request-id')?.slice(0, 64)) || crypto.randomUUID()
    const nonce = crypto.randomBytes(16).toString('base64')
    res.locals.requestId = requestId
    res.locals.nonce = nonce
    res.set('X-Request-Id', requestId)
    res.set(securityHeaders(nonce, env, dev, req.path))
    // Read now: a static file's handler rewrites the URL (to its .br or .gz copy) before it ends.
    const pathname = req.path
    const started = process.hrtime.bigint()
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6
      // The path only: query strings can carry one-time codes. Static files and health checks
      // that went well are logged at debug: a page view fetches a dozen files, a probe polls.
      const routine = res.locals.routine === true && res.statusCode < 400
      log[routine ? 'debug' : 'info']('request', {
        requestId,
        method: req.method,
        path: pathname,
        status: res.statusCode,
        ms: Math.round(ms * 10) / 10,
      })
    })
    next()
  })

  // The largest legitimate body is a 2 MB image upload plus form fields. Browsers give every form
  // post a Content-Length; a chunked body without one could not be checked before it is buffered.
  // The REST API answers every refusal as a JSON problem (ADR 054), these early ones included.
  const refuse = (
    req: express.Request,
    res: express.Response,
    text: { status: number; body: string },
    api: Parameters<typeof problemParts>,
  ) => {
    if (!isApiPath(req.path)) return void res.status(text.status).type('text/plain').send(text.body)
    const answer = problemParts(...api)
    // A Buffer: Express would add "; charset=utf-8" to a string's media type.
    res.status(answer.status).set(answer.headers).send(Buffer.from(answer.body))
  }
  app.use((req, res, next) => {
    if (req.get('transfer-encoding') && req.get('content-length') === undefined)
      return refuse(req, res, { status: 411, body: 'A Content-Length is required.' }, [
        'length-required',
        'Send a Content-Length with the body.',
      ])
    if (Number(req.get('content-length') ?? 0) > MAX_BODY_BYTES)
      return refuse(req, res, { status: 413, body: 'The upload is too large (2 MB at most).' }, [
        'payload-too-large',
        `The body may be ${MAX_BODY_BYTES} bytes at most.`,
      ])
    // An address that does not decode (%FF): React Router would answer with an HTML page.
    if (isApiPath(req.path))
      try {
        decodeURIComponent(req.path)
      } catch {
        return refuse(req, res, { status: 400, body: '' }, ['bad-request', 'The address is not valid UTF-8.'])
      }
    next()
  })

  app.get('/healthz', (_req, res) => {
    res.locals.routine = true
    res.set('Cache-Control', 'no-store').json({ status: 'ok' })
  })
  app.get('/readyz', async (_req, res) => {
    const ok = await pingDatabase()
    res
      .status(ok ? 200 : 503)
      .set('Cache-Control', 'no-store')
      .json({ status: ok ? 'ready' : 'unavailable' })
  })

  if (options.devMiddleware) {
    app.use(options.devMiddleware)
  } else {
    serveStaticFiles(
      app,
      options.clientDir ?? path.join(projectRoot(), process.env.BUILD_DIR || 'build', 'client'),
    )
  }

  app.use(compressResponses())

  // While the database is known to be unreachable, answer at once: every page needs it (the
  // session, the brand), and trying would make each request wait for a connection and fail. The
  // first request to meet the outage is answered the same way (entry.server.tsx).
  app.use((req, res, next) => {
    if (!isDatabaseDown()) return next()
    if (isApiPath(req.path))
      return refuse(req, res, { status: 503, body: '' }, [
        'unavailable',
        'The service cannot reach its database. Try again later.',
        { headers: { 'Retry-After': String(OUTAGE_RETRY_AFTER_SECONDS) } },
      ])
    const answer = outageAnswer(wantsPage(req.path, req.get('accept')) ? 'html' : 'text')
    res.status(answer.status).set(answer.headers).send(answer.body)
  })

  const handleRequest = pageHandler(options.build, dev)
  app.all('/{*splat}', (req, res, next) => {
    const loadContext: AppLoadContext = {
      nonce: res.locals.nonce as string,
      requestId: res.locals.requestId as string,
      ip: req.ip ?? req.socket.remoteAddress ?? '',
      // 'close' comes after the last byte is handed over, and also when the client hangs up.
      responseSent: new Promise<void>((resolve) => res.once('close', () => resolve())),
    }
    res.locals.loadContext = loadContext
    // Every loader and action of this request runs in its scope: what they share per request (the
    // session read) is kept on this one object.
    return runInRequestScope(loadContext, () => handleRequest(req, res, next))
  })
  return app
}

/**
 * React Router's handler for every page and data request. In production the server build is
 * imported once, by the first request, and every request after it shares that one import and the
 * route tables derived from it: React Router derives them again on each request when it is handed a
 * function (that is for development, where each request must see the edited code), and a request
 * arriving while another was still loading the build could be handed it half-evaluated by a module
 * loader that resolves circular imports early (the build and this file import each other).
 */
function pageHandler(source: BuildSource | undefined, dev: boolean): express.RequestHandler {
  const mode = dev ? 'development' : 'production'
  const getLoadContext = (_req: express.Request, res: express.Response) =>
    res.locals.loadContext as AppLoadContext
  if (source) return createRequestHandler({ build: source, mode, getLoadContext })
  let loading: Promise<express.RequestHandler> | undefined
  return (req, res, next) => {
    loading ??= (import('virtual:react-router/server-build') as unknown as Promise<ServerBuild>).then(
      (build) => createRequestHandler({ build, mode, getLoadContext }),
      (error: unknown) => {
        loading = undefined
        throw error
      },
    )
    return loading.then((handle) => handle(req, res, next), next)
  }
}

/**
 * The browser's files, each under its own address, so that a page request never looks at the disk:
 * the hashed bundles under /assets (cached for a year: their names change with their content), and
 * the few files at the top of the build (the favicon…), listed once at start-up and served at exactly
 * their own paths. Each was compressed at build time (vite.config.ts): the brotli or gzip copy beside
 * it is sent as it is, with its Content-Encoding, its own Content-Type and Vary: Accept-Encoding.
 */
function serveStaticFiles(app: express.Express, clientDir: string) {
  const precompressed = (root: string, cache: { maxAge: string; immutable?: boolean }) =>
    expressStaticGzip(root, {
      enableBrotli: true,
      orderPreference: ['br', 'gzip'],
      index: false,
      serveStatic: { ...cache, index: false, redirect: false },
    })
  const routine: express.RequestHandler = (_req, res, next) => {
    res.locals.routine = true
    next()
  }
  app.use(
    '/assets',
    routine,
    precompressed(path.join(clientDir, 'assets'), { maxAge: '1y', immutable: true }),
  )
  const topFiles = fs.existsSync(clientDir)
    ? fs
        .readdirSync(clientDir, { withFileTypes: true })
        .filter((entry) => entry.isFile() && !/\.(br|gz)$/.test(entry.name))
        .map((entry) => `/${entry.name}`)
    : []
  if (topFiles.length) app.get(topFiles, routine, precompressed(clientDir, { maxAge: '1h' }))
}

/** Opens the database, applies migrations and makes sure the portal can be administered. */
export async function prepare(env: Env) {
  const handle = await openDatabase({ url: env.DATABASE_URL, pgliteDir: env.PGLITE_DIR })
  await runMigrations(handle)
  await ensureFirstAdmin(env)
  // Saved e-mail wordings against today's rules for one-time codes and images (ADR 026). A failure
  // here must not keep the portal down: messages are made safe at render whatever the review finds.
  await reviewSavedTemplates().catch((error: unknown) => log.error('email template review failed', { error }))
  return handle
}

export type RunningServer = { server: http.Server; url: string; shutdown: (signal?: string) => Promise<void> }

/** `npm start`: configuration, database, worker, HTTP server and graceful shutdown. */
export async function main(
  options: AppOptions & { installSignalHandlers?: boolean } = {},
): Promise<RunningServer> {
  let env: Env
  try {
    env = options.env ?? getEnv()
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message)
      process.exit(1)
    }
    throw error
  }
  await initSentry(env)
  await prepare(env)
  const db = getHandle()
  if (!env.turnstileEnabled) log.info('turnstile off: no TURNSTILE_SITE_KEY/TURNSTILE_SECRET_KEY configured')
  if (!env.SMTP_URL) log.info('smtp off: e-mails stay in the outbox and their links are logged')
  const contact = contactWarning(env)
  if (contact)
    log.warn('contact links not configured: pages show none of them (a brand may still set its own)', contact)
  if (!env.SECRET_KEY)
    log.warn('SECRET_KEY not set: identity providers cannot be added or used until it is (ADR 049)')
  const worker = env.WORKER ? startOutboxWorker(env) : undefined
  // Reminders are queued even without SMTP: they wait in the outbox like every other message.
  const reminders = env.WORKER ? startReminderWorker(env) : undefined
  // Schemes close at their closing time (docs/decisions/013-scheme-lifecycle.md).
  const schemeClock = env.WORKER ? startSchemeClock() : undefined
  // Webhook deliveries (ADR 057), queued by the changes they report.
  const webhooks = env.WORKER ? startWebhookWorker() : undefined
  // Retention: each company's answers, accounts and audit entries past their period (ADR 058).
  const retention = env.WORKER ? startRetentionWorker() : undefined

  const app = createApp({ ...options, env })
  const server = http.createServer(app)
  // Keep-alive sockets must not hold shutdown open for long.
  server.keepAliveTimeout = 5_000
  try {
    await listen(server, env.PORT, env.HOST)
  } catch (error) {
    const message = listenErrorMessage(error, env)
    if (!message) throw error
    // What start-up opened goes first (the PGlite lock, the worker timers), then one clear line.
    await webhooks?.stop()
    await retention?.stop()
    await schemeClock?.stop()
    await reminders?.stop()
    await worker?.stop()
    await closeDatabase()
    console.error(message)
    process.exit(1)
  }
  const address = server.address()
  const port = typeof address === 'object' && address ? address.port : env.PORT
  const url = `http://localhost:${port}`
  log.info('listening', { url, appUrl: env.APP_URL, database: db.kind })

  let closing: Promise<void> | undefined
  const shutdown = (signal = 'shutdown') => {
    closing ??= (async () => {
      log.info('shutting down', { signal })
      // Open event streams would hold server.close() until the force timeout: end them first.
      await closeRealtime()
      // Stop accepting; in-flight requests finish, idle keep-alive sockets close (swept again as
      // the ended streams' sockets fall idle).
      const closed = new Promise<void>((resolve) => server.close(() => resolve()))
      server.closeIdleConnections()
      const sweep = setInterval(() => server.closeIdleConnections(), 100)
      sweep.unref()
      const force = setTimeout(() => server.closeAllConnections(), 10_000)
      force.unref()
      await closed
      clearInterval(sweep)
      clearTimeout(force)
      // The PDF renderer's Chromium (ADR 046), if a PDF was made: its pages ended with their requests.
      await closePdfBrowser()
      // Work answered requests left behind (a reset e-mail) still needs the database.
      await settleBackgroundWork()
      await webhooks?.stop()
      await retention?.stop()
      await schemeClock?.stop()
      await reminders?.stop()
      await worker?.stop()
      await flushSentry()
      await closeDatabase()
      log.info('stopped', { signal })
    })()
    return closing
  }
  if (options.installSignalHandlers !== false) {
    // An error nobody caught: a request's own stays with that request (ADR 029).
    installProcessGuards(shutdown)
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      process.once(signal, () => {
        shutdown(signal).then(
          () => process.exit(0),
          (error) => {
            log.error('shutdown failed', { error })
            process.exit(1)
          },
        )
      })
    }
  }
  return { server, url, shutdown }
}

function listen(server: http.Server, port: number, host: string) {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => {
      server.off('error', reject)
      resolve()
    })
  })
}

/** One line for the operator when the port cannot be had; undefined for any other failure. */
export function listenErrorMessage(error: unknown, env: Pick<Env, 'PORT' | 'HOST'>): string | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code
  const other = env.PORT === 3000 ? 3001 : 3000
  if (code === 'EADDRINUSE')
    return (
      `Port ${env.PORT} is already in use on ${env.HOST}: stop the program using it, ` +
      `or start Panorama on another port, e.g. PORT=${other} npm start`
    )
  if (code === 'EACCES')
    return (
      `Port ${env.PORT} on ${env.HOST} needs privileges this process does not have: ` +
      `use a port above 1023, e.g. PORT=${other} npm start`
    )
  return undefined
}

export { resetEnvCache } from '#app/config/env.server'
