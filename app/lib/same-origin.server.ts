import { getEnv } from '#app/config/env.server'

/**
 * Refuses cross-site requests to resource routes (React Router's own origin check covers route
 * actions only). A browser sends Sec-Fetch-Site and, on POST, Origin; either naming another site
 * means the request did not come from our pages.
 */
export function isCrossSite(request: Request): boolean {
  const site = request.headers.get('Sec-Fetch-Site')
  if (site && site !== 'same-origin') return true
  const origin = request.headers.get('Origin')
  if (origin === null) return false
  const allowed = new Set([new URL(request.url).origin, new URL(getEnv().APP_URL).origin])
  return !allowed.has(origin)
}
