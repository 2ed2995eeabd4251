// Server-sent events for the live admin dashboard (see app/modules/realtime/listener.server.ts).
import { requireUser } from '#app/modules/auth/guards.server'
import { ROUTE_ROLES } from '#app/modules/auth/permissions'
import { eventStreamResponse } from '#app/modules/realtime/listener.server'
import type { Route } from './+types/api.admin-events'

/**
 * An administrator's live-update stream: every `assignment.updated` event (a self-assessment or a
 * colleague starting or submitting, an invitation withdrawn), so the dashboard's progress re-reads
 * itself. The events carry an assignment id and its state, never an answer.
 */
export async function loader({ request }: Route.LoaderArgs) {
  await requireUser(request, { roles: ROUTE_ROLES.admin })
  return eventStreamResponse({ everyone: true, signal: request.signal })
}
