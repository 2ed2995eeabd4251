import { data, Link } from 'react-router'
import type { Route } from './+types/questionnaire.$id'
import { plural } from '#app/lib/words'
import { getQuestionnaireIntro, type IntroAssignment } from '#app/modules/assignment/intro.server'
import { languageOf } from '#app/modules/i18n/i18n.server'
import { ReopenNotice } from '#app/modules/assignment/components/reopen-notice'
import { notFound, requireUser } from '#app/modules/auth/guards.server'
import { ROUTE_ROLES } from '#app/modules/auth/permissions'
import type { RouteHandle } from '#app/root'
import { ASSIGNMENT_STATUS_LABELS } from '#app/modules/scheme/labels'

export const handle: RouteHandle = { layout: 'user', transition: true }

export const meta: Route.MetaFunction = ({ loaderData: d }) => [
  { title: d ? `${d.questionnaire.title} · Introduction · Panorama` : 'Questionnaire · Panorama' },
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

function actionLabel(a: IntroAssignment, several: boolean) {
  const whose = a.relationship === 'self' ? 'your self-assessment' : `feedback for ${a.subjectName}`
  if (a.status === 'submitted') return several ? `View your answers (${whose})` : 'View your answers'
  if (a.phase !== 'open') return several ? `View ${whose}` : 'View'
  if (a.status === 'in_progress') return several ? `Continue ${whose}` : 'Continue where you stopped'
  return several ? `Start ${whose}` : 'Start'
}

function statusText(a: IntroAssignment) {
  if (a.status !== 'submitted' && a.phase === 'closed') return 'Closed before it was submitted'
  if (a.status !== 'submitted' && (a.phase === 'draft' || a.phase === 'upcoming')) return 'Not open yet'
  if (a.status === 'in_progress') return `In progress (you stopped at section ${a.resumeSection})`
  return ASSIGNMENT_STATUS_LABELS[a.status]
}

function hrefOf(a: IntroAssignment) {
  return a.status === 'in_progress' ? `/assignment/${a.id}?section=${a.resumeSection}` : `/assignment/${a.id}`
}

export default function QuestionnaireIntroPage({ loaderData }: Route.ComponentProps) {
  const { questionnaire, questionCount, sectionCount, minutes, assignments, selectedId, isAdmin } = loaderData
  const single =
    assignments.find((a) => a.id === selectedId) ?? (assignments.length === 1 ? assignments[0]! : null)
  const others = single ? assignments.filter((a) => a.id !== single.id) : assignments
  return (
    <section aria-labelledby="page-title" className="flex max-w-3xl flex-col gap-6">
      <div className="flex flex-col gap-2">
        {single ? <p className="text-sm font-medium text-slate-600">{single.schemeName}</p> : null}
        <h1 id="page-title" className="text-2xl font-bold tracking-tight">
          {questionnaire.title}
        </h1>
        {single ? (
          <p className="text-lg text-slate-800">
            {single.relationship === 'self' ? (
              'Your self-assessment: the questions are about yourself.'
            ) : (
              <>
                Your feedback for <strong>{single.subjectName}</strong>: the questions are about them.
              </>
            )}
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
          <dt className="text-sm text-slate-600">Questions</dt>
          <dd className="text-lg font-semibold">
            {plural(questionCount, 'question', 'questions')} in {plural(sectionCount, 'section', 'sections')}
          </dd>
        </div>
        <div className="card flex flex-col gap-1 p-4">
          <dt className="text-sm text-slate-600">Time needed</dt>
          <dd className="text-lg font-semibold">
            {minutes ? `About ${plural(minutes, 'minute', 'minutes')}` : 'A moment'}
          </dd>
        </div>
        {single ? (
          <div className="card flex flex-col gap-1 p-4">
            <dt className="text-sm text-slate-600">Deadline</dt>
            <dd className="text-lg font-semibold">
              <time dateTime={single.deadline.iso}>{single.deadline.label}</time>
              {single.timeLeft && single.status !== 'submitted' ? (
                <span className="block text-sm font-normal text-slate-700">{single.timeLeft}</span>
              ) : null}
            </dd>
          </div>
        ) : null}
      </dl>

      <p className="text-slate-700">
        Your answers are saved as you go, so you can stop and continue later
        {single?.relationship === 'self' || !single ? '' : ' from the link in your invitation e-mail'}.
        {single?.privacyNote ? ` ${single.privacyNote}` : ''}
      </p>

      {isAdmin ? (
        <div className="card flex flex-col gap-2">
          <p className="font-semibold">You are viewing this questionnaire as an administrator.</p>
          <p className="text-slate-700">
            Administrators can read answers but do not answer questionnaires. Open a respondent’s assignment
            from answer management to see their answers.
          </p>
        </div>
      ) : single ? (
        <div className="flex flex-col items-start gap-2">
          <p className="text-sm text-slate-700">Status: {statusText(single)}</p>
          <Link to={hrefOf(single)} className="btn btn-primary">
            {actionLabel(single, false)}
          </Link>
        </div>
      ) : null}

      {!isAdmin && others.length ? (
        <section aria-labelledby="assignments-title" className="flex flex-col gap-3">
          <h2 id="assignments-title" className="text-lg font-semibold">
            {single
              ? 'Your other assignments on this questionnaire'
              : `You have ${assignments.length} questionnaires to answer`}
          </h2>
          <ul className="flex flex-col gap-3">
            {others.map((a) => (
              <li key={a.id} className="card flex flex-wrap items-center justify-between gap-3 p-4">
                <div>
                  <p className="font-semibold">
                    {a.relationship === 'self' ? 'About yourself' : `Feedback for ${a.subjectName}`}
                  </p>
                  <p className="text-sm text-slate-700">
                    {a.schemeName} · {statusText(a)} · due{' '}
                    <time dateTime={a.deadline.iso}>{a.deadline.label}</time>
                  </p>
                  {a.reopenReason ? (
                    <div className="mt-2">
                      <ReopenNotice reason={a.reopenReason} />
                    </div>
                  ) : null}
                </div>
                <Link to={hrefOf(a)} className="btn btn-secondary">
                  {actionLabel(a, true)}
                </Link>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </section>
  )
}
