import { getFormProps, getInputProps, getSelectProps } from '@conform-to/react'
import { Form, Link } from 'react-router'
import { plural } from '#app/lib/words'
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
  ROW_PROBLEM_LABELS,
  type ImportRowsPage,
  type ImportRowView,
  type ImportView,
  type RowOutcome,
  type RowProblem,
} from '#app/modules/employee/import-schemas'

export const TEMPLATE_HREF = '/admin/employee-management/template.csv'
export const errorReportHref = (importId: string) =>
  `/admin/employee-management/imports/${importId}/problems.csv`

/** The upload form: a multipart POST whose `intent` comes before the file (the server reads it first). */
export function ImportUploadForm({ lastResult }: { lastResult: FormResult }) {
  const busy = usePendingIntent('upload')
  const [form, fields] = useConformForm(ImportUploadSchema, { id: 'import-employees', lastResult })
  return (
    <Form method="post" encType="multipart/form-data" className="flex flex-col gap-4" {...getFormProps(form)}>
      <input type="hidden" name="intent" value="upload" />
      <FormErrors id={form.errorId} errors={form.errors} />
      <Field
        label="CSV file"
        inputProps={{ ...getInputProps(fields.file, { type: 'file' }), accept: '.csv,text/csv' }}
        errors={fields.file.errors}
        help={
          <>
            One employee per line, under a header naming the columns <strong>name</strong>,{' '}
            <strong>email</strong>, <strong>company</strong> and, optionally, <strong>phone</strong>,{' '}
            <strong>manager_email</strong>, <strong>department</strong> and <strong>job_title</strong> (in any
            order, any case). Commas or semicolons; UTF-8. Up to {IMPORT_MAX_ROWS.toLocaleString('en-GB')}{' '}
            rows and {IMPORT_MAX_BYTES / 1024 / 1024} MB. The company must exist already; a manager is given
            by their e-mail address and must be an employee of the same company, already or on another line of
            the file.
          </>
        }
      />
      <div className="flex flex-wrap items-center gap-4">
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {busy ? 'Reading the file…' : 'Upload and preview'}
        </button>
        <a className="link" href={TEMPLATE_HREF} download>
          Download the template (CSV)
        </a>
      </div>
      <p className="text-sm text-slate-700">
        Nothing is imported until you have checked the preview. Importing the same file again never adds
        anyone twice, and people who already have an account keep their name and phone unless you choose to
        update them. A manager, department or job title in the file replaces the person’s; an empty cell
        leaves what they have. No e-mail is sent: people get their activation e-mail when their scheme is
        launched.
      </p>
    </Form>
  )
}

const OUTCOME_LABELS: Record<RowOutcome, string> = {
  created: 'Created',
  updated: 'Updated',
  unchanged: 'Unchanged',
  skipped: 'Skipped',
}

function ProblemCounts({ counts }: { counts: ImportView['problemCounts'] }) {
  const entries = Object.entries(counts) as Array<[RowProblem, number]>
  if (!entries.length) return null
  return (
    <ul className="list-disc pl-5 text-sm text-slate-800">
      {entries
        .sort((a, b) => b[1] - a[1])
        .map(([code, n]) => (
          <li key={code}>
            {n.toLocaleString('en-GB')} × {ROW_PROBLEM_LABELS[code] ?? code}
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
  const { account } = row
  if (!account) return <>Ready: new employee</>
  const keepsName =
    account.name && account.name !== row.name
      ? ` Keeps the name “${account.name}” unless you update names.`
      : ''
  if (account.role === 'colleague')
    return (
      <p className="rounded-md bg-amber-50 px-2 py-1 text-amber-900">
        {`Ready: already has an account as a colleague; becomes an employee of ${row.company ?? row.companyName}.${keepsName}`}
      </p>
    )
  return <>{`Ready: already an employee.${keepsName}`}</>
}

/**
 * The row's manager, department and job title, one per line, each named: one column instead of
 * three, and an address may wrap anywhere, so the table stays as narrow as it can.
 */
function OrgCell({ row }: { row: ImportRowView }) {
  const items = [
    row.managerEmail ? (['Manager', row.managerEmail] as const) : null,
    row.department ? (['Department', row.department] as const) : null,
    row.jobTitle ? (['Job title', row.jobTitle] as const) : null,
  ].filter((item) => item !== null)
  if (!items.length) return <Cell className="text-slate-700">—</Cell>
  return (
    <Cell className="min-w-40 wrap-anywhere">
      <ul className="flex flex-col gap-1">
        {items.map(([label, value]) => (
          <li key={label}>
            <span className="text-slate-700">{`${label}: `}</span>
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
  const imported = Boolean(view.importedAt)
  return (
    <section aria-labelledby="rows-title" className="flex flex-col gap-3">
      <h3 id="rows-title" className="text-base font-semibold">
        {show === 'problems' ? 'Rows with problems' : 'Every row'}
      </h3>
      <nav aria-label="Which rows" className="flex flex-wrap gap-3 text-sm">
        {show === 'problems' ? (
          <Link className="link" to={href({ show: null, after: null, before: null })}>
            {`Show every row (${view.rows.toLocaleString('en-GB')})`}
          </Link>
        ) : view.problemRows ? (
          <Link className="link" to={href({ show: 'problems', after: null, before: null })}>
            {`Show only the rows with problems (${view.problemRows.toLocaleString('en-GB')})`}
          </Link>
        ) : null}
      </nav>
      <DataTable
        caption={`${show === 'problems' ? 'Rows with problems' : 'Rows'} of ${view.fileName}`}
        columns={[
          'Line',
          'Name',
          'E-mail',
          'Company',
          'Phone',
          ...(view.hasOrgData ? ['Manager, department, job title'] : []),
          imported ? 'Result' : 'Check',
        ]}
        rows={page.rows}
        empty="No row to show."
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
                  {imported ? <li className="font-semibold">Skipped:</li> : null}
                  {row.problems.map((p) => (
                    <li key={p}>{p}</li>
                  ))}
                </ul>
              ) : imported ? (
                row.outcome ? (
                  OUTCOME_LABELS[row.outcome]
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
        noun="rows"
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
          {summary ? `Imported “${view.fileName}”` : `Preview of “${view.fileName}”`}
        </h2>
        {summary ? (
          <div role="status" className="flex flex-col gap-2">
            <p className="text-slate-800">
              {`${plural(summary.created, 'employee created', 'employees created')}, ` +
                `${plural(summary.updated, 'updated', 'updated')}, ` +
                `${plural(summary.unchanged, 'unchanged', 'unchanged')}, ` +
                `${plural(summary.skipped, 'row skipped', 'rows skipped')}.`}
            </p>
            {summary.schemeName ? (
              <p className="text-slate-800">
                {`${plural(summary.enrolled, 'person', 'people')} newly enrolled into “${summary.schemeName}”. ` +
                  'They get their activation e-mail when it is launched.'}
              </p>
            ) : null}
          </div>
        ) : (
          <p className="text-slate-800">
            {`${plural(view.rows, 'row', 'rows')} read: ${plural(valid, 'row is', 'rows are')} ready to import ` +
              `(${plural(valid - view.existingRows, 'new employee', 'new employees')}, ` +
              `${plural(view.existingRows, 'existing account', 'existing accounts')}` +
              (view.colleagueRows
                ? `, of which ${plural(view.colleagueRows, 'colleague becomes an employee', 'colleagues become employees')}`
                : '') +
              `), and ${plural(view.problemRows, 'row has', 'rows have')} problems and will be skipped.`}
          </p>
        )}
        {view.problemRows ? (
          <div className="flex flex-col gap-2">
            <p className="text-sm font-semibold text-slate-900">
              {summary ? 'Why rows were skipped:' : 'Problems found:'}
            </p>
            <ProblemCounts counts={view.problemCounts} />
            <p className="text-sm">
              <a className="link" href={errorReportHref(view.id)} download>
                Download the rows with problems (CSV)
              </a>{' '}
              — fix them in that file and upload it again.
            </p>
          </div>
        ) : null}

        {summary ? (
          <div className="flex flex-col gap-3">
            {/* An import posted from an out-of-date tab: the form is gone, its answer is shown here. */}
            <FormErrors errors={formErrorsOf(importResult)} />
            <div>
              <Link className="btn btn-primary" to={listHref}>
                Back to the employees
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
                      Update names (and phones) of existing people
                    </label>
                  </div>
                  <p id={`${fields.updateNames.id}-help`} className="text-sm text-slate-700">
                    Off: the {plural(view.existingRows, 'person', 'people')} who already{' '}
                    {view.existingRows === 1 ? 'has' : 'have'} an account keep the name and phone they have.
                    On: they take the file’s.
                    {view.hasOrgData
                      ? ' Either way, a manager, department or job title in the file replaces theirs; an empty cell leaves what they have.'
                      : null}
                  </p>
                </div>
              ) : null}
              {view.schemes.length ? (
                <SelectField
                  label="Also enrol them into a scheme (optional)"
                  selectProps={getSelectProps(fields.schemeId)}
                  options={view.schemes.map((s) => ({ value: s.id, label: `${s.name} (${s.companyName})` }))}
                  placeholder="No scheme"
                  errors={fields.schemeId.errors}
                  help="Draft schemes of the companies in this file. Only that company’s employees are enrolled."
                />
              ) : null}
              <div className="flex flex-wrap gap-3">
                <button type="submit" className="btn btn-primary" disabled={importing || valid === 0}>
                  {importing ? 'Importing…' : `Import ${plural(valid, 'employee', 'employees')}`}
                </button>
              </div>
            </Form>
            <Form method="post" {...getFormProps(discardForm)} className="flex flex-col gap-2">
              <input type="hidden" name="intent" value="discard" />
              <input type="hidden" name="importId" value={view.id} />
              <FormErrors id={discardForm.errorId} errors={discardForm.errors} />
              <div className="flex flex-wrap gap-3">
                <button type="submit" className="btn btn-secondary" disabled={discarding}>
                  {discarding ? 'Discarding…' : 'Discard this file'}
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
