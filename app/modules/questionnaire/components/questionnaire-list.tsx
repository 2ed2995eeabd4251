import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import type { PageData } from '#app/lib/page-data'
import { Form, Link } from 'react-router'
import { ListPagination, ListSection, type HrefFor } from '#app/components/admin-list'
import { FilterBar, FilterSelect, SearchField, SortSelect } from '#app/components/filter-bar'
import {
  formErrorsOf,
  resultFor,
  useConformForm,
  type FormResult,
  type IntentReply,
} from '#app/components/form-kit'
import { ConfirmPanel } from '#app/components/page-kit'
import { FormErrors } from '#app/components/forms'
import { ConformField, IntentForm, SubmitButton } from '#app/components/form-parts'
import { QUESTIONNAIRE_STATUSES, type QuestionnaireStatus } from '#db/enums'
import { schemesUsingHref } from '#app/modules/scheme/schemas'
import type { loadQuestionnaireList } from '#app/modules/questionnaire/questionnaire-list.server'
import type { SchemeUse } from '#app/modules/questionnaire/questionnaire.server'
import { Card } from '#app/components/card'
import { stateBadge } from '#app/components/state-badge'
import { labelledChoices } from '#app/components/choices'
import { formatCount } from '#app/lib/numbers'
import { richT } from '#app/modules/i18n/rich'
import { useIntlLocale } from '#app/modules/i18n/use-intl-locale'
import { QN_SORTS, QnCreateSchema, TITLE_MAX, type QnSort } from '../schemas'
import { useQnWords } from './words'

/** The questionnaires list: filters (a GET form), the table of lines and versions, create and import. */

/** The page's data, as its loader returns it (the page-props rule). */
type Data = PageData<typeof loadQuestionnaireList>

const STATUS_TONES: Record<QuestionnaireStatus, string> = {
  draft: 'border bg-slate-100 text-slate-800 border-slate-300',
  published: 'border bg-emerald-50 text-emerald-900 border-emerald-300',
  archived: 'border bg-slate-200 text-slate-800 border-slate-400',
}

export function StatusBadge({ status }: { status: QuestionnaireStatus }) {
  const { statusLabels } = useQnWords()
  // The shared badge drawn with this page's words (called, not mounted: its type would change each render).
  return stateBadge<QuestionnaireStatus>(statusLabels, STATUS_TONES)({ state: status })
}

/**
 * How many schemes use a version (and how many of them are open), as a link to the scheme list
 * filtered to that version: however many schemes there are, this is one line.
 */
export function SchemeUseLink({
  versionId,
  use,
  which,
}: {
  versionId: string
  use: SchemeUse
  /** Read after the link's words where several versions are listed ("version 2 of …"). */
  which?: ReactNode
}) {
  const { t } = useTranslation('questionnaires')
  if (!use.total) return <span className="text-slate-600">{t('use.none')}</span>
  return (
    <span className="text-slate-800">
      <Link className="link" to={schemesUsingHref(versionId)}>
        {richT(t, 'use.usedBy', { n: use.total, noun: t('use.schemes', { count: use.total }) })}
        {which}
      </Link>
      {use.open ? ` ${t('use.openNow', { count: use.open })}` : null}
    </span>
  )
}

export function QuestionnaireFilters({
  path,
  query,
}: {
  path: string
  query: { q: string; status: string; sort: QnSort }
}) {
  const { t } = useTranslation('questionnaires')
  const { statusLabels, sortLabels } = useQnWords()
  const filtered = Boolean(query.q || query.status)
  return (
    <FilterBar
      label={t('list.search')}
      idPrefix="qn"
      query={query}
      resetKey={[query.q, query.status, query.sort]}
      clear={{
        href: filtered ? `${path}?${new URLSearchParams({ sort: query.sort })}` : null,
        label: t('list.clear'),
      }}
    >
      <SearchField label={t('list.searchByTitle')} className="flex min-w-48 flex-1 flex-col gap-1" />
      <FilterSelect
        name="status"
        label={t('list.status')}
        anyLabel={t('list.anyStatus')}
        options={labelledChoices(QUESTIONNAIRE_STATUSES, statusLabels)}
      />
      <SortSelect sorts={QN_SORTS} labels={sortLabels} />
    </FilterBar>
  )
}

/** The questionnaires page's list: filters, the lines with their versions, page links. */
export function QuestionnaireList({
  data: { query, page },
  path,
  href,
}: {
  data: Data
  path: string
  href: HrefFor
}) {
  const { t } = useTranslation('questionnaires')
  const filtered = Boolean(query.q || query.status)
  return (
    <ListSection title={t('list.all')}>
      <QuestionnaireFilters path={path} query={query} />
      {page.rows.length ? (
        <QuestionnaireTable rows={page.rows} archiveHref={(id) => href({ archive: id })} />
      ) : (
        <p className="card text-slate-700">{filtered ? t('list.noMatch') : t('list.empty')}</p>
      )}
      <ListPagination noun={t('list.noun')} next={page.next} prev={page.prev} href={href} />
    </ListSection>
  )
}

/** "Archive …?" — refused while an open scheme uses the version, or when it is archived already. */
export function ArchiveConfirm({
  archiving,
  cancelHref,
  lastResult,
}: {
  archiving: NonNullable<Data['archiving']>
  cancelHref: string
  lastResult: FormResult
}) {
  const { t } = useTranslation('questionnaires')
  const { archiveBlocked } = useQnWords()
  return (
    <ConfirmPanel
      id="archive-questionnaire"
      title={t('archive.titleOf', { title: archiving.title, version: archiving.version })}
      intent="archive"
      fields={{ questionnaireId: archiving.id }}
      confirmLabel={t('archive.confirm')}
      pendingLabel={t('archive.pending')}
      cancelHref={cancelHref}
      backLabel={t('archive.backToList')}
      lastResult={lastResult}
      blockedBy={
        archiving.status === 'archived'
          ? t('archive.already')
          : archiving.openCount
            ? archiveBlocked(archiving.openSchemes, archiving.openCount)
            : undefined
      }
    >
      <p className="text-slate-800">{t('archive.textList')}</p>
    </ConfirmPanel>
  )
}

/** Create a questionnaire, or import one from a file. */
export function AddQuestionnaire({
  importMaxBytes,
  actionData,
}: {
  importMaxBytes: number
  actionData: IntentReply
}) {
  const { t } = useTranslation('questionnaires')
  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <Card id="create-title" title={t('create.title')}>
        <CreateQuestionnaireForm lastResult={resultFor(actionData, 'create')} />
      </Card>
      <Card id="import-title" title={t('import.title')}>
        <ImportQuestionnaireForm lastResult={resultFor(actionData, 'import')} maxBytes={importMaxBytes} />
      </Card>
    </div>
  )
}

type Version = {
  id: string
  version: number
  status: QuestionnaireStatus
  title: string
  questionCount: number
  use: SchemeUse
}

/** Read after a version's button word: which version of which questionnaire it acts on. */
function WhichVersion({ version, name }: { version: number; name: string }) {
  const { t } = useTranslation('questionnaires')
  return <span className="sr-only"> {richT(t, 'list.whichVersion', { version, name })}</span>
}

export function QuestionnaireTable({
  rows,
  archiveHref,
}: {
  rows: Array<{ id: string; name: string; versions: Version[] }>
  archiveHref: (id: string) => string
}) {
  const { t } = useTranslation('questionnaires')
  const locale = useIntlLocale()
  return (
    <ul className="flex flex-col gap-4" aria-label={t('list.label')}>
      {rows.map((family) => (
        <li key={family.id} className="card flex flex-col gap-3">
          <h3 className="text-base font-semibold text-slate-900">{family.name}</h3>
          <ul
            className="flex flex-col divide-y divide-slate-200"
            aria-label={t('list.versionsOf', { name: family.name })}
          >
            {family.versions.map((v) => (
              <li key={v.id} className="flex flex-wrap items-center gap-x-4 gap-y-2 py-2">
                <Link className="link font-medium" to={`/admin/questionnaire-management/${v.id}`}>
                  {v.title !== family.name
                    ? t('list.versionTitled', { version: v.version, title: v.title })
                    : t('list.version', { version: v.version })}
                </Link>
                <StatusBadge status={v.status} />
                <span className="text-sm text-slate-700">
                  {t('list.questions', {
                    count: v.questionCount,
                    shown: formatCount(v.questionCount, locale),
                  })}
                </span>
                <span className="text-sm">
                  <SchemeUseLink
                    versionId={v.id}
                    use={v.use}
                    which={<WhichVersion version={v.version} name={family.name} />}
                  />
                </span>
                <span className="flex-1" />
                <Form method="post" className="inline">
                  <input type="hidden" name="intent" value="duplicate" />
                  <input type="hidden" name="questionnaireId" value={v.id} />
                  <button type="submit" className="btn btn-secondary text-sm">
                    {t('list.duplicate')}
                    <WhichVersion version={v.version} name={family.name} />
                  </button>
                </Form>
                {v.status !== 'archived' ? (
                  <Link className="btn btn-secondary text-sm" to={archiveHref(v.id)}>
                    {t('list.archive')}
                    <WhichVersion version={v.version} name={family.name} />
                  </Link>
                ) : null}
              </li>
            ))}
          </ul>
        </li>
      ))}
    </ul>
  )
}

export function CreateQuestionnaireForm({ lastResult }: { lastResult: FormResult }) {
  const { t } = useTranslation('questionnaires')
  const [form, fields] = useConformForm(QnCreateSchema, { id: 'create-questionnaire', lastResult })
  return (
    <IntentForm form={form} intent="create" className="flex flex-col gap-4">
      <FormErrors id={form.errorId} errors={form.errors} />
      <ConformField
        label={t('create.field')}
        meta={fields.title}
        maxLength={TITLE_MAX}
        help={t('create.help')}
      />
      <div>
        <SubmitButton intent="create" label={t('create.submit')} pendingLabel={t('create.pending')} />
      </div>
    </IntentForm>
  )
}

export function ImportQuestionnaireForm({
  lastResult,
  maxBytes,
}: {
  lastResult: FormResult
  maxBytes: number
}) {
  const { t } = useTranslation('questionnaires')
  const locale = useIntlLocale()
  const errors = formErrorsOf(lastResult)
  return (
    <Form method="post" encType="multipart/form-data" className="flex flex-col gap-4">
      <input type="hidden" name="intent" value="import" />
      <FormErrors errors={errors} />
      <div className="flex flex-col gap-1">
        <label htmlFor="qn-import-file" className="label">
          {t('import.file')}
        </label>
        <input
          id="qn-import-file"
          name="file"
          type="file"
          accept=".json,application/json"
          required
          className="input"
          aria-describedby="qn-import-help"
        />
        <p id="qn-import-help" className="text-sm text-slate-600">
          {t('import.help', { kb: formatCount(maxBytes / 1024, locale) })}
        </p>
      </div>
      <div>
        <SubmitButton
          intent="import"
          label={t('import.submit')}
          pendingLabel={t('import.pending')}
          className="btn btn-secondary"
        />
      </div>
    </Form>
  )
}
