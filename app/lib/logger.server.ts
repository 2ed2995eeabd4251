/**
 * Structured JSON logs, one object per line. Values under keys that may hold a secret (passwords,
 * tokens, codes, cookies, authorization) are replaced before anything is written.
 */
import { withoutQueryParams } from './query-params'

type Level = 'debug' | 'info' | 'warn' | 'error'
const ORDER: Record<Level | 'silent', number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 99 }
const SECRET_KEY = /pass(word)?|token|secret|cookie|authorization|^code$|codehash|hash$/i

export function redact(value: unknown, depth = 0): unknown {
  if (depth > 5 || value === null || typeof value !== 'object') return value
  if (value instanceof Error) {
    const cause = value.cause instanceof Error ? { cause: withoutQueryParams(value.cause.message) } : {}
    return {
      name: value.name,
      message: withoutQueryParams(value.message),
      stack: value.stack && withoutQueryParams(value.stack),
      ...cause,
    }
  }
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1))
  const out: Record<string, unknown> = {}
  for (const [key, v] of Object.entries(value))
    out[key] = SECRET_KEY.test(key) ? '[redacted]' : redact(v, depth + 1)
  return out
}

function threshold() {
  const level = (process.env.LOG_LEVEL ?? (process.env.NODE_ENV === 'test' ? 'warn' : 'info')) as
    Level | 'silent'
  return ORDER[level] ?? ORDER.info
}

function write(level: Level, msg: string, fields?: Record<string, unknown>) {
  if (ORDER[level] < threshold()) return
  const line = JSON.stringify({
    time: new Date().toISOString(),
    level,
    msg,
    ...(redact(fields ?? {}) as object),
  })
  if (level === 'error' || level === 'warn') process.stderr.write(line + '\n')
  else process.stdout.write(line + '\n')
}

export const log = {
  debug: (msg: string, fields?: Record<string, unknown>) => write('debug', msg, fields),
  info: (msg: string, fields?: Record<string, unknown>) => write('info', msg, fields),
  warn: (msg: string, fields?: Record<string, unknown>) => write('warn', msg, fields),
  error: (msg: string, fields?: Record<string, unknown>) => write('error', msg, fields),
}
