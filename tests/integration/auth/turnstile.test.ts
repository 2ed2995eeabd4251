import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { emailOutbox, rateLimits } from '#db/schema/index'
import { createRaterAssignment, createScheme, createUser } from '#db/factories'
import { resetEnvCache } from '#app/config/env.server'
import { settleBackgroundWork } from '#app/lib/background.server'
import { createActionCode } from '#app/modules/action-code/action-code.server'
import { AUTH_ERROR_MESSAGES } from '#app/modules/auth/errors'
import { TURNSTILE_FIELD } from '#app/modules/auth/turnstile.server'
import { useTestDatabase } from '#tests/support/database'
import { cookiesFrom, location, send, useTestServer } from '#tests/support/app'
import { FACTORY_PASSWORD, alertTexts, freePort, sessionTokenFrom } from './helpers'

/**
 * Bot checks with keys configured (DESIGN.md §5): they fail closed. Cloudflare's siteverify is
 * outside this machine (and must not be called from tests), so TURNSTILE_VERIFY_URL points at a
 * local fake that answers like it: `{ success: true | false }`, or an error, or nothing at all.
 * The keys are Cloudflare's documented test keys.
 */
const SITE_KEY = '1x00000000000000000000AA'
const SECRET_KEY = '2x0000000000000000000000000000000AA'
const CAPTCHA = AUTH_ERROR_MESSAGES['auth/captcha-check-failed']

type Mode = 'accept' | 'refuse' | 'error'
const fake = {
  mode: 'accept' as Mode,
  url: '',
  calls: [] as URLSearchParams[],
  server: undefined as http.Server | undefined,
}

// Registered before useTestServer(), so the build's configuration and app see the keys.
beforeAll(async () => {
  fake.server = http.createServer((req, res) => {
    let body = ''
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')))
    req.on('end', () => {
      const params = new URLSearchParams(body)
      fake.calls.push(params)
      if (fake.mode === 'error') {
        res.writeHead(500).end('upstream trouble')
        return
      }
      const success =
        fake.mode === 'accept' &&
        params.get('secret') === SECRET_KEY &&
        params.get('response') === 'good-token'
      res.writeHead(200, { 'Content-Type': 'application/json' })
      res.end(
        JSON.stringify(
          success ? { success: true } : { success: false, 'error-codes': ['invalid-input-response'] },
        ),
      )
    })
  })
  await new Promise<void>((resolve) => fake.server!.listen(0, '127.0.0.1', resolve))
  fake.url = `http://127.0.0.1:${(fake.server.address() as AddressInfo).port}/turnstile/v0/siteverify`
  process.env.TURNSTILE_SITE_KEY = SITE_KEY
  process.env.TURNSTILE_SECRET_KEY = SECRET_KEY
  process.env.TURNSTILE_VERIFY_URL = fake.url
  resetEnvCache()
})

const db = useTestDatabase()
const server = useTestServer()

afterAll(async () => {
  delete process.env.TURNSTILE_SITE_KEY
  delete process.env.TURNSTILE_SECRET_KEY
  delete process.env.TURNSTILE_VERIFY_URL
  resetEnvCache()
  server.build?.resetEnvCache()
  fake.server?.closeAllConnections()
  await new Promise((resolve) => fake.server?.close(resolve))
})

beforeEach(async () => {
  fake.mode = 'accept'
  fake.calls.length = 0
  await db().delete(rateLimits)
})

function signIn(email: string, token?: string) {
  const form: Record<string, string> = { email, password: FACTORY_PASSWORD, redirectTo: '' }
  if (token !== undefined) form[TURNSTILE_FIELD] = token
  return send(server, '/sign-in', { form })
}

async function expectCaptchaRefusal(response: Response) {
  expect(response.status).toBe(400)
  expect(alertTexts(await response.text())).toEqual([CAPTCHA])
  expect(sessionTokenFrom(response)).toBeUndefined()
}

describe('pages', () => {
  test('the CSP allows Cloudflare challenge frames and scripts, and the page carries the site key', async () => {
    const response = await send(server, '/sign-in')
    const policy = response.headers.get('Content-Security-Policy')!
    expect(policy).toMatch(/frame-src[^;]*https:\/\/challenges\.cloudflare\.com/)
    expect(policy).toMatch(/script-src[^;]*https:\/\/challenges\.cloudflare\.com/)
    expect(policy).toMatch(/frame-ancestors 'none'/)
    expect(await response.text()).toContain(SITE_KEY)
  })
})

describe('sign-in', () => {
  test('without a token: refused before the password is even checked', async () => {
    const employee = await createUser({ role: 'employee' })
    await expectCaptchaRefusal(await signIn(employee.email))
    await expectCaptchaRefusal(await signIn(employee.email, ''))
    expect(fake.calls).toHaveLength(0)
  })

  test('with a token the verifier accepts: a normal sign-in, the secret and token sent to the verifier', async () => {
    const employee = await createUser({ role: 'employee' })
    const response = await signIn(employee.email, 'good-token')
    expect(response.status).toBe(302)
    expect(location(response)).toBe('/user')
    expect(sessionTokenFrom(response)).toBeTruthy()
    expect(fake.calls).toHaveLength(1)
    expect(fake.calls[0]!.get('secret')).toBe(SECRET_KEY)
    expect(fake.calls[0]!.get('response')).toBe('good-token')
  })

  test('a token the verifier refuses: refused', async () => {
    const employee = await createUser({ role: 'employee' })
    await expectCaptchaRefusal(await signIn(employee.email, 'bad-token'))
    expect(fake.calls).toHaveLength(1)
  })

  test('the verifier answering an error: refused', async () => {
    const employee = await createUser({ role: 'employee' })
    fake.mode = 'error'
    await expectCaptchaRefusal(await signIn(employee.email, 'good-token'))
  })

  test('the verifier unreachable: refused (fails closed)', async () => {
    const employee = await createUser({ role: 'employee' })
    const original = process.env.TURNSTILE_VERIFY_URL
    // A port nobody listens on: the connection is refused at once.
    process.env.TURNSTILE_VERIFY_URL = `http://127.0.0.1:${await freePort()}/siteverify`
    server.build!.resetEnvCache()
    try {
      await expectCaptchaRefusal(await signIn(employee.email, 'good-token'))
    } finally {
      process.env.TURNSTILE_VERIFY_URL = original
      server.build!.resetEnvCache()
    }
    // …and once it is back, the same sign-in goes through.
    const response = await signIn(employee.email, 'good-token')
    expect(response.status).toBe(302)
  })

  test('an over-long token is refused without asking the verifier', async () => {
    const employee = await createUser({ role: 'employee' })
    await expectCaptchaRefusal(await signIn(employee.email, 'x'.repeat(5000)))
    expect(fake.calls).toHaveLength(0)
  })
})

describe('forgot password', () => {
  test('without a token: refused, and no e-mail is queued', async () => {
    const employee = await createUser({ role: 'employee' })
    await db().delete(emailOutbox)
    const response = await send(server, '/forgot-password', { form: { email: employee.email } })
    expect(response.status).toBe(400)
    expect(alertTexts(await response.text())).toEqual([CAPTCHA])
    await settleBackgroundWork()
    expect(await db().select().from(emailOutbox)).toHaveLength(0)

    const accepted = await send(server, '/forgot-password', {
      form: { email: employee.email, [TURNSTILE_FIELD]: 'good-token' },
    })
    expect(accepted.status).toBe(200)
    // The e-mail is written after the answer (ADR 007): wait for that work, then look.
    await settleBackgroundWork()
    expect(await db().select().from(emailOutbox)).toHaveLength(1)
  })
})

describe('sign-in link', () => {
  test('without a token: refused, and no e-mail is queued; with one the verifier accepts, the link is sent', async () => {
    const employee = await createUser({ role: 'employee' })
    await db().delete(emailOutbox)
    const form = { intent: 'sign-in-link', email: employee.email }
    const response = await send(server, '/sign-in', { form })
    expect(response.status).toBe(400)
    expect(alertTexts(await response.text())).toEqual([CAPTCHA])
    await settleBackgroundWork()
    expect(await db().select().from(emailOutbox)).toHaveLength(0)

    const accepted = await send(server, '/sign-in', { form: { ...form, [TURNSTILE_FIELD]: 'good-token' } })
    expect(accepted.status).toBe(200)
    await settleBackgroundWork()
    expect(await db().select().from(emailOutbox)).toHaveLength(1)
  })
})

describe('invite acceptance', () => {
  test('the link no longer signs in by itself: the bot check comes first', async () => {
    const scheme = await createScheme()
    const employee = await createUser({ role: 'employee' })
    const colleague = await createUser({ role: 'colleague' })
    const assignment = await createRaterAssignment({
      scheme,
      subjectId: employee.id,
      respondentId: colleague.id,
    })
    const { code } = await createActionCode(db(), {
      kind: 'colleague_invite',
      assignmentId: assignment.id,
      expiresAt: scheme.closesAt,
    })

    const followed = await send(server, `/verification?mode=invite&code=${code}`)
    expect(followed.status).toBe(302)
    expect(location(followed)).toBe('/verification?mode=invite')
    expect(sessionTokenFrom(followed)).toBeUndefined()
    const cookie = cookiesFrom(followed)

    const page = await send(server, '/verification?mode=invite', { cookie })
    expect(page.status).toBe(200)
    expect(await page.text()).toContain(SITE_KEY)

    const withoutToken = await send(server, '/verification?mode=invite', { cookie, form: {} })
    expect(withoutToken.status).toBe(400)
    expect(sessionTokenFrom(withoutToken)).toBeUndefined()

    fake.mode = 'refuse'
    const refused = await send(server, '/verification?mode=invite', {
      cookie,
      form: { [TURNSTILE_FIELD]: 'good-token' },
    })
    expect(refused.status).toBe(400)
    expect(sessionTokenFrom(refused)).toBeUndefined()

    fake.mode = 'accept'
    const accepted = await send(server, '/verification?mode=invite', {
      cookie,
      form: { [TURNSTILE_FIELD]: 'good-token' },
    })
    expect(accepted.status).toBe(302)
    expect(location(accepted)).toBe(`/questionnaire/${scheme.questionnaireId}`)
    expect(sessionTokenFrom(accepted)).toBeTruthy()
  })
})
