import type { PageData } from '#app/lib/page-data'
import { refuseNotFound, ok, type Outcome } from '#app/lib/outcome'
import type { Role } from '#app/modules/auth/permissions'
import { findEmployee, getInvitePage, type InviteEmployee } from './invite.server'

/**
 * The data of /user/colleague-invite: whose invitations the page is about, and what it shows. "Not
 * found" and "not yours" are the same refusal, which the route answers with its 404.
 */
export type InviteTarget = { employee: InviteEmployee; onBehalf: boolean }

type Viewer = { id: string; role: Role; displayName: string; email: string }

/**
 * Whose invitations this page shows: an employee's own (an `?employee=` naming anyone else is not
 * found); for an admin the employee named by `?employee=` (unknown: not found), or null when none is named.
 */
export async function resolveInviteTarget(
  user: Viewer,
  employeeParam: string | undefined,
): Promise<Outcome<InviteTarget | null>> {
  if (user.role === 'employee') {
    if (employeeParam !== undefined && employeeParam !== user.id) return refuseNotFound()
    return ok({
      employee: { id: user.id, displayName: user.displayName, email: user.email },
      onBehalf: false,
    })
  }
  if (employeeParam === undefined) return ok(null)
  const employee = await findEmployee(employeeParam)
  return employee ? ok({ employee, onBehalf: true }) : refuseNotFound()
}

/** The page for a target (null: an admin still has to choose the employee), with the revoke to confirm. */
export async function loadInvitePage(
  target: InviteTarget | null,
  query: { scheme?: string; revoke?: string },
) {
  if (!target) return ok({ state: 'pick-employee' as const, brand: null })
  const page = await getInvitePage(target.employee.id, query.scheme)
  if (!page) return refuseNotFound()
  const confirmRevoke =
    page.scheme?.open && query.revoke
      ? (page.colleagues.find(
          (c) => c.id === query.revoke && (c.status === 'invited' || c.status === 'started'),
        ) ?? null)
      : null
  return ok({
    state: 'ready' as const,
    employee: target.employee,
    onBehalf: target.onBehalf,
    ...page,
    confirmRevoke,
    // The header wears the brand of the scheme shown.
    brand: page.scheme?.brand ?? null,
  })
}

/** What the page shows (the route returns it unchanged). */
export type InvitePageData = Extract<PageData<typeof loadInvitePage>, { ok: true }>['value']
