import { redirect } from 'react-router'
import type { Route } from './+types/answer-management'
import { ListPagination, useListHref } from '#app/components/admin-list'
import { Notices, PageHeader, resultFor } from '#app/components/form-kit'
import { unreadableForm } from '#app/lib/form-data.server'
import { submitIntent } from '#app/lib/reply.server'
import { requireUser } from '#app/modules/auth/guards.server'
import { ROUTE_ROLES } from '#app/modules/auth/permissions'
import {
  listFilterOptions,
  listResponses,
  revealAllowed,
} from '#app/modules/response/response.server'
import { authoriseIdentityExport } from '#app/modules/response/export.server'
import {
  ExportForm,
  ResponseFilters,
  ResponseTable,
} from '#app/modules/response/components/response-list'
import { ExportIdentitiesSchema, isFiltered, parseResponseFilters } from '#app/modules/response/schemas'
import type { RouteHandle } from '#app/root'

export const handle: RouteHandle = { layout: 'admin', transition: true }

export const meta: Route.MetaFunction = () => [{ title: 'Answer management · Panorama admin' }]

const PATH = '/admin/answer-management'

/**
 * The responses (DESIGN.md §7, ADR 023): filtered by scheme, company, questionnaire, subject,
 * relationship and state, all in the URL, keyset-paginated; the respondent shows as their
 * relationship only, with days rather than instants (ADR 024). Two statements whatever the data:
 * the page and the filters' choices.
 */
export async function loader({ request }: Route.LoaderArgs) {
  await requireUser(request, { roles: ROUTE_ROLES.admin })
  const { query, problems } = parseResponseFilters(new URL(request.url).searchParams)
  const [page, options] = await Promise.all([listResponses(query), listFilterOptions(query)])
  const notices = [...problems]
  if (page.staleCursor) notices.push('That page link is out of date, so the first page is shown.')
  return { query, page, ...options, notices, identitiesAllowed: revealAllowed() }
}

/**
 * The export with names (ADR 024): the reason is recorded, then the browser is sent to the download
 * with a short-lived grant. Reopen lives on a response's page.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const { user } = await requireUser(request, { roles: ROUTE_ROLES.admin })
  const formData = await request.formData().catch(() => null)
  if (!formData) return unreadableForm()
  const intent = formData.get('intent')
  if (intent === 'export-identities')
    return submitIntent(
      formData,
      intent,
      ExportIdentitiesSchema,
      (value) => authoriseIdentityExport({ id: user.id, ip: context.ip || null }, value),
      ({ href }) => redirect(href),
    )
  return unreadableForm()
}

export default function AnswerManagement({ loaderData, actionData }: Route.ComponentProps) {
  const href = useListHref(PATH)
  const { query, page, companies, schemes, schemesNeedCompany, questionnaires, notices, identitiesAllowed } =
    loaderData
  return (
    <section aria-labelledby="page-title" className="flex max-w-6xl flex-col gap-8">
      <PageHeader title="Answer management">
        Every response, without the respondents’ names: open one to read it or reopen it, or export the
        answers.
      </PageHeader>
      <Notices notices={notices} />
      <section aria-labelledby="list-title" className="flex flex-col gap-4">
        <h2 id="list-title" className="text-lg font-semibold">
          Responses
        </h2>
        <ResponseFilters
          path={PATH}
          query={query}
          companies={companies}
          schemes={schemes}
          schemesNeedCompany={schemesNeedCompany}
          questionnaires={questionnaires}
        />
        <ResponseTable rows={page.rows} path={PATH} filtered={isFiltered(query)} />
        <ListPagination noun="responses" next={page.next} prev={page.prev} href={href} />
      </section>
      <ExportForm
        query={query}
        identitiesAllowed={identitiesAllowed}
        lastResult={resultFor(actionData, 'export-identities')}
      />
    </section>
  )
}
