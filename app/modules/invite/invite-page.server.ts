import type { PageData } from '#app/lib/page-data'
import { refuseNotFound, ok, type Outcome } from '#app/lib/outcome'
import type { Role } from '#app/modules/auth/permissions'
import {
  groupOutlook,
  PART_LABELS,
  RATER_GROUPS,
  type GroupSizes,
  type RaterGroup,
} from '#app/modules/report/rater-groups'
import { threshold } from '#app/modules/report/threshold'
import {
  findEmployee,
  getInvitePage,
  type InvitedColleague,
  type InviteEmployee,
  type InviteScheme,
} from './invite.server'

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

/**
 * What an admin who opened the page without choosing an employee reads. Sent with the page rather
 * than written into its script: the page's client JS is held to its budget (npm run size).
 */
const PICK_EMPLOYEE =
  'As an administrator you invite colleagues on an employee’s behalf, one employee at a time. Find the ' +
  'employee on the employees page and open their invitations from there; this page then shows their ' +
  'schemes, the colleagues already invited and the invitation form.'

/** The page for a target (null: an admin still has to choose the employee), with the revoke to confirm. */
export async function loadInvitePage(
  target: InviteTarget | null,
  query: { scheme?: string; revoke?: string; fill?: string },
) {
  if (!target) return ok({ state: 'pick-employee' as const, brand: null, explanation: PICK_EMPLOYEE })
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
    outlook: page.scheme ? outlookOf(page.scheme, page.colleagues, page.org) : null,
    // The manager on record, suggested while the scheme takes invitations and they are not invited.
    suggestion:
      page.scheme?.open &&
      page.org.manager &&
      !page.colleagues.some((c) => c.status !== 'revoked' && c.email === page.org.manager!.email)
        ? { ...page.org.manager, fill: query.fill === 'manager' }
        : null,
    confirmRevoke,
    // The header wears the brand of the scheme shown.
    brand: page.scheme?.brand ?? null,
  })
}

/** What the page shows (the route returns it unchanged). */
export type InvitePageData = Extract<PageData<typeof loadInvitePage>, { ok: true }>['value']

/** One line of the group outlook, in words (the page ships no rule code). */
export type OutlookLine = {
  key: string
  /** "Peers (3)". */
  heading: string
  text: string
  /** The text's colour: a group standing alone, one short of the scheme's minimum, or neither. */
  tone: (typeof TONES)[keyof typeof TONES]
}

const TONES = { good: 'text-emerald-900', short: 'text-amber-950', plain: 'text-slate-800' } as const

/**
 * How the report would group the colleagues invited so far (groupOutlook, the report's own rule),
 * and which of the scheme's minimums are still short, told before anyone answers, so a group too
 * small to show on its own is no surprise. The direct-report minimum applies to someone with
 * direct reports recorded. Null when nobody is invited and nothing is asked for.
 */
export function outlookOf(
  scheme: Pick<InviteScheme, 'minRaters' | 'showManager' | 'remaining' | 'minimums'>,
  colleagues: Pick<InvitedColleague, 'relationship' | 'status'>[],
  org: { directReports: number },
): { summary: string; lines: OutlookLine[] } | null {
  const sizes: GroupSizes = {}
  for (const c of colleagues)
    if (c.status !== 'revoked') sizes[c.relationship] = (sizes[c.relationship] ?? 0) + 1
  const minimumOf = (g: RaterGroup) =>
    g === 'direct_report' && org.directReports === 0 ? 0 : (scheme.minimums[g] ?? 0)
  const total = Object.values(sizes).reduce((sum, n) => sum + (n ?? 0), 0)
  const asked = RATER_GROUPS.filter((g) => minimumOf(g) > 0)
  if (!total && !asked.length) return null
  const t = threshold(scheme.minRaters)
  const outlook = groupOutlook(sizes, scheme.minRaters, {
    showManager: scheme.showManager,
    room: scheme.remaining,
  })
  const summary = !total
    ? 'Nobody is invited yet. The scheme asks for at least:'
    : total < t
      ? `Colleagues’ answers show in the report once at least ${t} of them have answered; ${total} ${total === 1 ? 'is' : 'are'} invited so far.`
      : `If everyone invited answers, the report shows all ${total} colleagues together and, by group:`
  const more = (k: number | null) => (k ? ` Invite ${k} more to show them on their own.` : '')
  const lines = RATER_GROUPS.filter((g) => (sizes[g] ?? 0) > 0 || minimumOf(g) > 0).map((g): OutlookLine => {
    const label = g === 'other' ? 'Others' : PART_LABELS[g]
    const invited = sizes[g] ?? 0
    const minimum = minimumOf(g)
    const short = Math.max(0, minimum - invited)
    const wanted = short ? ` The scheme asks for at least ${minimum}: invite ${short} more.` : ''
    const o = outlook.find((x) => x.group === g)
    const heading = `${label} (${invited})`
    if (!o) return { key: g, heading, text: `None invited yet.${wanted}`, tone: TONES.short }
    const shown =
      o.shown === 'alone'
        ? g === 'manager' && invited < t
          ? 'Shown on their own: the scheme tells managers so when they are invited.'
          : 'Shown as a group of their own.'
        : o.shown === 'others'
          ? `Combined into “Other colleagues”, so nobody can be picked out.${more(o.toStandAlone)}`
          : o.shown === 'pooled'
            ? `Only within the all-colleagues figure: a group is shown apart only when the colleagues outside it are enough to show too.${more(o.toStandAlone)}`
            : `Not shown until at least ${t} colleagues have answered.`
    return {
      key: g,
      heading,
      text: `${shown}${wanted}`,
      tone: short ? TONES.short : o.shown === 'alone' ? TONES.good : TONES.plain,
    }
  })
  return { summary, lines }
}
