import type { PageData } from '#app/lib/page-data'
import { getFormProps, getTextareaProps } from '@conform-to/react'
import { Form } from 'react-router'
import { ListPagination, ListSection, type HrefFor } from '#app/components/admin-list'
import { Cell, DataTable, RowHeader } from '#app/components/data-table'
import {
  CompanySchemeSelects,
  FilterBar,
  FilterSelect,
  SearchField,
  SortSelect,
} from '#app/components/filter-bar'
import { useConformForm, type FormResult } from '#app/components/form-kit'
import { ErrorList, FormErrors, useFormMessage } from '#app/components/forms'
import { Card } from '#app/components/card'
import { choicesOf, labelledChoices } from '#app/components/choices'
import { useTranslation } from 'react-i18next'
import { formatDate } from '#app/lib/dates'
import { useIntlLocale } from '#app/modules/i18n/use-intl-locale'
import { RELATIONSHIPS } from '#db/enums'
import {
  ANSWERS_ADMIN_MESSAGES,
  EXPORT_PATH,
  ExportIdentitiesSchema,
  isFiltered,
  RESPONSE_SORTS,
  RESPONSE_STATES,
  REVEAL_REASON_MAX,
  type ResponseListQuery,
  type ResponseState,
} from '../schemas'
import type { loadResponseList } from '../response-list.server'

/** The page's data, as its loader returns it (the page-props rule). */
type Data = PageData<typeof loadResponseList>

type Day = { date: string; label: string }

export type ResponseRow = {
  id: string
  relationship: (typeof RELATIONSHIPS)[number]
  state: ResponseState
  started: Day
  submitted: Day | null
  schemeName: string
  companyName: string
  questionnaireTitle: string
  questionnaireVersion: number
  subjectName: string
}

const STATE_TONES: Record<ResponseState, string> = {
  in_progress: 'bg-amber-100 text-amber-950',
  submitted: 'bg-emerald-100 text-emerald-950',
  reopened: 'bg-indigo-100 text-indigo-950',
}

/** A response's state in a small pill (the state-badge kit's look), in the page's language. */
export function ResponseStateBadge({ state }: { state: ResponseState }) {
  const { t } = useTranslation('answers')
  return (
    <span className={`inline-block rounded-full px-2 py-0.5 text-xs font-semibold ${STATE_TONES[state]}`}>
      {t(`states.${state}`)}
    </span>
  )
}

/** Each value's words from the `answers` catalogue (`relationships.peer`, `states.submitted`, …). */
export function useAnswerLabels() {
  const { t } = useTranslation('answers')
  const labels = <K extends string>(group: string, keys: readonly K[]) =>
    Object.fromEntries(keys.map((k) => [k, t(`${group}.${k}`)])) as Record<K, string>
  return {
    relationships: labels('relationships', RELATIONSHIPS),
    states: labels('states', RESPONSE_STATES),
    sorts: labels('sorts', RESPONSE_SORTS),
  }
}

/** The list's filters: a GET form, so every filter lives in the URL. */
export function ResponseFilters({
  data: { query, companies, schemes, schemesNeedCompany, questionnaires },
  path,
}: {
  data: Pick<Data, 'query' | 'companies' | 'schemes' | 'schemesNeedCompany' | 'questionnaires'>
  path: string
}) {
  const { t } = useTranslation('answers')
  const labels = useAnswerLabels()
  return (
    <FilterBar
      label={t('list.filters')}
      idPrefix="responses"
      query={query}
      resetKey={[
        query.q,
        query.scheme,
        query.company,
        query.questionnaire,
        query.relationship,
        query.state,
        query.sort,
      ]}
      layout="grid"
      clear={{ href: isFiltered(query) ? path : null, label: t('list.clearFilters') }}
    >
      <SearchField label={t('list.search')} />
      <CompanySchemeSelects companies={companies} schemes={schemes} schemesNeedCompany={schemesNeedCompany} />
      <FilterSelect
        name="questionnaire"
        label={t('list.questionnaire')}
        anyLabel={t('list.anyQuestionnaire')}
        options={choicesOf(questionnaires)}
      />
      <FilterSelect
        name="relationship"
        label={t('list.relationship')}
        anyLabel={t('list.anyRelationship')}
        options={labelledChoices(RELATIONSHIPS, labels.relationships)}
      />
      <FilterSelect
        name="state"
        label={t('list.state')}
        anyLabel={t('list.anyState')}
        options={labelledChoices(RESPONSE_STATES, labels.states)}
      />
      <SortSelect sorts={RESPONSE_SORTS} labels={labels.sorts} />
    </FilterBar>
  )
}

/** The page's list: filters, the responses, page links. */
export function ResponseList({ data, path, href }: { data: Data; path: string; href: HrefFor }) {
  const { t } = useTranslation('answers')
  const { query, page } = data
  return (
    <ListSection title={t('list.section')}>
      <ResponseFilters data={data} path={path} />
      <ResponseTable rows={page.rows} path={path} filtered={isFiltered(query)} />
      <ListPagination noun={t('list.noun')} next={page.next} prev={page.prev} href={href} />
    </ListSection>
  )
}

/**
 * A day, never the instant (ADR 024): the server sends no more than that. Written in the page's
 * language from the calendar date (already the scheme's day, so read in UTC).
 */
export function DayTime({ day }: { day: Day | null }) {
  const locale = useIntlLocale()
  return day ? <time dateTime={day.date}>{formatDate(day.date, 'UTC', locale)}</time> : <>—</>
}

const COLUMNS = ['subject', 'respondent', 'state', 'scheme', 'questionnaire', 'started', 'submitted'] as const

/** The responses: who the feedback is about and the respondent's relationship, never who answered. */
export function ResponseTable({
  rows,
  path,
  filtered,
}: {
  rows: ResponseRow[]
  path: string
  filtered: boolean
}) {
  const { t } = useTranslation('answers')
  const { relationships } = useAnswerLabels()
  return (
    <DataTable
      caption={filtered ? t('list.captionFiltered') : t('list.caption')}
      columns={COLUMNS.map((c) => t(`list.columns.${c}`))}
      rows={rows}
      empty={filtered ? t('list.emptyFiltered') : t('list.empty')}
    >
      {(row) => (
        <tr key={row.id}>
          <RowHeader href={`${path}/${row.id}`}>{row.subjectName}</RowHeader>
          <Cell className="text-slate-800">{relationships[row.relationship]}</Cell>
          <Cell>
            <ResponseStateBadge state={row.state} />
          </Cell>
          <Cell className="text-slate-800">
            {row.schemeName} <span className="text-slate-600">({row.companyName})</span>
          </Cell>
          <Cell className="text-slate-800">
            {t('list.version', { title: row.questionnaireTitle, version: row.questionnaireVersion })}
          </Cell>
          <Cell className="text-slate-700">
            <DayTime day={row.started} />
          </Cell>
          <Cell className="text-slate-700">
            <DayTime day={row.submitted} />
          </Cell>
        </tr>
      )}
    </DataTable>
  )
}

/** The list's filters, as the export's forms carry them (hidden fields). */
function filtersOf(query: ResponseListQuery) {
  return {
    q: query.q,
    scheme: query.scheme,
    company: query.company,
    questionnaire: query.questionnaire,
    relationship: query.relationship,
    state: query.state,
  }
}

function HiddenFilters({ query }: { query: ResponseListQuery }) {
  return (
    <>
      {Object.entries(filtersOf(query)).map(([name, value]) =>
        value ? <input key={name} type="hidden" name={name} value={value} /> : null,
      )}
    </>
  )
}

/**
 * The export: anonymous by default; with respondents' names only for a reason that goes to the
 * audit log (ADR 024), and not at all under strict confidentiality.
 */
export function ExportForm({
  query,
  identitiesAllowed,
  lastResult,
}: {
  query: ResponseListQuery
  identitiesAllowed: boolean
  lastResult: FormResult
}) {
  const { t } = useTranslation('answers')
  const say = useFormMessage()
  return (
    <Card id="export-title" title={t('export.title')} className="gap-3">
      <p className="text-slate-700">{t('export.intro')}</p>
      <form method="get" action={EXPORT_PATH}>
        <HiddenFilters query={query} />
        <button type="submit" className="btn btn-secondary">
          {t('export.download')}
        </button>
      </form>
      {identitiesAllowed ? (
        <IdentitiesExportForm query={query} lastResult={lastResult} />
      ) : (
        <p className="text-sm text-slate-700">
          {`${say(ANSWERS_ADMIN_MESSAGES.strict)} ${t('export.neverNames')}`}
        </p>
      )}
    </Card>
  )
}

/**
 * The export with names: a plain document post (the answer is a redirect to the download, which a
 * fetch could not hand to the browser as a file), checked as you type like every other form.
 */
function IdentitiesExportForm({ query, lastResult }: { query: ResponseListQuery; lastResult: FormResult }) {
  const { t } = useTranslation('answers')
  const [form, fields] = useConformForm(ExportIdentitiesSchema, { id: 'export-identities', lastResult })
  return (
    <details className="rounded-md border border-slate-200 p-3" open={Boolean(lastResult)}>
      <summary className="cursor-pointer font-medium">{t('export.withNames')}</summary>
      <div className="mt-3 flex flex-col gap-3">
        <p className="text-sm text-slate-700">{t('export.withNamesIntro')}</p>
        <FormErrors id={form.errorId} errors={form.errors} />
        <Form method="post" reloadDocument className="flex flex-col gap-3" {...getFormProps(form)}>
          <input type="hidden" name="intent" value="export-identities" />
          <HiddenFilters query={query} />
          <div className="flex flex-col gap-1">
            <label htmlFor={fields.reason.id} className="label">
              {t('export.reasonLabel')}
            </label>
            <textarea
              {...getTextareaProps(fields.reason)}
              key={fields.reason.key}
              rows={3}
              maxLength={REVEAL_REASON_MAX}
              className="input"
            />
            <ErrorList id={fields.reason.errorId} errors={fields.reason.errors} />
          </div>
          <div>
            <button type="submit" className="btn btn-secondary">
              {t('export.downloadWithNames')}
            </button>
          </div>
        </Form>
      </div>
    </details>
  )
}
