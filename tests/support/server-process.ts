import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll } from 'vitest'

/**
 * The real entry point (`node server.mjs`, what `npm start` runs after its build check) as child
 * processes of the calling test file. It serves the production build: `npm run build` must have run.
 * Children still running and folders made with `tempDir` are cleaned up after the file.
 */
export const ROOT = path.resolve(import.meta.dirname, '../..')

export type ServerProcess = ReturnType<ReturnType<typeof useServerProcesses>['start']>

export function useServerProcesses() {
  const children = new Set<ChildProcess>()
  const folders: string[] = []

  afterAll(() => {
    // Only the children this file started, should a test have failed half-way.
    for (const child of children)
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
    for (const dir of folders) fs.rmSync(dir, { recursive: true, force: true })
  })

  /** A clean environment: only what a deployment would set, nothing inherited from the test runner. */
  function environment(vars: Record<string, string>) {
    return {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? os.tmpdir(),
      NODE_ENV: 'production',
      ...vars,
    }
  }

  function start(vars: Record<string, string>) {
    const child = spawn(process.execPath, ['server.mjs'], {
      cwd: ROOT,
      env: environment(vars),
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    children.add(child)
    const output = { stdout: '', stderr: '' }
    child.stdout!.on('data', (chunk: Buffer) => (output.stdout += chunk.toString('utf8')))
    child.stderr!.on('data', (chunk: Buffer) => (output.stderr += chunk.toString('utf8')))
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.once('exit', (code, signal) => resolve({ code, signal })),
    )
    return { child, output, exited }
  }

  /** A temporary folder removed after the file. */
  function tempDir(prefix: string) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix))
    folders.push(dir)
    return dir
  }

  return { start, tempDir, folders }
}

export function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  return Promise.race([
    promise,
    new Promise<T>((_, reject) =>
      setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms).unref(),
    ),
  ])
}

/** Polls /readyz until it answers 200 (start-up runs migrations: a busy machine needs time). */
export async function waitUntilReady(url: string, server: ServerProcess, timeoutMs = 90_000) {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline && server.child.exitCode === null) {
    const ready = await fetch(`${url}/readyz`)
      .then((r) => r.status === 200)
      .catch(() => false)
    if (ready) return true
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  return false
}

/** A process's resident memory now, in MB (Linux). */
export function rssMb(pid: number) {
  return Number(/VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024
}

/** CPU time a process has used so far (user + system), in clock ticks (Linux). */
export function cpuTicks(pid: number) {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
  return Number(fields[11]) + Number(fields[12])
}

/**
 * Waits until a process has used no CPU for `quietMs`: it has done what it was given and waits
 * (for a client, for the rest of a body). False when that did not happen within `timeoutMs`.
 */
export async function untilIdle(pid: number, quietMs: number, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs
  let last = cpuTicks(pid)
  let quietSince = Date.now()
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100))
    const now = cpuTicks(pid)
    if (now !== last) quietSince = Date.now()
    last = now
    if (Date.now() - quietSince >= quietMs) return true
  }
  return false
}
