import { getFormProps, getInputProps, getSelectProps } from '@conform-to/react'
import { useTranslation } from 'react-i18next'
import { Form, Link } from 'react-router'
import {
  formErrorsOf,
  useConformForm,
  usePendingIntent,
  useResultForm,
  type FormResult,
} from '#app/components/form-kit'
import { Field, FormErrors, SelectField } from '#app/components/forms'
import { ListPagination, type HrefFor } from '#app/components/admin-list'
import { Cell, DataTable, RowHeader } from '#app/components/data-table'
import {
  IMPORT_MAX_BYTES,
  IMPORT_MAX_ROWS,
  ImportRunSchema,
  ImportUploadSchema,
  type ImportRowsPage,
  type ImportRowView,
  type ImportView,
  type RowProblem,
} from '#app/modules/employee/import-schemas'
import { richT } from '#app/modules/i18n/rich'
import { useIntlLocale } from '#app/modules/i18n/use-intl-locale'
import { formatCount } from '#app/lib/numbers'

export const TEMPLATE_HREF = '/admin/employee-management/template.csv'
export const errorReportHref = (importId: string) =>
  `/admin/employee-management/imports/${importId}/problems.csv`

/** The upload form: a multipart POST whose `intent` comes before the file (the server reads it first). */
export function ImportUploadForm({ lastResult }: { lastResult: FormResult }) {
  const busy = usePendingIntent('upload')
  const [form, fields] = useConformForm(ImportUploadSchema, { id: 'import-employees', lastResult })
  const { t } = useTranslation('employees')
  const column = (name: string) => <strong>{name}</strong>
  return (
    <Form method="post" encType="multipart/form-data" className="flex flex-col gap-4" {...getFormProps(form)}>
      <input type="hidden" name="intent" value="upload" />
      <FormErrors id={form.errorId} errors={form.errors} />
      <Field
        label={t('import.file')}
        inputProps={{ ...getInputProps(fields.file, { type: 'file' }), accept: '.csv,text/csv' }}
        errors={fields.file.errors}
        help={
          <>
            {richT(
              t,
              'import.fileHelp',
              {
                name: column('name'),
                email: column('email'),
                company: column('company'),
                phone: column('phone'),
                manager: column('manager_email'),
                department: column('department'),
                jobTitle: column('job_title'),
              },
              { rows: IMPORT_MAX_ROWS, mb: IMPORT_MAX_BYTES / 1024 / 1024 },
            )}
          </>
        }
      />
      <div className="flex flex-wrap items-center gap-4">
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {busy ? t('import.reading') : t('import.upload')}
        </button>
        <a className="link" href={TEMPLATE_HREF} download>
          {t('import.template')}
        </a>
      </div>
      <p className="text-sm text-slate-700">{t('import.uploadNote')}</p>
    </Form>
  )
}

function ProblemCounts({ counts }: { counts: ImportView['problemCounts'] }) {
  const { t } = useTranslation('employees')
  const locale = useIntlLocale()
  const entries = Object.entries(counts) as Array<[RowProblem, number]>
  if (!entries.length) return null
  return (
    <ul className="list-disc pl-5 text-sm text-slate-800">
      {entries
        .sort((a, b) => b[1] - a[1])
        .map(([code, n]) => (
          <li key={code}>
            {formatCount(n, locale)} × {t(`problemLabels.${code}`, { defaultValue: code })}
          </li>
        ))}
    </ul>
  )
}

/**
 * What importing a valid row will do. A colleague's account (someone who only gave feedback) turning
 * into an employee's is said out loud, as is a name in the file that differs from the account's:
 * the account keeps its own unless the admin ticks "update names".
 */
function ReadyNote({ row }: { row: ImportRowView }) {
  const { t } = useTranslation('employees')
  const { account } = row
  if (!account) return <>{t('import.readyNew')}</>
  const keepsName =
    account.name && account.name !== row.name ? t('import.keepsName', { name: account.name }) : ''
  if (account.role === 'colleague')
    return (
      <p className="rounded-md bg-amber-50 px-2 py-1 text-amber-900">
        {t('import.readyColleague', { company: row.company ?? row.companyName }) + keepsName}
      </p>
    )
  return <>{t('import.readyEmployee') + keepsName}</>
}

/**
 * The row's manager, department and job title, one per line, each named: one column instead of
 * three, and an address may wrap anywhere, so the table stays as narrow as it can.
 */
function OrgCell({ row }: { row: ImportRowView }) {
  const { t } = useTranslation('employees')
  const items = [
    row.managerEmail ? ([t('import.manager'), row.managerEmail] as const) : null,
    row.department ? ([t('import.department'), row.department] as const) : null,
    row.jobTitle ? ([t('import.jobTitle'), row.jobTitle] as const) : null,
  ].filter((item) => item !== null)
  if (!items.length) return <Cell className="text-slate-700">—</Cell>
  return (
    <Cell className="min-w-40 wrap-anywhere">
      <ul className="flex flex-col gap-1">
        {items.map(([label, value]) => (
          <li key={label}>
            <span className="text-slate-700">{t('import.labelled', { label })}</span>
            {value}
          </li>
        ))}
      </ul>
    </Cell>
  )
}

function RowsTable({
  view,
  page,
  show,
  href,
}: {
  view: ImportView
  page: ImportRowsPage
  show: 'all' | 'problems'
  href: HrefFor
}) {
  const { t } = useTranslation('employees')
  const imported = Boolean(view.importedAt)
  return (
    <section aria-labelledby="rows-title" className="flex flex-col gap-3">
      <h3 id="rows-title" className="text-base font-semibold">
        {show === 'problems' ? t('import.rowsWithProblems') : t('import.everyRow')}
      </h3>
      <nav aria-label={t('import.whichRows')} className="flex flex-wrap gap-3 text-sm">
        {show === 'problems' ? (
          <Link className="link" to={href({ show: null, after: null, before: null })}>
            {t('import.showEvery', { count: view.rows })}
          </Link>
        ) : view.problemRows ? (
          <Link className="link" to={href({ show: 'problems', after: null, before: null })}>
            {t('import.showProblems', { count: view.problemRows })}
          </Link>
        ) : null}
      </nav>
      <DataTable
        caption={t(show === 'problems' ? 'import.captionProblems' : 'import.captionRows', {
          file: view.fileName,
        })}
        columns={[
          t('import.line'),
          t('import.name'),
          t('import.email'),
          t('import.company'),
          t('import.phone'),
          ...(view.hasOrgData ? [t('import.org')] : []),
          imported ? t('import.result') : t('import.check'),
        ]}
        rows={page.rows}
        empty={t('import.noRow')}
      >
        {(row) => (
          <tr key={row.line} className={row.problems.length ? 'bg-red-50/60' : undefined}>
            <RowHeader>{row.line}</RowHeader>
            <Cell>{row.name}</Cell>
            <Cell>{row.email}</Cell>
            <Cell>{row.companyName}</Cell>
            <Cell>{row.phone}</Cell>
            {view.hasOrgData ? <OrgCell row={row} /> : null}
            <Cell className="min-w-56">
              {row.problems.length ? (
                <ul className="flex flex-col gap-1 text-red-900">
                  {imported ? <li className="font-semibold">{t('import.skippedColon')}</li> : null}
                  {row.problems.map((p) => (
                    <li key={p}>{p}</li>
                  ))}
                </ul>
              ) : imported ? (
                row.outcome ? (
                  t(`import.outcome.${row.outcome}`)
                ) : (
                  '—'
                )
              ) : (
                <ReadyNote row={row} />
              )}
            </Cell>
          </tr>
        )}
      </DataTable>
      <ListPagination
        noun={t('import.rowsNoun')}
        prev={page.prev === null ? null : String(page.prev)}
        next={page.next === null ? null : String(page.next)}
        href={href}
      />
    </section>
  )
}

/** The preview of an uploaded file (checked, not yet imported), or the summary of an imported one. */
export function ImportPanel({
  view,
  page,
  show,
  href,
  listHref,
  importResult,
  discardResult,
}: {
  view: ImportView
  page: ImportRowsPage
  show: 'all' | 'problems'
  href: HrefFor
  listHref: string
  importResult: FormResult
  discardResult: FormResult
}) {
  const { t } = useTranslation('employees')
  const valid = view.rows - view.problemRows
  const importing = usePendingIntent('import')
  const discarding = usePendingIntent('discard')
  const [form, fields] = useConformForm(ImportRunSchema, {
    id: 'run-import',
    defaultValue: { importId: view.id, schemeId: '' },
    lastResult: importResult,
  })
  const [discardForm] = useResultForm('discard-import', discardResult)
  const summary = view.importedAt ? view.summary : null

  return (
    <section aria-labelledby="import-title" className="flex flex-col gap-6">
      <div className="card flex flex-col gap-4">
        <h2 id="import-title" className="text-lg font-semibold">
          {t(summary ? 'import.imported' : 'import.preview', { file: view.fileName })}
        </h2>
        {summary ? (
          <div role="status" className="flex flex-col gap-2">
            <p className="text-slate-800">
              {t('import.summary', {
                created: summary.created,
                updated: summary.updated,
                unchanged: summary.unchanged,
                skipped: summary.skipped,
              })}
            </p>
            {summary.schemeName ? (
              <p className="text-slate-800">
                {t('import.enrolled', { enrolled: summary.enrolled, scheme: summary.schemeName })}
              </p>
            ) : null}
          </div>
        ) : (
          <p className="text-slate-800">
            {t('import.read', {
              rows: view.rows,
              valid,
              fresh: valid - view.existingRows,
              existing: view.existingRows,
              colleagues: view.colleagueRows,
              problems: view.problemRows,
            })}
          </p>
        )}
        {view.problemRows ? (
          <div className="flex flex-col gap-2">
            <p className="text-sm font-semibold text-slate-900">
              {summary ? t('import.whySkipped') : t('import.problemsFound')}
            </p>
            <ProblemCounts counts={view.problemCounts} />
            <p className="text-sm">
              <a className="link" href={errorReportHref(view.id)} download>
                {t('import.downloadProblems')}
              </a>
              {t('import.fixAndUpload')}
            </p>
          </div>
        ) : null}

        {summary ? (
          <div className="flex flex-col gap-3">
            {/* An import posted from an out-of-date tab: the form is gone, its answer is shown here. */}
            <FormErrors errors={formErrorsOf(importResult)} />
            <div>
              <Link className="btn btn-primary" to={listHref}>
                {t('import.back')}
              </Link>
            </div>
          </div>
        ) : (
          <div className="flex flex-col gap-4">
            <Form method="post" className="flex flex-col gap-4" {...getFormProps(form)}>
              <input type="hidden" name="intent" value="import" />
              <input type="hidden" name="importId" value={view.id} />
              <FormErrors id={form.errorId} errors={form.errors} />
              {view.existingRows ? (
                <div className="flex flex-col gap-1">
                  <div className="flex items-start gap-2">
                    <input
                      {...getInputProps(fields.updateNames, { type: 'checkbox' })}
                      aria-describedby={`${fields.updateNames.id}-help`}
                      className="mt-1 h-4 w-4 accent-indigo-700"
                    />
                    <label htmlFor={fields.updateNames.id} className="label">
                      {t('import.updateNames')}
                    </label>
                  </div>
                  <p id={`${fields.updateNames.id}-help`} className="text-sm text-slate-700">
                    {t('import.updateNamesHelp', { count: view.existingRows })}
                    {view.hasOrgData ? t('import.updateNamesOrg') : null}
                  </p>
                </div>
              ) : null}
              {view.schemes.length ? (
                <SelectField
                  label={t('import.enrol')}
                  selectProps={getSelectProps(fields.schemeId)}
                  options={view.schemes.map((s) => ({ value: s.id, label: `${s.name} (${s.companyName})` }))}
                  placeholder={t('import.noScheme')}
                  errors={fields.schemeId.errors}
                  help={t('import.enrolHelp')}
                />
              ) : null}
              <div className="flex flex-wrap gap-3">
                <button type="submit" className="btn btn-primary" disabled={importing || valid === 0}>
                  {importing ? t('import.importing') : t('import.importN', { count: valid })}
                </button>
              </div>
            </Form>
            <Form method="post" {...getFormProps(discardForm)} className="flex flex-col gap-2">
              <input type="hidden" name="intent" value="discard" />
              <input type="hidden" name="importId" value={view.id} />
              <FormErrors id={discardForm.errorId} errors={discardForm.errors} />
              <div className="flex flex-wrap gap-3">
                <button type="submit" className="btn btn-secondary" disabled={discarding}>
                  {discarding ? t('import.discarding') : t('import.discard')}
                </button>
              </div>
            </Form>
          </div>
        )}
      </div>
      <RowsTable view={view} page={page} show={show} href={href} />
    </section>
  )
}
