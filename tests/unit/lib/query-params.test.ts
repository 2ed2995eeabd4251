import { describe, expect, test } from 'vitest'
import { DrizzleQueryError } from 'drizzle-orm/errors'
import { redact } from '#app/lib/logger.server'
import { withoutQueryParams } from '#app/lib/query-params'
import { scrubEvent } from '#app/modules/monitoring/filter'

/** A failed statement's parameters (addresses, answers, code hashes) never reach a log or a report. */
const failed = () =>
  new DrizzleQueryError(
    'select "id" from "users" where "email" = $1 and "code_hash" = $2',
    ['erin@example.test', 'line one\nline two secret-hash'],
    Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' }),
  )

describe('withoutQueryParams', () => {
  test('keeps the statement, drops the parameters, even across lines', () => {
    const error = failed()
    const message = withoutQueryParams(error.message)
    expect(message).toContain('Failed query: select "id" from "users"')
    expect(message).toContain('params: [redacted]')
    expect(message).not.toContain('erin@example.test')
    expect(message).not.toContain('secret-hash')
  })

  test('in a stack trace the frames stay', () => {
    const stack = withoutQueryParams(failed().stack!)
    expect(stack).not.toContain('erin@example.test')
    expect(stack).not.toContain('secret-hash')
    expect(stack).toMatch(/\n\s+at /)
  })

  test('text without parameters is left alone', () => {
    expect(withoutQueryParams('plain message\n    at x (y.js:1:1)')).toBe(
      'plain message\n    at x (y.js:1:1)',
    )
  })
})

test('the logger writes a failed query without its parameters, with the driver’s reason', () => {
  const logged = JSON.stringify(redact({ error: failed() }))
  expect(logged).not.toContain('erin@example.test')
  expect(logged).not.toContain('secret-hash')
  expect(logged).toContain('canceling statement due to statement timeout')
})

test('an error report carries the statement but not its parameters', () => {
  const event = scrubEvent({ exception: { values: [{ value: failed().message }] } })
  expect(event.exception!.values![0]!.value).toContain('Failed query')
  expect(JSON.stringify(event)).not.toContain('erin@example.test')
})
