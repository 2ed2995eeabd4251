import { afterEach, describe, expect, test } from 'vitest'
import { resetEnvCache } from '#app/config/env.server'
import { hashSecret } from '#app/lib/secret-hash.server'
import { secondFactorCode, setUpCode } from '#app/modules/auth/schemas'
import { createServerI18n } from '#app/modules/i18n/i18n.server'
import {
  mustSetUpSecondFactor,
  recoveryCodeToast,
  secondFactorRequired,
  secondFactorStep,
} from '#app/modules/auth/second-factor.server'
import {
  matchingStep,
  newRecoveryCode,
  normalizeRecoveryCode,
  readCode,
  timeStep,
  totpCodeAt,
  TOTP_PERIOD_SECONDS,
} from '#app/modules/auth/totp.server'

/**
 * The pure parts of admins' second factor (ADR 048): RFC 6238 codes and their window, single use by
 * time step, recovery codes, the rule that says when a second step is due (the SSO callback's
 * switch). Sealing the secret is app/lib/secret-box.server.ts's (tests/unit/lib/secret-box.test.ts).
 */

const ENV_NAMES = ['ADMIN_TOTP_REQUIRED', 'SSO_ADMINS_SKIP_TOTP'] as const

function withEnv(values: Partial<Record<(typeof ENV_NAMES)[number], string>>) {
  for (const name of ENV_NAMES) delete process.env[name]
  Object.assign(process.env, values)
  resetEnvCache()
}

afterEach(() => withEnv({}))

// RFC 6238 appendix B: the SHA-1 seed is the ASCII of "12345678901234567890".
const RFC_KEY = new TextEncoder().encode('12345678901234567890')

describe('TOTP codes', () => {
  test.each([
    [59, '287082'],
    [1111111109, '081804'],
    [1111111111, '050471'],
    [1234567890, '005924'],
    [2000000000, '279037'],
  ])('RFC 6238 test vector at T=%i s: %s (its 8 digits, last 6)', (seconds, code) => {
    expect(totpCodeAt(RFC_KEY, Math.floor(seconds / TOTP_PERIOD_SECONDS))).toBe(code)
  })

  test('a code is good for its step and one step either side of now, never further', () => {
    const now = 1_700_000_000_000
    const step = timeStep(now)
    for (const offset of [-1, 0, 1])
      expect(matchingStep(RFC_KEY, totpCodeAt(RFC_KEY, step + offset), null, now)).toBe(step + offset)
    for (const offset of [-3, -2, 2, 3])
      expect(matchingStep(RFC_KEY, totpCodeAt(RFC_KEY, step + offset), null, now)).toBeNull()
  })

  test('a code is single use: only a step later than the last one used is accepted', () => {
    const now = 1_700_000_000_000
    const step = timeStep(now)
    const code = totpCodeAt(RFC_KEY, step)
    expect(matchingStep(RFC_KEY, code, step - 1, now)).toBe(step)
    expect(matchingStep(RFC_KEY, code, step, now)).toBeNull()
    // Nor can an earlier code in the window be replayed once a later one was used.
    expect(matchingStep(RFC_KEY, totpCodeAt(RFC_KEY, step - 1), step, now)).toBeNull()
    expect(matchingStep(RFC_KEY, totpCodeAt(RFC_KEY, step + 1), step, now)).toBe(step + 1)
  })

  test.each(['', '12345', '1234567', 'abcdef', '12 345', '١٢٣٤٥٦'])('%j is no code', (code) => {
    expect(matchingStep(RFC_KEY, code, null)).toBeNull()
  })
})

describe('recovery codes', () => {
  test('80 random bits as four groups of four base32 characters, all different', () => {
    const codes = Array.from({ length: 200 }, newRecoveryCode)
    for (const code of codes) expect(code).toMatch(/^[a-z2-7]{4}(-[a-z2-7]{4}){3}$/)
    expect(new Set(codes).size).toBe(codes.length)
  })

  test('typed in any case, with or without hyphens and spaces, they read the same', () => {
    const code = newRecoveryCode()
    const plain = code.replaceAll('-', '')
    for (const typed of [code, code.toUpperCase(), plain, ` ${code.replaceAll('-', ' ')} `])
      expect(normalizeRecoveryCode(typed)).toBe(plain)
    expect(hashSecret(normalizeRecoveryCode(code.toUpperCase())!)).toBe(hashSecret(plain))
  })

  test('a field reads six digits as an app code, sixteen base32 characters as a recovery code, else nothing', () => {
    expect(readCode('123 456')).toEqual({ kind: 'totp', code: '123456' })
    expect(readCode('abcd-efgh-ijkl-mnop')).toEqual({ kind: 'recovery', code: 'abcdefghijklmnop' })
    for (const junk of ['', '12345', 'abcd-efgh-ijkl-mno1', 'abcd-efgh-ijkl-mnopq', '0000-0000-0000-0000'])
      expect(readCode(junk)).toBeNull()
  })

  test('the forms refuse what is neither, in words', () => {
    expect(secondFactorCode.safeParse('123456').success).toBe(true)
    expect(secondFactorCode.safeParse('ABCD-EFGH-IJKL-MNOP').success).toBe(true)
    const junk = secondFactorCode.safeParse('hello')
    expect(junk.success).toBe(false)
    expect(junk.error?.issues[0]?.message).toMatch(/six digits/)
    expect(secondFactorCode.safeParse('1'.repeat(65)).success).toBe(false)
    // Setting up takes the app's code only: a recovery code proves nothing about the new app.
    expect(setUpCode.safeParse('654 321').success).toBe(true)
    expect(setUpCode.safeParse('abcd-efgh-ijkl-mnop').success).toBe(false)
  })

  test('after a recovery code the toast says how many are left, louder when few are', () => {
    const t = createServerI18n('en', ['second-factor']).getFixedT('en', 'second-factor')
    const done = { token: 't', expiresAt: new Date(), user: { id: 'u', role: 'admin' as const } }
    expect(recoveryCodeToast({ ...done, method: 'totp', recoveryCodesLeft: 2 }, t)).toBeNull()
    expect(recoveryCodeToast({ ...done, method: 'recovery', recoveryCodesLeft: 9 }, t)).toMatchObject({
      kind: 'info',
      title: 'Signed in with a recovery code',
      description: '9 recovery codes left.',
    })
    expect(recoveryCodeToast({ ...done, method: 'recovery', recoveryCodesLeft: 1 }, t)).toMatchObject({
      kind: 'error',
      description: '1 recovery code left. Make new ones on your profile.',
    })
    expect(recoveryCodeToast({ ...done, method: 'recovery', recoveryCodesLeft: 3 }, t)).toMatchObject({
      kind: 'error',
      description: '3 recovery codes left. Make new ones on your profile.',
    })
    expect(recoveryCodeToast({ ...done, method: 'recovery', recoveryCodesLeft: 0 }, t)?.description).toMatch(
      /last recovery code/,
    )
  })

  test('the recovery toast in German and French, with their plurals', () => {
    const done = { token: 't', expiresAt: new Date(), user: { id: 'u', role: 'admin' as const } }
    const de = createServerI18n('de', ['second-factor']).getFixedT('de', 'second-factor')
    expect(recoveryCodeToast({ ...done, method: 'recovery', recoveryCodesLeft: 9 }, de)).toEqual({
      kind: 'info',
      title: 'Mit einem Wiederherstellungscode angemeldet',
      description: '9 Wiederherstellungscodes übrig.',
    })
    expect(recoveryCodeToast({ ...done, method: 'recovery', recoveryCodesLeft: 1 }, de)?.description).toBe(
      '1 Wiederherstellungscode übrig. Erstellen Sie in Ihrem Profil neue.',
    )
    expect(recoveryCodeToast({ ...done, method: 'recovery', recoveryCodesLeft: 0 }, de)?.description).toBe(
      'Das war Ihr letzter Wiederherstellungscode. Erstellen Sie jetzt in Ihrem Profil neue.',
    )
    const fr = createServerI18n('fr', ['second-factor']).getFixedT('fr', 'second-factor')
    expect(recoveryCodeToast({ ...done, method: 'recovery', recoveryCodesLeft: 2 }, fr)?.description).toBe(
      '2 codes de récupération restants. Créez-en de nouveaux dans votre profil.',
    )
  })
})

describe('when a second step is due', () => {
  const admin = (totpEnabled: boolean) => ({ role: 'admin' as const, totpEnabled })
  const employee = (totpEnabled: boolean) => ({ role: 'employee' as const, totpEnabled })

  test('a fresh install: only whoever set up an authenticator is asked for a code', () => {
    withEnv({})
    expect(secondFactorStep(admin(false), { via: 'password' })).toBe('none')
    expect(secondFactorStep(admin(true), { via: 'password' })).toBe('verify')
    expect(secondFactorStep(employee(false), { via: 'password' })).toBe('none')
    expect(secondFactorStep(employee(true), { via: 'password' })).toBe('verify')
  })

  test('ADMIN_TOTP_REQUIRED: an admin without one sets one up; employees are not asked', () => {
    withEnv({ ADMIN_TOTP_REQUIRED: 'true' })
    expect(secondFactorStep(admin(false), { via: 'password' })).toBe('enrol')
    expect(secondFactorStep(admin(true), { via: 'password' })).toBe('verify')
    expect(secondFactorStep(employee(false), { via: 'password' })).toBe('none')
  })

  test('single sign-on: by default admins rely on the provider’s MFA, whatever else holds', () => {
    for (const required of ['true', 'false']) {
      withEnv({ ADMIN_TOTP_REQUIRED: required })
      for (const user of [admin(false), admin(true), employee(true)]) {
        expect(secondFactorStep(user, { via: 'sso' })).toBe('none')
        expect(secondFactorRequired(user, { via: 'sso' })).toBe(false)
      }
    }
  })

  test('SSO_ADMINS_SKIP_TOTP=false: after the provider, the same step as after a password', () => {
    withEnv({ SSO_ADMINS_SKIP_TOTP: 'false', ADMIN_TOTP_REQUIRED: 'true' })
    expect(secondFactorStep(admin(false), { via: 'sso' })).toBe('enrol')
    expect(secondFactorStep(admin(true), { via: 'sso' })).toBe('verify')
    expect(secondFactorRequired(admin(true), { via: 'sso' })).toBe(true)
    expect(secondFactorRequired(employee(false), { via: 'sso' })).toBe(false)
  })

  test('a live admin session must set up a second factor only when the install requires one and it is not SSO-exempt', () => {
    const session = (signInMethod: 'password' | 'sso') => ({
      session: { id: 's', userId: 'u', createdAt: new Date(), expiresAt: new Date(), signInMethod },
      user: {
        ...admin(false),
        id: 'u',
        email: 'a@x.test',
        emailVerified: true,
        displayName: '',
        photoFileId: null,
        phone: null,
        companyId: null,
        hasPassword: true,
      },
    })
    withEnv({})
    expect(mustSetUpSecondFactor(session('password'))).toBe(false)
    withEnv({ ADMIN_TOTP_REQUIRED: 'true' })
    expect(mustSetUpSecondFactor(session('password'))).toBe(true)
    expect(mustSetUpSecondFactor(session('sso'))).toBe(false)
    const enrolled = session('password')
    enrolled.user.totpEnabled = true
    expect(mustSetUpSecondFactor(enrolled)).toBe(false)
  })
})
