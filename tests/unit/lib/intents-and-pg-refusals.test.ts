import { describe, expect, test } from 'vitest'
import { z } from 'zod'
import { ok, refuse } from '#app/lib/outcome'
import { PG_ERROR, refuseOnPgError } from '#app/lib/pg-error'
import { dispatchIntent, intent } from '#app/lib/reply.server'

const pgError = (code: string) =>
  new Error('Failed query', { cause: Object.assign(new Error('pg'), { code }) })

const form = (fields: Record<string, string>) => {
  const formData = new FormData()
  for (const [name, value] of Object.entries(fields)) formData.set(name, value)
  return formData
}

type Answer = { type?: string; data?: { intent?: string }; init?: { status?: number } | null }

describe('dispatchIntent', () => {
  const table = {
    rename: intent(
      z.object({ intent: z.literal('rename'), name: z.string().min(1) }),
      async ({ name }) => (name === 'taken' ? refuse('That name is taken.') : ok({ name })),
      (value) => `renamed to ${value.name}`,
    ),
  }

  test('runs the intent the form names, with its schema, change and answer', async () => {
    expect(await dispatchIntent(form({ intent: 'rename', name: 'Ada' }), table)).toBe('renamed to Ada')
  })

  test('a refusal and bad input are answered for that intent, 400', async () => {
    for (const name of ['taken', '']) {
      const answer = (await dispatchIntent(form({ intent: 'rename', name }), table)) as Answer
      expect(answer.data?.intent).toBe('rename')
      expect(answer.init?.status).toBe(400)
    }
  })

  test('a missing, unknown or inherited intent is the unreadable form, 400', async () => {
    const forms: Array<Record<string, string>> = [
      {},
      { intent: 'delete' },
      { intent: 'toString' },
      { intent: '__proto__' },
    ]
    for (const fields of forms) {
      const answer = (await dispatchIntent(form(fields), table)) as Answer
      expect(answer.data?.intent).toBe('unknown')
      expect(answer.init?.status).toBe(400)
    }
  })
})

describe('refuseOnPgError', () => {
  test('answers the refusal when Postgres refuses the change with that code', async () => {
    const outcome = await refuseOnPgError(
      PG_ERROR.foreignKeyViolation,
      () => refuse('It is still in use.'),
      async () => {
        throw pgError('23503')
      },
    )
    expect(outcome).toEqual({ ok: false, formErrors: ['It is still in use.'] })
  })

  test('passes a success through and throws every other error', async () => {
    expect(
      await refuseOnPgError(
        '23503',
        () => refuse('no'),
        async () => ok(1),
      ),
    ).toEqual(ok(1))
    await expect(
      refuseOnPgError(
        '23503',
        () => refuse('no'),
        async () => {
          throw pgError('23505')
        },
      ),
    ).rejects.toThrow('Failed query')
  })
})
