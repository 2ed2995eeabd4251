import 'react-router'

/** What the Express adapter hands every loader and action. */
export type PanoramaContext = {
  /** The CSP nonce of this response; every inline or module script carries it. */
  nonce: string
  requestId: string
  /** The client's address (from X-Forwarded-For only through the TRUST_PROXY hops). */
  ip: string
}

declare module 'react-router' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface AppLoadContext extends PanoramaContext {}
}
