import type pg from 'pg'
import { getHandle } from '#db/client'

/**
 * Query plans of the statements the app really sends (Postgres only): `recordStatements` notes
 * every statement run through the pool while a function runs, with its parameters, and `planOf`
 * asks Postgres how it would run one of them (EXPLAIN without ANALYZE, so an UPDATE is planned,
 * not executed). Tests then assert on the plan's scans: which tables are read, and through which
 * index with which condition.
 */

export type Statement = { text: string; values: unknown[] }

function pool(): pg.Pool {
  const { pool } = getHandle()
  if (!pool) throw new Error('Query plans need Postgres (TEST_DATABASE_URL)')
  return pool
}

/** Runs fn and returns its result with every statement it sent (transaction control left out). */
export async function recordStatements<T>(
  fn: () => Promise<T>,
): Promise<{ result: T; statements: Statement[] }> {
  const statements: Statement[] = []
  const p = pool()
  // Every statement, in a transaction or not, goes through a client the pool hands out (pool.query
  // checks one out too): wrap connect for the duration of fn, and each client's query with it.
  type QueryFn = (...args: unknown[]) => unknown
  type ConnectFn = (...args: unknown[]) => unknown
  const record = (config: unknown, values: unknown) => {
    const text = typeof config === 'string' ? config : (config as { text?: string }).text
    const params = Array.isArray(values) ? values : ((config as { values?: unknown[] }).values ?? [])
    if (text && !/^\s*(begin|commit|rollback|savepoint|release)\b/i.test(text))
      statements.push({ text, values: params })
  }
  const wrapped = new Set<pg.PoolClient>()
  const wrapClient = (client: pg.PoolClient | undefined) => {
    if (!client || wrapped.has(client)) return client
    const clientQuery = client.query.bind(client) as QueryFn
    wrapped.add(client)
    ;(client as unknown as { query: QueryFn }).query = (...args) => {
      record(args[0], args[1])
      return clientQuery(...args)
    }
    return client
  }
  const target = p as unknown as { connect: ConnectFn }
  const connect = p.connect.bind(p) as ConnectFn
  target.connect = (...args) => {
    const callback = args[0]
    if (typeof callback === 'function')
      return connect((error: unknown, client: pg.PoolClient | undefined, done: unknown) =>
        callback(error, wrapClient(client), done),
      )
    return (connect() as Promise<pg.PoolClient>).then(wrapClient)
  }
  try {
    const result = await fn()
    return { result, statements }
  } finally {
    delete (target as { connect?: ConnectFn }).connect
    // Pooled clients live on: give them back their own query method.
    for (const client of wrapped) delete (client as unknown as { query?: QueryFn }).query
  }
}

export type PlanNode = {
  'Node Type': string
  'Relation Name'?: string
  'Index Name'?: string
  'Index Cond'?: string
  'Recheck Cond'?: string
  'Sort Method'?: string
  Plans?: PlanNode[]
  [key: string]: unknown
}

/** The plan Postgres would use for a statement, as EXPLAIN (FORMAT JSON) gives it. */
export async function planOf(statement: Statement): Promise<PlanNode> {
  const { rows } = await pool().query<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>(
    `EXPLAIN (FORMAT JSON) ${statement.text}`,
    statement.values,
  )
  return rows[0]!['QUERY PLAN'][0]!.Plan
}

/** Every node of a plan, depth first, with the index condition of a bitmap scan's children lifted up. */
export function nodesOf(plan: PlanNode): PlanNode[] {
  const out: PlanNode[] = []
  const walk = (node: PlanNode) => {
    out.push(node)
    for (const child of node.Plans ?? []) walk(child)
  }
  walk(plan)
  return out
}

export type Scan = { table: string; type: string; index: string | null; condition: string }

/**
 * The table reads of a plan: what is read, how (Seq Scan, Index Scan, Index Only Scan, Bitmap Heap
 * Scan), through which index and on what condition (a bitmap heap scan's condition is its index
 * scans' conditions).
 */
export function scansOf(plan: PlanNode): Scan[] {
  const scans: Scan[] = []
  const walk = (node: PlanNode) => {
    const table = node['Relation Name']
    if (table && /Scan$/.test(node['Node Type'])) {
      if (node['Node Type'] === 'Bitmap Heap Scan') {
        const indexes = nodesOf(node).filter((n) => n['Node Type'] === 'Bitmap Index Scan')
        scans.push({
          table,
          type: node['Node Type'],
          index: indexes.map((n) => n['Index Name']).join(' + '),
          condition: indexes.map((n) => n['Index Cond'] ?? '').join(' OR '),
        })
      } else {
        scans.push({
          table,
          type: node['Node Type'],
          index: node['Index Name'] ?? null,
          condition: node['Index Cond'] ?? '',
        })
      }
    }
    for (const child of node.Plans ?? []) walk(child)
  }
  walk(plan)
  return scans
}
