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

  test('“Active employees” counts those who activated and are not disabled; the others are said apart (issue 15, B12)', async () => {
    const admin = await createUser({ role: 'admin' })
    const tile = async () => {
      const html = await (await send(server, '/admin', { cookie: await sessionCookieFor(admin.id) })).text()
      const item = /<li>(?:(?!<\/li>)[\s\S])*?Active employees[\s\S]*?<\/li>/.exec(html)![0]
      return { text: textOf(item), href: /href="([^"]*)"/.exec(item)![1] }
    }
    const before = await tile()
    const base = Number(/Active employees (\d+)/.exec(before.text)![1])
    // One activated, two who never followed their link, one activated but disabled.
    await createUser({ role: 'employee' })
    await createUser({ role: 'employee', password: null })
    await createUser({ role: 'employee', password: null })
    await createUser({ role: 'employee', disabledAt: new Date() })
    const after = await tile()
    expect(after.text).toMatch(new RegExp(`^Active employees ${base + 1}\\b`))
    expect(after.text).toContain('2 employees have not activated yet')
    expect(after.href).toBe('/admin/employee-management?state=active')
  })
})
