import type { TFunction } from 'i18next'
import type { PageData } from '#app/lib/page-data'
import { possessive } from '#app/lib/words'
import { refuseNotFound, ok, type Outcome } from '#app/lib/outcome'
import type { Role } from '#app/modules/auth/permissions'
import {
  groupOutlook,
  RATER_GROUPS,
  type GroupSizes,
  type RaterGroup,
} from '#app/modules/report/rater-groups'
import { threshold } from '#app/modules/report/threshold'
import { intlLocale, type Language } from '#app/modules/i18n/languages'
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
 * A name's possessive as the language says it before a noun's place in the catalogue's sentence:
 * "Erin’s" (English), "von Erin" (German: "die Liste von Erin"), "de Erin" (French).
 */
export function whoseIn(language: Language, name: string) {
  if (language === 'de') return `von ${name.trim()}`
  if (language === 'fr') return `de ${name.trim()}`
  return possessive(name)
}

/** The page for a target (null: an admin still has to choose the employee), with the revoke to confirm. */
export async function loadInvitePage(
  target: InviteTarget | null,
  query: { scheme?: string; revoke?: string; fill?: string },
  /** The request's language and the invite namespace in it (getFixedT(request, 'invite')). */
  language: Language,
  t: TFunction<'invite'>,
) {
  if (!target) return ok({ state: 'pick-employee' as const, brand: null, explanation: t('pick.explanation') })
  const page = await getInvitePage(target.employee.id, query.scheme, intlLocale(language))
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
    outlook: page.scheme ? outlookOf(page.scheme, page.colleagues, page.org, 'invite', t) : null,
    // The manager on record, suggested while the scheme takes invitations and they are not invited.
    suggestion:
      page.scheme?.open &&
      page.org.manager &&
      !page.colleagues.some((c) => c.status !== 'revoked' && c.email === page.org.manager!.email)
        ? { ...page.org.manager, fill: query.fill === 'manager' }
        : null,
    confirmRevoke,
    listNotice: page.scheme ? listNoticeOf(page.scheme, target, language, t) : null,
    intro: introOf(target, true, language, t),
    notEnrolled: page.scheme ? null : introOf(target, false, language, t),
    onBehalfNote: target.onBehalf
      ? t('onBehalfNote', {
          name: nameOf(target),
          email: target.employee.email,
          whose: whoseIn(language, nameOf(target)),
        })
      : null,
    inviteHelp: t(target.onBehalf ? 'inviteHelp.onBehalf' : 'inviteHelp.own'),
    title: target.onBehalf ? t('metaTitleFor', { name: nameOf(target) }) : null,
    // The header wears the brand of the scheme shown.
    brand: page.scheme?.brand ?? null,
  })
}

const nameOf = (target: InviteTarget) => target.employee.displayName || target.employee.email

/** The page's opening words, or why there is nobody to invite for (sent, not shipped as JS). */
function introOf(target: InviteTarget, enrolled: boolean, language: Language, t: TFunction<'invite'>) {
  const name = nameOf(target)
  if (!enrolled) return target.onBehalf ? t('notEnrolled.onBehalf', { name }) : t('notEnrolled.own')
  return target.onBehalf ? t('intro.onBehalf', { whose: whoseIn(language, name) }) : t('intro.own')
}

/**
 * In a scheme that approves lists, or whose administrators choose the raters (ADR 042), the page
 * does not invite: it says why, and links to the list. Words from the server (the JS budget).
 */
function listNoticeOf(
  scheme: Pick<InviteScheme, 'id' | 'approval' | 'adminChooses'>,
  target: InviteTarget,
  language: Language,
  t: TFunction<'invite'>,
) {
  const who = target.onBehalf ? nameOf(target) : null
  if (scheme.approval !== 'none') {
    const params = new URLSearchParams({ scheme: scheme.id })
    if (target.onBehalf) params.set('employee', target.employee.id)
    return {
      title: t('listNotice.approvalTitle'),
      text: who
        ? t('listNotice.approvalOnBehalf', { whose: whoseIn(language, who) })
        : t('listNotice.approvalOwn'),
      href: `/user/nominations?${params.toString()}`,
      label: t(who ? 'listNotice.openOnBehalf' : 'listNotice.openOwn'),
    }
  }
  if (scheme.adminChooses && !who)
    return {
      title: t('listNotice.adminTitle'),
      text: t('listNotice.adminText'),
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
export type OutlookWords = 'invite' | 'list'

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
  words: OutlookWords,
  /** The invite namespace in the reader's language (getFixedT(request, 'invite')). */
  t: TFunction<'invite'>,
): { summary: string; lines: OutlookLine[] } | null {
  const sizes: GroupSizes = {}
  for (const c of colleagues)
    if (c.status !== 'revoked') sizes[c.relationship] = (sizes[c.relationship] ?? 0) + 1
  const minimumOf = (g: RaterGroup) =>
    g === 'direct_report' && org.directReports === 0 ? 0 : (scheme.minimums[g] ?? 0)
  const total = Object.values(sizes).reduce((sum, n) => sum + (n ?? 0), 0)
  const asked = RATER_GROUPS.filter((g) => minimumOf(g) > 0)
  if (!total && !asked.length) return null
  const t_ = threshold(scheme.minRaters)
  const outlook = groupOutlook(sizes, scheme.minRaters, {
    showManager: scheme.showManager,
    room: scheme.remaining,
  })
  const summary = !total
    ? t(`outlook.${words}.nobody`)
    : total < t_
      ? t(`outlook.${words}.short`, { min: t_, total })
      : t(`outlook.${words}.everyone`, { total })
  // A person has one manager or two: "add 2 more managers" is no advice, so the manager group gets none.
  const more = (k: number | null, g: RaterGroup) =>
    k && g !== 'manager' ? [t(`outlook.${words}.more`, { count: k })] : []
  const lines = RATER_GROUPS.filter((g) => (sizes[g] ?? 0) > 0 || minimumOf(g) > 0).map((g): OutlookLine => {
    const invited = sizes[g] ?? 0
    const minimum = minimumOf(g)
    const short = Math.max(0, minimum - invited)
    const wanted = short ? [t(`outlook.${words}.wanted`, { minimum, count: short })] : []
    const o = outlook.find((x) => x.group === g)
    const heading = t('outlook.heading', { label: t(`outlook.group.${g}`), count: invited })
    if (!o)
      return {
        key: g,
        heading,
        text: [t(`outlook.${words}.noneYet`), ...wanted].join(' '),
        tone: TONES.short,
      }
    const shown =
      o.shown === 'alone'
        ? g === 'manager' && invited < t_
          ? [t('outlook.aloneManager')]
          : [t('outlook.alone')]
        : o.shown === 'others'
          ? [t('outlook.others'), ...more(o.toStandAlone, g)]
          : o.shown === 'pooled'
            ? [t('outlook.pooled'), ...more(o.toStandAlone, g)]
            : [t('outlook.hidden', { min: t_ })]
    return {
      key: g,
      heading,
      text: [...shown, ...wanted].join(' '),
      tone: short ? TONES.short : o.shown === 'alone' ? TONES.good : TONES.plain,
    }
  })
  return { summary, lines }
}
