import 'react-router'

/** What the Express adapter hands every loader and action. */
export type PanoramaContext = {
  /** The CSP nonce of this response; every inline or module script carries it. */
  nonce: string
  requestId: string
  /** The client's address (from X-Forwarded-For only through the TRUST_PROXY hops). */
  ip: string
  /** Set by handleError when this request failed because the database cannot be reached. */
  databaseUnavailable?: boolean
  /**
   * Settles once the response has been sent (or the client went away): work that must neither
   * delay nor time the answer starts after it (lib/background.server.ts).
   */
  responseSent: Promise<void>
}

declare module 'react-router' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface AppLoadContext extends PanoramaContext {}
}
