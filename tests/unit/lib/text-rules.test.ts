import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { ZodMiniType } from 'zod/mini'
import {
  clipText,
  isMultiLineText,
  isSingleLineText,
  isStorableText,
  searchTerm,
  TEXT_MESSAGES,
  toStorableJson,
  withoutControlCharacters,
} from '#app/lib/text-rules'
import { setupSchema } from '#app/modules/auth/schemas'
import { BrandCreateSchema, BrandUpdateSchema, parseBrandListQuery } from '#app/modules/brand/schemas'
import { CompanyCreateSchema, CompanyUpdateSchema, parseCompanyListQuery } from '#app/modules/company/schemas'
import { INVITE_MESSAGES, InviteFieldsSchema, InviteSchema } from '#app/modules/invite/schemas'
import { ProfileSchema } from '#app/modules/user/profile-schemas'
import { answerSchema } from '#app/modules/assignment/answer-parse.server'
import type { AnswerQuestion } from '#app/modules/assignment/answer-schemas'

/**
 * The shared text rule (issue 7, item 3): every free-text field of every form refuses control
 * characters with a message beside the field; text areas keep line breaks and tabs.
 */
const UUID = '4b6f1a52-7f1e-4a8e-9a57-6f1d2b3c4d5e'

// Every free-text field, with a valid form around it. A field added to a form without the rule
// shows up here only if listed, so the list mirrors the schemas' free-text fields one to one.
const FREE_TEXT: Array<[string, ZodMiniType, Record<string, unknown>, string, string]> = [
  [
    'setup: display name',
    setupSchema(8),
    { displayName: 'Ada', email: 'a@example.test', password: 'x'.repeat(8), confirmPassword: 'x'.repeat(8) },
    'displayName',
    TEXT_MESSAGES.singleLine,
  ],
  [
    'brand create: name',
    BrandCreateSchema,
    { intent: 'create', name: 'Acme', primaryColor: '#112233', accentColor: '#445566' },
    'name',
    TEXT_MESSAGES.singleLine,
  ],
  [
    'brand update: name',
    BrandUpdateSchema,
    { intent: 'update', name: 'Acme', primaryColor: '#112233', accentColor: '#445566' },
    'name',
    TEXT_MESSAGES.singleLine,
  ],
  [
    'brand update: sender name',
    BrandUpdateSchema,
    { intent: 'update', name: 'Acme', primaryColor: '#112233', accentColor: '#445566', senderName: 'Team' },
    'senderName',
    'The sender name cannot contain line breaks, tabs or other control characters.',
  ],
  [
    'brand update: callback page',
    BrandUpdateSchema,
    {
      intent: 'update',
      name: 'Acme',
      primaryColor: '#112233',
      accentColor: '#445566',
      callbackUrl: 'https://example.com/x',
    },
    'callbackUrl',
    TEXT_MESSAGES.singleLine,
  ],
  [
    'brand update: profile link',
    BrandUpdateSchema,
    {
      intent: 'update',
      name: 'Acme',
      primaryColor: '#112233',
      accentColor: '#445566',
      profileUrl: 'https://example.com/x',
    },
    'profileUrl',
    TEXT_MESSAGES.singleLine,
  ],
  [
    'company create: name',
    CompanyCreateSchema,
    { intent: 'create', name: 'Acme', brandId: UUID },
    'name',
    TEXT_MESSAGES.singleLine,
  ],
  [
    'company update: name',
    CompanyUpdateSchema,
    { intent: 'update', companyId: UUID, name: 'Acme', brandId: UUID, feedbackRequestCap: 5 },
    'name',
    TEXT_MESSAGES.singleLine,
  ],
  [
    'invite: colleague name',
    InviteSchema,
    { intent: 'invite', name: 'Pat', email: 'p@example.test', relationship: 'peer' },
    'name',
    INVITE_MESSAGES.nameLineBreak,
  ],
  [
    'invite module: colleague name',
    InviteFieldsSchema,
    { name: 'Pat', email: 'p@example.test', relationship: 'peer' },
    'name',
    INVITE_MESSAGES.nameLineBreak,
  ],
  [
    'profile: display name',
    ProfileSchema,
    { intent: 'profile', displayName: 'Erin' },
    'displayName',
    TEXT_MESSAGES.singleLine,
  ],
]

// The URL check removes tabs and line breaks itself (as a browser's address bar does).
const URL_FIELDS = new Set(['callbackUrl', 'profileUrl'])

describe.each(FREE_TEXT)('%s', (_label, schema, valid, name, message) => {
  it('takes the valid form', () => {
    expect(schema.safeParse(valid).success).toBe(true)
  })

  it.each(['\u0000', '\u0001', '\u0008', '\u001b', '\u007f', '\u0085', '\u009f', '\t', '\n', '\r'])(
    'refuses %j inside the value, beside the field',
    (control) => {
      const value = String(valid[name])
      const result = schema.safeParse({ ...valid, [name]: value.slice(0, -1) + control + value.slice(-1) })
      if (URL_FIELDS.has(name) && /[\t\n\r]/.test(control)) {
        expect((result.data as Record<string, unknown>)[name]).toBe(value)
        return
      }
      expect(result.success).toBe(false)
      const issues = result.error!.issues.filter((i) => i.path.join('.') === name).map((i) => i.message)
      expect(issues).toEqual([message])
    },
  )
})

describe.each(FREE_TEXT)('%s: text Postgres cannot store (issue 15, A5)', (_label, schema, valid, name) => {
  it.each(['\ud800', '\udbff', '\udc00', '\udfff'])(
    'refuses the lone surrogate %j beside the field, saying it cannot be saved',
    (half) => {
      const value = String(valid[name])
      const result = schema.safeParse({ ...valid, [name]: value.slice(0, -1) + half + value.slice(-1) })
      expect(result.success).toBe(false)
      const issues = result.error!.issues.filter((i) => i.path.join('.') === name).map((i) => i.message)
      expect(issues).toContain(TEXT_MESSAGES.unstorable)
    },
  )

  it('takes a whole pair (an emoji) and characters beyond the C1 controls', () => {
    const value = String(valid[name])
    for (const text of ['\ud83d\ude00', '\ufffd', '\ufffe', 'é'])
      expect(
        schema.safeParse({ ...valid, [name]: value.slice(0, -1) + text + value.slice(-1) }).success,
      ).toBe(true)
  })
})

describe('answers', () => {
  const question = (kind: 'text' | 'textarea'): AnswerQuestion => ({
    id: UUID,
    kind,
    text: 'Say something',
    required: false,
    options: {},
  })

  it.each(['text', 'textarea'] as const)(
    'a %s answer keeps line breaks and tabs and refuses the other control characters',
    (kind) => {
      expect(answerSchema(question(kind)).parse(['a\r\n\tb'])?.textValue).toBe('a\n\tb')
      for (const control of ['\u0000', '\u0001', '\u000b', '\u000c', '\u001b', '\u007f', '\u0085']) {
        const result = answerSchema(question(kind)).safeParse([`a${control}b`])
        expect(result.error?.issues.map((i) => i.message)).toEqual([TEXT_MESSAGES.multiLine])
      }
      // Half of a pair: not text (JSON's "\ud800" makes one; a form's encoding cannot carry it).
      const half = answerSchema(question(kind)).safeParse(['a\udc00b'])
      expect(half.error?.issues.map((i) => i.message)).toEqual([TEXT_MESSAGES.multiLine])
    },
  )
})

describe('list queries', () => {
  it.each([
    ['brands', parseBrandListQuery],
    ['companies', parseCompanyListQuery],
  ])('%s: control characters in the search term are dropped', (_label, parse) => {
    expect(parse(new URLSearchParams({ q: ' Ac\u0000me\u0007 ' })).q).toBe('Acme')
    expect(parse(new URLSearchParams({ q: '\u0000' })).q).toBe('')
  })
})

describe('the rule itself', () => {
  it('ordinary text of any script passes both rules', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (text) => {
        const ordinary = withoutControlCharacters(text)
        expect(isSingleLineText(ordinary)).toBe(true)
        expect(isMultiLineText(ordinary)).toBe(true)
      }),
    )
  })

  it('a string with a NUL never passes either rule', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (a, b) => {
        expect(isSingleLineText(`${a}\u0000${b}`)).toBe(false)
        expect(isMultiLineText(`${a}\u0000${b}`)).toBe(false)
      }),
    )
  })
})

describe('storable text (issue 15, A5)', () => {
  // Every code point Postgres cannot hold as text or jsonb: NUL, and each half of a pair alone.
  const bad = fc.constantFrom('\u0000', '\ud800', '\udbff', '\udc00', '\udfff', '\udc00\ud800')
  const anyText = fc.oneof(
    fc.string({ unit: 'binary' }),
    fc.string({
      unit: fc.constantFrom('a', ' ', '\u0000', '\ud800', '\udfff', '\ud83d\ude00', 'é', '\ufffd'),
    }),
  )

  it('refuses any text holding NUL or a lone surrogate, in both field rules', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), bad, fc.string({ unit: 'grapheme' }), (a, b, c) => {
        expect(isStorableText(a + b + c)).toBe(false)
        expect(isSingleLineText(a + b + c)).toBe(false)
        expect(isMultiLineText(a + b + c)).toBe(false)
      }),
    )
  })

  it('takes every well-formed string without NUL (emoji pairs, U+FFFD, non-characters)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (text) => {
        const wellFormed = text.replaceAll('\u0000', '')
        expect(isStorableText(wellFormed)).toBe(true)
      }),
    )
    for (const text of ['\ud83d\ude00', '\udbff\udfff', '\ufffd', '\uffff', '\ufdd0'])
      expect(isStorableText(text)).toBe(true)
  })

  it('the list-URL cleaners never leave a lone surrogate, even when clipping cuts an emoji', () => {
    fc.assert(
      fc.property(anyText, fc.nat(120), (text, max) => {
        expect(isStorableText(withoutControlCharacters(text))).toBe(true)
        expect(isStorableText(searchTerm(text, max))).toBe(true)
        expect(isStorableText(clipText(withoutControlCharacters(text), max))).toBe(true)
      }),
    )
    expect(searchTerm('a'.repeat(99) + '\ud83d\ude00')).toBe('a'.repeat(99))
    expect(clipText('ab\ud83d\ude00', 4)).toBe('ab\ud83d\ude00')
  })

  it('toStorableJson replaces every NUL and lone surrogate, in keys and values at any depth', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 3 }), anyText, (json, text) => {
        const cleaned = toStorableJson({ json, [text]: [text, { text }] })
        const serialised = JSON.stringify(cleaned)
        expect(serialised).not.toMatch(/\\u0000|\\ud[89a-f][0-9a-f]{2}/i)
        expect(isStorableText(serialised)).toBe(true)
      }),
    )
    expect(toStorableJson({ title: 'a\ud800b\u0000', n: 3, nested: [{ x: '\udfff' }] })).toEqual({
      title: 'a\ufffdb\ufffd',
      n: 3,
      nested: [{ x: '\ufffd' }],
    })
  })
})
