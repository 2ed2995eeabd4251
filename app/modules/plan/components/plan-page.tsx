import { useRef, useState, type ReactNode } from 'react'
import { Form, Link } from 'react-router'
import { useTranslation } from 'react-i18next'
import { formatDate } from '#app/lib/dates'
import { useIntlLocale } from '#app/modules/i18n/use-intl-locale'
import { ErrorList, FormErrors } from '#app/components/forms'
import type { FormResult } from '#app/components/form-kit'
import { SaveStatusLine } from '#app/modules/assignment/components/save-status'
import { useAutosave } from '#app/modules/assignment/components/use-autosave'
import type { FocusArea } from '../plan.server'
import type { PlanPage as PlanPageData } from '../plan-page.server'
import { ACTIONS_MAX, focusTitle, MAX_FOCUS_AREAS, SUPPORT_MAX } from '../words'
import { FOCUS_STANCES } from '#db/enums'

/** What the plan route's action may answer the page with (besides a redirect). */
export type PlanActionData = { intent: string; result: FormResult } | { kind: string } | undefined

function errorsOf(result: FormResult, name: string) {
  return result?.error?.[name] ?? undefined
}

const noop = () => undefined

/**
 * The employee's development plan (issue 19 §1, ADR 043): one to three focus areas chosen from their
 * released report, each with actions, support needed and a check-in date; autosaved as they type
 * (the answering page's autosave, use-autosave.ts), with a plain "Save plan" that works without
 * JavaScript. Beside it, sharing with the manager and with the coach.
 */
export function PlanPage({ page, actionData }: { page: PlanPageData; actionData: PlanActionData }) {
  const { context } = page
  const result = actionData && 'intent' in actionData ? actionData : undefined
  const resultOf = (intent: string) => (result?.intent === intent ? result.result : undefined)
  const reportHref = `/user/response-${context.responseId}`
  const { t } = useTranslation('plan')
  return (
    <section aria-labelledby="page-title" className="flex max-w-4xl flex-col gap-6">
      <div>
        <p className="text-sm font-semibold uppercase tracking-wide text-slate-700">{context.schemeName}</p>
        <h1 id="page-title" className="text-2xl font-bold tracking-tight">
          {t('page.title')}
        </h1>
        <p className="mt-1 text-slate-700">{t('page.lead')}</p>
        <p className="mt-2">
          <Link className="link" to={reportHref}>
            {t('page.backToReport')}
          </Link>
        </p>
      </div>
      {context.ready ? (
        <>
          <FormErrors id="plan-errors" errors={formLevel(result?.result)} />
          <PlanForm
            key={context.areas.map((a) => a.id).join()}
            areas={context.areas}
            today={context.today}
            result={resultOf('save')}
          />
          {context.areas.length < MAX_FOCUS_AREAS ? (
            <AddFocusCard options={page.options} chosen={context.areas} result={resultOf('add')} />
          ) : (
            <p className="text-sm text-slate-700">{t('page.full', { max: MAX_FOCUS_AREAS })}</p>
          )}
          <ShareCard page={page} />
        </>
      ) : (
        <div role="status" className="card border-sky-300 bg-sky-50">
          <h2 className="text-lg font-semibold">{t('page.notYetTitle')}</h2>
          <p className="mt-2">{t('page.notYet')}</p>
        </div>
      )}
    </section>
  )
}

function formLevel(result: FormResult) {
  const list = result?.error?.[''] ?? undefined
  return list?.length ? list : undefined
}

function PlanForm({ areas, today, result }: { areas: FocusArea[]; today: string; result: FormResult }) {
  const formRef = useRef<HTMLFormElement>(null)
  const { status, errors, retryNow, beforeSubmit } = useAutosave(formRef, noop)
  const fieldErrors = (name: string) => errors?.[name] ?? errorsOf(result, name)
  const { t } = useTranslation('plan')
  if (!areas.length)
    return (
      <div className="card">
        <h2 className="text-lg font-semibold">{t('page.noAreasTitle')}</h2>
        <p className="mt-2 text-slate-700">{t('page.noAreas')}</p>
      </div>
    )
  return (
    <>
      <Form
        method="post"
        ref={formRef}
        onSubmit={beforeSubmit}
        className="flex flex-col gap-4"
        aria-label={t('page.areasLabel')}
      >
        {areas.map((area, i) => (
          <FocusAreaFields key={area.id} area={area} index={i} today={today} errors={fieldErrors} />
        ))}
        <div className="flex flex-wrap items-center gap-4">
          <button type="submit" name="intent" value="save" className="btn btn-primary">
            {t('page.save')}
          </button>
          {status.state === 'idle' ? (
            <p role="status" aria-live="polite" className="text-sm text-slate-700">
              {t('page.savedAsYouType')}
            </p>
          ) : (
            <SaveStatusLine status={status} onRetry={retryNow} />
          )}
        </div>
      </Form>
      {/* Remove buttons post their own forms (a form cannot hold another): each button names its form. */}
      {areas.map((area) => (
        <Form key={area.id} method="post" id={`remove-${area.id}`} hidden>
          <input type="hidden" name="intent" value="remove" />
          <input type="hidden" name="id" value={area.id} />
        </Form>
      ))}
    </>
  )
}

function FocusAreaFields({
  area,
  index,
  today,
  errors,
}: {
  area: FocusArea
  index: number
  today: string
  errors: (name: string) => string[] | undefined
}) {
  const name = (field: string) => `areas[${index}].${field}`
  const id = (field: string) => `area-${area.id}-${field}`
  const titleId = id('title')
  /** A field's errors, and the attributes its control carries (id, name, invalid, described by). */
  const field = (f: string) => {
    const list = errors(name(f))
    const describedBy = list?.length ? `${id(f)}-error` : undefined
    const control = {
      id: id(f),
      name: name(f),
      'aria-invalid': list?.length ? true : undefined,
      'aria-describedby': describedBy,
    }
    return { list, describedBy, control }
  }
  const actions = field('actions')
  const support = field('support')
  const target = field('targetDate')
  const stance = field('stance')
  const { t } = useTranslation('plan')
  const title = focusTitle(area)
  return (
    <fieldset aria-labelledby={titleId} className="card flex min-w-0 flex-col gap-4">
      <input type="hidden" name={name('id')} value={area.id} />
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <h2 id={titleId} className="text-lg font-semibold break-words">
            {`${index + 1}. ${title}`}
          </h2>
          <p className="text-sm text-slate-700">
            {area.kind === 'question'
              ? t('page.question', { category: area.category })
              : t('page.competency')}
          </p>
        </div>
        <button
          type="submit"
          form={`remove-${area.id}`}
          className="btn btn-secondary"
          aria-label={t('page.removeLabel', { title })}
        >
          {t('page.remove')}
        </button>
      </div>
      <div
        role="radiogroup"
        aria-label={t('page.stanceLabel', { title })}
        aria-describedby={stance.describedBy}
        className="flex flex-wrap gap-4"
      >
        {FOCUS_STANCES.map((s) => (
          <label key={s} className="flex items-center gap-2">
            <input type="radio" name={name('stance')} value={s} defaultChecked={area.stance === s} />
            {t(`stance.${s}`)}
          </label>
        ))}
      </div>
      <ErrorList id={stance.describedBy} errors={stance.list} />
      <Labelled label={t('page.actions')} field={actions}>
        <textarea
          {...actions.control}
          className="input"
          rows={4}
          maxLength={ACTIONS_MAX}
          defaultValue={area.actions}
        />
      </Labelled>
      <Labelled label={t('page.support')} field={support}>
        <textarea
          {...support.control}
          className="input"
          rows={2}
          maxLength={SUPPORT_MAX}
          defaultValue={area.support}
        />
      </Labelled>
      <Labelled label={t('page.checkIn')} field={target}>
        <input
          {...target.control}
          type="date"
          className="input sm:max-w-xs"
          min={area.targetDate && area.targetDate < today ? area.targetDate : today}
          defaultValue={area.targetDate ?? ''}
        />
      </Labelled>
    </fieldset>
  )
}

function Labelled({
  label,
  field,
  children,
}: {
  label: string
  /** The field's errors and its control's attributes (AreaFields' `field`). */
  field: { list: string[] | undefined; describedBy: string | undefined; control: { id: string } }
  children: ReactNode
}) {
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={field.control.id} className="label">
        {label}
      </label>
      {children}
      <ErrorList id={field.describedBy} errors={field.list} />
    </div>
  )
}

function AddFocusCard({
  options,
  chosen,
  result,
}: {
  options: PlanPageData['options']
  chosen: FocusArea[]
  result: FormResult
}) {
  const taken = new Set(
    chosen.map((a) => (a.kind === 'question' ? `question:${a.questionId}` : `category:${a.category}`)),
  )
  const groups: string[] = []
  for (const o of options) if (!groups.includes(o.group)) groups.push(o.group)
  const [value, setValue] = useState('')
  const focusErrors = errorsOf(result, 'focus')
  const errorId = focusErrors?.length ? 'focus-error' : undefined
  const { t } = useTranslation('plan')
  return (
    <section aria-labelledby="add-focus-title" className="card flex flex-col gap-4">
      <h2 id="add-focus-title" className="text-lg font-semibold">
        {t('add.title')}
      </h2>
      <Form method="post" className="flex flex-col gap-4">
        <input type="hidden" name="intent" value="add" />
        <div className="flex flex-col gap-1">
          <label htmlFor="focus" className="label">
            {t('add.focus')}
          </label>
          <select
            id="focus"
            name="focus"
            className="input"
            value={value}
            onChange={(e) => setValue(e.target.value)}
            aria-invalid={errorId ? true : undefined}
            aria-describedby={errorId}
            required
          >
            <option value="">{t('add.choose')}</option>
            {groups.map((g) => (
              <optgroup key={g} label={g}>
                {options
                  .filter((o) => o.group === g && !taken.has(o.value))
                  .map((o) => (
                    <option key={o.value} value={o.value}>
                      {o.label}
                    </option>
                  ))}
              </optgroup>
            ))}
          </select>
          <ErrorList id={errorId} errors={focusErrors} />
        </div>
        <fieldset className="flex flex-col gap-2">
          <legend className="label">{t('add.itIs')}</legend>
          <div className="flex flex-wrap gap-4">
            {FOCUS_STANCES.map((s) => (
              <label key={s} className="flex items-center gap-2">
                <input type="radio" name="stance" value={s} defaultChecked={s === 'develop'} />
                {t(`stance.${s}`)}
              </label>
            ))}
          </div>
        </fieldset>
        <div>
          <button type="submit" className="btn btn-secondary">
            {t('add.submit')}
          </button>
        </div>
      </Form>
    </section>
  )
}

function ShareCard({ page }: { page: PlanPageData }) {
  const { context } = page
  const { manager, share } = context
  const live = share?.stillManager ? share : null
  const { t } = useTranslation('plan')
  const locale = useIntlLocale()
  const dateOf = (iso: string) => formatDate(iso, context.timeZone, locale)
  return (
    <section aria-labelledby="share-title" className="card flex flex-col gap-4">
      <h2 id="share-title" className="text-lg font-semibold">
        {t('share.title')}
      </h2>
      {context.managerSeesReport ? (
        <p className="rounded-md border border-amber-300 bg-amber-50 p-3 text-amber-950">
          {t('share.managerSees', {
            scheme: context.schemeName,
            hasManager: manager ? 'yes' : 'no',
            manager: manager?.name ?? '',
          })}
        </p>
      ) : null}
      {share && !share.stillManager ? (
        <p>{t('share.formerManager', { name: share.managerName, date: dateOf(share.grantedIso) })}</p>
      ) : null}
      {live ? (
        <p role="status" className="font-medium">
          {t('share.live', {
            name: live.managerName,
            date: dateOf(live.grantedIso),
            plan: live.includePlan ? 'yes' : 'no',
          })}
        </p>
      ) : null}
      {manager ? (
        <Form method="post" className="flex flex-col gap-3">
          <input type="hidden" name="intent" value="share" />
          <p className="text-slate-800">{t('share.offer', { name: manager.name })}</p>
          <label className="flex items-center gap-2">
            <input
              type="checkbox"
              name="includePlan"
              value="on"
              defaultChecked={live ? live.includePlan : true}
            />
            {t('share.includePlan')}
          </label>
          <div className="flex flex-wrap gap-3">
            <button type="submit" className="btn btn-primary">
              {live ? t('share.update') : t('share.shareWith', { name: manager.name })}
            </button>
          </div>
        </Form>
      ) : (
        <p>{t('share.noManager')}</p>
      )}
      {share ? (
        <Form method="post">
          <input type="hidden" name="intent" value="revoke" />
          <button type="submit" className="btn btn-secondary">
            {t('share.stop')}
          </button>
        </Form>
      ) : null}
      <h3 className="mt-2 font-semibold">{t('share.coachTitle')}</h3>
      <Form method="post" className="flex flex-col gap-3">
        <input type="hidden" name="intent" value="coach" />
        <input type="hidden" name="share" value={context.sharedWithCoach ? 'off' : 'on'} />
        <p className="text-slate-800">
          {context.sharedWithCoach ? t('share.coachShared') : t('share.coachNotShared')}
        </p>
        <div>
          <button type="submit" className="btn btn-secondary" disabled={!context.hasPlan}>
            {context.sharedWithCoach ? t('share.coachStop') : t('share.coachShare')}
          </button>
        </div>
      </Form>
    </section>
  )
}
