import { useTranslation } from 'react-i18next'
import { data, Link } from 'react-router'
import type { Route } from './+types/api-keys.reference'
import { PageHeader } from '#app/components/page-kit'
import { ApiReference } from '#app/modules/api-key/components/api-reference'
import { apiReference } from '#app/modules/api-key/openapi.server'
import { requireUser } from '#app/modules/auth/guards.server'
import { ROUTE_ROLES } from '#app/modules/auth/permissions'
import type { RouteHandle } from '#app/root'
import { ADMIN_HANDLE, adminTitleT } from './admin-meta'

export const handle: RouteHandle = { ...ADMIN_HANDLE, i18n: 'api-keys' }

export const meta: Route.MetaFunction = ({ matches }) => adminTitleT(matches, 'api-keys:referenceMetaTitle')

/** The REST API's reference for admins (issue 21 §1, ADR 054), read from /api/v1/openapi.json's document. */
export async function loader({ request }: Route.LoaderArgs) {
  await requireUser(request, { roles: ROUTE_ROLES.admin })
  return { reference: apiReference() }
}

// Read-only: the guard first (a visitor who may not see the page is sent away as from any admin page).
export async function action({ request }: Route.ActionArgs) {
  await requireUser(request, { roles: ROUTE_ROLES.admin })
  return data({ error: 'This page has no form to send.' }, { status: 405 })
}

export default function ApiKeysReference({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('api-keys')
  return (
    <section aria-labelledby="page-title" className="flex max-w-4xl flex-col gap-8">
      <div className="flex flex-col gap-2">
        <Link to="/admin/api-keys" className="link self-start text-sm">
          {t('reference.back')}
        </Link>
        <PageHeader title={t('reference.title')}>{t('reference.intro')}</PageHeader>
        <p>
          <a href="/api/v1/openapi.json" className="link">
            {t('reference.download')}
          </a>
        </p>
      </div>
      <ApiReference reference={loaderData.reference} />
    </section>
  )
}
