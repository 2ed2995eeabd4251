import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { eq } from 'drizzle-orm'
import { beforeEach, expect, test } from 'vitest'
import { rateLimits } from '#db/schema/index'
import { createUser } from '#db/factories'
import { AUTH_ERROR_MESSAGES } from '#app/modules/auth/errors'
import { SIGN_IN_LIMITS } from '#app/modules/auth/rate-limit.server'
import { useTestDatabase } from '#tests/support/database'
import { location, useTestServer } from '#tests/support/app'
import { FACTORY_PASSWORD, alertTexts, postSignIn, sessionTokenFrom } from './helpers'

/**
 * Sign-in limits (SIGN_IN_LIMITS): 5 failures per account and 30 attempts per address in 15 minutes,
 * counted in Postgres so that every app instance enforces the same numbers.
 */
const db = useTestDatabase()
const server = useTestServer()

const TOO_MANY = AUTH_ERROR_MESSAGES['auth/too-many-requests']
const WINDOW_SECONDS = SIGN_IN_LIMITS.account.windowMs / 1000

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

test('5 failures lock the account: the 6th attempt, even with the right password, answers 429 with Retry-After', async () => {
  const employee = await createUser({ role: 'employee' })
  expect(SIGN_IN_LIMITS.account.limit).toBe(5)
  for (let i = 0; i < 5; i++) {
    const response = await postSignIn(server, { email: employee.email, password: `wrong ${i}` })
    expect(response.status, `failure ${i + 1}`).toBe(400)
    await response.arrayBuffer()
  }
  const limited = await postSignIn(server, { email: employee.email, password: FACTORY_PASSWORD })
  await expectLimited(limited.clone())

  // The counter is a Postgres row, not process memory; every attempt counts before the password
  // check (the refused 6th included), so parallel guesses cannot slip in under the limit.
  const [row] = await db()
    .select()
    .from(rateLimits)
    .where(eq(rateLimits.key, `sign-in:account:${employee.email}`))
  expect(row?.count).toBe(6)

  // Another account from the same address is not affected by this one's lock.
  const other = await createUser({ role: 'employee' })
  const fine = await postSignIn(server, { email: other.email, password: FACTORY_PASSWORD })
  expect(fine.status).toBe(302)
  expect(location(fine)).toBe('/user')

  // APP BUG (reported): the action puts Retry-After on its data(), but sign-in.tsx exports no
  // `headers` function, so React Router drops it from the document (and the .data) response.
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

test('one address gets 30 attempts across different e-mails, then 429', async () => {
  expect(SIGN_IN_LIMITS.ip.limit).toBe(30)
  const second = await secondInstance()
  try {
    for (let i = 0; i < 30; i++) {
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
