import { describe, expect, test } from 'vitest'
import { createUser } from '#db/factories'
import { send, sessionCookieFor, useTestServer } from '#tests/support/app'
import { useTestDatabase } from '#tests/support/database'
import { textOf } from '#tests/integration/auth/helpers'

/** The admin dashboard (issue 7, item 19): its counts, and no sentence about a release yet to come. */
useTestDatabase()
const server = useTestServer()

describe('/admin', () => {
  test('shows the counts and no placeholder promise of later features', async () => {
    const admin = await createUser({ role: 'admin' })
    const response = await send(server, '/admin', { cookie: await sessionCookieFor(admin.id) })
    expect(response.status).toBe(200)
    const text = textOf(/<main[\s\S]*<\/main>/.exec(await response.text())![0])
    expect(text).toContain('Dashboard')
    for (const tile of ['Companies', 'Brands', 'Active employees', 'Open schemes', 'Submitted responses'])
      expect(text).toContain(tile)
    expect(text).not.toMatch(/oversight release|arrive with/i)
  })
})
