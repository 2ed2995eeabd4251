import { getInputProps, type FieldMetadata } from '@conform-to/react'
import { useEffect, useState } from 'react'
import { Link } from 'react-router'
import { useConformForm, type FormResult } from '#app/components/form-kit'
import { ConformField, ConformSelect, IntentForm, SubmitButton } from '#app/components/form-parts'
import { ErrorList, FormErrors } from '#app/components/forms'
import { choicesOf } from '#app/components/choices'
import { REPORT_RELEASES } from '#db/enums'
import { MAX_COLLEAGUES } from '#app/config/constants'
import {
  MIN_RATERS_MAX,
  REMINDER_CADENCE_MAX,
  REPORT_RELEASE_LABELS,
  SchemeCreateSchema,
  SchemeExtendSchema,
  SchemeReopenSchema,
  SchemeUpdateSchema,
} from '#app/modules/scheme/schemas'

/**
 * The scheme forms: create and edit share their fields; extend and reopen take a new closing time.
 * Dates are wall-clock times in the scheme's own time zone (datetime-local inputs), and the zone is
 * typed by its IANA name, with suggestions once JavaScript runs (a list of 400 zones is not worth
 * sending in every page's HTML).
 */

export type SchemeOptions = {
  companies: Array<{ id: string; name: string }>
  questionnaires: Array<{ id: string; title: string }>
}

export type SchemeValues = {
  name: string
  companyId: string
  questionnaireId: string
  timeZone: string
  opensAt: string
  closesAt: string
  maxColleagues: number
  minRaters: number
  reminderCadenceDays: number
  reportRelease: string
  showManagerBelowThreshold: boolean
  minManager: number
  minPeer: number
  minDirectReport: number
  minOther: number
}

type Fields = {
  [K in keyof SchemeValues]: FieldMetadata<string | number, Record<string, unknown>, string[]>
}

/** The browser's zones as suggestions, its own first; nothing before hydration. */
function TimeZoneSuggestions({ id }: { id: string }) {
  const [zones, setZones] = useState<string[]>([])
  useEffect(() => {
    const own = Intl.DateTimeFormat().resolvedOptions().timeZone
    const all = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : []
    setZones([own, 'UTC', ...all.filter((z) => z !== own && z !== 'UTC')])
  }, [])
  return (
    <datalist id={id}>
      {zones.map((z) => (
        <option key={z} value={z} />
      ))}
    </datalist>
  )
}

function SchemeFields({
  formId,
  fields,
  options,
  locked,
}: {
  formId: string
  fields: Fields
  options: SchemeOptions
  locked: { company?: string | null; questionnaire?: string | null }
}) {
  const zoneList = `${formId}-zones`
  return (
    <>
      <ConformField
        className="flex flex-col gap-1 sm:col-span-2"
        label="Scheme name"
        meta={fields.name}
        autoComplete="off"
      />
      <ConformSelect
        label="Company"
        meta={fields.companyId}
        options={choicesOf(options.companies)}
        placeholder="Choose a company…"
        help={locked.company ?? 'Its employees are the ones who can be enrolled.'}
        disabled={Boolean(locked.company)}
      />
      {/* A disabled select is not posted: the fixed value travels in a hidden field. */}
      {locked.company ? (
        <input type="hidden" name="companyId" value={String(fields.companyId.initialValue ?? '')} />
      ) : null}
      <ConformSelect
        label="Questionnaire"
        meta={fields.questionnaireId}
        options={options.questionnaires.map((q) => ({ value: q.id, label: q.title }))}
        placeholder="Choose a published questionnaire…"
        help={locked.questionnaire ?? 'Only published questionnaires can be used.'}
        disabled={Boolean(locked.questionnaire)}
      />
      {locked.questionnaire ? (
        <input
          type="hidden"
          name="questionnaireId"
          value={String(fields.questionnaireId.initialValue ?? '')}
        />
      ) : null}
      <ConformField
        label="Time zone"
        meta={fields.timeZone}
        help="The zone the dates below are meant in, by its IANA name (Europe/London, America/New_York)."
        list={zoneList}
        autoComplete="off"
        spellCheck={false}
      />
      <TimeZoneSuggestions id={zoneList} />
      <div className="hidden sm:block" />
      <ConformField
        label="Opens"
        meta={fields.opensAt}
        type="datetime-local"
        help="E-mails go out at this time when the scheme is launched before it."
      />
      <ConformField label="Closes" meta={fields.closesAt} type="datetime-local" />
      <ConformField
        label="Most colleagues each employee may invite"
        meta={fields.maxColleagues}
        type="number"
        help={`From 1 to ${MAX_COLLEAGUES}. Lowering it keeps invitations already sent.`}
      />
      <ConformField
        label="Colleague answers needed before a report shows them"
        meta={fields.minRaters}
        type="number"
        help={`From 1 to ${MIN_RATERS_MAX}: fewer answers could be traced to a person.`}
      />
      <ConformField
        label="Days between reminders"
        meta={fields.reminderCadenceDays}
        type="number"
        help={`From 0 (no reminders) to ${REMINDER_CADENCE_MAX}.`}
      />
      <ConformSelect
        label="Reports show colleagues’ answers"
        meta={fields.reportRelease}
        options={REPORT_RELEASES.map((r) => ({ value: r, label: REPORT_RELEASE_LABELS[r] }))}
        placeholder="Choose…"
      />
      <fieldset className="flex flex-col gap-3 sm:col-span-2">
        <legend className="label">Fewest colleagues each employee should invite, per group</legend>
        <p className="text-sm text-slate-700">
          Employees see, while they invite, which groups are still short. Direct reports count only for people
          with direct reports recorded. 0 asks for none; together at most the number above.
        </p>
        <div className="grid grid-cols-2 gap-4 lg:grid-cols-4">
          <ConformField label="Manager" meta={fields.minManager} type="number" min={0} max={MAX_COLLEAGUES} />
          <ConformField label="Peers" meta={fields.minPeer} type="number" min={0} max={MAX_COLLEAGUES} />
          <ConformField
            label="Direct reports"
            meta={fields.minDirectReport}
            type="number"
            min={0}
            max={MAX_COLLEAGUES}
          />
          <ConformField label="Others" meta={fields.minOther} type="number" min={0} max={MAX_COLLEAGUES} />
        </div>
      </fieldset>
      <div className="sm:col-span-2">
        <div className="flex items-start gap-2">
          <input
            {...getInputProps(fields.showManagerBelowThreshold, { type: 'checkbox' })}
            aria-describedby={`${fields.showManagerBelowThreshold.id}-help ${fields.showManagerBelowThreshold.errorId}`}
            className="mt-1 h-4 w-4 accent-indigo-700"
          />
          <label htmlFor={fields.showManagerBelowThreshold.id} className="label">
            Show the manager’s answers on their own, even when fewer managers answer than the number above
          </label>
        </div>
        <p id={`${fields.showManagerBelowThreshold.id}-help`} className="mt-1 text-sm text-slate-700">
          Off by default. When on, managers’ invitations tell them their answers are shown as the manager’s
          view. It can be switched on only before the first manager is invited.
        </p>
        <ErrorList
          id={fields.showManagerBelowThreshold.errorId}
          errors={fields.showManagerBelowThreshold.errors}
        />
      </div>
    </>
  )
}

export function CreateSchemeForm({
  options,
  defaults,
  lastResult,
}: {
  options: SchemeOptions
  defaults: Pick<SchemeValues, 'timeZone' | 'opensAt' | 'closesAt'>
  lastResult: FormResult
}) {
  const [form, fields] = useConformForm(SchemeCreateSchema, {
    id: 'create-scheme',
    lastResult,
    defaultValue: {
      ...defaults,
      maxColleagues: MAX_COLLEAGUES,
      minRaters: 3,
      reminderCadenceDays: 7,
      reportRelease: 'on_close',
      showManagerBelowThreshold: false,
      // The usual advice: the manager, three peers, three direct reports where there are any.
      minManager: 1,
      minPeer: 3,
      minDirectReport: 3,
      minOther: 0,
    },
  })
  return (
    <IntentForm form={form} intent="create" className="grid gap-4 sm:grid-cols-2">
      <div className="sm:col-span-2">
        <FormErrors id={form.errorId} errors={form.errors} />
      </div>
      <SchemeFields formId={form.id} fields={fields as unknown as Fields} options={options} locked={{}} />
      <div className="sm:col-span-2">
        <SubmitButton intent="create" label="Create scheme" pendingLabel="Creating…" />
      </div>
    </IntentForm>
  )
}

export function EditSchemeForm({
  values,
  options,
  locked,
  lastResult,
  cancelHref,
}: {
  values: SchemeValues
  options: SchemeOptions
  locked: { company: string | null; questionnaire: string | null }
  lastResult: FormResult
  cancelHref: string
}) {
  const [form, fields] = useConformForm(SchemeUpdateSchema, {
    id: 'update-scheme',
    lastResult,
    defaultValue: values,
  })
  return (
    <IntentForm
      form={form}
      intent="update"
      aria-label="Edit the scheme"
      className="grid gap-4 sm:grid-cols-2"
    >
      <div className="sm:col-span-2">
        <FormErrors id={form.errorId} errors={form.errors} />
      </div>
      <SchemeFields formId={form.id} fields={fields as unknown as Fields} options={options} locked={locked} />
      <div className="flex flex-wrap gap-3 sm:col-span-2">
        <SubmitButton intent="update" label="Save scheme" pendingLabel="Saving…" />
        <Link to={cancelHref} className="btn btn-secondary">
          Cancel
        </Link>
      </div>
    </IntentForm>
  )
}

/** A new closing time: "extend the deadline" for a running scheme, "reopen" for a closed one. */
export function ClosingTimeForm({
  intent,
  current,
  timeZoneLabel,
  lastResult,
}: {
  intent: 'extend' | 'reopen'
  current: string
  timeZoneLabel: string
  lastResult: FormResult
}) {
  const [form, fields] = useConformForm(intent === 'extend' ? SchemeExtendSchema : SchemeReopenSchema, {
    id: `${intent}-scheme`,
    lastResult,
    defaultValue: { closesAt: current },
  })
  const label = intent === 'extend' ? 'New closing time' : 'Reopen until'
  return (
    <IntentForm form={form} intent={intent} className="flex flex-wrap items-end gap-3">
      <div className="w-full">
        <FormErrors id={form.errorId} errors={form.errors} />
      </div>
      <ConformField
        className="flex min-w-56 flex-col gap-1"
        label={`${label} (${timeZoneLabel})`}
        meta={fields.closesAt}
        type="datetime-local"
      />
      <SubmitButton
        intent={intent}
        label={intent === 'extend' ? 'Extend the deadline' : 'Reopen the scheme'}
        pendingLabel={intent === 'extend' ? 'Extending…' : 'Reopening…'}
      />
    </IntentForm>
  )
}
