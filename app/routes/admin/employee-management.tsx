import type { SubmissionResult } from '@conform-to/react'
import { useTranslation } from 'react-i18next'
import { data, Link } from 'react-router'
import type { Route } from './+types/employee-management'
import { UnknownIntentErrors, useListHref } from '#app/components/admin-list'
import { resultFor } from '#app/components/form-kit'
import { Notices, PageHeader } from '#app/components/page-kit'
import { readFormData } from '#app/lib/form-data.server'
import { listHref as listHrefOf } from '#app/lib/list-page.server'
import type { Refusal } from '#app/lib/outcome'
import { dispatchIntent, intent } from '#app/lib/reply.server'
import { notFound, requireUser } from '#app/modules/auth/guards.server'
import { ROUTE_ROLES } from '#app/modules/auth/permissions'
import { AddEmployees, EmployeeList } from '#app/modules/employee/components/employee-list'
import { ImportPanel } from '#app/modules/employee/components/import-panel'
import { createEmployee } from '#app/modules/employee/employee.server'
import { loadEmployeeList } from '#app/modules/employee/employee-list.server'
import {
  discardPreview,
  getImportRows,
  getImportView,
  runImport,
  uploadEmployeeCsv,
} from '#app/modules/employee/import.server'
import {
  ImportDiscardSchema,
  ImportRunSchema,
  ImportViewQuerySchema,
} from '#app/modules/employee/import-schemas'
import { EmployeeCreateSchema, parseEmployeeListQuery } from '#app/modules/employee/schemas'
import type { Outcome } from '#app/lib/outcome'
import { getFixedT } from '#app/modules/i18n/i18n.server'
import { redirectWithToast } from '#app/modules/toast/toast.server'
import type { RouteHandle } from '#app/root'
import { requireAdminActor, sayRefusal } from './admin-action.server'
import { ADMIN_HANDLE, adminTitleT } from './admin-meta'

export const handle: RouteHandle = { ...ADMIN_HANDLE, i18n: 'employees' }

export const meta: Route.MetaFunction = ({ matches }) => adminTitleT(matches, 'employees:metaTitle')

const PATH = '/admin/employee-management'

/**
 * The employees: a searchable, filterable, sortable, keyset-paginated list, a form to add one, and
 * the CSV import (upload → `?import=<id>` preview → import → the same address shows the summary).
 * Every state lives in the URL and every form is a plain POST, so the page works without JavaScript.
 */
export async function loader({ request }: Route.LoaderArgs) {
  await requireUser(request, { roles: ROUTE_ROLES.admin })
  const url = new URL(request.url)
  if (url.searchParams.has('import')) {
    const query = ImportViewQuerySchema.parse(Object.fromEntries(url.searchParams))
    const view = await getImportView(query.import)
    if (!view) notFound()
    const t = await getFixedT(request, 'employees')
    const page = await getImportRows(view.id, query, (key, values) => t(key, values))
    return { mode: 'import' as const, view, page, show: query.show }
  }
  return await loadEmployeeList(parseEmployeeListQuery(url.searchParams))
}

/** The list as it was (search, filters, sort), without the page's other states. */
const listHref = (request: Request) => listHrefOf(request, PATH, ['import', 'show', 'after', 'before'])

/** A refused upload: its messages on the upload form (the file was never a Conform submission). */
function replyUploadRefused(refusal: Refusal) {
  const error: Record<string, string[]> = { ...refusal.fieldErrors }
  if (refusal.formErrors?.length) error[''] = refusal.formErrors
  const result: SubmissionResult<string[]> = { status: 'error', error }
  return data({ intent: 'upload' as const, result }, { status: 400 })
}

export async function action({ request, context }: Route.ActionArgs) {
  const { actor } = await requireAdminActor(request, context)
  const t = await getFixedT(request, 'employees')
  const said = <T,>(outcome: Outcome<T>) => sayRefusal(request, 'employees', outcome)

  // The CSV upload is the one multipart form: its body is read as a stream, never whole.
  if (/^multipart\/form-data/i.test(request.headers.get('content-type') ?? '')) {
    const outcome = await uploadEmployeeCsv(actor, request)
    if (!outcome.ok) return replyUploadRefused(outcome)
    const { importId, rows, problemRows } = outcome.value
    return redirectWithToast(`${PATH}?import=${importId}`, {
      kind: problemRows ? 'info' : 'success',
      title: t('toast.fileRead'),
      description: t('toast.fileReadText', { rows, problems: problemRows }),
    })
  }

  return dispatchIntent(await readFormData(request), {
    create: intent(
      EmployeeCreateSchema,
      async (input) => said(await createEmployee(actor, input)),
      ({ id, promoted }, input) =>
        redirectWithToast(`${PATH}/${id}`, {
          kind: 'success',
          title: t('toast.added'),
          description: t(promoted ? 'toast.promotedText' : 'toast.addedText', { name: input.name }),
        }),
    ),
    import: intent(
      ImportRunSchema,
      async ({ importId, schemeId, updateNames }) =>
        said(await runImport(actor, importId, schemeId, { updateNames })),
      (summary, { importId }) =>
        redirectWithToast(`${PATH}?import=${importId}`, {
          kind: 'success',
          title: t('toast.imported'),
          description: t('toast.importedText', {
            created: summary.created,
            updated: summary.updated,
            unchanged: summary.unchanged,
            skipped: summary.skipped,
          }),
        }),
    ),
    discard: intent(
      ImportDiscardSchema,
      ({ importId }) => discardPreview(actor, importId),
      ({ fileName }) =>
        redirectWithToast(listHref(request), {
          kind: 'info',
          title: t('toast.discarded'),
          description: t('toast.discardedText', { file: fileName }),
        }),
    ),
  })
}

export default function EmployeeManagement({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation('employees')
  const href = useListHref(PATH)
  if (loaderData.mode === 'import') {
    const { view, page, show } = loaderData
    return (
      <section aria-labelledby="page-title" className="flex max-w-6xl flex-col gap-6">
        <PageHeader title={t('title')}>
          <Link className="link" to={PATH}>
            {t('backToList')}
          </Link>
        </PageHeader>
        <UnknownIntentErrors actionData={actionData} />
        <ImportPanel
          view={view}
          page={page}
          show={show}
          href={href}
          listHref={PATH}
          importResult={resultFor(actionData, 'import')}
          discardResult={resultFor(actionData, 'discard')}
        />
      </section>
    )
  }
  const { companies, notices } = loaderData
  return (
    <section aria-labelledby="page-title" className="flex max-w-6xl flex-col gap-8">
      <PageHeader title={t('title')}>{t('intro')}</PageHeader>
      <Notices notices={notices} />
      <UnknownIntentErrors actionData={actionData} />
      <AddEmployees companies={companies} actionData={actionData} />
      <EmployeeList data={loaderData} path={PATH} href={href} />
    </section>
  )
}
