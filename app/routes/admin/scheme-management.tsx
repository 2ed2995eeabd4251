import { Link } from 'react-router'
import type { Route } from './+types/scheme-management'
import { UnknownIntentErrors, useListHref } from '#app/components/admin-list'
import { resultFor } from '#app/components/form-kit'
import { Notices, PageHeader } from '#app/components/page-kit'
import { Card } from '#app/components/card'
import { dispatchIntent, intent } from '#app/lib/reply.server'
import { requireUser } from '#app/modules/auth/guards.server'
import { ROUTE_ROLES } from '#app/modules/auth/permissions'
import { CreateSchemeForm } from '#app/modules/scheme/components/scheme-forms'
import { SchemeList } from '#app/modules/scheme/components/scheme-list'
import { createScheme } from '#app/modules/scheme/scheme.server'
import { loadSchemeList } from '#app/modules/scheme/scheme-list.server'
import { parseSchemeListQuery, SchemeCreateSchema, schemeInputOf } from '#app/modules/scheme/schemas'
import { redirectWithToast } from '#app/modules/toast/toast.server'
import { requireAdminForm } from './admin-action.server'
import { ADMIN_HANDLE, adminTitle } from './admin-meta'

export const handle = ADMIN_HANDLE

export const meta: Route.MetaFunction = () => adminTitle('Scheme management')

const PATH = '/admin/scheme-management'

/**
 * The schemes page: every scheme with its phase, company, dates and progress (one statement per
 * page), searchable by name, filtered by company, phase and questionnaire version (the questionnaire
 * pages link here with it), sorted and keyset-paginated; and the
 * create form. A new scheme opens on its own page, where people are enrolled and it is launched.
 */
export async function loader({ request }: Route.LoaderArgs) {
  await requireUser(request, { roles: ROUTE_ROLES.admin })
  const { query, problems } = parseSchemeListQuery(new URL(request.url).searchParams)
  return await loadSchemeList(query, problems)
}

export async function action({ request, context }: Route.ActionArgs) {
  const { actor, formData } = await requireAdminForm(request, context)
  return dispatchIntent(formData, {
    create: intent(
      SchemeCreateSchema,
      (value) => createScheme(actor, schemeInputOf(value)),
      ({ id }, input) =>
        redirectWithToast(`${PATH}/${id}`, {
          kind: 'success',
          title: 'Scheme created',
          description: `“${input.name}” is a draft. Enrol its people, then launch it.`,
        }),
    ),
  })
}

export default function SchemeManagement({ loaderData, actionData }: Route.ComponentProps) {
  const { options, defaults, notices } = loaderData
  const href = useListHref(PATH)
  const ready = options.companies.length > 0 && options.questionnaires.length > 0

  return (
    <section aria-labelledby="page-title" className="flex max-w-6xl flex-col gap-8">
      <PageHeader title="Schemes">
        Feedback programmes: a company’s employees answer a questionnaire about themselves and invite
        colleagues to answer it about them, between two dates.
      </PageHeader>
      <Notices notices={notices} />
      <UnknownIntentErrors actionData={actionData} />

      <SchemeList data={loaderData} path={PATH} href={href} />

      <Card id="create-title" sectionId="new-scheme" title="Create a scheme">
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
      </Card>
    </section>
  )
}
