import { sql } from 'drizzle-orm'
import { beforeAll, describe, expect, inject, test } from 'vitest'
import { queryRows } from '#db/client'
import { createCompany, createUser } from '#db/factories'
import { searchDirectory } from '#app/modules/nomination/directory.server'
import { useTestDatabase } from '#tests/support/database'
import { planOf, recordStatements, scansOf } from '#tests/support/query-plans'

/**
 * The colleague directory's plan (issue 18 §3): on a users table of many rows — one company of
 * 30,000 employees and 20,000 people elsewhere, with the names, departments and titles of the scale
 * seed's kind, vacuumed and analysed — the type-ahead answers from the trigram index on the text it
 * searches (users.directory_text: name, address, department and title, lower-cased; Postgres may
 * AND it with the company's index), never by reading users whole.
 */
const db = useTestDatabase()
const onPostgres = inject('testDatabase').kind === 'postgres'

const TRIGRAM_INDEXES = ['users_directory_trgm']

describe.skipIf(!onPostgres)('the directory search on a big users table', () => {
  let actor = { id: '', role: 'employee' as const }

  beforeAll(async () => {
    const big = await createCompany({ name: 'Plan Big' })
    const other = await createCompany({ name: 'Plan Other' })
    const employee = await createUser({ role: 'employee', companyId: big.id, displayName: 'Plan Employee' })
    actor = { id: employee.id, role: 'employee' }
    const first = `ARRAY['Ada','Ben','Carla','Dana','Elena','Farah','Grace','Hana','Isaac','Jonas','Kai','Liam','Maria','Noah','Olga','Priya']`
    const last = `ARRAY['Adeyemi','Bauer','Costa','Dubois','Eriksen','Fischer','Garcia','Haddad','Jansen','Kaur','Larsen','Meyer','Novak','Okafor','Patel','Quinn','Rossi','Santos','Tanaka','Weber']`
    const departments = `ARRAY['Operations','Finance','Sales','Marketing','Engineering','People','Customer service','Legal','Procurement','Research']`
    const titles = `ARRAY['Analyst','Coordinator','Specialist','Manager','Lead','Associate','Director','Assistant']`
    await db().execute(
      sql.raw(`INSERT INTO users (email, display_name, role, company_id, department, job_title)
        SELECT 'plan.' || n || '@plan-' || (CASE WHEN n <= 30000 THEN 'big' ELSE 'other' END) || '.test',
          (${first})[1 + n % 16] || ' ' || (${last})[1 + (n / 16) % 20] || ' ' || n,
          'employee',
          CASE WHEN n <= 30000 THEN '${big.id}'::uuid ELSE '${other.id}'::uuid END,
          (${departments})[1 + (n / 7) % 10],
          (${titles})[1 + (n / 3) % 8]
        FROM generate_series(1, 50000) n`),
    )
    // As seed:scale leaves it and autovacuum keeps it: a GIN index never vacuumed has no statistics
    // in its metapage, and the planner then guesses its cost so high that it reads the table whole.
    await db().execute(sql`VACUUM ANALYZE users`)
  }, 120_000)

  async function planFor(q: string) {
    const { result, statements } = await recordStatements(() =>
      searchDirectory(actor, { employeeId: actor.id, q }),
    )
    expect(result.ok).toBe(true)
    // The rate limit's counter, then the access check and the search in one statement.
    expect(statements).toHaveLength(2)
    expect(statements[0]!.text).toMatch(/INSERT INTO rate_limits/)
    return { result, scans: scansOf(await planOf(statements[1]!)) }
  }

  test('a name: the directory text’s trigram index (ANDed with the company’s, or the company filtered after)', async () => {
    const { result, scans } = await planFor('Okafor 12')
    expect(result.ok && result.value.people.length).toBeGreaterThan(0)
    const users = scans.filter((s) => s.table === 'users')
    expect(users.filter((s) => s.type === 'Seq Scan')).toEqual([])
    // The list's employee by id; the people through the trigram index.
    expect(users).toContainEqual(expect.objectContaining({ type: 'Index Scan', index: 'users_pkey' }))
    const search = users.find((s) => s.type === 'Bitmap Heap Scan')
    const indexes = search?.index?.split(' + ') ?? []
    expect(indexes).toEqual(expect.arrayContaining(TRIGRAM_INDEXES))
    // Nothing else but, possibly, the company's own people to AND them with.
    expect(indexes.filter((i) => !TRIGRAM_INDEXES.includes(i))).toEqual(
      indexes.length > 1 ? [expect.stringMatching(/^users_company_id(_department)?_index$/)] : [],
    )
  })

  test('a department a tenth of the table shares: still never the users table whole', async () => {
    const { result, scans } = await planFor('operations')
    expect(result.ok && result.value.people).toHaveLength(8)
    expect(scans.filter((s) => s.table === 'users' && s.type === 'Seq Scan')).toEqual([])
  })

  test('fewer than three letters: the access check alone reads users', async () => {
    const { scans } = await planFor('ok')
    expect(scans.filter((s) => s.table === 'users').map((s) => s.index)).toEqual(['users_pkey'])
  })

  test('the answers are the company’s own people, as the plan promises', async () => {
    const [row] = await queryRows<{ n: number }>(
      db(),
      sql`SELECT count(*)::int AS n FROM users WHERE display_name ILIKE '%Okafor 12%' AND email LIKE '%@plan-big.test'`,
    )
    const { result } = await planFor('Okafor 12')
    expect(result.ok && result.value.people.length).toBe(Math.min(8, row!.n))
  })
})
