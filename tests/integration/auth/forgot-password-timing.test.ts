import { fork, spawn } from 'node:child_process'
import path from 'node:path'
import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, inject, onTestFinished, test, vi } from 'vitest'
import { emailOutbox, rateLimits } from '#db/schema/index'
import { createUser } from '#db/factories'
import { BACKGROUND_RETRY_DELAYS_MS, settleBackgroundWork } from '#app/lib/background.server'
import { createSmtpTransport, processOutboxOnce, type MailTransport } from '#app/modules/email/outbox.server'
import { RESET_SENT_MESSAGE } from '#app/routes/public/forgot-password'
import { useTestDatabase } from '#tests/support/database'
import { send, useTestServer } from '#tests/support/app'
import { extractLinks, startSmtpCatcher, type SmtpCatcher } from '#tests/support/smtp-catcher'
import { freePort, textOf } from './helpers'

/**
 * /forgot-password must not tell a known address from an unknown one by how long it takes (outside
 * testers measured 28 ms against 18 ms, median of 30). The answer goes first; the lookup and the
 * e-mail happen after it (runInBackground), and that work survives a failure: retried, logged.
 */
const db = useTestDatabase()
const server = useTestServer()
let catcher: SmtpCatcher
let transport: MailTransport

beforeAll(async () => {
  catcher = await startSmtpCatcher()
  transport = createSmtpTransport(catcher.url)
})

afterAll(async () => {
  transport?.close?.()
  await catcher?.close()
})

beforeEach(async () => {
  await db().delete(rateLimits)
})

const SAMPLES = 40
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

function forgot(email: string) {
  return send(server, '/forgot-password', { form: { email } })
}

/** A timing client in its own process (tests/support/timing-client.mjs). */
async function outsideClient() {
  const child = fork(path.resolve(import.meta.dirname, '../../support/timing-client.mjs'))
  await new Promise((resolve) => child.once('message', resolve))
  return {
    post: (pathname: string, form: Record<string, string>) =>
      new Promise<{ status: number; ms: number }>((resolve) => {
        child.once('message', (reply) => resolve(reply as { status: number; ms: number }))
        child.send({ url: server.url + pathname, form })
      }),
    close: () => child.kill(),
  }
}

test('a known and an unknown address take the same time to answer (median of 40 interleaved pairs)', async () => {
  const employee = await createUser({ role: 'employee' })
  const client = await outsideClient()
  onTestFinished(() => {
    client.close()
  })
  const time = async (email: string) => {
    // Fresh counters: the per-address limit (3 in 15 minutes) would otherwise skip the work.
    await db().delete(rateLimits)
    const { status, ms } = await client.post('/forgot-password', { email })
    expect(status).toBe(200)
    // The work after the answer is not part of the answer's time, and must not slow the next one.
    await settleBackgroundWork()
    await new Promise((resolve) => setTimeout(resolve, 20))
    return ms
  }
  for (let i = 0; i < 5; i++) {
    await time(employee.email)
    await time(`warm-up-${i}@example.test`)
  }
  /** One round: SAMPLES interleaved pairs; the medians, and the median of the paired differences. */
  const round = async (r: number) => {
    const known: number[] = []
    const unknown: number[] = []
    // Interleaved, so load from other processes on this 2-core machine hits both series alike, and
    // in turn first, so whatever one request leaves behind weighs on both series alike too.
    for (let i = 0; i < SAMPLES; i++) {
      const other = `nobody-${r}-${i}@example.test`
      if (i % 2 === 0) {
        known.push(await time(employee.email))
        unknown.push(await time(other))
      } else {
        unknown.push(await time(other))
        known.push(await time(employee.email))
      }
    }
    // Each known sample beside the unknown one taken just after it: the machine's load moves both
    // alike and drops out of the difference.
    const paired = median(known.map((x, i) => x - unknown[i]!))
    return { known: median(known), unknown: median(unknown), paired }
  }
  // Within noise: a paired difference under 5 ms or 15 % of an answer. Before the fix the known
  // address took 12–53 ms longer (paired; 17–48 % of an answer) on this machine in every round. On
  // a machine shared with other test files single answers range from 20 to 300 ms: up to three
  // rounds, and one within noise is enough. The next test does not depend on timing at this scale.
  const withinNoise = (r: { unknown: number; paired: number }) =>
    Math.abs(r.paired) < Math.max(5, 0.15 * r.unknown)
  const rounds: Awaited<ReturnType<typeof round>>[] = []
  while (rounds.length < 3 && !rounds.some(withinNoise)) rounds.push(await round(rounds.length))
  for (const r of rounds)
    console.log(
      `forgot-password, median of ${SAMPLES}: known ${r.known.toFixed(1)} ms, unknown ` +
        `${r.unknown.toFixed(1)} ms, paired difference ${r.paired.toFixed(1)} ms`,
    )
  expect(rounds.some(withinNoise), JSON.stringify(rounds)).toBe(true)
  // And every one of the requests for the known address did send its e-mail.
  const mails = await db().select().from(emailOutbox).where(eq(emailOutbox.recipient, employee.email))
  expect(mails).toHaveLength(SAMPLES * rounds.length + 5)
  await db().delete(emailOutbox)
}, 120_000)

test('the answer does not wait for the e-mail: with the outbox slowed to 1.5 s, a known address is answered at once', async () => {
  const employee = await createUser({ role: 'employee' })
  await db().execute(sql`
    CREATE OR REPLACE FUNCTION test_slow_mail() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN PERFORM pg_sleep(1.5); RETURN NEW; END $$`)
  await db().execute(
    sql.raw(`CREATE TRIGGER test_slow_mail BEFORE INSERT ON email_outbox FOR EACH ROW
      WHEN (NEW.recipient = '${employee.email}') EXECUTE FUNCTION test_slow_mail()`),
  )
  const client = await outsideClient()
  try {
    const { status, ms } = await client.post('/forgot-password', { email: employee.email })
    expect(status).toBe(200)
    expect(ms).toBeLessThan(1_000)
    await settleBackgroundWork()
  } finally {
    client.close()
    await db().execute(sql`DROP TRIGGER IF EXISTS test_slow_mail ON email_outbox`)
  }
  const mails = await db().select().from(emailOutbox).where(eq(emailOutbox.recipient, employee.email))
  expect(mails).toHaveLength(1)
})

describe('the work after the answer', () => {
  /** Everything the process writes to stderr (warnings and errors) while `work` runs. */
  async function stderrDuring(work: () => Promise<void>) {
    const level = process.env.LOG_LEVEL
    process.env.LOG_LEVEL = 'warn'
    const write = vi.spyOn(process.stderr, 'write').mockImplementation(() => true)
    try {
      await work()
      return write.mock.calls.map((c) => String(c[0])).join('')
    } finally {
      write.mockRestore()
      process.env.LOG_LEVEL = level
    }
  }

  /** Makes the outbox refuse mail to one address, as a database in trouble would. */
  async function refuseMailTo(email: string) {
    await db().execute(sql`
      CREATE OR REPLACE FUNCTION test_refuse_mail() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'outbox unavailable'; END $$`)
    await db().execute(
      sql.raw(`CREATE TRIGGER test_refuse_mail BEFORE INSERT ON email_outbox FOR EACH ROW
        WHEN (NEW.recipient = '${email}') EXECUTE FUNCTION test_refuse_mail()`),
    )
    return () => db().execute(sql`DROP TRIGGER IF EXISTS test_refuse_mail ON email_outbox`)
  }

  test('a failure is retried, logged without the address, and the e-mail still arrives', async () => {
    const employee = await createUser({ role: 'employee' })
    const allow = await refuseMailTo(employee.email)
    const log = await stderrDuring(async () => {
      const response = await forgot(employee.email)
      // The answer does not wait for (nor reveal) the failure.
      expect(response.status).toBe(200)
      expect(textOf(await response.text())).toContain(RESET_SENT_MESSAGE)
      // The first try fails; the database recovers before the retry.
      await vi.waitFor(
        async () => {
          const rows = await db().select().from(emailOutbox).where(eq(emailOutbox.recipient, employee.email))
          expect(rows).toHaveLength(0)
        },
        { timeout: 1_000 },
      )
      await new Promise((resolve) => setTimeout(resolve, 100))
      await allow()
      await settleBackgroundWork()
    })
    expect(log).toContain('background task failed; retrying')
    expect(log).toContain('password reset e-mail')
    expect(log).not.toContain(employee.email)

    await processOutboxOnce({ transport })
    const message = await catcher.waitFor((m) => m.envelopeTo.includes(employee.email), 10_000)
    expect(extractLinks(message.text).some((l) => l.includes('/verification?mode=resetPassword&code='))).toBe(
      true,
    )
  })

  test('a failure that lasts is logged as an error after every retry, and the process carries on', async () => {
    const employee = await createUser({ role: 'employee' })
    const allow = await refuseMailTo(employee.email)
    try {
      const log = await stderrDuring(async () => {
        const response = await forgot(employee.email)
        expect(response.status).toBe(200)
        await settleBackgroundWork()
      })
      const lines = log.split('\n').filter((l) => l.includes('password reset e-mail'))
      expect(lines).toHaveLength(BACKGROUND_RETRY_DELAYS_MS.length + 1)
      expect(JSON.parse(lines.at(-1)!)).toMatchObject({
        level: 'error',
        msg: 'background task failed',
        attempts: BACKGROUND_RETRY_DELAYS_MS.length + 1,
      })
      expect(log).not.toContain(employee.email)
    } finally {
      await allow()
    }
    // The server still answers.
    expect((await send(server, '/forgot-password')).status).toBe(200)
  })

  // The server's own process (as `npm start` runs it) on this file's Postgres database: PGlite
  // admits one process per folder, and the test must make the outbox fail from outside.
  test.runIf(inject('testDatabase').kind === 'postgres')(
    'SIGTERM while the work waits for a retry: shutdown waits for it, and the e-mail is written',
    async () => {
      const employee = await createUser({ role: 'employee' })
      const allow = await refuseMailTo(employee.email)
      onTestFinished(async () => {
        await allow()
      })
      const port = await freePort()
      const child = spawn(process.execPath, ['server.mjs'], {
        cwd: path.resolve(import.meta.dirname, '../../..'),
        env: {
          PATH: process.env.PATH ?? '',
          HOME: process.env.HOME ?? '',
          NODE_ENV: 'production',
          SESSION_SECRET: 'a-test-session-secret-of-at-least-32-characters',
          PORT: String(port),
          HOST: '127.0.0.1',
          APP_URL: `http://127.0.0.1:${port}`,
          DATABASE_URL: process.env.DATABASE_URL!,
          WORKER: 'false',
          LOG_LEVEL: 'warn',
          ADMIN_EMAIL: 'ops@example.test',
          ADMIN_PASSWORD: 'an admin passphrase',
        },
        stdio: ['ignore', 'ignore', 'pipe'],
      })
      let stderr = ''
      child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')))
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
      onTestFinished(() => {
        if (child.exitCode === null) child.kill('SIGKILL')
      })
      const target = { url: `http://127.0.0.1:${port}` }
      await vi.waitFor(
        async () => expect((await fetch(`${target.url}/readyz`).catch(() => null))?.status).toBe(200),
        { timeout: 60_000, interval: 250 },
      )
      const response = await send(target, '/forgot-password', { form: { email: employee.email } })
      expect(response.status).toBe(200)
      await response.arrayBuffer()
      // The first try has failed and the retry is waiting: the database recovers, the server is told to stop.
      await vi.waitFor(() => expect(stderr).toContain('background task failed; retrying'), {
        timeout: 10_000,
      })
      await allow()
      child.kill('SIGTERM')
      expect(await exited).toBe(0)
      const mails = await db().select().from(emailOutbox).where(eq(emailOutbox.recipient, employee.email))
      expect(mails).toHaveLength(1)
    },
    90_000,
  )
})
