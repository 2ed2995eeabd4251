import 'react-router'
import type { SessionResult } from '#app/modules/auth/session.server'

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
  /**
   * Set only by the server's own render of a page to print it (app/modules/pdf/render.server.ts,
   * ADR 046), never from anything in an HTTP request: whose page it is, for that one path. Every
   * request from outside has a load context built by app.ts, without it.
   */
  renderAs?: { path: string; session: SessionResult }
}

declare module 'react-router' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface AppLoadContext extends PanoramaContext {}
}
