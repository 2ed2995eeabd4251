import type { Route } from './+types/colleague-invite.directory'
import { data } from 'react-router'
import { notFound, requireUser } from '#app/modules/auth/guards.server'
import { ROUTE_ROLES } from '#app/modules/auth/permissions'
import { DirectoryQuerySchema, searchDirectory } from '#app/modules/nomination/directory.server'

/**
 * The colleague directory's type-ahead (issue 18 §3), a resource route the invite page's combobox
 * asks: `?employee=<id>&q=<letters>` → `{ people, hint }` as JSON. An employee searches for their own
 * list (`employee` may be left out), their manager and administrators for theirs; anyone else, and
 * an id that is not an employee's, gets the same 404.
 */
// The combobox asks through a fetcher (a `.data` request): its answer keeps the loader's headers
// (no shared caching; a 429's Retry-After).
export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders

export async function loader({ request }: Route.LoaderArgs) {
  const { user } = await requireUser(request, { roles: ROUTE_ROLES['user/colleague-invite/directory'] })
  const query = DirectoryQuerySchema.parse(Object.fromEntries(new URL(request.url).searchParams))
  const outcome = await searchDirectory(
    { id: user.id, role: user.role },
    { employeeId: query.employee ?? user.id, q: query.q },
  )
  if (!outcome.ok) {
    if (outcome.notFound) notFound()
    return data(
      { people: [], hint: outcome.formErrors?.[0] ?? null },
      { status: 429, headers: { 'Retry-After': String(outcome.retryAfterSeconds ?? 60) } },
    )
  }
  // A personal answer: never kept by a shared cache.
  return data(outcome.value, { headers: { 'Cache-Control': 'private, no-store' } })
}
