import { afterEach, beforeAll, describe, expect, test } from 'vitest'
import { createUser } from '#db/factories'
import { enqueueEmail } from '#app/modules/email/outbox.server'
import { send, sessionCookieFor, useTestServer } from '#tests/support/app'
import { useTestDatabase } from '#tests/support/database'
import { textOf } from '#tests/integration/auth/helpers'

/**
 * Without SMTP_URL nothing is delivered: the dashboard and the outbox say so, and say where a link
 * can be found, instead of calling queued messages "on their way". With SMTP_URL they say nothing of
 * it. Pages are read through the production build, whose configuration is re-read per case.
 */
const db = useTestDatabase()
const server = useTestServer()
let cookie = ''

beforeAll(async () => {
  cookie = await sessionCookieFor((await createUser({ role: 'admin' })).id)
  // A message waiting in the outbox, as every invitation made without SMTP would.
  await enqueueEmail(db(), {
    to: 'waiting@example.com',
    template: 'reset_password',
    values: { link: 'http://localhost:3000/verification?mode=resetPassword&code=WAITINGCODE' },
  })
})

afterEach(() => {
  delete process.env.SMTP_URL
  server.build!.resetEnvCache()
})

function withSmtp(on: boolean) {
  if (on) process.env.SMTP_URL = 'smtp://127.0.0.1:2525'
  else delete process.env.SMTP_URL
  server.build!.resetEnvCache()
}

async function mainText(path: string) {
  const response = await send(server, path, { cookie })
  expect(response.status, path).toBe(200)
  return textOf(/<main[\s\S]*<\/main>/.exec(await response.text())![0])
}

const OFF = 'E-mail delivery is off (no SMTP_URL configured).'
const PAGES = ['/admin', '/admin/email-management?tab=outbox']

describe('without SMTP_URL', () => {
  test.each(PAGES)('%s says delivery is off, that nothing is sent and where the links are', async (path) => {
    withSmtp(false)
    const text = await mainText(path)
    expect(text).toContain(OFF)
    expect(text).toContain('Messages wait in the outbox as “Queued” and are not sent to anyone.')
    expect(text).toContain('its one-time codes are hidden there')
    expect(text).toContain('each message’s link is written to the server log (at the info level)')
    expect(text).toContain('set SMTP_URL and restart the server')
    // No promise of a delivery that cannot happen, and never the code itself.
    expect(text).not.toContain('delivered or is on its way')
    expect(text).not.toContain('WAITINGCODE')
  })

  test('the dashboard links to the outbox, where the waiting message is listed', async () => {
    withSmtp(false)
    const response = await send(server, '/admin', { cookie })
    const html = await response.text()
    expect(html).toMatch(/<a[^>]*href="\/admin\/email-management\?tab=outbox"[^>]*>Open the outbox<\/a>/)
    expect(await mainText('/admin/email-management?tab=outbox')).toContain('waiting@example.com')
  })
})

describe('with SMTP_URL', () => {
  test.each(PAGES)('%s says nothing about delivery being off', async (path) => {
    withSmtp(true)
    const text = await mainText(path)
    expect(text).not.toContain(OFF)
    expect(text).not.toContain('server log')
  })

  test('the dashboard keeps its reassurance when nothing failed', async () => {
    withSmtp(true)
    expect(await mainText('/admin')).toContain('Every e-mail so far has been delivered or is on its way.')
  })
})
