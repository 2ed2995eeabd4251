import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react'
import {
  data,
  Form,
  isRouteErrorResponse,
  Link,
  redirect,
  useBeforeUnload,
  useFetcher,
  useNavigation,
  useSubmit,
  type ShouldRevalidateFunctionArgs,
} from 'react-router'
import type { Route } from './+types/assignment.$id'
import { ErrorList, FormErrors } from '#app/components/forms'
import { readFormData } from '#app/lib/form-data.server'
import {
  answerField,
  AUTOSAVE_DEBOUNCE_MS,
  autosaveRetryDelay,
  NOT_APPLICABLE,
  scaleLabel,
  scaleRange,
  TEXT_MAX,
  TEXTAREA_MAX,
} from '#app/modules/assignment/answer-schemas'
import {
  getAnsweringView,
  saveAnswers,
  type AnsweringView,
  type MissingSection,
  type ViewQuestion,
} from '#app/modules/assignment/answers.server'
import { requireUser } from '#app/modules/auth/guards.server'
import { ROUTE_ROLES } from '#app/modules/auth/permissions'
import { redirectWithToast } from '#app/modules/toast/toast.server'
import type { RouteHandle } from '#app/root'

export const handle: RouteHandle = { layout: 'user', transition: true }

export const meta: Route.MetaFunction = ({ loaderData: d }) => {
  if (!d) return [{ title: 'Questionnaire · Panorama' }]
  const title = d.assignment.questionnaireTitle
  const section = d.mode === 'answer' ? d.sections[d.current - 1] : undefined
  return [
    {
      title: section
        ? `${section.title} (section ${section.number} of ${d.sections.length}) · ${title} · Panorama`
        : `${d.mode === 'submitted' ? 'Your answers' : 'Answers'} · ${title} · Panorama`,
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
  return getAnsweringView(params.id, user, {
    section: url.searchParams.get('section'),
    showMissing: url.searchParams.has('missing'),
  })
}

export type AnswerActionData =
  | { kind: 'saved'; savedAt: string }
  | {
      kind: 'refused'
      reason: string
      message: string
      section?: number
      fieldErrors?: Record<string, string[]>
      values?: Record<string, string[]>
      missing?: MissingSection[]
    }
  | { kind: 'network'; message: string }

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
    const { kind, reason, message, section, fieldErrors, values, missing } = outcome
    return data({ kind, reason, message, section, fieldErrors, values, missing } satisfies AnswerActionData, {
      status: outcome.status,
    })
  }
  if (outcome.intent === 'autosave') {
    return data({ kind: 'saved', savedAt: outcome.savedAt } satisfies AnswerActionData)
  }
  if (outcome.intent === 'finish-later') {
    if (user.role === 'employee' && outcome.relationship === 'self') {
      throw await redirectWithToast('/user', {
        kind: 'success',
        title: 'Answers saved',
        description: `Come back any time before the deadline: you will continue at section ${outcome.target}.`,
      })
    }
    throw redirect(`/user/thank-you?later=1&assignment=${outcome.assignmentId}`)
  }
  const next = `${here}?section=${outcome.target}`
  if (outcome.intent === 'next' && outcome.missingInSection > 0) {
    throw await redirectWithToast(next, {
      kind: 'info',
      title: 'Saved, with questions left open',
      description:
        outcome.missingInSection === 1
          ? `One required question in “${outcome.sectionTitle}” is unanswered. You can come back to it before you submit.`
          : `${outcome.missingInSection} required questions in “${outcome.sectionTitle}” are unanswered. You can come back to them before you submit.`,
    })
  }
  if (outcome.intent === 'save') {
    throw await redirectWithToast(next, { kind: 'success', title: 'Answers saved' })
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
    return {
      kind: 'network',
      message:
        'Your answers could not be sent: the connection seems to be down. They are still here — try again.',
    }
  }
}

// An autosave changes nothing on the page but the status line: no need to reload the page's data.
export function shouldRevalidate({ formData, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  if (formData?.get('intent') === 'autosave') return false
  return defaultShouldRevalidate
}

export default function AssignmentPage({ loaderData, actionData }: Route.ComponentProps) {
  const view = loaderData
  return (
    <section aria-labelledby="page-title" className="flex max-w-3xl flex-col gap-6">
      <Header view={view} />
      {view.mode === 'answer' ? (
        view.sections.length ? (
          <AnswerForm key={view.current} view={view} actionData={actionData} />
        ) : (
          <div className="card">
            <p>This questionnaire has no questions yet. Please check back later.</p>
          </div>
        )
      ) : (
        <ReadOnlyAnswers view={view} actionData={actionData} />
      )}
    </section>
  )
}

function Header({ view }: { view: AnsweringView }) {
  const { assignment } = view
  const self = assignment.relationship === 'self'
  return (
    <div className="flex flex-col gap-2">
      <p className="text-sm font-medium text-slate-600">{assignment.schemeName}</p>
      <h1 id="page-title" className="text-2xl font-bold tracking-tight">
        {assignment.questionnaireTitle}
      </h1>
      <p className="text-slate-700">
        {self ? (
          'Your self-assessment: the questions are about you.'
        ) : (
          <>
            Your feedback for <strong>{assignment.subjectName}</strong>. They see it only together with other
            colleagues’ answers, never with your name.
          </>
        )}
      </p>
      {view.mode === 'answer' ? (
        <p className="text-sm text-slate-700">
          Please answer by <time dateTime={assignment.deadline.iso}>{assignment.deadline.label}</time>
          {assignment.timeLeft ? ` (${assignment.timeLeft})` : ''}.
        </p>
      ) : null}
    </div>
  )
}

// ---------------------------------------------------------------------------------------------
// Answering

type SaveStatus =
  | { state: 'idle' }
  | { state: 'dirty' }
  | { state: 'saving' }
  | { state: 'saved' }
  | { state: 'retrying'; inSeconds: number }
  | { state: 'invalid' }
  | { state: 'refused'; message: string }

function AnswerForm({ view, actionData }: { view: AnsweringView; actionData: AnswerActionData | undefined }) {
  const { assignment, sections, current } = view
  const section = sections[current - 1]!
  const last = current === sections.length
  const navigation = useNavigation()
  const busyIntent = navigation.state === 'submitting' ? navigation.formData?.get('intent') : null

  const formRef = useRef<HTMLFormElement>(null)
  const { status, errors: autosaveErrors, retryNow, beforeSubmit } = useAutosave(formRef)

  // A refusal of this very section puts the posted values back (the form works without JavaScript).
  const refusal = actionData?.kind === 'refused' ? actionData : undefined
  const networkError = actionData?.kind === 'network' ? actionData.message : undefined
  const postedValues = refusal?.section === current ? refusal.values : undefined
  const fieldErrors = refusal?.section === current ? refusal.fieldErrors : undefined

  return (
    <Form
      method="post"
      // The section rides in the URL too: after a refused post the page shows the same section again.
      action={`/assignment/${assignment.id}?section=${current}`}
      ref={formRef}
      id="answer-form"
      noValidate
      onSubmit={beforeSubmit}
      aria-labelledby="section-title"
      className="flex flex-col gap-6"
    >
      {/* Enter in a text box submits with the form's first button: make that a plain save. */}
      <button type="submit" name="intent" value="save" className="sr-only" tabIndex={-1} aria-hidden="true">
        Save
      </button>
      <input type="hidden" name="section" value={current} />

      <Progress sections={sections} current={current} />

      <FormErrors
        errors={[networkError, refusal && refusal.reason !== 'missing' ? refusal.message : undefined]}
      />
      {refusal?.reason === 'missing' && refusal.missing ? (
        <MissingList message={refusal.message} missing={refusal.missing} assignmentId={assignment.id} />
      ) : null}

      <div className="card flex flex-col gap-8">
        <div className="flex flex-col gap-1">
          <h2 id="section-title" className="text-xl font-semibold">
            {section.title}
          </h2>
          <p className="text-sm text-slate-600">
            Questions marked “Required” must be answered before you submit. You can save and come back to the
            others at any time.
          </p>
        </div>
        {view.questions.map((q) => (
          <QuestionField
            key={q.id}
            question={q}
            values={postedValues?.[q.id] ?? q.values}
            errors={
              fieldErrors?.[q.id] ??
              autosaveErrors?.[q.id] ??
              (q.missing ? ['Answer this question before you submit.'] : undefined)
            }
          />
        ))}
      </div>

      <SaveStatusLine status={status} onRetry={retryNow} />

      {last ? <SubmitSummary view={view} /> : null}

      <div className="flex flex-wrap items-center gap-3">
        {current > 1 ? (
          <button
            type="submit"
            name="intent"
            value="previous"
            className="btn btn-secondary"
            disabled={Boolean(busyIntent)}
          >
            ← Previous section
          </button>
        ) : null}
        <button
          type="submit"
          name="intent"
          value="finish-later"
          className="btn btn-secondary"
          disabled={Boolean(busyIntent)}
        >
          {busyIntent === 'finish-later' ? 'Saving…' : 'Save and finish later'}
        </button>
        <span className="flex-1" />
        {last ? (
          <button
            type="submit"
            name="intent"
            value="submit"
            className="btn btn-primary"
            disabled={Boolean(busyIntent)}
          >
            {busyIntent === 'submit' ? 'Submitting…' : 'Submit answers'}
          </button>
        ) : (
          <button
            type="submit"
            name="intent"
            value="next"
            className="btn btn-primary"
            disabled={Boolean(busyIntent)}
          >
            {busyIntent === 'next' ? 'Saving…' : 'Next section →'}
          </button>
        )}
      </div>
    </Form>
  )
}

function Progress({ sections, current }: { sections: AnsweringView['sections']; current: number }) {
  const total = sections.length
  const label = `Section ${current} of ${total}`
  return (
    <div className="flex flex-col gap-3">
      <div className="flex items-baseline justify-between gap-4">
        <p id="progress-label" className="text-sm font-semibold text-slate-800">
          {label}
        </p>
      </div>
      <div
        role="progressbar"
        aria-labelledby="progress-label"
        aria-valuemin={1}
        aria-valuemax={total}
        aria-valuenow={current}
        aria-valuetext={`${label}: ${sections[current - 1]?.title ?? ''}`}
        className="h-2 w-full overflow-hidden rounded-full bg-slate-200"
      >
        <div className="h-full rounded-full bg-indigo-700" style={{ width: `${(current / total) * 100}%` }} />
      </div>
      <nav aria-label="Sections">
        <ol className="flex flex-wrap gap-2">
          {sections.map((s) => {
            const isCurrent = s.number === current
            const done = s.questionCount > 0 && s.missingRequired === 0 && s.answered > 0
            return (
              <li key={s.number}>
                <button
                  type="submit"
                  name="intent"
                  value={`goto-${s.number}`}
                  aria-current={isCurrent ? 'step' : undefined}
                  className={`rounded-full border px-3 py-1 text-sm ${
                    isCurrent
                      ? 'border-indigo-700 bg-indigo-700 font-semibold text-white'
                      : done
                        ? 'border-emerald-700 bg-emerald-50 text-emerald-900'
                        : 'border-slate-300 bg-white text-slate-800 hover:bg-slate-100'
                  }`}
                >
                  {s.number}. {s.title}
                  {done && !isCurrent ? <span aria-hidden="true"> ✓</span> : null}
                  <span className="sr-only">
                    {done ? ' (complete)' : s.missingRequired ? ` (${s.missingRequired} required left)` : ''}
                  </span>
                </button>
              </li>
            )
          })}
        </ol>
      </nav>
    </div>
  )
}

function MissingList({
  message,
  missing,
  assignmentId,
}: {
  message: string
  missing: MissingSection[]
  assignmentId: string
}) {
  const heading = useRef<HTMLDivElement>(null)
  // Submitting failed: take keyboard and screen-reader users straight to the reason.
  useEffect(() => heading.current?.focus(), [])
  return (
    <div
      ref={heading}
      tabIndex={-1}
      role="alert"
      className="rounded-md border border-red-200 bg-red-50 p-4 text-sm text-red-900"
    >
      <p className="font-semibold">Not submitted yet. {message}</p>
      <ul className="mt-2 list-disc pl-5">
        {missing.map((s) => (
          <li key={s.number}>
            <Link
              className="link text-red-900"
              to={`/assignment/${assignmentId}?section=${s.number}&missing=1`}
            >
              {`Section ${s.number}: ${s.title}`}
            </Link>
            {` — ${s.count === 1 ? '1 required question' : `${s.count} required questions`}`}
          </li>
        ))}
      </ul>
    </div>
  )
}

function SubmitSummary({ view }: { view: AnsweringView }) {
  const { totals, sections, assignment } = view
  const open = sections.filter((s) => s.missingRequired > 0)
  return (
    <div className="card flex flex-col gap-2 bg-slate-50">
      <h2 className="text-lg font-semibold">Ready to submit?</h2>
      <p className="text-slate-700">
        Saved so far: {totals.answered} of {totals.questions} questions answered. Once submitted, your answers
        can no longer be changed.
      </p>
      {open.length ? (
        <p className="text-slate-700">
          Required questions left open when you last saved:{' '}
          {open.map((s, i) => (
            <span key={s.number}>
              {i ? ', ' : ''}
              <Link
                className="link underline"
                to={`/assignment/${assignment.id}?section=${s.number}&missing=1`}
              >
                {s.title} ({s.missingRequired})
              </Link>
            </span>
          ))}
          .
        </p>
      ) : null}
    </div>
  )
}

function SaveStatusLine({ status, onRetry }: { status: SaveStatus; onRetry: () => void }) {
  const text =
    status.state === 'saving'
      ? 'Saving…'
      : status.state === 'saved'
        ? 'All changes saved'
        : status.state === 'dirty'
          ? 'Unsaved changes…'
          : status.state === 'retrying'
            ? 'Not saved — retrying'
            : status.state === 'invalid'
              ? 'Not saved — check the answers marked below'
              : status.state === 'refused'
                ? `Not saved — ${status.message}`
                : 'Your answers are saved each time you change section.'
  const problem = status.state === 'retrying' || status.state === 'invalid' || status.state === 'refused'
  return (
    <div className="flex flex-wrap items-center gap-3 text-sm">
      <p role="status" aria-live="polite" className={problem ? 'font-medium text-red-800' : 'text-slate-700'}>
        {text}
      </p>
      {status.state === 'retrying' ? (
        // The countdown is for the eye only: a live region ticking every second would never stop talking.
        <span aria-hidden="true" className="text-red-800">
          in {status.inSeconds} s
        </span>
      ) : null}
      {status.state === 'retrying' ? (
        <button type="button" className="link text-sm" onClick={onRetry}>
          Retry now
        </button>
      ) : null}
    </div>
  )
}

/**
 * Debounced autosave through a fetcher. Each save posts the whole section as it is now, so a retry
 * or a later save always carries the newest answers and nothing typed is ever dropped: it stays in
 * the form until a save succeeds (and the step buttons post it too).
 */
function useAutosave(formRef: React.RefObject<HTMLFormElement | null>) {
  const fetcher = useFetcher<AnswerActionData>()
  const { submit } = fetcher
  const [status, setStatus] = useState<SaveStatus>({ state: 'idle' })
  const [errors, setErrors] = useState<Record<string, string[]> | undefined>()
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined)
  const countdown = useRef<ReturnType<typeof setInterval> | undefined>(undefined)
  const failures = useRef(0)
  const dirty = useRef(false)
  const inFlight = useRef(false)
  const stopped = useRef(false)
  const queuedIntent = useRef<string | null>(null)
  const submitForm = useSubmit()

  const clearTimers = useCallback(() => {
    clearTimeout(timer.current)
    clearInterval(countdown.current)
  }, [])

  const saveNow = useCallback(() => {
    clearTimers()
    const form = formRef.current
    if (!form || stopped.current) return
    // One save at a time: a second would abort the first; the newest answers follow when it returns.
    if (inFlight.current) return
    dirty.current = false
    inFlight.current = true
    const formData = new FormData(form)
    formData.set('intent', 'autosave')
    setStatus({ state: 'saving' })
    void submit(formData, { method: 'post' })
  }, [clearTimers, submit, formRef])

  // Watch the form for changes (event delegation: the inputs stay uncontrolled).
  useEffect(() => {
    const form = formRef.current
    if (!form) return
    const onChange = () => {
      if (stopped.current) return
      dirty.current = true
      setStatus((s) => (s.state === 'saving' || s.state === 'retrying' ? s : { state: 'dirty' }))
      if (inFlight.current || failures.current) return
      clearTimeout(timer.current)
      timer.current = setTimeout(saveNow, AUTOSAVE_DEBOUNCE_MS)
    }
    form.addEventListener('input', onChange)
    form.addEventListener('change', onChange)
    return () => {
      form.removeEventListener('input', onChange)
      form.removeEventListener('change', onChange)
    }
  }, [formRef, saveNow])

  // A save came back.
  useEffect(() => {
    if (fetcher.state !== 'idle' || !inFlight.current) return
    inFlight.current = false
    const form = formRef.current
    if (queuedIntent.current && form) {
      // A step button was pressed while this save was under way: its post goes now, with the newest answers.
      const formData = new FormData(form)
      formData.set('intent', queuedIntent.current)
      queuedIntent.current = null
      void submitForm(formData, { method: 'post', action: form.getAttribute('action') ?? undefined })
      return
    }
    const result = fetcher.data
    if (result?.kind === 'saved') {
      failures.current = 0
      setErrors(undefined)
      if (dirty.current) {
        setStatus({ state: 'dirty' })
        timer.current = setTimeout(saveNow, AUTOSAVE_DEBOUNCE_MS)
      } else setStatus({ state: 'saved' })
      return
    }
    if (result?.kind === 'refused') {
      if (result.reason === 'invalid') {
        setErrors(result.fieldErrors)
        setStatus({ state: 'invalid' })
        return
      }
      // Submitted elsewhere, or the scheme closed: retrying cannot help.
      stopped.current = true
      setStatus({ state: 'refused', message: result.message })
      return
    }
    // No answer (network) or an unreadable one: try again later with whatever the form holds then.
    failures.current += 1
    const wait = autosaveRetryDelay(failures.current)
    const due = Date.now() + wait
    setStatus({ state: 'retrying', inSeconds: Math.ceil(wait / 1000) })
    clearTimers()
    countdown.current = setInterval(() => {
      setStatus({ state: 'retrying', inSeconds: Math.max(1, Math.ceil((due - Date.now()) / 1000)) })
    }, 1000)
    timer.current = setTimeout(saveNow, wait)
  }, [fetcher.state, fetcher.data, saveNow, clearTimers, formRef, submitForm])

  useEffect(() => clearTimers, [clearTimers])

  // Leaving while a save is failing would lose answers: let the browser ask first.
  useBeforeUnload(
    useCallback(
      (event: BeforeUnloadEvent) => {
        if (status.state === 'retrying') event.preventDefault()
      },
      [status.state],
    ),
  )

  /**
   * The form's own submit carries every answer, so pending autosaves are dropped. One already on its
   * way is waited for: were the step's post to overtake it, the older answers would land last.
   */
  const beforeSubmit = useCallback(
    (event: FormEvent<HTMLFormElement>) => {
      clearTimers()
      dirty.current = false
      if (!inFlight.current) return
      event.preventDefault()
      const submitter = (event.nativeEvent as SubmitEvent).submitter
      queuedIntent.current =
        submitter instanceof HTMLButtonElement && submitter.name === 'intent' ? submitter.value : 'save'
      setStatus({ state: 'saving' })
    },
    [clearTimers],
  )

  return { status, errors, retryNow: saveNow, beforeSubmit }
}

// ---------------------------------------------------------------------------------------------
// One question

function QuestionField({
  question: q,
  values,
  errors,
}: {
  question: ViewQuestion
  values: string[]
  errors: string[] | undefined
}) {
  const name = answerField(q.id)
  const baseId = `q-${q.id}`
  const errorId = errors?.length ? `${baseId}-error` : undefined
  const helpId = `${baseId}-help`
  const legend = (
    <>
      <span className="text-slate-500">{q.number}. </span>
      {q.text}
      {q.required ? (
        <span className="ml-2 rounded bg-slate-100 px-1.5 py-0.5 align-middle text-xs font-semibold text-slate-700">
          Required
        </span>
      ) : null}
    </>
  )

  if (q.kind === 'text' || q.kind === 'textarea') {
    const limit = q.kind === 'text' ? TEXT_MAX : TEXTAREA_MAX
    const common = {
      id: baseId,
      name,
      defaultValue: values[0] ?? '',
      maxLength: limit,
      'aria-required': q.required || undefined,
      'aria-invalid': errorId ? true : undefined,
      'aria-describedby': [helpId, errorId].filter(Boolean).join(' '),
      className: 'input',
    } as const
    return (
      <div className="flex flex-col gap-2">
        <label htmlFor={baseId} className="font-medium text-slate-900">
          {legend}
        </label>
        {q.kind === 'text' ? <input type="text" {...common} /> : <textarea rows={6} {...common} />}
        <p id={helpId} className="text-sm text-slate-600">
          Up to {limit.toLocaleString('en-GB')} characters.
        </p>
        <ErrorList id={errorId} errors={errors} />
      </div>
    )
  }

  const options: Array<{ value: string; label: string; hint?: string }> =
    q.kind === 'scale'
      ? [
          ...range(scaleRange(q.options)).map((n) => ({
            value: String(n),
            label: String(n),
            hint: scaleLabel(q.options, n),
          })),
          ...(q.options.allowNa ? [{ value: NOT_APPLICABLE, label: 'Not applicable' }] : []),
        ]
      : (q.options.labels ?? []).map((l) => ({ value: l, label: l }))
  const type = q.kind === 'multi' ? 'checkbox' : 'radio'
  return (
    <fieldset
      role={type === 'radio' ? 'radiogroup' : 'group'}
      aria-required={type === 'radio' && q.required ? true : undefined}
      aria-invalid={errorId ? true : undefined}
      aria-describedby={errorId}
      className="flex flex-col gap-3"
    >
      <legend className="mb-2 font-medium text-slate-900">{legend}</legend>
      {q.kind === 'multi' ? <p className="-mt-2 text-sm text-slate-600">Choose all that apply.</p> : null}
      <div className={q.kind === 'scale' ? 'flex flex-wrap gap-2' : 'flex flex-col gap-2'}>
        {options.map((o) => {
          const id = `${baseId}-${o.value.replace(/[^A-Za-z0-9_-]/g, '_')}-${options.indexOf(o)}`
          return (
            <label
              key={o.value}
              htmlFor={id}
              className={`flex cursor-pointer items-center gap-2 rounded-md border border-slate-300 bg-white px-3 py-2 text-sm hover:border-indigo-700 has-[:checked]:border-indigo-700 has-[:checked]:bg-indigo-50 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-indigo-700 ${
                q.kind === 'scale' ? 'min-w-[5.5rem] flex-col text-center' : ''
              }`}
            >
              <input
                id={id}
                type={type}
                name={name}
                value={o.value}
                defaultChecked={values.includes(o.value)}
                className="h-4 w-4 accent-indigo-700"
              />
              <span className={q.kind === 'scale' && o.value !== NOT_APPLICABLE ? 'font-semibold' : ''}>
                {o.label}
              </span>
              {o.hint ? (
                <span className="text-xs text-slate-700">
                  {/* Read as "4 – Often", as the read-only view writes it. */}
                  <span className="sr-only">{' – '}</span>
                  {o.hint}
                </span>
              ) : null}
            </label>
          )
        })}
      </div>
      <ErrorList id={errorId} errors={errors} />
    </fieldset>
  )
}

function range({ min, max }: { min: number; max: number }) {
  return Array.from({ length: Math.min(max - min + 1, 21) }, (_, i) => min + i)
}

// ---------------------------------------------------------------------------------------------
// Read-only

function answerText(q: ViewQuestion): string {
  const a = q.answer
  if (!a) return 'No answer'
  if (a.notApplicable) return 'Not applicable'
  if (a.numericValue !== null) {
    const label = scaleLabel(q.options, a.numericValue)
    return label ? `${a.numericValue} – ${label}` : String(a.numericValue)
  }
  if (a.choices?.length) return a.choices.join(', ')
  return a.textValue ?? 'No answer'
}

function ReadOnlyAnswers({
  view,
  actionData,
}: {
  view: AnsweringView
  actionData: AnswerActionData | undefined
}) {
  const warning = view.mode === 'closed' || view.mode === 'not-open'
  return (
    <>
      {/* A post that arrived anyway (a stale tab, a replayed form) says why nothing changed. */}
      <FormErrors errors={[actionData && actionData.kind !== 'saved' ? actionData.message : undefined]} />
      {view.notice ? (
        <div
          role={warning ? 'alert' : 'status'}
          className={`rounded-md border p-4 ${
            warning
              ? 'border-amber-300 bg-amber-50 text-amber-950'
              : 'border-emerald-200 bg-emerald-50 text-emerald-950'
          }`}
        >
          <p>{view.notice}</p>
          {view.assignment.submittedAt ? (
            <p className="mt-1 text-sm">
              Submitted on{' '}
              <time dateTime={view.assignment.submittedAt.iso}>{view.assignment.submittedAt.label}</time>.
            </p>
          ) : null}
        </div>
      ) : null}
      {view.sections.map((s) => (
        <section key={s.number} aria-labelledby={`section-${s.number}`} className="card flex flex-col gap-4">
          <h2 id={`section-${s.number}`} className="text-lg font-semibold">
            {s.number}. {s.title}
          </h2>
          <dl className="flex flex-col gap-4">
            {view.questions
              .filter((q) => q.section === s.number)
              .map((q) => (
                <div key={q.id} className="flex flex-col gap-1">
                  <dt className="font-medium text-slate-900">
                    {q.number}. {q.text}
                  </dt>
                  <dd
                    className={`whitespace-pre-wrap ${q.answer ? 'text-slate-800' : 'italic text-slate-600'}`}
                  >
                    {answerText(q)}
                  </dd>
                </div>
              ))}
          </dl>
        </section>
      ))}
    </>
  )
}
