// Server-sent events for live updates of /user (see app/modules/realtime/listener.server.ts).
import { requireUser } from '#app/modules/auth/guards.server'
import { ROUTE_ROLES } from '#app/modules/auth/permissions'
import { eventStreamResponse } from '#app/modules/realtime/listener.server'
import type { Route } from './+types/api.events'

/**
 * An employee's live-update stream: an `assignment.updated` event whenever one of the assignments
 * about them changes (a colleague starts or submits, an invite is revoked…). The page re-reads its
 * loader on each; the events carry no answers. Only the signed-in employee's own events are sent.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const { user } = await requireUser(request, { roles: ROUTE_ROLES.user })
  return eventStreamResponse({ subjectId: user.id, signal: request.signal })
}
