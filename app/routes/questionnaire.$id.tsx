import { data, Link } from 'react-router'
import type { Route } from './+types/questionnaire.$id'
import type { TFunction } from 'i18next'
import { useTranslation } from 'react-i18next'
import { getQuestionnaireIntro, type IntroAssignment } from '#app/modules/assignment/intro.server'
import { languageOf } from '#app/modules/i18n/i18n.server'
import { metaT } from '#app/modules/i18n/meta'
import { richT } from '#app/modules/i18n/rich'
import { ReopenNotice } from '#app/modules/assignment/components/reopen-notice'
import { notFound, requireUser } from '#app/modules/auth/guards.server'
import { ROUTE_ROLES } from '#app/modules/auth/permissions'
import type { RouteHandle } from '#app/root'

export const handle: RouteHandle = { layout: 'user', transition: true, i18n: 'answering' }

export const meta: Route.MetaFunction = ({ loaderData: d, matches }) => [
  {
    title: d
      ? metaT(matches, 'answering:intro.metaTitle', { title: d.questionnaire.title })
      : metaT(matches, 'answering:metaTitle'),
  },
]

/**
 * A questionnaire's introduction for whoever has an assignment on it (admins: any): what it is,
 * how long it takes, whose feedback it is, the deadline, and the way in. Everyone else gets a 404.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  const { user } = await requireUser(request, { roles: ROUTE_ROLES.questionnaire })
  const intro = (await getQuestionnaireIntro(params.id, user, languageOf(request, user))) ?? notFound()
  // /user links here with ?assignment=<id>: that one leads, the others follow in a list.
  const wanted = new URL(request.url).searchParams.get('assignment')
  const selectedId = intro.assignments.find((a) => a.id === wanted)?.id ?? null
  // The header wears the programme's brand: the assignment the page is about, else the one brand
  // all of them share; assignments in programmes of different brands leave the header neutral.
  const lead =
    intro.assignments.find((a) => a.id === selectedId) ??
    (intro.assignments.length === 1 ? intro.assignments[0] : null)
  const names = new Set(intro.assignments.map((a) => a.brand?.name))
  const brand = lead ? lead.brand : names.size === 1 ? (intro.assignments[0]?.brand ?? null) : null
  return { ...intro, selectedId, isAdmin: user.role === 'admin', brand }
}

export async function action({ request, params }: Route.ActionArgs) {
  const { user } = await requireUser(request, { roles: ROUTE_ROLES.questionnaire })
  if (!(await getQuestionnaireIntro(params.id, user))) notFound()
  // Nothing is posted here: the answers go to /assignment/:id.
  return data({ error: 'Nothing to submit on this page.' }, { status: 405 })
}

function actionLabel(t: TFunction<'answering'>, a: IntroAssignment, several: boolean) {
  const whose = { self: a.relationship === 'self' ? 'yes' : 'no', name: a.subjectName }
  const key =
    a.status === 'submitted'
      ? 'viewAnswers'
      : a.phase !== 'open'
        ? 'view'
        : a.status === 'in_progress'
          ? 'continue'
          : 'start'
  return several ? t(`intro.action.${key}Of`, whose) : t(`intro.action.${key}`)
}

function statusText(t: TFunction<'answering'>, a: IntroAssignment) {
  if (a.status !== 'submitted' && a.phase === 'closed') return t('status.closedUnsubmitted')
  if (a.status !== 'submitted' && (a.phase === 'draft' || a.phase === 'upcoming')) return t('status.notOpen')
  if (a.status === 'in_progress') return t('status.stoppedAt', { section: a.resumeSection })
  return t(`status.${a.status}`)
}

/** The privacy note a colleague is told (colleaguePrivacyNote, rater-groups.ts), in the page's language. */
function privacyText(t: TFunction<'answering'>, a: IntroAssignment) {
  if (a.privacyKind === 'manager') return t('intro.privacyManager', { name: a.subjectName })
  if (a.privacyKind === 'colleague') return t('intro.privacyColleague')
  return ''
}

function hrefOf(a: IntroAssignment) {
  return a.status === 'in_progress' ? `/assignment/${a.id}?section=${a.resumeSection}` : `/assignment/${a.id}`
}

export default function QuestionnaireIntroPage({ loaderData }: Route.ComponentProps) {
  const { questionnaire, questionCount, sectionCount, minutes, assignments, selectedId, isAdmin } = loaderData
  const single =
    assignments.find((a) => a.id === selectedId) ?? (assignments.length === 1 ? assignments[0]! : null)
  const others = single ? assignments.filter((a) => a.id !== single.id) : assignments
  const { t } = useTranslation('answering')
  const privacy = single ? privacyText(t, single) : ''
  return (
    <section aria-labelledby="page-title" className="flex max-w-3xl flex-col gap-6">
      <div className="flex flex-col gap-2">
        {single ? <p className="text-sm font-medium text-slate-600">{single.schemeName}</p> : null}
        <h1 id="page-title" className="text-2xl font-bold tracking-tight">
          {questionnaire.title}
        </h1>
        {single ? (
          <p className="text-lg text-slate-800">
            {single.relationship === 'self'
              ? t('intro.self')
              : richT(t, 'intro.feedbackFor', { name: <strong>{single.subjectName}</strong> })}
          </p>
        ) : null}
      </div>

      {single && !isAdmin ? <ReopenNotice reason={single.reopenReason} /> : null}

      {questionnaire.intro ? (
        <div className="card">
          <p className="whitespace-pre-line text-slate-800">{questionnaire.intro}</p>
        </div>
      ) : null}

      <dl className="grid gap-4 sm:grid-cols-3">
        <div className="card flex flex-col gap-1 p-4">
          <dt className="text-sm text-slate-600">{t('intro.questions')}</dt>
          <dd className="text-lg font-semibold">
            {t('intro.questionCount', { questions: questionCount, sections: sectionCount })}
          </dd>
        </div>
        <div className="card flex flex-col gap-1 p-4">
          <dt className="text-sm text-slate-600">{t('intro.timeNeeded')}</dt>
          <dd className="text-lg font-semibold">
            {minutes ? t('intro.about', { minutes }) : t('intro.moment')}
          </dd>
        </div>
        {single ? (
          <div className="card flex flex-col gap-1 p-4">
            <dt className="text-sm text-slate-600">{t('intro.deadline')}</dt>
            <dd className="text-lg font-semibold">
              <time dateTime={single.deadline.iso}>{single.deadline.label}</time>
              {single.daysLeft !== null && single.status !== 'submitted' ? (
                <span className="block text-sm font-normal text-slate-700">
                  {t('daysLeft', { days: single.daysLeft })}
                </span>
              ) : null}
            </dd>
          </div>
        ) : null}
      </dl>

      <p className="text-slate-700">
        {t('intro.savedAsYouGo', { fromLink: single?.relationship === 'self' || !single ? 'no' : 'yes' })}
        {privacy ? ` ${privacy}` : ''}
      </p>

      {isAdmin ? (
        <div className="card flex flex-col gap-2">
          <p className="font-semibold">{t('intro.adminTitle')}</p>
          <p className="text-slate-700">{t('intro.adminBody')}</p>
        </div>
      ) : single ? (
        <div className="flex flex-col items-start gap-2">
          <p className="text-sm text-slate-700">{t('intro.status', { status: statusText(t, single) })}</p>
          <Link to={hrefOf(single)} className="btn btn-primary">
            {actionLabel(t, single, false)}
          </Link>
        </div>
      ) : null}

      {!isAdmin && others.length ? (
        <section aria-labelledby="assignments-title" className="flex flex-col gap-3">
          <h2 id="assignments-title" className="text-lg font-semibold">
            {single ? t('intro.othersTitle') : t('intro.countTitle', { count: assignments.length })}
          </h2>
          <ul className="flex flex-col gap-3">
            {others.map((a) => (
              <li key={a.id} className="card flex flex-wrap items-center justify-between gap-3 p-4">
                <div>
                  <p className="font-semibold">
                    {a.relationship === 'self'
                      ? t('intro.aboutYourself')
                      : t('intro.feedbackForName', { name: a.subjectName })}
                  </p>
                  <p className="text-sm text-slate-700">
                    {richT(
                      t,
                      'intro.line',
                      { date: <time dateTime={a.deadline.iso}>{a.deadline.label}</time> },
                      { scheme: a.schemeName, status: statusText(t, a) },
                    )}
                  </p>
                  {a.reopenReason ? (
                    <div className="mt-2">
                      <ReopenNotice reason={a.reopenReason} />
                    </div>
                  ) : null}
                </div>
                <Link to={hrefOf(a)} className="btn btn-secondary">
                  {actionLabel(t, a, true)}
                </Link>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </section>
  )
}
