import { Link } from 'react-router'
import { ListPagination, useListHref } from '#app/components/admin-list'
import type { Route } from './+types/scheme-management'
import { instantToZonedTime } from '#app/lib/dates'
import { unreadableForm } from '#app/lib/form-data.server'
import { submitIntent } from '#app/lib/reply.server'
import { formErrorsOf, Notices, PageHeader, resultFor } from '#app/components/form-kit'
import { FormErrors } from '#app/components/forms'
import { requireUser } from '#app/modules/auth/guards.server'
import { ROUTE_ROLES } from '#app/modules/auth/permissions'
import { CreateSchemeForm } from '#app/modules/scheme/components/scheme-forms'
import { SchemeFilters, SchemeTable } from '#app/modules/scheme/components/scheme-list'
import { createScheme, getSchemeFormOptions, listSchemes } from '#app/modules/scheme/scheme.server'
import { parseSchemeListQuery, SchemeCreateSchema, schemeInputOf } from '#app/modules/scheme/schemas'
import { redirectWithToast } from '#app/modules/toast/toast.server'
import type { RouteHandle } from '#app/root'

export const handle: RouteHandle = { layout: 'admin', transition: true }

export const meta: Route.MetaFunction = () => [{ title: 'Scheme management · Panorama admin' }]

const PATH = '/admin/scheme-management'
const DAY = 24 * 60 * 60 * 1000

/**
 * The schemes page: every scheme with its phase, company, dates and progress (one statement per
 * page), searchable by name, filtered by company and phase, sorted and keyset-paginated; and the
 * create form. A new scheme opens on its own page, where people are enrolled and it is launched.
 */
export async function loader({ request }: Route.LoaderArgs) {
  await requireUser(request, { roles: ROUTE_ROLES.admin })
  const query = parseSchemeListQuery(new URL(request.url).searchParams)
  const [page, options] = await Promise.all([listSchemes(query), getSchemeFormOptions()])
  // A suggestion for a new scheme: from tomorrow 09:00 to four weeks later 17:00 (UTC until changed).
  const tomorrow = new Date(Date.now() + DAY)
  return {
    query: { q: query.q, company: query.company ?? '', phase: query.phase ?? '', sort: query.sort },
    page,
    options,
    defaults: {
      timeZone: 'UTC',
      opensAt: `${instantToZonedTime(tomorrow, 'UTC').slice(0, 10)}T09:00`,
      closesAt: `${instantToZonedTime(new Date(tomorrow.getTime() + 28 * DAY), 'UTC').slice(0, 10)}T17:00`,
    },
    notices: page.staleCursor ? ['That page link is out of date, so the first page is shown.'] : [],
  }
}

export async function action({ request, context }: Route.ActionArgs) {
  const { user } = await requireUser(request, { roles: ROUTE_ROLES.admin })
  const formData = await request.formData().catch(() => null)
  if (!formData || formData.get('intent') !== 'create') return unreadableForm()
  const actor = { id: user.id, ip: context.ip || null }
  return submitIntent(
    formData,
    'create',
    SchemeCreateSchema,
    (value) => createScheme(actor, schemeInputOf(value)),
    ({ id }, input) =>
      redirectWithToast(`${PATH}/${id}`, {
        kind: 'success',
        title: 'Scheme created',
        description: `“${input.name}” is a draft. Enrol its people, then launch it.`,
      }),
  )
}

export default function SchemeManagement({ loaderData, actionData }: Route.ComponentProps) {
  const { page, query, options, defaults, notices } = loaderData
  const href = useListHref(PATH)
  const unknownErrors = actionData?.intent === 'unknown' ? formErrorsOf(actionData.result) : undefined
  const ready = options.companies.length > 0 && options.questionnaires.length > 0
  const filtered = Boolean(query.q || query.company || query.phase)

  return (
    <section aria-labelledby="page-title" className="flex max-w-6xl flex-col gap-8">
      <PageHeader title="Schemes">
        Feedback programmes: a company’s employees answer a questionnaire about themselves and invite
        colleagues to answer it about them, between two dates.
      </PageHeader>
      <Notices notices={notices} />
      <FormErrors errors={unknownErrors} />

      <section aria-labelledby="list-title" className="flex flex-col gap-4">
        <h2 id="list-title" className="text-lg font-semibold">
          All schemes
        </h2>
        <SchemeFilters path={PATH} query={query} companies={options.companies} />
        {page.rows.length ? (
          <SchemeTable rows={page.rows} />
        ) : (
          <p className="card text-slate-700">
            {filtered
              ? 'No scheme matches this search and these filters.'
              : ready
                ? 'There are no schemes yet. Create the first one below.'
                : 'There are no schemes yet. A scheme needs a company and a published questionnaire first (see below).'}
          </p>
        )}
        <ListPagination noun="schemes" next={page.next} prev={page.prev} href={href} />
      </section>

      <section aria-labelledby="create-title" id="new-scheme" className="card flex flex-col gap-4">
        <h2 id="create-title" className="text-lg font-semibold">
          Create a scheme
        </h2>
        {ready ? (
          <CreateSchemeForm
            options={options}
            defaults={defaults}
            lastResult={resultFor(actionData, 'create')}
          />
        ) : (
          <div className="flex flex-col gap-2 text-slate-700">
            <p>A scheme runs one questionnaire for one company’s employees. Before creating one:</p>
            <ul className="list-disc pl-6">
              {options.companies.length ? null : (
                <li>
                  <Link className="link" to="/admin/company-management">
                    Add a company
                  </Link>{' '}
                  (its employees take part).
                </li>
              )}
              {options.questionnaires.length ? null : (
                <li>
                  <Link className="link" to="/admin/questionnaire-management">
                    Publish a questionnaire
                  </Link>{' '}
                  (what they answer).
                </li>
              )}
            </ul>
          </div>
        )}
      </section>
    </section>
  )
}
