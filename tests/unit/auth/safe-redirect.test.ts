import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { safeRedirect } from '#app/lib/safe-redirect'

/**
 * The sign-in `redirectTo` (and any other "go back to" value) must never send a visitor to another
 * site: an open redirect turns our sign-in page into a phishing helper.
 */
const HOME = '/user'

describe('honoured: paths on this site', () => {
  test.each([
    ['/admin', '/admin'],
    ['/admin/brand-management?x=1', '/admin/brand-management?x=1'],
    ['/user/response-abc#chart', '/user/response-abc#chart'],
    ['/a/../b', '/b'],
  ])('%s → %s', (input, expected) => {
    expect(safeRedirect(input, HOME)).toBe(expected)
  })
})

describe('refused: the fallback instead', () => {
  test.each([
    'https://evil.example',
    'http://evil.example/admin',
    '//evil.example',
    '///evil.example',
    '/\\evil.example',
    '\\\\evil.example',
    'javascript:alert(1)',
    'JavaScript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'evil.example',
    ' /admin',
    '/\t/evil.example',
    '/\n/evil.example',
    '/admin\\..\\..\\evil',
    // Dot segments that collapse into a protocol-relative path (found by the property below).
    '/..//evil.example',
    '/a/../..//evil.example',
    '/.//evil.example',
    '',
    '/' + 'a'.repeat(2048),
    // Paths that only become "//host" once dot segments are resolved (found by the property below).
    '/..//',
    '/..//evil.example',
    '/.//evil.example',
    '/a/..//evil.example',
    '/.%2e//evil.example',
    '/%2e%2e//evil.example',
  ])('%j', (input) => {
    expect(safeRedirect(input, HOME)).toBe(HOME)
  })

  test.each([null, undefined, 42 as unknown as string])('a non-string (%s)', (input) => {
    expect(safeRedirect(input, HOME)).toBe(HOME)
  })

  test('the default fallback is the start page', () => {
    expect(safeRedirect('//evil.example')).toBe('/')
  })
})

test('whatever comes in, what goes out resolves to this site', () => {
  const tricky = fc.constantFrom(
    '/',
    '//',
    '\\',
    '/\\',
    ':',
    '@',
    'evil.example',
    '%2f',
    '%5c',
    '\t',
    '\n',
    ' ',
    '?',
    '#',
    '..',
    'http:',
    'javascript:',
  )
  const input = fc.oneof(
    fc.string(),
    fc.array(tricky, { maxLength: 6 }).map((parts) => parts.join('')),
  )
  fc.assert(
    fc.property(input, (value) => {
      const out = safeRedirect(value, HOME)
      expect(out.startsWith('/')).toBe(true)
      expect(out.startsWith('//')).toBe(false)
      expect(out.startsWith('/\\')).toBe(false)
      // How a browser would resolve it, from a page on our origin.
      expect(new URL(out, 'https://panorama.example/sign-in').origin).toBe('https://panorama.example')
    }),
    { numRuns: 2_000 },
  )
})
