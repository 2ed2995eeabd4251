import { describe, expect, test } from 'vitest'
import { ConfigError, parseEnv } from '#app/config/env.server'
import { judgeAddress, mappedIpv4, parseAllowList } from '#app/lib/outbound-address'
import { checkDestination, urlProblem } from '#app/modules/webhook/destination.server'
import { WEBHOOK_MESSAGES } from '#app/modules/webhook/schemas'

/**
 * The webhooks' guard against server-side request forgery (ADR 057): which addresses are refused
 * (every form of loopback, link-local, private, unspecified, multicast, IPv4-mapped), what the
 * allow-list (WEBHOOK_ALLOWED_HOSTS) lets through, and how a URL is judged with every address its
 * host resolves to.
 */
const none = parseAllowList('').entries

describe('judgeAddress', () => {
  test.each([
    '127.0.0.1',
    '127.255.0.9',
    '10.0.0.1',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.0.1',
    '100.64.0.1',
    '100.127.255.254',
    '169.254.169.254',
    '0.0.0.0',
    '224.0.0.251',
    '239.255.255.250',
    '255.255.255.255',
    '::',
    '::1',
    'fe80::1',
    'fc00::1',
    'fd12:3456::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:10.1.2.3',
    '::ffff:a9fe:a9fe',
    '0:0:0:0:0:ffff:7f00:1',
    '64:ff9b::a00:1',
  ])('%s is refused', (address) => {
    expect(judgeAddress('example.test', address, none)).toEqual({ ok: false })
  })

  test.each(['93.184.216.34', '8.8.8.8', '172.32.0.1', '100.128.0.1', '2606:4700::1111', '::ffff:8.8.8.8'])(
    '%s is public',
    (address) => {
      expect(judgeAddress('example.test', address, none)).toEqual({ ok: true, via: 'public' })
    },
  )

  test('the allow-list: a host name, an address, a range (IPv4-mapped forms too), nothing else', () => {
    const allow = parseAllowList('hr.intranet.example, 127.0.0.1, 10.20.0.0/16, fd00::/8').entries
    expect(judgeAddress('HR.Intranet.Example.', '10.99.0.1', allow)).toEqual({ ok: true, via: 'allow-list' })
    expect(judgeAddress('x.example', '127.0.0.1', allow)).toEqual({ ok: true, via: 'allow-list' })
    expect(judgeAddress('x.example', '::ffff:127.0.0.1', allow)).toEqual({ ok: true, via: 'allow-list' })
    expect(judgeAddress('x.example', '10.20.3.4', allow)).toEqual({ ok: true, via: 'allow-list' })
    expect(judgeAddress('x.example', 'fd00::5', allow)).toEqual({ ok: true, via: 'allow-list' })
    expect(judgeAddress('x.example', '10.21.0.1', allow)).toEqual({ ok: false })
    expect(judgeAddress('x.example', '127.0.0.2', allow)).toEqual({ ok: false })
    expect(judgeAddress('other.intranet.example', '192.168.1.1', allow)).toEqual({ ok: false })
  })

  test('IPv4-mapped addresses in both spellings', () => {
    expect(mappedIpv4('::ffff:192.168.1.1')).toBe('192.168.1.1')
    expect(mappedIpv4('::ffff:c0a8:101')).toBe('192.168.1.1')
    expect(mappedIpv4('2001:db8::1')).toBeNull()
  })
})

describe('WEBHOOK_ALLOWED_HOSTS', () => {
  test('parsed into entries; a bad entry is a configuration error naming it', () => {
    expect(
      parseEnv({ NODE_ENV: 'test', WEBHOOK_ALLOWED_HOSTS: 'a.example, 10.0.0.0/8' }).WEBHOOK_ALLOWED_HOSTS,
    ).toEqual([
      { kind: 'host', host: 'a.example' },
      { kind: 'range', address: '10.0.0.0', prefix: 8, family: 4 },
    ])
    expect(parseEnv({ NODE_ENV: 'test' }).WEBHOOK_ALLOWED_HOSTS).toEqual([])
    for (const bad of ['10.0.0.0/33', 'not a host', 'http://x.example', '1.2.3.4/8/1']) {
      try {
        parseEnv({ NODE_ENV: 'test', WEBHOOK_ALLOWED_HOSTS: bad })
        throw new Error(`accepted ${bad}`)
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError)
        expect((error as ConfigError).problems.join()).toContain('WEBHOOK_ALLOWED_HOSTS')
      }
    }
  })
})

describe('checkDestination', () => {
  const resolveTo =
    (...addresses: string[]) =>
    async () =>
      addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }))

  test('the URL’s own rules', () => {
    expect(urlProblem('ftp://x.example/')).toEqual({ message: WEBHOOK_MESSAGES.urlInvalid })
    expect(urlProblem('https://u:p@x.example/')).toEqual({ message: WEBHOOK_MESSAGES.urlCredentials })
    expect(urlProblem('https://x.example/#frag')).toEqual({ message: WEBHOOK_MESSAGES.urlFragment })
  })

  test('every address the host resolves to must be allowed; the first is the one connected to', async () => {
    const ok = await checkDestination('https://hooks.example/x', {
      allow: none,
      resolve: resolveTo('93.184.216.34'),
    })
    expect(ok).toMatchObject({ ok: true, destination: { address: '93.184.216.34', family: 4 } })
    expect(
      await checkDestination('https://hooks.example/x', {
        allow: none,
        resolve: resolveTo('93.184.216.34', '10.0.0.1'),
      }),
    ).toEqual({ ok: false, message: WEBHOOK_MESSAGES.privateAddress })
    expect(
      await checkDestination('https://hooks.example/x', {
        allow: none,
        resolve: async () => {
          throw new Error('ENOTFOUND')
        },
      }),
    ).toEqual({ ok: false, message: WEBHOOK_MESSAGES.hostUnknown })
  })

  test('plain http only where the allow-list vouches for every address', async () => {
    expect(
      await checkDestination('http://hooks.example/x', { allow: none, resolve: resolveTo('93.184.216.34') }),
    ).toEqual({ ok: false, message: WEBHOOK_MESSAGES.httpsRequired })
    const allow = parseAllowList('10.0.0.0/8').entries
    expect(
      await checkDestination('http://hr.corp/x', { allow, resolve: resolveTo('10.1.1.1') }),
    ).toMatchObject({ ok: true })
  })
})
