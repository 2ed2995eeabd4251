import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import net from 'node:net'
import Provider from 'oidc-provider'

/**
 * A real OpenID provider for the tests (issue 20 §1): `oidc-provider`, a certified OpenID Connect
 * implementation, run in this process on a free port of 3480–3489 (or the port asked for), with one
 * client registered for the app's callback and a mutable set of test accounts. Its development
 * interactions (a login form that takes any password, then a consent page) are driven by
 * {@link signInAtProvider} with fetch, or by a browser in the Playwright spec. Nothing is mocked: the
 * app discovers it, is redirected to it, exchanges codes at its token endpoint and checks the ID
 * tokens it signs.
 */

export type TestAccount = {
  /** The provider's subject (`sub`) and the login typed on its form. */
  sub: string
  email?: string
  emailVerified?: boolean
  name?: string
}

export type TestProvider = {
  issuer: string
  clientId: string
  clientSecret: string
  port: number
  /** The accounts the provider knows, by subject: change them between tests. */
  accounts: Map<string, TestAccount>
  close: () => Promise<void>
}

export const TEST_CLIENT_ID = 'panorama-test'
export const TEST_CLIENT_SECRET = 'panorama-test-client-secret-0123456789'

/** The first port of `from`–`to` that nothing listens on (each test file takes its own). */
export async function freePort(from = 3480, to = 3489): Promise<number> {
  for (let port = from; port <= to; port++) {
    const free = await new Promise<boolean>((resolve) => {
      const probe = net.createServer()
      probe.once('error', () => resolve(false))
      probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)))
    })
    if (free) return port
  }
  throw new Error(`no free port in ${from}–${to}`)
}

export async function startTestProvider(options: {
  /** The app's redirect URI(s) registered for the client. */
  redirectUris: string[]
  port?: number
  accounts?: TestAccount[]
}): Promise<TestProvider> {
  const port = options.port ?? (await freePort())
  const issuer = `http://127.0.0.1:${port}`
  const accounts = new Map((options.accounts ?? []).map((a) => [a.sub, a]))
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: TEST_CLIENT_ID,
        client_secret: TEST_CLIENT_SECRET,
        redirect_uris: options.redirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    async findAccount(_ctx: unknown, id: string) {
      const account = accounts.get(id)
      if (!account) return undefined
      return {
        accountId: id,
        claims: () => ({
          sub: id,
          ...(account.email === undefined ? {} : { email: account.email }),
          ...(account.emailVerified === undefined ? {} : { email_verified: account.emailVerified }),
          ...(account.name ? { name: account.name } : {}),
        }),
      }
    },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    features: { devInteractions: { enabled: true } },
    cookies: { keys: ['oidc-provider-test-cookie-key'] },
    pkce: { required: () => true },
    // Said, so that it does not log a notice for each one it uses.
    ttl: {
      AuthorizationCode: 60,
      Interaction: 600,
      Session: 3600,
      Grant: 3600,
      AccessToken: 600,
      IdToken: 600,
    },
  })
  // Its own warnings (development keys, development interactions) are expected here.
  const server: Server = provider.listen(port, '127.0.0.1') as Server
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve)
    server.once('error', reject)
  })
  return {
    issuer,
    clientId: TEST_CLIENT_ID,
    clientSecret: TEST_CLIENT_SECRET,
    port: (server.address() as AddressInfo).port,
    accounts,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/** A cookie jar for one browser at the provider. */
class Jar {
  private cookies = new Map<string, string>()
  take(response: Response) {
    for (const header of response.headers.getSetCookie()) {
      const [pair] = header.split(';')
      const [name, ...rest] = pair!.trim().split('=')
      if (/max-age=0|expires=thu, 01 jan 1970/i.test(header)) this.cookies.delete(name!)
      else this.cookies.set(name!, rest.join('='))
    }
  }
  header() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ')
  }
}

/**
 * Goes through the provider as a person would with its development interactions: from the app's
 * authorization URL, signs in as `login` (any password), then consents (or cancels with `deny`).
 * Returns the URL the provider sends the browser back to (the app's callback with code or error).
 */
export async function signInAtProvider(
  authorizationUrl: string,
  options: { login: string; deny?: boolean },
): Promise<URL> {
  const jar = new Jar()
  let url = authorizationUrl
  for (let step = 0; step < 12; step++) {
    const response = await fetch(url, { headers: { Cookie: jar.header() }, redirect: 'manual' })
    jar.take(response)
    const location = response.headers.get('Location')
    if (location) {
      const next = new URL(location, url)
      if (next.origin !== new URL(authorizationUrl).origin) return next
      url = next.href
      continue
    }
    const html = await response.text()
    if (response.status !== 200)
      throw new Error(`the provider answered ${response.status}: ${html.slice(0, 300)}`)
    if (options.deny) {
      const abort = /href="([^"]*\/abort)"/.exec(html)?.[1]
      if (!abort) throw new Error('no cancel link on the provider page')
      url = new URL(abort.replaceAll('&amp;', '&'), url).href
      continue
    }
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1]
    const prompt = /name="prompt" value="([^"]+)"/.exec(html)?.[1]
    if (!action || !prompt) throw new Error(`an unexpected provider page: ${html.slice(0, 300)}`)
    const body = new URLSearchParams({ prompt })
    if (prompt === 'login') {
      body.set('login', options.login)
      body.set('password', 'any password')
    }
    const posted = await fetch(new URL(action.replaceAll('&amp;', '&'), url), {
      method: 'POST',
      headers: { Cookie: jar.header(), 'Content-Type': 'application/x-www-form-urlencoded' },
      body,
      redirect: 'manual',
    })
    jar.take(posted)
    const after = posted.headers.get('Location')
    if (!after) throw new Error(`the provider's form answered ${posted.status} without a redirect`)
    url = new URL(after, url).href
  }
  throw new Error('the provider never sent the browser back')
}
