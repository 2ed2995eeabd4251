// oidc-provider ships no type declarations (its DefinitelyTyped package lags its releases): the
// little of it the tests use, typed here.
declare module 'oidc-provider' {
  import type { Server } from 'node:http'

  export type ProviderConfiguration = {
    clients?: Array<Record<string, unknown>>
    findAccount?: (
      ctx: unknown,
      id: string,
    ) => Promise<{ accountId: string; claims: () => Record<string, unknown> } | undefined>
    claims?: Record<string, string[]>
    features?: Record<string, unknown>
    cookies?: { keys?: string[] }
    pkce?: { required?: () => boolean }
    [key: string]: unknown
  }

  export default class Provider {
    constructor(issuer: string, configuration?: ProviderConfiguration)
    listen(port: number, host?: string): Server
  }
}
