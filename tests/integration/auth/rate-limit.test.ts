import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { eq } from 'drizzle-orm'
import { afterAll, beforeEach, expect, test } from 'vitest'
import { rateLimits } from '#db/schema/index'
import { createUser } from '#db/factories'
import { createActionCode } from '#app/modules/action-code/action-code.server'
import { AUTH_ERROR_MESSAGES } from '#app/modules/auth/errors'
import { SIGN_IN_LIMITS, spacingMs } from '#app/modules/rate-limit/rate-limit.server'
import { useTestDatabase } from '#tests/support/database'
import { cookiesFrom, location, send, useTestServer } from '#tests/support/app'
import { FACTORY_PASSWORD, alertTexts, postSignIn, sessionTokenFrom, setCookie } from './helpers'

/**
 * Sign-in limits (SIGN_IN_LIMITS, ADR 007), counted in Postgres so that every app instance enforces
 * the same numbers. Only failures count. Wrong passwords for one account from one address refuse
 * that pair (5 in 15 minutes); other addresses are slowed down (spaced turns), not locked out; one
 * address may fail 100 times an hour across accounts; a browser that signed in to the account
 * before (device cookie) has its own budget.
 */
const db = useTestDatabase()
const server = useTestServer()

const TOO_MANY = AUTH_ERROR_MESSAGES['auth/too-many-requests']
const WINDOW_SECONDS = SIGN_IN_LIMITS.pair.windowMs / 1000

beforeEach(async () => {
  await db().delete(rateLimits)
})

async function expectLimited(response: Response) {
  expect(response.status).toBe(429)
  expect(alertTexts(await response.text())).toEqual([TOO_MANY])
  expect(response.headers.getSetCookie().some((c) => c.startsWith('__session='))).toBe(false)
}

/** A second app instance from the same build (its own Express app and port) on the same database. */
async function secondInstance() {
  const instance = http.createServer(server.build!.createApp())
  await new Promise<void>((resolve) => instance.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(instance.address() as AddressInfo).port}`,
    close: async () => {
      instance.closeAllConnections()
      await new Promise((resolve) => instance.close(resolve))
    },
  }
}

/**
 * An instance behind one trusted proxy hop (TRUST_PROXY=1), so each request can come from the
 * address its X-Forwarded-For names: the way to be several people in one test.
 */
let proxied: Awaited<ReturnType<typeof secondInstance>> | undefined
async function fromAddress(ip: string, fields: Parameters<typeof postSignIn>[1], cookie?: string) {
  if (!proxied) {
    process.env.TRUST_PROXY = '1'
    server.build!.resetEnvCache()
    try {
      proxied = await secondInstance()
    } finally {
      delete process.env.TRUST_PROXY
      server.build!.resetEnvCache()
    }
  }
  return postSignIn(proxied, fields, {
    headers: { 'X-Forwarded-For': ip, ...(cookie ? { Cookie: cookie } : {}) },
  })
}

afterAll(async () => {
  await proxied?.close()
})

async function timed<T>(work: () => Promise<T>) {
  const started = performance.now()
  const value = await work()
  return { value, ms: performance.now() - started }
}

test('5 failures lock the account for that address: the 6th attempt from it, even with the right password, answers 429 with Retry-After', async () => {
  const employee = await createUser({ role: 'employee' })
  expect(SIGN_IN_LIMITS.pair.limit).toBe(5)
  for (let i = 0; i < 5; i++) {
    const response = await postSignIn(server, { email: employee.email, password: `wrong ${i}` })
    expect(response.status, `failure ${i + 1}`).toBe(400)
    await response.arrayBuffer()
  }
  const limited = await postSignIn(server, { email: employee.email, password: FACTORY_PASSWORD })
  await expectLimited(limited.clone())

  // The counter is a Postgres row, not process memory. It counts failures only: the refused 6th
  // was never checked, so it gave back what it counted (parallel guesses: a test below).
  const [row] = await db()
    .select()
    .from(rateLimits)
    .where(eq(rateLimits.key, `sign-in:pair:${employee.email} 127.0.0.1`))
  expect(row?.count).toBe(5)

  // Another account from the same address is not affected by this one's lock.
  const other = await createUser({ role: 'employee' })
  const fine = await postSignIn(server, { email: other.email, password: FACTORY_PASSWORD })
  expect(fine.status).toBe(302)
  expect(location(fine)).toBe('/user')

  // The route passes the action's Retry-After on (its `headers` export); without it React Router
  // would drop the header from the document and the .data response.
  const retryAfter = limited.headers.get('Retry-After')
  expect(retryAfter ?? '(no Retry-After header)', 'a 429 must say when to retry').toMatch(/^\d+$/)
  expect(Number(retryAfter)).toBeGreaterThan(0)
  expect(Number(retryAfter)).toBeLessThanOrEqual(WINDOW_SECONDS)
})

test('the lock holds on a second app instance sharing the database', async () => {
  const employee = await createUser({ role: 'employee' })
  const second = await secondInstance()
  try {
    // Failures spread over both instances add up.
    for (let i = 0; i < 5; i++) {
      const target = i % 2 === 0 ? server : second
      const response = await postSignIn(target, { email: employee.email, password: `wrong ${i}` })
      expect(response.status).toBe(400)
      await response.arrayBuffer()
    }
    await expectLimited(await postSignIn(second, { email: employee.email, password: FACTORY_PASSWORD }))
    await expectLimited(await postSignIn(server, { email: employee.email, password: FACTORY_PASSWORD }))
  } finally {
    await second.close()
  }
})

test('a successful sign-in before the limit clears the account counter', async () => {
  const employee = await createUser({ role: 'employee' })
  for (let i = 0; i < 4; i++)
    await (await postSignIn(server, { email: employee.email, password: 'wrong' })).arrayBuffer()
  const ok = await postSignIn(server, { email: employee.email, password: FACTORY_PASSWORD })
  expect(ok.status).toBe(302)
  expect(sessionTokenFrom(ok)).toBeTruthy()
  for (let i = 0; i < 4; i++) {
    const response = await postSignIn(server, { email: employee.email, password: 'wrong' })
    expect(response.status).toBe(400)
    await response.arrayBuffer()
  }
})

test('an unknown address is limited like a real one (the limit does not reveal which exist)', async () => {
  for (let i = 0; i < 5; i++)
    await (await postSignIn(server, { email: 'ghost@example.test', password: 'x' })).arrayBuffer()
  await expectLimited(await postSignIn(server, { email: 'ghost@example.test', password: 'x' }))
})

test('one address gets 100 failures across different e-mails, then 429', async () => {
  expect(SIGN_IN_LIMITS.address.limit).toBe(100)
  const second = await secondInstance()
  try {
    for (let i = 0; i < 100; i++) {
      // Half of them through the second instance: the address counter is shared too.
      const response = await postSignIn(i % 2 ? second : server, {
        email: `visitor-${i}@example.test`,
        password: 'x',
      })
      expect(response.status, `attempt ${i + 1}`).toBe(400)
      await response.arrayBuffer()
    }
    // A real account with its right password is refused too, from this address.
    const employee = await createUser({ role: 'employee' })
    await expectLimited(await postSignIn(server, { email: employee.email, password: FACTORY_PASSWORD }))
  } finally {
    await second.close()
  }
})

test('an expired window starts over', async () => {
  const employee = await createUser({ role: 'employee' })
  for (let i = 0; i < 5; i++)
    await (await postSignIn(server, { email: employee.email, password: 'wrong' })).arrayBuffer()
  await expectLimited(await postSignIn(server, { email: employee.email, password: FACTORY_PASSWORD }))
  // Move the window 15 minutes and a second into the past, as if the time had passed.
  await db()
    .update(rateLimits)
    .set({ windowStart: new Date(Date.now() - SIGN_IN_LIMITS.account.windowMs - 1_000) })
  const response = await postSignIn(server, { email: employee.email, password: FACTORY_PASSWORD })
  expect(response.status).toBe(302)
  expect(location(response)).toBe('/user')
})

test('wrong passwords from one address do not lock the account elsewhere: the right password from another address signs in', async () => {
  for (const role of ['employee', 'admin'] as const) {
    const user = await createUser({ role })
    for (let i = 0; i < 5; i++) {
      const response = await fromAddress('198.51.100.66', { email: user.email, password: `wrong ${i}` })
      expect(response.status, `failure ${i + 1}`).toBe(400)
      await response.arrayBuffer()
    }
    await expectLimited(await fromAddress('198.51.100.66', { email: user.email, password: FACTORY_PASSWORD }))
    // The owner, from their own address: slowed by at most the current spacing (1 s), not refused.
    const { value: owner, ms } = await timed(() =>
      fromAddress('203.0.113.10', { email: user.email, password: FACTORY_PASSWORD }),
    )
    expect(owner.status, `${role} from another address`).toBe(302)
    expect(location(owner)).toBe(role === 'admin' ? '/admin' : '/user')
    expect(ms).toBeLessThan(spacingMs(5) + 2_000)
    // A success forgets the account's failures (the attacker's pair stays locked).
    const rows = await db()
      .select()
      .from(rateLimits)
      .where(eq(rateLimits.key, `sign-in:account:${user.email}`))
    expect(rows).toHaveLength(0)
    await expectLimited(await fromAddress('198.51.100.66', { email: user.email, password: FACTORY_PASSWORD }))
  }
})

test('failures from many addresses slow the account down: a right password waits for its turn, then signs in', async () => {
  const employee = await createUser({ role: 'employee' })
  const { freeFailures } = SIGN_IN_LIMITS.account
  // freeFailures + 3 failures from four addresses (no pair reaches its limit), sequentially.
  for (let i = 0; i < freeFailures + 3; i++) {
    const response = await fromAddress(`198.51.100.${i % 4}`, { email: employee.email, password: 'wrong' })
    expect(response.status, `failure ${i + 1}`).toBe(400)
    await response.arrayBuffer()
  }
  // The next check is spaced after the last one by spacingMs(freeFailures + 3): about 4 s.
  const spacing = spacingMs(freeFailures + 3)
  expect(spacing).toBe(4_000)
  const { value: owner, ms } = await timed(() =>
    fromAddress('203.0.113.20', { email: employee.email, password: FACTORY_PASSWORD }),
  )
  expect(owner.status).toBe(302)
  expect(location(owner)).toBe('/user')
  expect(ms).toBeGreaterThan(spacing - 1_500)
})

test('a burst of parallel guesses from many addresses: the account takes turns, the rest are refused with Retry-After', async () => {
  const employee = await createUser({ role: 'employee' })
  const rule = SIGN_IN_LIMITS.account
  // How many turns fit within the hold, when every guess arrives at once.
  let bound = 0
  for (let turn = 0; turn <= rule.maxHoldMs; turn += spacingMs(bound)) bound++
  expect(bound).toBe(8)
  const burst = 20
  const started = performance.now()
  const responses = await Promise.all(
    Array.from({ length: burst }, (_, i) =>
      fromAddress(`192.0.2.${i + 1}`, { email: employee.email, password: `guess ${i}` }),
    ),
  )
  const elapsed = performance.now() - started
  const checked = responses.filter((r) => r.status === 400)
  const refused = responses.filter((r) => r.status === 429)
  expect(checked.length + refused.length).toBe(burst)
  expect(checked.length).toBeLessThanOrEqual(bound)
  expect(checked.length).toBeGreaterThanOrEqual(rule.freeFailures)
  for (const response of refused) {
    const retryAfter = Number(response.headers.get('Retry-After'))
    expect(retryAfter).toBeGreaterThan(0)
    expect(retryAfter).toBeLessThanOrEqual(rule.maxDelayMs / 1000)
  }
  await Promise.all(responses.map((r) => r.arrayBuffer()))
  // The checks that did run were spaced: the last of `bound` turns starts 7 s after the first.
  if (checked.length === bound) expect(elapsed).toBeGreaterThan(6_000)
  const [row] = await db()
    .select()
    .from(rateLimits)
    .where(eq(rateLimits.key, `sign-in:account:${employee.email}`))
  expect(row?.count).toBe(checked.length)
})

test('a burst of parallel guesses from one address: no more than 5 reach the password check', async () => {
  const employee = await createUser({ role: 'employee' })
  const responses = await Promise.all(
    Array.from({ length: 15 }, (_, i) =>
      fromAddress('198.51.100.99', { email: employee.email, password: `guess ${i}` }),
    ),
  )
  await Promise.all(responses.map((r) => r.arrayBuffer()))
  const statuses = responses.map((r) => r.status)
  expect(statuses.filter((s) => s === 400)).toHaveLength(SIGN_IN_LIMITS.pair.limit)
  expect(statuses.filter((s) => s === 429)).toHaveLength(15 - SIGN_IN_LIMITS.pair.limit)
})

test('successes do not count: 40 people behind one office address all sign in, and its failure budget is untouched', async () => {
  const people = await Promise.all(Array.from({ length: 40 }, () => createUser({ role: 'employee' })))
  // A few typos on the way, as on any launch morning.
  for (const person of people.slice(0, 5)) {
    const typo = await fromAddress('203.0.113.50', { email: person.email, password: 'typo' })
    expect(typo.status).toBe(400)
    await typo.arrayBuffer()
  }
  for (const person of people) {
    const response = await fromAddress('203.0.113.50', { email: person.email, password: FACTORY_PASSWORD })
    expect(response.status, person.email).toBe(302)
    await response.arrayBuffer()
  }
  const [row] = await db().select().from(rateLimits).where(eq(rateLimits.key, 'sign-in:address:203.0.113.50'))
  expect(row?.count).toBe(5)
})

test('a trusted device (signed in there before) is not slowed by an attack on the account; it has its own budget', async () => {
  const employee = await createUser({ role: 'employee' })
  const first = await fromAddress('203.0.113.30', { email: employee.email, password: FACTORY_PASSWORD })
  expect(first.status).toBe(302)
  const device = setCookie(first, '__device')!
  expect(device).toBeDefined()
  expect(device.attributes.httponly).toBe(true)
  expect(String(device.attributes.samesite).toLowerCase()).toBe('lax')
  const deviceCookie = cookiesFrom(first)
    .split('; ')
    .find((c) => c.startsWith('__device='))!

  // As if an attack from many addresses were under way: the account's next turn is a minute away.
  await db()
    .insert(rateLimits)
    .values({
      key: `sign-in:account:${employee.email}`,
      windowStart: new Date(),
      count: 40,
      nextAt: new Date(Date.now() + 60_000),
    })
  // A new browser at a new address is answered at once with when to come back…
  const { value: stranger, ms: strangerMs } = await timed(() =>
    fromAddress('203.0.113.31', { email: employee.email, password: FACTORY_PASSWORD }),
  )
  await expectLimited(stranger.clone())
  expect(Number(stranger.headers.get('Retry-After'))).toBeGreaterThan(50)
  expect(strangerMs).toBeLessThan(2_000)
  // …the trusted browser signs in straight away, even from another address.
  const { value: trusted, ms } = await timed(() =>
    fromAddress('198.51.100.200', { email: employee.email, password: FACTORY_PASSWORD }, deviceCookie),
  )
  expect(trusted.status).toBe(302)
  expect(ms).toBeLessThan(2_000)

  // A device cookie is worth nothing for another account, nor when forged.
  const other = await createUser({ role: 'employee' })
  for (let i = 0; i < 5; i++)
    await (
      await fromAddress('198.51.100.201', { email: other.email, password: 'wrong' }, deviceCookie)
    ).arrayBuffer()
  await expectLimited(
    await fromAddress('198.51.100.201', { email: other.email, password: FACTORY_PASSWORD }, deviceCookie),
  )
  const forged = deviceCookie.replace(/\.[^.]*$/, '.forged')
  await expectLimited(
    await fromAddress('203.0.113.31', { email: employee.email, password: FACTORY_PASSWORD }, forged),
  )

  // The trusted device's own failures: 5, then it waits like anyone else.
  for (let i = 0; i < 5; i++) {
    const response = await fromAddress(
      '198.51.100.200',
      { email: employee.email, password: 'wrong' },
      deviceCookie,
    )
    expect(response.status).toBe(400)
    await response.arrayBuffer()
  }
  await expectLimited(
    await fromAddress('198.51.100.200', { email: employee.email, password: FACTORY_PASSWORD }, deviceCookie),
  )
})

test('a new password (reset link) lifts the locks on the account', async () => {
  const employee = await createUser({ role: 'employee' })
  for (let i = 0; i < 5; i++)
    await (await postSignIn(server, { email: employee.email, password: 'wrong' })).arrayBuffer()
  await expectLimited(await postSignIn(server, { email: employee.email, password: FACTORY_PASSWORD }))

  const { code } = await createActionCode(db(), { kind: 'reset_password', userId: employee.id })
  const followed = await send(server, `/verification?mode=resetPassword&code=${code}`)
  const password = 'a brand new passphrase'
  const done = await send(server, '/verification?mode=resetPassword', {
    cookie: cookiesFrom(followed),
    form: { password, confirmPassword: password },
  })
  expect(done.status).toBe(302)
  const again = await postSignIn(server, { email: employee.email, password })
  expect(again.status).toBe(302)
  expect(sessionTokenFrom(again)).toBeTruthy()
})
