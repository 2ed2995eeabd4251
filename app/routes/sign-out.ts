import { redirect } from 'react-router'
import type { Route } from './+types/sign-out'
import { isCrossSite } from '#app/lib/same-origin.server'
import {
  clearSessionCookie,
  invalidateSession,
  readSessionToken,
  sessionIdOf,
} from '#app/modules/auth/session.server'

// Sign-out is POST only (a link or prefetch must not end a session).
export async function loader() {
  throw redirect('/')
}

export async function action({ request }: Route.ActionArgs) {
  // A resource route: React Router's own origin check does not cover it.
  if (isCrossSite(request)) throw new Response('Forbidden', { status: 403 })
  const id = sessionIdOf(readSessionToken(request))
  if (id) await invalidateSession(id)
  return redirect('/sign-in', { headers: { 'Set-Cookie': clearSessionCookie() } })
}
