import { getCollectionProps, getInputProps, type FieldMetadata } from '@conform-to/react'
import { LANGUAGES } from '#app/modules/i18n/languages'
import type { Language } from '#db/enums'
import { useEffect, useState } from 'react'
import { Link } from 'react-router'
import { useConformForm, type FormResult } from '#app/components/form-kit'
import { ConformField, ConformSelect, IntentForm, SubmitButton } from '#app/components/form-parts'
import { ErrorList, FormErrors } from '#app/components/forms'
import { choicesOf } from '#app/components/choices'
import { NOMINATION_APPROVALS, NOMINATION_CHOOSERS, REPORT_RELEASES } from '#db/enums'
import { MAX_COLLEAGUES } from '#app/config/constants'
import {
  NOMINATION_APPROVAL_HINTS,
  NOMINATION_APPROVAL_LABELS,
  NOMINATION_CHOOSER_HINTS,
  NOMINATION_CHOOSER_LABELS,
} from '#app/modules/nomination/labels'
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
  /** The earlier schemes it may follow (ADR 044). */
  follows: Array<{ id: string; name: string }>
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
  managerSeesReport: boolean
  minManager: number
  minPeer: number
  minDirectReport: number
  minOther: number
  nominationChooser: string
  nominationApproval: string
  /** The nomination deadline in the scheme's zone (datetime-local), '' for none. */
  nominationsCloseAt: string
  /** The earlier scheme it follows, '' for none; whether reports show the norm (ADR 044). */
  followsSchemeId: string
  showNorm: boolean
  /** The languages raters answer in (ADR 051). */
  languages: string[]
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

/**
 * One setting as a set of radio buttons, each with its one-line hint (readable without JavaScript,
 * unlike a select whose hint would have to follow the choice). Disabled when `fixed`: a disabled
 * radio is not posted, so the value travels in a hidden field.
 */
function ChoiceGroup<V extends string>({
  legend,
  meta,
  values,
  labels,
  hints,
  fixed,
}: {
  legend: string
  meta: Fields[keyof Fields]
  values: readonly V[]
  labels: Record<V, string>
  hints: Record<V, string>
  fixed: boolean
}) {
  const errorId = meta.errors?.length ? meta.errorId : undefined
  return (
    <fieldset className="flex flex-col gap-2" aria-describedby={errorId}>
      <legend className="label">{legend}</legend>
      {values.map((value) => {
        const id = `${meta.id}-${value}`
        return (
          <div key={value} className="flex items-start gap-2">
            <input
              {...getInputProps(meta, { type: 'radio', value })}
              id={id}
              aria-describedby={`${id}-hint`}
              disabled={fixed}
              className="mt-1 h-4 w-4 accent-indigo-700"
            />
            <div>
              <label htmlFor={id} className="font-medium text-slate-900">
                {labels[value]}
              </label>
              <p id={`${id}-hint`} className="text-sm text-slate-600">
                {hints[value]}
              </p>
            </div>
          </div>
        )
      })}
      {fixed ? <input type="hidden" name={meta.name} value={String(meta.initialValue ?? '')} /> : null}
      <ErrorList id={meta.errorId} errors={meta.errors} />
    </fieldset>
  )
}

/** A repeat cycle and the norm (issue 19 §5–6, ADR 044). */
function CycleFields({
  fields,
  options,
  creating,
}: {
  fields: Fields
  options: SchemeOptions
  creating: boolean
}) {
  return (
    <fieldset className="flex flex-col gap-4 border-t border-slate-200 pt-4 sm:col-span-2">
      <legend className="text-base font-semibold">Repeat cycles and norm</legend>
      {creating ? (
        <p className="text-sm text-slate-700">
          Follows an earlier scheme? Once this scheme is created, edit it to choose the earlier scheme of its
          company with a version of the same questionnaire: employees in both then see their previous results
          beside these.
        </p>
      ) : (
        <ConformSelect
          label="Follows"
          meta={fields.followsSchemeId}
          options={choicesOf(options.follows)}
          placeholder="No earlier scheme (a first cycle)"
          help="An earlier scheme of the same company with a version of the same questionnaire. Employees in both see their previous results beside these."
        />
      )}
      <div>
        <div className="flex items-start gap-2">
          <input
            {...getInputProps(fields.showNorm, { type: 'checkbox' })}
            aria-describedby={`${fields.showNorm.id}-help ${fields.showNorm.errorId}`}
            className="mt-1 h-4 w-4 accent-indigo-700"
          />
          <label htmlFor={fields.showNorm.id} className="label">
            Show the colleagues’ view against the norm on reports
          </label>
        </div>
        <p id={`${fields.showNorm.id}-help`} className="mt-1 text-sm text-slate-700">
          The norm is the average across all clients’ released reports of this questionnaire, shown only where
          enough participants stand behind it.
        </p>
        <ErrorList id={fields.showNorm.errorId} errors={fields.showNorm.errors} />
      </div>
    </fieldset>
  )
}

/** The languages raters may answer in (ADR 051): one checkbox per portal language. */
function LanguageFields({ fields }: { fields: Fields }) {
  const field = fields.languages
  return (
    <fieldset
      className="flex flex-col gap-2 border-t border-slate-200 pt-4 sm:col-span-2"
      aria-describedby={`${field.id}-help ${field.errorId}`}
    >
      <legend className="text-base font-semibold">Languages</legend>
      <p id={`${field.id}-help`} className="text-sm text-slate-700">
        Raters read the questionnaire in their own language when it is one of these, else in the
        questionnaire’s own language, which is always offered. Texts not yet translated show in that language.
      </p>
      {getCollectionProps(field, { type: 'checkbox', options: LANGUAGES.map((l) => l.code) }).map((props) => (
        <div key={props.key} className="flex items-center gap-2">
          <input {...props} key={props.key} className="h-4 w-4 accent-indigo-700" />
          <label htmlFor={props.id} className="label">
            {languageLabel(props.value as Language)}
          </label>
        </div>
      ))}
      <ErrorList id={field.errorId} errors={field.errors} />
    </fieldset>
  )
}

function languageLabel(code: Language) {
  const info = LANGUAGES.find((l) => l.code === code)!
  return info.nativeName === info.name ? info.name : `${info.name} (${info.nativeName})`
}

function SchemeFields({
  formId,
  fields,
  options,
  locked,
  creating = false,
}: {
  formId: string
  fields: Fields
  options: SchemeOptions
  locked: { company?: string | null; questionnaire?: string | null; nomination?: string | null }
  /** The create form: the scheme it follows is chosen once it exists (its company and line known). */
  creating?: boolean
}) {
  const fixed = Boolean(locked.nomination)
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
      <div className="sm:col-span-2">
        <div className="flex items-start gap-2">
          <input
            {...getInputProps(fields.managerSeesReport, { type: 'checkbox' })}
            aria-describedby={`${fields.managerSeesReport.id}-help ${fields.managerSeesReport.errorId}`}
            className="mt-1 h-4 w-4 accent-indigo-700"
          />
          <label htmlFor={fields.managerSeesReport.id} className="label">
            The manager sees each employee’s report at release
          </label>
        </div>
        <p id={`${fields.managerSeesReport.id}-help`} className="mt-1 text-sm text-slate-700">
          Off by default: employees choose whether to share their report with their manager. When on, each
          manager reads their team’s released reports (figures only, no comments), and employees are told so
          before they invite anyone. It can be changed only before the first invitation or list.
        </p>
        <ErrorList id={fields.managerSeesReport.errorId} errors={fields.managerSeesReport.errors} />
      </div>
      <CycleFields fields={fields} options={options} creating={creating} />
      <LanguageFields fields={fields} />
      <fieldset className="flex flex-col gap-4 border-t border-slate-200 pt-4 sm:col-span-2">
        <legend className="text-base font-semibold">Nomination</legend>
        <p className="text-sm text-slate-700">
          Who chooses each employee’s colleagues, who approves the list before anyone is invited, and how many
          are asked for.
        </p>
        {locked.nomination ? (
          <p className="rounded-md border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900">
            {locked.nomination}
          </p>
        ) : null}
        <div className="grid gap-4 sm:grid-cols-2">
          <ChoiceGroup
            legend="Who chooses the raters"
            meta={fields.nominationChooser}
            values={NOMINATION_CHOOSERS}
            labels={NOMINATION_CHOOSER_LABELS}
            hints={NOMINATION_CHOOSER_HINTS}
            fixed={fixed}
          />
          <ChoiceGroup
            legend="Approval before invitations go out"
            meta={fields.nominationApproval}
            values={NOMINATION_APPROVALS}
            labels={NOMINATION_APPROVAL_LABELS}
            hints={NOMINATION_APPROVAL_HINTS}
            fixed={fixed}
          />
          <ConformField
            label="Nomination deadline (optional)"
            meta={fields.nominationsCloseAt}
            type="datetime-local"
            help="The last moment employees can change their list or send it for approval, in the time zone above: after the opening and before the close. Empty: until the scheme closes. It can be moved at any time."
          />
          <ConformField
            label="Most colleagues each employee may invite"
            meta={fields.maxColleagues}
            type="number"
            readOnly={fixed}
            help={`From 1 to ${MAX_COLLEAGUES}.`}
          />
        </div>
        <fieldset className="flex flex-col gap-3">
          <legend className="label">Fewest colleagues to invite, per group</legend>
          <p className="text-sm text-slate-700">
            Employees see, while they choose, which groups are still short (without approval these are
            warnings only). Direct reports count only for people with direct reports recorded. 0 asks for
            none; together at most the most colleagues above.
          </p>
          <div className="grid grid-cols-2 gap-4 lg:grid-cols-4">
            <ConformField
              label="Manager"
              meta={fields.minManager}
              type="number"
              min={0}
              max={MAX_COLLEAGUES}
              readOnly={fixed}
            />
            <ConformField
              label="Peers"
              meta={fields.minPeer}
              type="number"
              min={0}
              max={MAX_COLLEAGUES}
              readOnly={fixed}
            />
            <ConformField
              label="Direct reports"
              meta={fields.minDirectReport}
              type="number"
              min={0}
              max={MAX_COLLEAGUES}
              readOnly={fixed}
            />
            <ConformField
              label="Others"
              meta={fields.minOther}
              type="number"
              min={0}
              max={MAX_COLLEAGUES}
              readOnly={fixed}
            />
          </div>
        </fieldset>
      </fieldset>
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
      managerSeesReport: false,
      // The usual advice: the manager, three peers, three direct reports where there are any.
      minManager: 1,
      minPeer: 3,
      minDirectReport: 3,
      minOther: 0,
      // New schemes: the employee chooses, invitations go out directly, no nomination deadline.
      nominationChooser: 'employee',
      nominationApproval: 'none',
      followsSchemeId: '',
      showNorm: false,
      languages: ['en'],
    },
  })
  return (
    <IntentForm form={form} intent="create" className="grid gap-4 sm:grid-cols-2">
      <div className="sm:col-span-2">
        <FormErrors id={form.errorId} errors={form.errors} />
      </div>
      <SchemeFields
        formId={form.id}
        fields={fields as unknown as Fields}
        options={options}
        locked={{}}
        creating
      />
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
  locked: { company: string | null; questionnaire: string | null; nomination: string | null }
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
