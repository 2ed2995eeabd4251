import { describe, expect, test } from 'vitest'
import { endOfDay } from '#app/lib/dates'
import { useTestDatabase } from '#tests/support/database'
import { send, useTestServer } from '#tests/support/app'
import { textOf } from '#tests/integration/auth/helpers'
import { createWorld } from './answer-helpers'

/**
 * "15 days left" on /user beside "in 16 days" on the questionnaire's introduction, for the same
 * deadline (issue 15, B12): every page counts the days left by one rule (app/lib/dates.ts daysLeft),
 * calendar days in the scheme's zone, and words them alike.
 */
useTestDatabase()
const server = useTestServer()

const DAY = 24 * 60 * 60 * 1000

async function pageText(path: string, cookie: string) {
  const response = await send(server, path, { cookie })
  expect(response.status, path).toBe(200)
  return textOf(/<main[\s\S]*<\/main>/.exec(await response.text())![0])
}

describe('the days left before the deadline', () => {
  test('read the same on the home page, the introduction and the answering page', async () => {
    // The deadline at 23:59 (the scheme's zone) fifteen days from today: any time today, 15 days.
    const w = await createWorld({ scheme: { closesAt: endOfDay(new Date(Date.now() + 15 * DAY), 'UTC') } })
    const home = await pageText('/user', w.employeeCookie)
    const intro = await pageText(
      `/questionnaire/${w.questionnaire.id}?assignment=${w.self.id}`,
      w.employeeCookie,
    )
    const answering = await pageText(`/assignment/${w.self.id}`, w.employeeCookie)
    expect(home).toContain('(15 days left)')
    expect(intro).toContain('15 days left')
    expect(answering).toContain('(15 days left)')
    for (const text of [home, intro, answering]) expect(text).not.toMatch(/\b(16 days|in \d+ days)\b/)
  })
})
