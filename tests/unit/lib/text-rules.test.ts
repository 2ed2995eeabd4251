import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { ZodMiniType } from 'zod/mini'
import {
  isMultiLineText,
  isSingleLineText,
  TEXT_MESSAGES,
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
    { intent: 'update', companyId: UUID, name: 'Acme', brandId: UUID },
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
