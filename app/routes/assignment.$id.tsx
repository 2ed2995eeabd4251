import { data, isRouteErrorResponse, redirect, type ShouldRevalidateFunctionArgs } from 'react-router'
import type { Route } from './+types/assignment.$id'
import { readFormData } from '#app/lib/form-data.server'
import { changesNothingShown } from '#app/lib/revalidation'
import { getAnsweringView } from '#app/modules/assignment/answering-view.server'
import { useTranslation } from 'react-i18next'
import { getFixedT, languageOf } from '#app/modules/i18n/i18n.server'
import { clientT, metaT } from '#app/modules/i18n/meta'
import { saveAnswers, type SaveRefusal } from '#app/modules/assignment/save-answers.server'
import { AnswerForm } from '#app/modules/assignment/components/answer-form'
import type { AnswerActionData } from '#app/modules/assignment/components/answer-state'
import { AnsweringHeader } from '#app/modules/assignment/components/answering-header'
import { ReadOnlyAnswers } from '#app/modules/assignment/components/read-only-answers'
import { notFound, requireUser } from '#app/modules/auth/guards.server'
import { ROUTE_ROLES } from '#app/modules/auth/permissions'
import { redirectWithToast } from '#app/modules/toast/toast.server'
import type { RouteHandle } from '#app/root'

export const handle: RouteHandle = { layout: 'user', transition: true, i18n: 'answering' }

export const meta: Route.MetaFunction = ({ loaderData: d, matches }) => {
  if (!d) return [{ title: metaT(matches, 'answering:metaTitle') }]
  const title = d.assignment.questionnaireTitle
  const section = d.mode === 'answer' ? d.sections[d.current - 1] : undefined
  return [
    {
      title: section
        ? metaT(matches, 'answering:page.metaSection', {
            section: section.title,
            number: section.number,
            count: d.sections.length,
            title,
          })
        : metaT(
            matches,
            d.mode === 'submitted' ? 'answering:page.metaSubmitted' : 'answering:page.metaAnswers',
            {
              title,
            },
          ),
    },
  ]
}

/**
 * Answering: one section per step, a form that works without JavaScript (each button posts the
 * section and redirects to the next step), and with JavaScript an autosave that retries until the
 * server has the answers. Submitted answers, closed schemes and admins get a read-only view.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  const { user } = await requireUser(request, { roles: ROUTE_ROLES.assignment })
  const url = new URL(request.url)
  const view = await getAnsweringView(params.id, user, {
    section: url.searchParams.get('section'),
    showMissing: url.searchParams.has('missing'),
    confirmSubmit: url.searchParams.get('confirm') === 'submit',
    // The reader's language (ADR 050's rule, from the session already read): no statement of its own.
    language: languageOf(request, user),
  })
  return view ?? notFound()
}

export type { AnswerActionData }

/**
 * A refused save as HTTP: 'missing' saved the section (a 4xx would claim nothing changed); an
 * assignment that is not there (or not the viewer's) is the 404 page, as the loader answers.
 */
const REFUSAL_STATUS: Record<Exclude<SaveRefusal, 'not-found'>, 200 | 400 | 403 | 409> = {
  unreadable: 400,
  invalid: 400,
  missing: 200,
  admin: 403,
  closed: 409,
  'not-open': 409,
  submitted: 409,
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const { user } = await requireUser(request, { roles: ROUTE_ROLES.assignment })
  const formData = await readFormData(request)
  const outcome = await saveAnswers(
    params.id,
    { id: user.id, role: user.role, ip: context.ip || null },
    formData,
  )
  const here = `/assignment/${encodeURIComponent(params.id)}`

  if (outcome.kind === 'submitted') {
    throw redirect(`/user/thank-you?assignment=${outcome.assignmentId}`)
  }
  if (outcome.kind === 'refused') {
    if (outcome.reason === 'not-found') notFound()
    const { kind, reason, message, section, fieldErrors, values, missing } = outcome
    return data({ kind, reason, message, section, fieldErrors, values, missing } satisfies AnswerActionData, {
      status: REFUSAL_STATUS[reason],
    })
  }
  if (outcome.intent === 'review') {
    // "Submit answers" asks first: the last section again, with the confirmation where its buttons were.
    throw redirect(`${here}?section=${outcome.target}&confirm=submit#confirm-submit`)
  }
  if (outcome.intent === 'autosave') {
    return data({
      kind: 'saved',
      savedAt: outcome.savedAt,
      progress: outcome.progress,
    } satisfies AnswerActionData)
  }
  // Toasts in the reader's language: the page they land on need not load this one's words.
  const t = () => getFixedT(request, 'answering')
  if (outcome.intent === 'finish-later') {
    if (user.role === 'employee' && outcome.relationship === 'self') {
      const say = await t()
      throw await redirectWithToast('/user', {
        kind: 'success',
        title: say('toast.saved'),
        description: say('toast.comeBack', { section: outcome.target }),
      })
    }
    throw redirect(`/user/thank-you?later=1&assignment=${outcome.assignmentId}`)
  }
  const next = `${here}?section=${outcome.target}`
  if (outcome.intent === 'next' && outcome.missingInSection > 0) {
    const say = await t()
    throw await redirectWithToast(next, {
      kind: 'info',
      title: say('toast.savedOpen'),
      description: say('toast.missingInSection', {
        count: outcome.missingInSection,
        section: outcome.sectionTitle,
      }),
    })
  }
  if (outcome.intent === 'save') {
    throw await redirectWithToast(next, { kind: 'success', title: (await t())('toast.saved') })
  }
  throw redirect(next)
}

/**
 * In the browser the same action runs through here: a request that never got an answer (offline, a
 * dropped connection, a restarting server) comes back as data instead of the error page, so the
 * page and everything typed into it stay, and the autosave retries.
 */
export async function clientAction({ serverAction }: Route.ClientActionArgs): Promise<AnswerActionData> {
  try {
    return (await serverAction()) as AnswerActionData
  } catch (error) {
    // Redirects and the server's own answers (404) go on as usual.
    if (error instanceof Response || isRouteErrorResponse(error)) throw error
    return { kind: 'network', message: clientT('answering:page.network') }
  }
}

// An autosave changes nothing on the page but the status line: no need to reload the page's data
// (nor the root's: root.tsx asks the same).
export function shouldRevalidate({ formData, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  if (changesNothingShown(formData)) return false
  return defaultShouldRevalidate
}

export default function AssignmentPage({ loaderData, actionData }: Route.ComponentProps) {
  const view = loaderData
  const { t } = useTranslation('answering')
  return (
    <section aria-labelledby="page-title" className="flex max-w-3xl flex-col gap-6">
      <AnsweringHeader view={view} />
      {view.mode === 'answer' ? (
        view.sections.length ? (
          <AnswerForm key={view.current} view={view} actionData={actionData} />
        ) : (
          <div className="card">
            <p>{t('page.noQuestions')}</p>
          </div>
        )
      ) : (
        <ReadOnlyAnswers view={view} actionData={actionData} />
      )}
    </section>
  )
}
