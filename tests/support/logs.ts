import { vi } from 'vitest'

export type LogLine = { level: string; msg: string; [key: string]: unknown }

/**
 * Captures the JSON log lines written in this process (by the test's modules and by the production
 * build alike: both write to process.stdout/stderr) at LOG_LEVEL=info, until stop().
 */
export function captureLogs() {
  const lines: LogLine[] = []
  const previous = process.env.LOG_LEVEL
  process.env.LOG_LEVEL = 'info'
  const capture = (chunk: unknown) => {
    for (const line of String(chunk).split('\n'))
      if (line.startsWith('{')) lines.push(JSON.parse(line) as LogLine)
    return true
  }
  const out = vi.spyOn(process.stdout, 'write').mockImplementation(capture)
  const err = vi.spyOn(process.stderr, 'write').mockImplementation(capture)
  return {
    lines,
    count: (msg: string) => lines.filter((l) => l.msg === msg).length,
    stop: () => {
      out.mockRestore()
      err.mockRestore()
      if (previous === undefined) delete process.env.LOG_LEVEL
      else process.env.LOG_LEVEL = previous
    },
  }
}
