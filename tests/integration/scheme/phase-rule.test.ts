import { eq, inArray } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { assignments, schemes } from '#db/schema/index'
import { createRaterAssignment, createScheme, createUser } from '#db/factories'
import { getDashboardCounts } from '#app/modules/dashboard/dashboard.server'
import {
  assignmentOpenSql,
  assignmentPhaseSql,
  schemePhase,
  type SchemePhase,
} from '#app/modules/scheme/state'
import { useTestDatabase } from '#tests/support/database'

/**
 * The phase of an assignment is one rule in two forms (issue 16 §2): the JavaScript `schemePhase`
 * (with `roundEndedAt`) and the SQL `assignmentPhaseSql` / `assignmentOpenSql` agree on every case,
 * and the dashboard's "Open schemes" tile counts by it.
 */
const db = useTestDatabase()

const DAY = 86_400_000

async function schemesInEveryPhase() {
  const now = Date.now()
  return {
    open: await createScheme({}),
    upcoming: await createScheme({ opensAt: new Date(now + DAY), closesAt: new Date(now + 9 * DAY) }),
    // Launched and past its close, not yet closed by the clock: closed by the rule.
    overdue: await createScheme({ opensAt: new Date(now - 9 * DAY), closesAt: new Date(now - DAY) }),
    closed: await createScheme({ status: 'closed' }),
    draft: await createScheme({ status: 'draft' }),
  }
}

describe('the phase of an assignment', () => {
  test('SQL and JavaScript agree, a round ended by a release included', async () => {
    const now = new Date()
    const all = await schemesInEveryPhase()
    const subject = await createUser({ role: 'employee' })
    const ids: string[] = []
    for (const scheme of Object.values(all)) {
      for (const ended of [false, true]) {
        const respondent = await createUser({ role: 'colleague' })
        const row = await createRaterAssignment({
          scheme,
          subjectId: subject.id,
          respondentId: respondent.id,
        })
        if (ended)
          await db()
            .update(assignments)
            .set({ closedAt: new Date(now.getTime() - 1000) })
            .where(eq(assignments.id, row.id))
        ids.push(row.id)
      }
    }
    const rows = await db()
      .select({
        status: schemes.status,
        opensAt: schemes.opensAt,
        closesAt: schemes.closesAt,
        roundEndedAt: assignments.closedAt,
        sqlPhase: assignmentPhaseSql(now),
        sqlOpen: assignmentOpenSql(now),
      })
      .from(assignments)
      .innerJoin(schemes, eq(schemes.id, assignments.schemeId))
      .where(inArray(assignments.id, ids))
    expect(rows).toHaveLength(10)
    const phases = new Set<SchemePhase>()
    for (const row of rows) {
      const js = schemePhase(row, now)
      phases.add(js)
      expect({ sql: row.sqlPhase, open: row.sqlOpen }).toEqual({ sql: js, open: js === 'open' })
    }
    expect([...phases].sort()).toEqual(['closed', 'draft', 'open', 'upcoming'])
    expect(rows.filter((r) => r.sqlOpen)).toHaveLength(1)
  })
})

describe('the dashboard’s “Open schemes” tile', () => {
  test('counts the schemes open by the rule: not the upcoming, overdue, closed or draft ones', async () => {
    const before = await getDashboardCounts()
    await schemesInEveryPhase()
    const after = await getDashboardCounts()
    expect(after.open_schemes - before.open_schemes).toBe(1)
  })
})
