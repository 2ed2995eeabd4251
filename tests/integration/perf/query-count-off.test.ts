import { expect, test } from 'vitest'
import { createUser } from '#db/factories'
import { countQueriesIn, totalQueries } from '#db/client'
import { useTestDatabase } from '#tests/support/database'
import { send, sessionCookieFor, useTestServer } from '#tests/support/app'

/**
 * Query counting is for the bench and the query-count tests only: without QUERY_COUNT=1 the
 * database opens without the counting hook, so a served page counts nothing.
 */
delete process.env.QUERY_COUNT
const db = useTestDatabase()
const server = useTestServer()

test('without QUERY_COUNT nothing is counted', async () => {
  const user = await createUser({ role: 'employee' })
  const cookie = await sessionCookieFor(user.id)
  const response = await send(server, '/user', { cookie })
  expect(response.status).toBe(200)
  await response.text()
  const tally = { queries: 0 }
  await countQueriesIn(tally, () => db().query.users.findFirst())
  expect(tally.queries).toBe(0)
  expect(totalQueries()).toBe(0)
})
