import { getCollectionProps, getInputProps, type FieldMetadata } from '@conform-to/react'
import { LANGUAGES } from '#app/modules/i18n/languages'
import type { Language } from '#db/enums'
import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { useConformForm, type FormResult } from '#app/components/form-kit'
import { ConformField, ConformSelect, IntentForm, SubmitButton } from '#app/components/form-parts'
import { ErrorList, FormErrors } from '#app/components/forms'
import { choicesOf } from '#app/components/choices'
import { NOMINATION_APPROVALS, NOMINATION_CHOOSERS, REPORT_RELEASES } from '#db/enums'
import { MAX_COLLEAGUES } from '#app/config/constants'
import {
  MIN_RATERS_MAX,
  REMINDER_CADENCE_MAX,
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
  /** The catalogue keys of each value's label and hint: `${labels}.${value}`. */
  labels: string
  hints: string
  fixed: boolean
}) {
  const { t } = useTranslation('schemes')
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
                {t(`${labels}.${value}`)}
              </label>
              <p id={`${id}-hint`} className="text-sm text-slate-600">
                {t(`${hints}.${value}`)}
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
  const { t } = useTranslation('schemes')
  return (
    <fieldset className="flex flex-col gap-4 border-t border-slate-200 pt-4 sm:col-span-2">
      <legend className="text-base font-semibold">{t('form.cycles')}</legend>
      {creating ? (
        <p className="text-sm text-slate-700">{t('form.followsLater')}</p>
      ) : (
        <ConformSelect
          label={t('form.follows')}
          meta={fields.followsSchemeId}
          options={choicesOf(options.follows)}
          placeholder={t('form.followsNone')}
          help={t('form.followsHelp')}
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
            {t('form.showNorm')}
          </label>
        </div>
        <p id={`${fields.showNorm.id}-help`} className="mt-1 text-sm text-slate-700">
          {t('form.showNormHelp')}
        </p>
        <ErrorList id={fields.showNorm.errorId} errors={fields.showNorm.errors} />
      </div>
    </fieldset>
  )
}

/** The languages raters may answer in (ADR 051): one checkbox per portal language. */
function LanguageFields({ fields }: { fields: Fields }) {
  const { t } = useTranslation('schemes')
  const field = fields.languages
  return (
    <fieldset
      className="flex flex-col gap-2 border-t border-slate-200 pt-4 sm:col-span-2"
      aria-describedby={`${field.id}-help ${field.errorId}`}
    >
      <legend className="text-base font-semibold">{t('form.languages')}</legend>
      <p id={`${field.id}-help`} className="text-sm text-slate-700">
        {t('form.languagesHelp')}
      </p>
      {getCollectionProps(field, { type: 'checkbox', options: LANGUAGES.map((l) => l.code) }).map((props) => (
        <div key={props.key} className="flex items-center gap-2">
          <input {...props} key={props.key} className="h-4 w-4 accent-indigo-700" />
          <label htmlFor={props.id} className="label">
            {t(`form.language.${props.value as Language}`)}
          </label>
        </div>
      ))}
      <ErrorList id={field.errorId} errors={field.errors} />
    </fieldset>
  )
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
  const { t } = useTranslation('schemes')
  const fixed = Boolean(locked.nomination)
  const zoneList = `${formId}-zones`
  return (
    <>
      <ConformField
        className="flex flex-col gap-1 sm:col-span-2"
        label={t('form.name')}
        meta={fields.name}
        autoComplete="off"
      />
      <ConformSelect
        label={t('form.company')}
        meta={fields.companyId}
        options={choicesOf(options.companies)}
        placeholder={t('form.companyPlaceholder')}
        help={locked.company ?? t('form.companyHelp')}
        disabled={Boolean(locked.company)}
      />
      {/* A disabled select is not posted: the fixed value travels in a hidden field. */}
      {locked.company ? (
        <input type="hidden" name="companyId" value={String(fields.companyId.initialValue ?? '')} />
      ) : null}
      <ConformSelect
        label={t('form.questionnaire')}
        meta={fields.questionnaireId}
        options={options.questionnaires.map((q) => ({ value: q.id, label: q.title }))}
        placeholder={t('form.questionnairePlaceholder')}
        help={locked.questionnaire ?? t('form.questionnaireHelp')}
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
        label={t('form.timeZone')}
        meta={fields.timeZone}
        help={t('form.timeZoneHelp')}
        list={zoneList}
        autoComplete="off"
        spellCheck={false}
      />
      <TimeZoneSuggestions id={zoneList} />
      <div className="hidden sm:block" />
      <ConformField
        label={t('form.opens')}
        meta={fields.opensAt}
        type="datetime-local"
        help={t('form.opensHelp')}
      />
      <ConformField label={t('form.closes')} meta={fields.closesAt} type="datetime-local" />
      <ConformField
        label={t('form.minRaters')}
        meta={fields.minRaters}
        type="number"
        help={t('form.minRatersHelp', { max: MIN_RATERS_MAX })}
      />
      <ConformField
        label={t('form.reminderCadence')}
        meta={fields.reminderCadenceDays}
        type="number"
        help={t('form.reminderCadenceHelp', { max: REMINDER_CADENCE_MAX })}
      />
      <ConformSelect
        label={t('form.reportRelease')}
        meta={fields.reportRelease}
        options={REPORT_RELEASES.map((r) => ({ value: r, label: t(`reportRelease.${r}`) }))}
        placeholder={t('form.choose')}
      />
      <div className="sm:col-span-2">
        <div className="flex items-start gap-2">
          <input
            {...getInputProps(fields.showManagerBelowThreshold, { type: 'checkbox' })}
            aria-describedby={`${fields.showManagerBelowThreshold.id}-help ${fields.showManagerBelowThreshold.errorId}`}
            className="mt-1 h-4 w-4 accent-indigo-700"
          />
          <label htmlFor={fields.showManagerBelowThreshold.id} className="label">
            {t('form.showManager')}
          </label>
        </div>
        <p id={`${fields.showManagerBelowThreshold.id}-help`} className="mt-1 text-sm text-slate-700">
          {t('form.showManagerHelp')}
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
            {t('form.managerSees')}
          </label>
        </div>
        <p id={`${fields.managerSeesReport.id}-help`} className="mt-1 text-sm text-slate-700">
          {t('form.managerSeesHelp')}
        </p>
        <ErrorList id={fields.managerSeesReport.errorId} errors={fields.managerSeesReport.errors} />
      </div>
      <CycleFields fields={fields} options={options} creating={creating} />
      <LanguageFields fields={fields} />
      <fieldset className="flex flex-col gap-4 border-t border-slate-200 pt-4 sm:col-span-2">
        <legend className="text-base font-semibold">{t('form.nomination')}</legend>
        <p className="text-sm text-slate-700">{t('form.nominationIntro')}</p>
        {locked.nomination ? (
          <p className="rounded-md border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900">
            {locked.nomination}
          </p>
        ) : null}
        <div className="grid gap-4 sm:grid-cols-2">
          <ChoiceGroup
            legend={t('form.chooser')}
            meta={fields.nominationChooser}
            values={NOMINATION_CHOOSERS}
            labels="nomination.chooser"
            hints="nomination.chooserHint"
            fixed={fixed}
          />
          <ChoiceGroup
            legend={t('form.approval')}
            meta={fields.nominationApproval}
            values={NOMINATION_APPROVALS}
            labels="nomination.approval"
            hints="nomination.approvalHint"
            fixed={fixed}
          />
          <ConformField
            label={t('form.deadline')}
            meta={fields.nominationsCloseAt}
            type="datetime-local"
            help={t('form.deadlineHelp')}
          />
          <ConformField
            label={t('form.maxColleagues')}
            meta={fields.maxColleagues}
            type="number"
            readOnly={fixed}
            help={t('form.maxColleaguesHelp', { max: MAX_COLLEAGUES })}
          />
        </div>
        <fieldset className="flex flex-col gap-3">
          <legend className="label">{t('form.minimums')}</legend>
          <p className="text-sm text-slate-700">{t('form.minimumsHelp')}</p>
          <div className="grid grid-cols-2 gap-4 lg:grid-cols-4">
            <ConformField
              label={t('form.manager')}
              meta={fields.minManager}
              type="number"
              min={0}
              max={MAX_COLLEAGUES}
              readOnly={fixed}
            />
            <ConformField
              label={t('form.peers')}
              meta={fields.minPeer}
              type="number"
              min={0}
              max={MAX_COLLEAGUES}
              readOnly={fixed}
            />
            <ConformField
              label={t('form.directReports')}
              meta={fields.minDirectReport}
              type="number"
              min={0}
              max={MAX_COLLEAGUES}
              readOnly={fixed}
            />
            <ConformField
              label={t('form.others')}
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
  const { t } = useTranslation('schemes')
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
        <SubmitButton intent="create" label={t('form.create')} pendingLabel={t('form.creating')} />
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
  const { t } = useTranslation('schemes')
  const [form, fields] = useConformForm(SchemeUpdateSchema, {
    id: 'update-scheme',
    lastResult,
    defaultValue: values,
  })
  return (
    <IntentForm form={form} intent="update" aria-label={t('form.edit')} className="grid gap-4 sm:grid-cols-2">
      <div className="sm:col-span-2">
        <FormErrors id={form.errorId} errors={form.errors} />
      </div>
      <SchemeFields formId={form.id} fields={fields as unknown as Fields} options={options} locked={locked} />
      <div className="flex flex-wrap gap-3 sm:col-span-2">
        <SubmitButton intent="update" label={t('form.save')} pendingLabel={t('form.saving')} />
        <Link to={cancelHref} className="btn btn-secondary">
          {t('form.cancel')}
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
  const { t } = useTranslation('schemes')
  const [form, fields] = useConformForm(intent === 'extend' ? SchemeExtendSchema : SchemeReopenSchema, {
    id: `${intent}-scheme`,
    lastResult,
    defaultValue: { closesAt: current },
  })
  return (
    <IntentForm form={form} intent={intent} className="flex flex-wrap items-end gap-3">
      <div className="w-full">
        <FormErrors id={form.errorId} errors={form.errors} />
      </div>
      <ConformField
        className="flex min-w-56 flex-col gap-1"
        label={t(intent === 'extend' ? 'form.newClosingTime' : 'form.reopenUntil', { zone: timeZoneLabel })}
        meta={fields.closesAt}
        type="datetime-local"
      />
      <SubmitButton
        intent={intent}
        label={t(intent === 'extend' ? 'form.extend' : 'form.reopen')}
        pendingLabel={t(intent === 'extend' ? 'form.extending' : 'form.reopening')}
      />
    </IntentForm>
  )
}
