import { Link } from 'react-router'
import { possessive } from '#app/lib/words'
import { ListPagination, ListSearchForm, useListHref } from '#app/components/admin-list'
import type { Route } from './+types/brand-management'
import { unreadableForm } from '#app/lib/form-data.server'
import { submitIntent } from '#app/lib/reply.server'
import { formErrorsOf, Notices, PageHeader, resultFor } from '#app/components/form-kit'
import { FormErrors } from '#app/components/forms'
import { CreateBrandForm } from '#app/modules/brand/components/brand-forms'
import { Swatch } from '#app/modules/brand/components/swatch'
import { requireUser } from '#app/modules/auth/guards.server'
import { ROUTE_ROLES } from '#app/modules/auth/permissions'
import { createBrand, listBrands } from '#app/modules/brand/brand.server'
import {
  BRAND_SORT_LABELS,
  BRAND_SORTS,
  BrandCreateSchema,
  parseBrandListQuery,
} from '#app/modules/brand/schemas'
import { redirectWithToast } from '#app/modules/toast/toast.server'
import type { RouteHandle } from '#app/root'

export const handle: RouteHandle = { layout: 'admin', transition: true }

export const meta: Route.MetaFunction = () => [{ title: 'Brand management · Panorama admin' }]

const PATH = '/admin/brand-management'

/**
 * The brands page: a searchable, sortable, keyset-paginated list (with how many companies use each
 * brand) and a quick create form. A new brand opens on its own page (`/admin/brand-management/:id`),
 * where its logo, contact links and deletion live.
 */
export async function loader({ request }: Route.LoaderArgs) {
  await requireUser(request, { roles: ROUTE_ROLES.admin })
  const query = parseBrandListQuery(new URL(request.url).searchParams)
  const page = await listBrands(query)
  return {
    query: { q: query.q, sort: query.sort },
    page,
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
    BrandCreateSchema,
    ({ intent: _intent, ...input }) => createBrand(actor, input),
    ({ id }, input) =>
      redirectWithToast(`${PATH}/${id}`, {
        kind: 'success',
        title: 'Brand created',
        description: `Add ${possessive(input.name)} logo and contact links here, or keep the defaults.`,
      }),
  )
}

export default function BrandManagement({ loaderData, actionData }: Route.ComponentProps) {
  const { page, query, notices } = loaderData
  const href = useListHref(PATH)
  const unknownErrors = actionData?.intent === 'unknown' ? formErrorsOf(actionData.result) : undefined
  return (
    <section aria-labelledby="page-title" className="flex max-w-5xl flex-col gap-8">
      <PageHeader title="Brands">
        A brand is the look and sender of the e-mails and pages a client company’s people see: name, logo,
        colours and contact links.
      </PageHeader>
      <Notices notices={notices} />
      <FormErrors errors={unknownErrors} />

      <section aria-labelledby="new-brand" className="card flex flex-col gap-4">
        <h2 id="new-brand" className="text-lg font-semibold">
          Create a brand
        </h2>
        <CreateBrandForm lastResult={resultFor(actionData, 'create')} />
      </section>

      <section aria-labelledby="list-title" className="flex flex-col gap-4">
        <h2 id="list-title" className="text-lg font-semibold">
          All brands
        </h2>
        <ListSearchForm
          path={PATH}
          noun="brands"
          q={query.q}
          sort={query.sort}
          sorts={BRAND_SORTS}
          sortLabels={BRAND_SORT_LABELS}
        />
        {page.rows.length ? (
          <div className="relative overflow-x-auto rounded-xl border border-slate-200 bg-white">
            <table className="w-full text-left text-sm">
              <caption className="sr-only">
                Brands{query.q ? ` matching “${query.q}”` : ''}, sorted by {BRAND_SORT_LABELS[query.sort]}
              </caption>
              <thead className="border-b border-slate-200 bg-slate-50 text-slate-800">
                <tr>
                  <th scope="col" className="px-4 py-3 font-semibold">
                    Name
                  </th>
                  <th scope="col" className="px-4 py-3 font-semibold">
                    Colours
                  </th>
                  <th scope="col" className="px-4 py-3 text-right font-semibold">
                    Companies
                  </th>
                  <th scope="col" className="px-4 py-3 font-semibold">
                    Created
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-200">
                {page.rows.map((row) => (
                  <tr key={row.id}>
                    <th scope="row" className="px-4 py-3 font-medium">
                      <div className="flex items-center gap-3">
                        {row.logoFileId ? (
                          // Decorative: the brand's name is the link text right beside it.
                          <img
                            src={`/files/${row.logoFileId}`}
                            alt=""
                            width={32}
                            height={32}
                            loading="lazy"
                            className="h-8 w-8 rounded object-contain"
                          />
                        ) : (
                          <span aria-hidden="true" className="h-8 w-8 rounded bg-slate-100" />
                        )}
                        <Link className="link" to={`${PATH}/${row.id}`}>
                          {row.name}
                        </Link>
                      </div>
                    </th>
                    <td className="px-4 py-3">
                      <div className="flex items-center gap-2">
                        <Swatch colour={row.primaryColor} />
                        <Swatch colour={row.accentColor} />
                        <span className="font-mono text-xs text-slate-700">
                          {row.primaryColor} / {row.accentColor}
                        </span>
                      </div>
                    </td>
                    <td className="px-4 py-3 text-right tabular-nums">{row.companyCount}</td>
                    <td className="px-4 py-3 text-slate-700">
                      <time dateTime={row.createdAt}>{row.createdAt.slice(0, 10)}</time>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : (
          <p className="card text-slate-700">
            {query.q
              ? `No brand’s name contains “${query.q}”.`
              : 'There are no brands yet. Create the first one above.'}
          </p>
        )}
        <ListPagination noun="brands" next={page.next} prev={page.prev} href={href} />
      </section>
    </section>
  )
}
