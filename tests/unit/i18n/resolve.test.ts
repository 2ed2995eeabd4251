import { describe, expect, test } from 'vitest'
import { parseAcceptLanguage, resolveLanguage } from '#app/modules/i18n/resolve'
import { LANGUAGE_CODES, SHIPPED_LANGUAGES } from '#app/modules/i18n/languages'

const ALL = LANGUAGE_CODES

describe('parseAcceptLanguage', () => {
  test('orders by q-value, keeping the header’s order for equal ones', () => {
    expect(parseAcceptLanguage('fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5')).toEqual([
      'fr-ch',
      'fr',
      'en',
      'de',
    ])
    expect(parseAcceptLanguage('de;q=0.5, fr;q=0.9, en')).toEqual(['en', 'fr', 'de'])
    expect(parseAcceptLanguage('de, fr')).toEqual(['de', 'fr'])
  })

  test('drops q=0, wildcards and malformed entries instead of failing', () => {
    expect(parseAcceptLanguage('de;q=0, fr')).toEqual(['fr'])
    expect(parseAcceptLanguage('*, de;q=abc, <script>, fr;q=2, en;q=0.1')).toEqual(['en'])
    expect(parseAcceptLanguage('')).toEqual([])
    expect(parseAcceptLanguage(null)).toEqual([])
    expect(parseAcceptLanguage(undefined)).toEqual([])
  })

  test('a huge header is cut, not parsed whole', () => {
    const header = `${'x-'.repeat(10_000)}de`
    expect(parseAcceptLanguage(header)).toEqual([])
  })
})

describe('resolveLanguage: user → brand → Accept-Language → English', () => {
  test('the user’s own setting wins', () => {
    expect(
      resolveLanguage({ userLanguage: 'fr', brandLanguage: 'de', acceptLanguage: 'en', available: ALL }),
    ).toBe('fr')
  })

  test('without one, the brand’s default', () => {
    expect(
      resolveLanguage({ userLanguage: null, brandLanguage: 'de', acceptLanguage: 'fr', available: ALL }),
    ).toBe('de')
  })

  test('without either, the browser’s most wanted language that is offered, a region falling back to its language', () => {
    expect(resolveLanguage({ acceptLanguage: 'es, de-AT;q=0.9, fr;q=0.8', available: ALL })).toBe('de')
    expect(resolveLanguage({ acceptLanguage: 'fr-CA', available: ALL })).toBe('fr')
  })

  test('else English', () => {
    expect(resolveLanguage({ acceptLanguage: 'es, it', available: ALL })).toBe('en')
    expect(resolveLanguage({ available: ALL })).toBe('en')
  })

  test('only offered languages count at every step: a stored choice no longer offered is passed over', () => {
    const shippedOnly = ['en', 'de'] as const
    expect(
      resolveLanguage({
        userLanguage: 'fr',
        brandLanguage: 'de',
        acceptLanguage: 'fr',
        available: shippedOnly,
      }),
    ).toBe('de')
    expect(
      resolveLanguage({ userLanguage: 'fr', acceptLanguage: 'fr, de;q=0.5', available: shippedOnly }),
    ).toBe('de')
    expect(resolveLanguage({ userLanguage: 'xx', brandLanguage: 'yy', available: ALL })).toBe('en')
  })

  test('English and German are shipped; a language not shipped (French) is passed over at every step', () => {
    expect(SHIPPED_LANGUAGES).toEqual(['en', 'de'])
    expect(
      resolveLanguage({
        userLanguage: 'fr',
        brandLanguage: 'fr',
        acceptLanguage: 'fr',
        available: SHIPPED_LANGUAGES,
      }),
    ).toBe('en')
    expect(
      resolveLanguage({
        userLanguage: 'fr',
        brandLanguage: 'fr',
        acceptLanguage: 'fr, de;q=0.5',
        available: SHIPPED_LANGUAGES,
      }),
    ).toBe('de')
    expect(
      resolveLanguage({
        userLanguage: 'fr',
        brandLanguage: 'de',
        acceptLanguage: 'en',
        available: SHIPPED_LANGUAGES,
      }),
    ).toBe('de')
  })
})
