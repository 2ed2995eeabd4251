import crypto from 'node:crypto'
import http from 'node:http'
import path from 'node:path'
import { createRequestHandler } from '@react-router/express'
import compression from 'compression'
import express from 'express'
import type { ServerBuild } from 'react-router'
import { closeDatabase, getHandle, openDatabase, pingDatabase, projectRoot, runMigrations } from '#db/client'
import { ConfigError, getEnv, type Env } from '#app/config/env.server'
import { log } from '#app/lib/logger.server'
import { ensureFirstAdmin } from '#app/modules/auth/bootstrap.server'
import { startOutboxWorker } from '#app/modules/email/outbox.server'
import { startReminderWorker } from '#app/modules/email/reminders.server'
import { initSentry, flushSentry } from '#app/modules/monitoring/sentry.server'
import { closeRealtime } from '#app/modules/realtime/listener.server'
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
    res.set(securityHeaders(nonce, env, dev))
    const started = process.hrtime.bigint()
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6
      // The path only: query strings can carry one-time codes.
      log.info('request', {
        requestId,
        method: req.method,
        path: req.path,
        status: res.statusCode,
        ms: Math.round(ms * 10) / 10,
      })
    })
    next()
  })

  // Server-sent events must reach the browser as they are written, not when a gzip block fills.
  app.use(
    compression({
      filter: (req, res) =>
        !String(res.getHeader('Content-Type') ?? '').startsWith('text/event-stream') &&
        compression.filter(req, res),
    }),
  )

  // The largest legitimate body is a 2 MB image upload plus form fields. Browsers give every form
  // post a Content-Length; a chunked body without one could not be checked before it is buffered.
  app.use((req, res, next) => {
    if (req.get('transfer-encoding') && req.get('content-length') === undefined) {
      res.status(411).type('text/plain').send('A Content-Length is required.')
      return
    }
    if (Number(req.get('content-length') ?? 0) > MAX_BODY_BYTES) {
      res.status(413).type('text/plain').send('The upload is too large (2 MB at most).')
      return
    }
    next()
  })

  app.get('/healthz', (_req, res) => {
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
    const clientDir =
      options.clientDir ?? path.join(projectRoot(), process.env.BUILD_DIR || 'build', 'client')
    // Hashed file names never change content: cache them for a year.
    app.use('/assets', express.static(path.join(clientDir, 'assets'), { immutable: true, maxAge: '1y' }))
    app.use(express.static(clientDir, { maxAge: '1h' }))
  }

  const build: BuildSource =
    options.build ?? (() => import('virtual:react-router/server-build') as unknown as Promise<ServerBuild>)
  app.all(
    '/{*splat}',
    createRequestHandler({
      build,
      mode: dev ? 'development' : 'production',
      getLoadContext: (req, res) => ({
        nonce: res.locals.nonce as string,
        requestId: res.locals.requestId as string,
        ip: req.ip ?? req.socket.remoteAddress ?? '',
      }),
    }),
  )
  return app
}

/** Opens the database, applies migrations and makes sure the portal can be administered. */
export async function prepare(env: Env) {
  const handle = await openDatabase({ url: env.DATABASE_URL, pgliteDir: env.PGLITE_DIR })
  await runMigrations(handle)
  await ensureFirstAdmin(env)
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
  const worker = env.WORKER ? startOutboxWorker(env) : undefined
  // Reminders are queued even without SMTP: they wait in the outbox like every other message.
  const reminders = env.WORKER ? startReminderWorker(env) : undefined

  const app = createApp({ ...options, env })
  const server = http.createServer(app)
  // Keep-alive sockets must not hold shutdown open for long.
  server.keepAliveTimeout = 5_000
  await new Promise<void>((resolve) => server.listen(env.PORT, env.HOST, resolve))
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
      await reminders?.stop()
      await worker?.stop()
      await flushSentry()
      await closeDatabase()
      log.info('stopped', { signal })
    })()
    return closing
  }
  if (options.installSignalHandlers !== false) {
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

export { resetEnvCache } from '#app/config/env.server'
