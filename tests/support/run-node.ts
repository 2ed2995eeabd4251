import { spawn } from 'node:child_process'
import path from 'node:path'

export const PROJECT_ROOT = path.resolve(import.meta.dirname, '../..')

/**
 * Runs a Node script of the project as a child process and collects what it prints. Asynchronous,
 * so the test process stays responsive while a long script (a seed, the bench) runs.
 */
export function runNode(
  args: string[],
  env: Record<string, string | undefined> = {},
  timeoutMs = 300_000,
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      cwd: PROJECT_ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk) => (stdout += chunk))
    child.stderr.on('data', (chunk) => (stderr += chunk))
    const timer = setTimeout(() => child.kill('SIGTERM'), timeoutMs)
    child.once('error', reject)
    child.once('close', (status) => {
      clearTimeout(timer)
      resolve({ status, stdout, stderr })
    })
  })
}

/** The path of tsx's CLI, to run a TypeScript script with `runNode`. */
export const TSX = path.join(PROJECT_ROOT, 'node_modules/tsx/dist/cli.mjs')
