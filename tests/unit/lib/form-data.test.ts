import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import {
  MISSHAPEN_FIELD_MESSAGE,
  misshapenFields,
  misshapenFormMessage,
  parseForm,
} from '#app/lib/form-data.server'

/**
 * The one way actions read a form (issue 7, item 4): a plain field sent twice, under a list's or
 * an object's name, or Conform's control fields are bad input, reported as such; fields a schema
 * declares as lists keep taking several values.
 */
const Schema = z.object({
  intent: z.literal('save'),
  name: z.string().min(1),
  colour: z.string().optional(),
  tags: z.array(z.string()).optional(),
})

function form(pairs: Array<[string, string]>) {
  const data = new FormData()
  for (const [k, v] of pairs) data.append(k, v)
  return data
}

describe('parseForm', () => {
  it('parses a well-formed form exactly as parseWithZod does', () => {
    const submission = parseForm(
      form([
        ['intent', 'save'],
        ['name', 'Ada'],
        ['tags', 'a'],
        ['tags', 'b'],
      ]),
      { schema: Schema },
    )
    expect(submission.status).toBe('success')
    expect(submission.status === 'success' && submission.value).toEqual({
      intent: 'save',
      name: 'Ada',
      tags: ['a', 'b'],
    })
  })

  it('refuses a plain field sent twice, beside it and at the top, and echoes only its first value', () => {
    const submission = parseForm(
      form([
        ['intent', 'save'],
        ['name', 'Ada'],
        ['colour', '#111111'],
        ['colour', '#222222'],
      ]),
      { schema: Schema },
    )
    expect(submission.status).toBe('error')
    const reply = submission.reply()
    expect(reply.error).toEqual({
      '': ['The field “colour” was sent more than once. Reload the page and try again.'],
      colour: [MISSHAPEN_FIELD_MESSAGE],
    })
    expect(reply.initialValue).toEqual({ intent: 'save', name: 'Ada', colour: '#111111' })
  })

  it('reports the other fields’ problems at the same time', () => {
    const submission = parseForm(
      form([
        ['intent', 'save'],
        ['name', ''],
        ['intent', 'save'],
      ]),
      { schema: Schema },
    )
    expect(submission.status === 'error' && submission.error).toMatchObject({
      intent: [MISSHAPEN_FIELD_MESSAGE],
      name: [expect.any(String)],
    })
  })

  it.each([
    ['name[0]', 'list'],
    ['name.first', 'list'],
    ['__intent__', 'reserved'],
    ['__state__', 'reserved'],
  ] as const)('refuses %s without throwing', (name, reason) => {
    const submission = parseForm(
      form([
        ['intent', 'save'],
        ['name', 'Ada'],
        [name, '{broken json'],
      ]),
      { schema: Schema },
    )
    expect(submission.status).toBe('error')
    const top = name.split(/[.[]/)[0]!
    expect(submission.status === 'error' && submission.error?.['']).toEqual([
      misshapenFormMessage({ name: top, reason }),
    ])
    expect(submission.payload.name).toBe('Ada')
  })

  it('whatever is posted, it never throws and hands the page plain values for plain fields', () => {
    const names = fc.constantFrom(
      'intent',
      'name',
      'colour',
      'tags',
      'tags[0]',
      'tags[]',
      'name[1]',
      'name.x',
      'colour[0][1].y',
      '__intent__',
      '__state__',
      '__proto__',
      'constructor',
      '',
      '[',
      'a]',
      'x[-1]',
    )
    fc.assert(
      fc.property(fc.array(fc.tuple(names, fc.string()), { maxLength: 12 }), (pairs) => {
        const submission = parseForm(form(pairs), { schema: Schema })
        for (const key of ['intent', 'name', 'colour'] as const) {
          const value = submission.payload[key]
          expect(value === undefined || typeof value === 'string').toBe(true)
        }
        const reply = submission.reply()
        for (const key of ['intent', 'name', 'colour'] as const) {
          const value = reply.initialValue?.[key]
          expect(value === undefined || typeof value === 'string').toBe(true)
        }
      }),
      { numRuns: 500 },
    )
  })
})

describe('misshapenFields', () => {
  it('lets the named list fields repeat and take list names', () => {
    const data = form([
      ['q-1', 'a'],
      ['q-1', 'b'],
      ['q-2[0]', 'c'],
      ['section', '1'],
    ])
    expect(misshapenFields(data, (name) => name.startsWith('q-'))).toEqual([])
    expect(misshapenFields(data)).toEqual([
      { name: 'q-1', reason: 'repeated' },
      { name: 'q-2', reason: 'list' },
    ])
  })
})
