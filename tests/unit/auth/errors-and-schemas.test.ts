import { describe, expect, test } from 'vitest'
import {
  AUTH_ERROR_MESSAGES,
  AuthError,
  GENERIC_AUTH_MESSAGE,
  authErrorMessage,
  weakPasswordMessage,
} from '#app/modules/auth/errors'
import { ForgotPasswordSchema, SignInSchema, newPasswordSchema } from '#app/modules/auth/schemas'

/** The identity error catalogue (DESIGN.md §5) and the form schemas the sign-in pages share. */

describe('error messages', () => {
  test('wrong password, unknown user, invalid credential and a disabled account read the same', () => {
    const same = [
      'auth/invalid-credential',
      'auth/wrong-password',
      'auth/user-not-found',
      'auth/user-disabled',
    ] as const
    expect(new Set(same.map((code) => AUTH_ERROR_MESSAGES[code])).size).toBe(1)
  })

  test('the spec’s codes all have their own wording', () => {
    for (const code of [
      'auth/email-already-in-use',
      'auth/too-many-requests',
      'auth/expired-action-code',
      'auth/weak-password',
    ] as const) {
      expect(AUTH_ERROR_MESSAGES[code]).toBeTruthy()
      expect(AUTH_ERROR_MESSAGES[code]).not.toBe(AUTH_ERROR_MESSAGES['auth/invalid-credential'])
    }
    expect(AUTH_ERROR_MESSAGES['auth/expired-action-code']).toBe(
      'This link has expired or has already been used. Please ask for a new one.',
    )
  })

  test('an unknown or empty code gets the generic message', () => {
    for (const code of ['auth/made-up', '', null, undefined])
      expect(authErrorMessage(code)).toBe(GENERIC_AUTH_MESSAGE)
    expect(authErrorMessage('auth/too-many-requests')).toBe(AUTH_ERROR_MESSAGES['auth/too-many-requests'])
  })

  // Only the map's own keys are codes: a lookup must not find inherited properties such as
  // Object.prototype.toString (a function) for a code received from outside.
  test('a code named like an Object.prototype property still gets a string', () => {
    for (const code of ['toString', 'constructor', '__proto__', 'hasOwnProperty']) {
      expect(typeof authErrorMessage(code), code).toBe('string')
    }
  })

  test('AuthError carries its code and message', () => {
    const error = new AuthError('auth/weak-password')
    expect(error).toBeInstanceOf(Error)
    expect(error.code).toBe('auth/weak-password')
    expect(error.message).toBe(AUTH_ERROR_MESSAGES['auth/weak-password'])
  })

  test('the weak-password message names the server policy', () => {
    expect(weakPasswordMessage(8)).toBe('Use at least 8 characters.')
    expect(weakPasswordMessage(12)).toBe('Use at least 12 characters.')
  })
})

const issues = (result: {
  success: boolean
  error?: { issues: { path: PropertyKey[]; message: string }[] }
}) => Object.fromEntries((result.error?.issues ?? []).map((i) => [i.path.join('.'), i.message]))

describe('SignInSchema', () => {
  test('normalises the e-mail address', () => {
    const result = SignInSchema.parse({ email: '  Someone@Example.COM ', password: 'x' })
    expect(result.email).toBe('someone@example.com')
  })

  test('field messages', () => {
    expect(issues(SignInSchema.safeParse({}))).toEqual({
      email: 'Enter your e-mail address.',
      password: 'Enter your password.',
    })
    expect(issues(SignInSchema.safeParse({ email: 'nope', password: '' }))).toEqual({
      email: 'Enter a valid e-mail address.',
      password: 'Enter your password.',
    })
    expect(
      issues(SignInSchema.safeParse({ email: `${'a'.repeat(250)}@example.com`, password: 'x' })).email,
    ).toBe('That e-mail address is too long.')
  })

  // The length limit has a message of its own: without one zod 4 falls back to the schema-level
  // `error`, and a 10 KB password would be answered "Enter your password.".
  test('a too-long password is refused with a message that says so', () => {
    const result = SignInSchema.safeParse({ email: 'a@example.com', password: 'p'.repeat(10 * 1024) })
    expect(result.success).toBe(false)
    expect(issues(result).password, 'the message for a 10 KB password').not.toBe('Enter your password.')
  })

  test('a redirectTo longer than a URL can sensibly be is refused', () => {
    expect(
      SignInSchema.safeParse({ email: 'a@example.com', password: 'x', redirectTo: '/'.repeat(3000) }).success,
    ).toBe(false)
  })
})

describe('ForgotPasswordSchema', () => {
  test('needs a valid address', () => {
    expect(issues(ForgotPasswordSchema.safeParse({ email: 'x' }))).toEqual({
      email: 'Enter a valid e-mail address.',
    })
    expect(ForgotPasswordSchema.parse({ email: 'A@B.co' }).email).toBe('a@b.co')
  })
})

describe('newPasswordSchema', () => {
  const schema = newPasswordSchema(8)

  test('enforces the minimum length the server gives', () => {
    expect(issues(schema.safeParse({ password: '1234567', confirmPassword: '1234567' }))).toEqual({
      password: 'Use at least 8 characters.',
    })
    expect(
      issues(newPasswordSchema(12).safeParse({ password: '12345678901', confirmPassword: '12345678901' })),
    ).toEqual({
      password: 'Use at least 12 characters.',
    })
    expect(schema.safeParse({ password: '12345678', confirmPassword: '12345678' }).success).toBe(true)
  })

  test('a repeat that differs is an error on the repeat field', () => {
    expect(issues(schema.safeParse({ password: 'long enough', confirmPassword: 'long enougH' }))).toEqual({
      confirmPassword: 'The passwords do not match.',
    })
  })

  test('an absurdly long password is refused (argon2 is not fed megabytes)', () => {
    const long = 'p'.repeat(257)
    expect(issues(schema.safeParse({ password: long, confirmPassword: long }))).toEqual({
      password: 'Use at most 256 characters.',
    })
  })
})
