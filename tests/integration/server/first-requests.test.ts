import { expect, test } from 'vitest'
import { useTestDatabase } from '#tests/support/database'
import { send, useTestServer } from '#tests/support/app'

/**
 * A server that has just started meets its first requests side by side (a load balancer sends it
 * a queue at once). Each must find the whole application: the page handler is loaded once and
 * shared, never read half-loaded by a request that came while another was loading it.
 */
useTestDatabase()
const server = useTestServer()

test('forty requests arriving one after another while a fresh server loads are all answered as pages', async () => {
  // One every few milliseconds: some come before the page handler starts loading, some while it loads.
  const responses = await Promise.all(
    Array.from(
      { length: 60 },
      (_, i) =>
        new Promise<Response>((resolve, reject) =>
          setTimeout(() => send(server, '/sign-in').then(resolve, reject), i * 5),
        ),
    ),
  )
  const statuses = responses.map((r) => r.status)
  expect(statuses).toEqual(Array.from({ length: 60 }, () => 200))
  for (const response of responses) expect(await response.text()).toContain('<form')
})
