import type { PageData } from '#app/lib/page-data'
import { refuseNotFound, ok, type Outcome } from '#app/lib/outcome'
import type { Role } from '#app/modules/auth/permissions'
import { groupOutlook, PART_LABELS, type GroupSizes } from '#app/modules/report/rater-groups'
import { threshold } from '#app/modules/report/threshold'
import { findEmployee, getInvitePage, type InvitedColleague, type InviteEmployee, type InviteScheme } from './invite.server'

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
    outlook: page.scheme ? outlookOf(page.scheme, page.colleagues) : null,
    confirmRevoke,
    // The header wears the brand of the scheme shown.
    brand: page.scheme?.brand ?? null,
  })
}

/** What the page shows (the route returns it unchanged). */
export type InvitePageData = Extract<PageData<typeof loadInvitePage>, { ok: true }>['value']

/** One line of the group outlook, in words (the page ships no rule code). */
export type OutlookLine = { key: string; label: string; invited: number; text: string; standsAlone: boolean }

/**
 * How the report would group the colleagues invited so far (groupOutlook, the report's own rule),
 * told before anyone answers, so a group too small to show on its own is no surprise.
 */
export function outlookOf(
  scheme: Pick<InviteScheme, 'minRaters' | 'showManager' | 'remaining'>,
  colleagues: Pick<InvitedColleague, 'relationship' | 'status'>[],
): { summary: string; lines: OutlookLine[] } | null {
  const sizes: GroupSizes = {}
  for (const c of colleagues)
    if (c.status !== 'revoked') sizes[c.relationship] = (sizes[c.relationship] ?? 0) + 1
  const total = Object.values(sizes).reduce((sum, n) => sum + (n ?? 0), 0)
  if (!total) return null
  const t = threshold(scheme.minRaters)
  const outlook = groupOutlook(sizes, scheme.minRaters, { showManager: scheme.showManager, room: scheme.remaining })
  const summary =
    total < t
      ? `Colleagues’ answers show in the report once at least ${t} of them have answered; ${total} ${total === 1 ? 'is' : 'are'} invited so far.`
      : `If everyone invited answers, the report shows all ${total} colleagues together and, by group:`
  const more = (k: number | null) => (k ? ` Invite ${k} more to show them on their own.` : '')
  const lines = outlook.map((o): OutlookLine => {
    const label = o.group === 'other' ? 'Others' : PART_LABELS[o.group]
    const text =
      o.shown === 'alone'
        ? o.group === 'manager' && o.invited < t
          ? 'Shown on their own: the scheme tells managers so when they are invited.'
          : 'Shown as a group of their own.'
        : o.shown === 'others'
          ? `Combined into “Other colleagues”, so nobody can be picked out.${more(o.toStandAlone)}`
          : o.shown === 'pooled'
            ? `Only within the all-colleagues figure: a group is shown apart only when the colleagues outside it are enough to show too.${more(o.toStandAlone)}`
            : `Not shown until at least ${t} colleagues have answered.`
    return { key: o.group, label, invited: o.invited, text, standsAlone: o.shown === 'alone' }
  })
  return { summary, lines }
}
