import { describe, expect, test } from 'vitest'
import { pgErrorCode, retryOnConflict } from '#app/lib/pg-error'

const pgError = (code: string) => new Error('Failed query', { cause: Object.assign(new Error('pg'), { code }) })

describe('retryOnConflict', () => {
  test('runs a transaction again after a deadlock or a serialization failure, then returns its value', async () => {
    for (const code of ['40P01', '40001']) {
      let calls = 0
      const value = await retryOnConflict(async () => {
        calls++
        if (calls < 3) throw pgError(code)
        return 'done'
      })
      expect(value).toBe('done')
      expect(calls).toBe(3)
    }
  })

  test('gives up after the attempts, and never retries any other error', async () => {
    let calls = 0
    await expect(
      retryOnConflict(async () => {
        calls++
        throw pgError('40P01')
      }, 2),
    ).rejects.toThrow('Failed query')
    expect(calls).toBe(2)
    calls = 0
    const unique = pgError('23505')
    await expect(
      retryOnConflict(async () => {
        calls++
        throw unique
      }),
    ).rejects.toBe(unique)
    expect(calls).toBe(1)
    expect(pgErrorCode(unique)).toBe('23505')
  })
})
