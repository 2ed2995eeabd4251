import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import type { Route } from './+types/thank-you'
import { resultFor } from '#app/components/form-kit'
import { readFormData } from '#app/lib/form-data.server'
import { dispatchIntent, intent, passRetryAfter } from '#app/lib/reply.server'
import { requestReopen } from '#app/modules/response/reopen-request.server'
import { ReopenRequestSchema } from '#app/modules/response/reopen-request-schemas'
import { ReopenRequestCard, requestErrors } from '#app/modules/response/components/reopen-request-form'
import { FormErrors } from '#app/components/forms'
import { redirectWithToast } from '#app/modules/toast/toast.server'
import { getThankYou, type OpenAssignment } from '#app/modules/assignment/thank-you.server'
import { answersNeeded } from '#app/modules/report/threshold'
import { requireUser } from '#app/modules/auth/guards.server'
import { ROUTE_ROLES } from '#app/modules/auth/permissions'
import { ADDRESS_WORDING, ContactLinks, contactFor } from '#app/components/layouts'
import { getFixedT, requestLanguage } from '#app/modules/i18n/i18n.server'
import { intlLocale } from '#app/modules/i18n/languages'
import { metaT } from '#app/modules/i18n/meta'
import { richT } from '#app/modules/i18n/rich'
import { useRootData, type RouteHandle } from '#app/root'

export const handle: RouteHandle = { layout: 'user', transition: true, i18n: 'thank-you' }

export const meta: Route.MetaFunction = ({ loaderData: d, matches }) => [
  { title: metaT(matches, d?.later ? 'thank-you:metaTitle.later' : 'thank-you:metaTitle.done') },
]

/**
 * After submitting (or "save and finish later"): what happens next. An employee learns about
 * inviting colleagues and when the report becomes meaningful; a colleague learns that nothing more
 * is needed, and sees who to contact (the brand's links, else the portal's).
 */
export async function loader({ request }: Route.LoaderArgs) {
  const { user } = await requireUser(request, { roles: ROUTE_ROLES['user/thank-you'] })
  const url = new URL(request.url)
  const view = await getThankYou(
    { id: user.id, role: user.role as 'employee' | 'colleague' },
    url.searchParams.get('assignment'),
    intlLocale(await requestLanguage(request)),
  )
  // "Finish later" only makes sense for an assignment that is still open.
  const later = url.searchParams.get('later') === '1' && view.assignment?.status !== 'submitted'
  return { ...view, later }
}

// A refused request's Retry-After (the rate limit) reaches the browser.
export const headers: Route.HeadersFunction = passRetryAfter

/**
 * "I need to change my answers" (ADR 039): the respondent's own submitted assignment, while its
 * round is open; ownership is in the module's query (not theirs: 404).
 */
export async function action({ request, context }: Route.ActionArgs) {
  const { user } = await requireUser(request, { roles: ROUTE_ROLES['user/thank-you'] })
  const formData = await readFormData(request)
  const actor = { id: user.id, ip: context.ip || null }
  return dispatchIntent(formData, {
    'request-reopen': intent(
      ReopenRequestSchema,
      ({ assignmentId, note }) => requestReopen(actor, assignmentId, note),
      async (_, { assignmentId }) => {
        const t = await getFixedT(request, 'thank-you')
        return redirectWithToast(`/user/thank-you?assignment=${assignmentId}#change-answers`, {
          kind: 'success',
          title: t('toast.title'),
          description: t('toast.description'),
        })
      },
    ),
  })
}

export default function ThankYouPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation('thank-you')
  const { role, assignment, brand, scheme, open, later, reopen } = loaderData
  const root = useRootData()
  // The brand's own links win over the portal's; none configured at all → no contact section.
  const contact = contactFor(root?.publicEnv.contact ?? null, brand)
  const rater = assignment && assignment.relationship !== 'self'

  return (
    <section aria-labelledby="page-title" className="flex max-w-3xl flex-col gap-6">
      <div className="flex flex-col gap-2">
        <h1 id="page-title" className="text-2xl font-bold tracking-tight">
          {later ? t('title.later') : t('title.done')}
        </h1>
        {later && assignment ? (
          <p className="text-lg text-slate-800">
            {richT(t, rater ? 'comeBackRater' : 'comeBack', {
              deadline: <time dateTime={assignment.deadline.iso}>{assignment.deadline.label}</time>,
            })}
          </p>
        ) : assignment?.status === 'submitted' ? (
          <p className="text-lg text-slate-800">
            {rater ? t('submittedRater', { name: assignment.subjectName }) : t('submittedSelf')}
          </p>
        ) : null}
      </div>

      {later && assignment ? (
        <div>
          <Link to={`/assignment/${assignment.id}`} className="btn btn-primary">
            {t('continueNow')}
          </Link>
        </div>
      ) : null}

      {role === 'employee' && scheme && !later ? <EmployeeNextSteps scheme={scheme} /> : null}

      {role === 'colleague' && !later && assignment?.status === 'submitted' ? (
        <div className="card flex flex-col gap-2">
          <h2 className="text-lg font-semibold">{t('next')}</h2>
          <p className="text-slate-800">{t('raterNext', { name: assignment.subjectName })}</p>
          <p className="text-slate-700">{t('linkExpired')}</p>
        </div>
      ) : null}

      {assignment && reopen && !later ? (
        <ReopenRequestCard
          assignmentId={assignment.id}
          reopen={reopen}
          rater={Boolean(rater)}
          lastResult={resultFor(actionData, 'request-reopen')}
        />
      ) : (
        // A refused request about an assignment this page is not about (or no longer offers it for).
        <FormErrors errors={requestErrors(resultFor(actionData, 'request-reopen'))} />
      )}

      {open.length ? <OpenList open={open} /> : null}

      {role === 'colleague' && contact ? (
        <section aria-labelledby="contact-title" className="card flex flex-col gap-3">
          <h2 id="contact-title" className="text-lg font-semibold">
            {brand ? t('contactBrand', { brand: brand.name }) : t('contactUs')}
          </h2>
          <ContactLinks contact={contact} wording={ADDRESS_WORDING} />
        </section>
      ) : null}
    </section>
  )
}

type Scheme = NonNullable<Route.ComponentProps['loaderData']['scheme']>

function EmployeeNextSteps({ scheme }: { scheme: Scheme }) {
  const { t } = useTranslation('thank-you')
  const needed = answersNeeded(scheme.colleaguesSubmitted, scheme.minRaters)
  return (
    <div className="card flex flex-col gap-4">
      <h2 className="text-lg font-semibold">{t('next')}</h2>
      <ol className="flex list-decimal flex-col gap-3 pl-5 text-slate-800">
        <li>
          <p>
            {richT(
              t,
              'invite.text',
              { lead: <strong>{t('invite.lead')}</strong> },
              { invited: scheme.invited, max: scheme.maxColleagues, remaining: scheme.remaining },
            )}
          </p>
          {scheme.remaining && scheme.open ? (
            <Link to="/user/colleague-invite" className="btn btn-primary mt-2">
              {t('invite.button')}
            </Link>
          ) : null}
        </li>
        <li>
          <p>
            {richT(
              t,
              'report.text',
              { lead: <strong>{t('report.lead')}</strong> },
              { min: scheme.minRaters },
            )}{' '}
            {needed
              ? t('report.sofar', { answered: scheme.colleaguesSubmitted, needed })
              : t('report.enough', { answered: scheme.colleaguesSubmitted })}
          </p>
          {scheme.reportResponseId ? (
            <Link to={`/user/response-${scheme.reportResponseId}`} className="link mt-2 inline-block">
              {t('report.open')}
            </Link>
          ) : null}
        </li>
      </ol>
      <p>
        <Link to="/user" className="link">
          {t('back')}
        </Link>
      </p>
    </div>
  )
}

function OpenList({ open }: { open: OpenAssignment[] }) {
  const { t } = useTranslation('thank-you')
  return (
    <section aria-labelledby="open-title" className="card flex flex-col gap-3">
      <h2 id="open-title" className="text-lg font-semibold">
        {t('open.title', { count: open.length })}
      </h2>
      <ul className="flex flex-col gap-2">
        {open.map((o) => (
          <li key={o.id} className="flex flex-wrap items-center justify-between gap-3">
            <span>
              {richT(t, 'open.due', {
                what: o.relationship === 'self' ? t('open.self') : t('open.rater', { name: o.subjectName }),
                date: <time dateTime={o.deadline.iso}>{o.deadline.date}</time>,
              })}
            </span>
            <Link to={`/assignment/${o.id}`} className="btn btn-secondary">
              {o.status === 'in_progress' ? t('open.continue') : t('open.start')}
              <span className="sr-only">
                {o.relationship === 'self' ? t('open.selfSr') : t('open.raterSr', { name: o.subjectName })}
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  )
}
