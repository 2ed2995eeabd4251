import type { PageData } from '#app/lib/page-data'
import { possessive } from '#app/lib/words'
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
    listNotice: page.scheme ? listNoticeOf(page.scheme, target) : null,
    intro: introOf(target, true),
    notEnrolled: page.scheme ? null : introOf(target, false),
    onBehalfNote: target.onBehalf
      ? `Inviting on behalf of ${target.employee.displayName || target.employee.email} (${target.employee.email}). Invitations you send here come from ${possessive(target.employee.displayName || target.employee.email)} programme.`
      : null,
    inviteHelp: `Choose people who have seen ${target.onBehalf ? 'the employee' : 'you'} at work recently: a manager, peers, people who report to ${target.onBehalf ? 'them' : 'you'}. A mix of perspectives gives the most useful report.`,
    // The header wears the brand of the scheme shown.
    brand: page.scheme?.brand ?? null,
  })
}

/** The page's opening words, or why there is nobody to invite for (sent, not shipped as JS). */
function introOf(target: InviteTarget, enrolled: boolean) {
  const name = target.employee.displayName || target.employee.email
  if (!enrolled)
    return target.onBehalf
      ? `${name} is not enrolled in a feedback scheme yet, so there is nobody to invite colleagues for. Enrol them in a scheme first.`
      : 'You are not enrolled in a feedback scheme yet, so there is nobody to invite colleagues for. Your consultant will enrol you and let you know by e-mail.'
  return target.onBehalf
    ? `${possessive(name)} colleagues answer the same questionnaire about them. Each receives a personal link by e-mail; their answers are shown combined and without names, and only once enough of them have answered.`
    : 'The colleagues you invite answer the same questionnaire about you. Each receives a personal link by e-mail; their answers are shown combined and without names, and only once enough of them have answered.'
}

/**
 * In a scheme that approves lists, or whose administrators choose the raters (ADR 042), the page
 * does not invite: it says why, and links to the list. Words from the server (the JS budget).
 */
function listNoticeOf(scheme: Pick<InviteScheme, 'id' | 'approval' | 'adminChooses'>, target: InviteTarget) {
  const who = target.onBehalf ? target.employee.displayName || target.employee.email : null
  if (scheme.approval !== 'none') {
    const params = new URLSearchParams({ scheme: scheme.id })
    if (target.onBehalf) params.set('employee', target.employee.id)
    return {
      title: 'Colleagues are invited from an approved list',
      text: `In this programme ${who ? `${possessive(who)} list` : 'your list'} of colleagues is approved before anyone is invited; the invitations go out on approval and then show here.`,
      href: `/user/nominations?${params.toString()}`,
      label: who ? 'Open their list' : 'Open your list',
    }
  }
  if (scheme.adminChooses && !who)
    return {
      title: 'Your administrators choose',
      text: 'In this programme the administrators choose who gives you feedback; the invitations they send show here.',
      href: null,
      label: null,
    }
  return null
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

/** The outlook's words: about invitations (this page) or about a list still to be approved (ADR 042). */
export type OutlookWords = { nobody: string; soFar: string; everyone: string; verb: string; noneYet: string }

const INVITE_WORDS: OutlookWords = {
  nobody: 'Nobody is invited yet. The scheme asks for at least:',
  soFar: 'invited so far',
  everyone: 'If everyone invited answers',
  verb: 'Invite',
  noneYet: 'None invited yet.',
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
  words: OutlookWords = INVITE_WORDS,
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
    ? words.nobody
    : total < t
      ? `Colleagues’ answers show in the report once at least ${t} of them have answered; ${total} ${total === 1 ? 'is' : 'are'} ${words.soFar}.`
      : `${words.everyone}, the report shows all ${total} colleagues together and, by group:`
  // A person has one manager or two: "add 2 more managers" is no advice, so the manager group gets none.
  const more = (k: number | null, g: RaterGroup) =>
    k && g !== 'manager' ? ` ${words.verb} ${k} more to show them on their own.` : ''
  const lines = RATER_GROUPS.filter((g) => (sizes[g] ?? 0) > 0 || minimumOf(g) > 0).map((g): OutlookLine => {
    const label = g === 'other' ? 'Others' : PART_LABELS[g]
    const invited = sizes[g] ?? 0
    const minimum = minimumOf(g)
    const short = Math.max(0, minimum - invited)
    const wanted = short
      ? ` The scheme asks for at least ${minimum}: ${words.verb.toLowerCase()} ${short} more.`
      : ''
    const o = outlook.find((x) => x.group === g)
    const heading = `${label} (${invited})`
    if (!o) return { key: g, heading, text: `${words.noneYet}${wanted}`, tone: TONES.short }
    const shown =
      o.shown === 'alone'
        ? g === 'manager' && invited < t
          ? 'Shown on their own: the scheme tells managers so when they are invited.'
          : 'Shown as a group of their own.'
        : o.shown === 'others'
          ? `Combined into “Other colleagues”, so nobody can be picked out.${more(o.toStandAlone, g)}`
          : o.shown === 'pooled'
            ? `Only within the all-colleagues figure: a group is shown apart only when the colleagues outside it are enough to show too.${more(o.toStandAlone, g)}`
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
