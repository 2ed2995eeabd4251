import { Link } from 'react-router'
import type { Route } from './+types/admin-management'
import { ListPagination, ListSearchForm, useListHref } from '#app/components/admin-list'
import { formErrorsOf, Notices, PageHeader, resultFor } from '#app/components/form-kit'
import { FormErrors } from '#app/components/forms'
import { readFormData, unreadableForm } from '#app/lib/form-data.server'
import { submitIntent } from '#app/lib/reply.server'
import { inviteAdmin, listAdmins } from '#app/modules/administrator/administrator.server'
import { AdminStateBadge, InviteAdminForm } from '#app/modules/administrator/components/admin-forms'
import {
  ADMIN_SORT_LABELS,
  ADMIN_SORTS,
  AdminInviteSchema,
  parseAdminListQuery,
} from '#app/modules/administrator/schemas'
import { requireUser } from '#app/modules/auth/guards.server'
import { ROUTE_ROLES } from '#app/modules/auth/permissions'
import { redirectWithToast } from '#app/modules/toast/toast.server'
import type { RouteHandle } from '#app/root'

export const handle: RouteHandle = { layout: 'admin', transition: true }

export const meta: Route.MetaFunction = () => [{ title: 'Administrators · Panorama admin' }]

const PATH = '/admin/admin-management'

/** The administrators: a searchable, keyset-paginated list and the invitation form. */
export async function loader({ request }: Route.LoaderArgs) {
  const { user } = await requireUser(request, { roles: ROUTE_ROLES.admin })
  const query = parseAdminListQuery(new URL(request.url).searchParams)
  const page = await listAdmins(query)
  const notices = page.staleCursor ? ['That page link is out of date, so the first page is shown.'] : []
  return { query: { q: query.q, sort: query.sort }, page, me: user.id, notices }
}

export async function action({ request, context }: Route.ActionArgs) {
  const { user } = await requireUser(request, { roles: ROUTE_ROLES.admin })
  const formData = await readFormData(request)
  const actor = { id: user.id, ip: context.ip || null, name: user.displayName || user.email }
  const intent = formData.get('intent')
  if (intent === 'invite')
    return submitIntent(
      formData,
      intent,
      AdminInviteSchema,
      (input) => inviteAdmin(actor, input),
      (_, input) =>
        redirectWithToast(PATH, {
          kind: 'success',
          title: 'Invitation sent',
          description: `${input.name} will get an e-mail at ${input.email} to choose their password.`,
        }),
    )
  return unreadableForm()
}

export default function AdminManagement({ loaderData, actionData }: Route.ComponentProps) {
  const { page, query, me, notices } = loaderData
  const href = useListHref(PATH)
  const unknownErrors = actionData?.intent === 'unknown' ? formErrorsOf(actionData.result) : undefined
  return (
    <section aria-labelledby="page-title" className="flex max-w-5xl flex-col gap-8">
      <PageHeader title="Administrators">
        The people who run programmes in this portal. Invite one by e-mail: they choose their own password
        from the link.
      </PageHeader>
      <Notices notices={notices} />
      <FormErrors errors={unknownErrors} />

      <section aria-labelledby="invite-title" className="card flex flex-col gap-4">
        <h2 id="invite-title" className="text-lg font-semibold">
          Invite an administrator
        </h2>
        <InviteAdminForm lastResult={resultFor(actionData, 'invite')} />
      </section>

      <section aria-labelledby="list-title" className="flex flex-col gap-4">
        <h2 id="list-title" className="text-lg font-semibold">
          All administrators
        </h2>
        <ListSearchForm
          path={PATH}
          noun="administrators"
          searchLabel="Search by name or e-mail"
          q={query.q}
          sort={query.sort}
          sorts={ADMIN_SORTS}
          sortLabels={ADMIN_SORT_LABELS}
        />
        {page.rows.length ? (
          <div className="relative overflow-x-auto rounded-xl border border-slate-200 bg-white">
            <table className="w-full text-left text-sm">
              <caption className="sr-only">
                Administrators{query.q ? ` matching “${query.q}”` : ''}, sorted by{' '}
                {ADMIN_SORT_LABELS[query.sort]}
              </caption>
              <thead className="border-b border-slate-200 bg-slate-50 text-slate-800">
                <tr>
                  <th scope="col" className="px-4 py-3 font-semibold">
                    Name
                  </th>
                  <th scope="col" className="hidden px-4 py-3 font-semibold sm:table-cell">
                    E-mail
                  </th>
                  <th scope="col" className="px-4 py-3 font-semibold">
                    State
                  </th>
                  <th scope="col" className="px-4 py-3 font-semibold">
                    Sessions
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-200">
                {page.rows.map((row) => (
                  <tr key={row.id}>
                    <th scope="row" className="px-4 py-3 font-medium text-slate-900">
                      <Link className="link" to={`${PATH}/${row.id}`}>
                        {row.name || row.email}
                      </Link>
                      {row.id === me ? <span className="ml-2 text-xs text-slate-700">(you)</span> : null}
                      {/* On a phone the e-mail goes under the name instead of a column of its own. */}
                      <span className="block font-normal break-all text-slate-700 sm:hidden">
                        {row.email}
                      </span>
                    </th>
                    <td className="hidden px-4 py-3 text-slate-800 sm:table-cell">{row.email}</td>
                    <td className="px-4 py-3">
                      <AdminStateBadge state={row.state} />
                    </td>
                    <td className="px-4 py-3 text-slate-800">{row.sessionCount}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : (
          <p className="card text-slate-700">
            {query.q
              ? `No administrator’s name or e-mail contains “${query.q}”.`
              : 'There are no administrators yet.'}
          </p>
        )}
        <ListPagination noun="administrators" next={page.next} prev={page.prev} href={href} />
      </section>
    </section>
  )
}
