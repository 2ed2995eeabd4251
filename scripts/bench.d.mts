// Types for what tests import from bench.mjs (its pure parts: the busy check, the comparison and the
// README table). The script itself stays plain JavaScript, run by node without a build step.

export const SPREAD_LIMIT: number
export const COMPARE_BUDGET: number
export const EXIT: { overBudget: number; failure: number; busy: number }
export const README_START: string
export const README_END: string
export const README_COMPARE_START: string
export const README_COMPARE_END: string

export type LoadReading = { when: string; load: number }
export type SpreadReading = { name: string; spread: number }

export function readLoad(): number
export function coreCount(): number
export function spread(values: number[]): number
export function busyReasons(input: {
  cores: number
  loads?: LoadReading[]
  spreads?: SpreadReading[]
  spreadLimit?: number
}): string[]
export function refusal(reasons: string[], stage: string): string

export type CaseResult = {
  name: string
  method: string
  path: string
  rps: number
  p50: number
  p99: number
  queriesPerRequest: number
  cpuMsPerRequest: number
  non2xx: number
  errors: number
  ratio: number | null
  ratioMin: number | null
  ratioMax: number | null
  budget: number | null
  withinBudget: boolean | null
  load: { before: number; after: number }
  referenceSpread: number
  distinctAssignments?: number
  reference: { rps: number; queriesPerRequest: number; cpuMsPerRequest: number }
  rounds: Array<{ case: unknown; reference: unknown; ratio: number | null }>
}

export type TargetResult = {
  label: string
  database: string
  driver: 'postgres' | 'pglite'
  seed: string
  counts: { employees: number; assignments: number; answers: number }
  settings: { duration: number; rounds: number; connections: number }
  loadAverage: number[]
  cores?: number
  reference: {
    path: string
    rps: number
    p50: number
    p99: number
    queriesPerRequest: number
    cpuMsPerRequest: number
    spread: number
  }
  cases: CaseResult[]
  import: unknown
}

export type CompareRow = {
  name: string
  smallRps: number
  bigRps: number
  time: number
  raw: number
  p50: number
  smallQueries: number
  bigQueries: number
  smallCpuMs: number
  bigCpuMs: number
  smallLoad: number | null
  bigLoad: number | null
  budget: number
  withinBudget: boolean
}

export type Report = {
  at: string
  node: string
  cpus: number
  seconds: number
  loadAverageBefore: number
  busy: string[] | null
  refused: boolean
  targets: TargetResult[]
  compare: { small: string; big: string; cases: CompareRow[] } | null
}

export function compare(small: TargetResult, big: TargetResult): CompareRow[]
export function overBudget(rows: CompareRow[]): string[]
export function runReadings(targets: TargetResult[]): { loads: LoadReading[]; spreads: SpreadReading[] }
export function withholdRatios(report: Report): Report
export function readmeTable(report: Report, commit: string): string
export function replaceMarked(text: string, body: string, options?: { compare?: boolean }): string
