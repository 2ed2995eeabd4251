import { sql } from 'drizzle-orm'
import { describe, expect, inject, test } from 'vitest'
import { queryRows } from '#db/client'
import { useTestDatabase } from '#tests/support/database'
import { cookiesFrom, send, useTestServer } from '#tests/support/app'
import { runNode, TSX } from '#tests/support/run-node'
import { textOf } from '#tests/integration/auth/helpers'

/**
 * `npm run seed:scale` at a hundredth of its size (1,000 employees) on this file's database: what it
 * makes, that a second run adds nothing, and that its known accounts sign in to pages with data.
 */
const db = useTestDatabase()
const server = useTestServer()

async function seedScale(env: Record<string, string | undefined>) {
  const result = await runNode([TSX, 'scripts/seed-scale.ts', '--scale', '0.01'], env, 170_000)
  return { status: result.status, out: `${result.stdout}${result.stderr}` }
}

const count = async (from: string) =>
  Number((await queryRows<{ n: number }>(db(), sql.raw(`SELECT count(*)::int AS n FROM ${from}`)))[0]!.n)

test('refuses to run without DATABASE_URL, saying why', async () => {
  const { status, out } = await seedScale({ DATABASE_URL: '' })
  expect(status).toBe(2)
  expect(out).toContain('seed:scale needs Postgres: set DATABASE_URL')
})

describe.skipIf(inject('testDatabase').kind === 'pglite')('on Postgres', () => {
  test('makes the data set, then finds it and adds nothing', { timeout: 360_000 }, async () => {
    const first = await seedScale({ DATABASE_URL: process.env.DATABASE_URL })
    expect(first.status, first.out).toBe(0)
    expect(first.out).toMatch(/answers\s+[\d,]+ rows/)

    expect(await count(`users WHERE role = 'employee'`)).toBe(50 * 20 + 2)
    expect(await count('companies')).toBe(50)
    expect(await count('schemes')).toBe(1000)
    const assignments = await count('assignments')
    const submitted = await count(`assignments WHERE status = 'submitted'`)
    expect(submitted / assignments).toBeGreaterThan(0.4)
    expect(submitted / assignments).toBeLessThan(0.65)
    // Every submitted response answers every required question of its questionnaire.
    expect(
      await count(`responses r JOIN assignments a ON a.id = r.assignment_id
        JOIN questions q ON q.questionnaire_id = a.questionnaire_id AND q.required
        LEFT JOIN answers an ON an.response_id = r.id AND an.question_id = q.id
        WHERE r.submitted_at IS NOT NULL AND an.id IS NULL`),
    ).toBe(0)
    expect(await count('email_outbox')).toBeGreaterThan(assignments / 2)
    expect(await count('audit_log')).toBeGreaterThan(submitted)

    const before = await count('answers')
    const second = await seedScale({ DATABASE_URL: process.env.DATABASE_URL })
    expect(second.status, second.out).toBe(0)
    expect(second.out).toContain('Nothing to add')
    expect(second.out).not.toMatch(/\d rows/)
    expect(await count('answers')).toBe(before)
  })

  test('its known employee signs in and reads a report with colleague data', async () => {
    const signIn = await send(server, '/sign-in', {
      form: { email: 'scale-employee@panorama.test', password: 'panorama-demo' },
    })
    expect(signIn.status).toBe(302)
    const cookie = cookiesFrom(signIn)
    const home = await send(server, '/user', { cookie })
    const html = await home.text()
    const report = html.match(/\/user\/response-[0-9a-f-]{36}/)?.[0]
    expect(report).toBeTruthy()
    const page = await send(server, report!, { cookie })
    expect(page.status).toBe(200)
    // Five colleagues answered: the anonymity gate is open; colleagues show as aggregates only.
    // The page's own words, not its i18n data block (which holds every report message, ADR 050).
    const text = textOf(await page.text())
    expect(text).not.toContain('More answers needed')
    expect(text).toContain('All colleagues')
    expect(text).toContain('At a glance')
    expect(text).not.toContain('Colleague A')
  })
})
