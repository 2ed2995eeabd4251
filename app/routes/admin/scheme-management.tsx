import { useTranslation } from 'react-i18next'
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
import { getFixedT } from '#app/modules/i18n/i18n.server'
import { metaT } from '#app/modules/i18n/meta'
import { richT } from '#app/modules/i18n/rich'
import { redirectWithToast } from '#app/modules/toast/toast.server'
import type { RouteHandle } from '#app/root'
import { requireAdminForm } from './admin-action.server'
import { ADMIN_HANDLE, adminTitle } from './admin-meta'

export const handle: RouteHandle = { ...ADMIN_HANDLE, i18n: ['schemes'] }

export const meta: Route.MetaFunction = ({ matches }) => adminTitle(metaT(matches, 'schemes:metaTitle'))

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
  const t = await getFixedT(request, 'schemes')
  return await loadSchemeList(query, problems, undefined, {
    unknownQuestionnaire: t('list.unknownQuestionnaire'),
  })
}

export async function action({ request, context }: Route.ActionArgs) {
  const { actor, formData } = await requireAdminForm(request, context)
  return dispatchIntent(formData, {
    create: intent(
      SchemeCreateSchema,
      (value) => createScheme(actor, schemeInputOf(value)),
      async ({ id }, input) => {
        const t = await getFixedT(request, 'schemes')
        return redirectWithToast(`${PATH}/${id}`, {
          kind: 'success',
          title: t('created.title'),
          description: t('created.description', { name: input.name }),
        })
      },
    ),
  })
}

export default function SchemeManagement({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation('schemes')
  const { options, defaults, notices } = loaderData
  const href = useListHref(PATH)
  const ready = options.companies.length > 0 && options.questionnaires.length > 0

  return (
    <section aria-labelledby="page-title" className="flex max-w-6xl flex-col gap-8">
      <PageHeader title={t('list.title')}>{t('list.intro')}</PageHeader>
      <Notices notices={notices} />
      <UnknownIntentErrors actionData={actionData} />

      <SchemeList data={loaderData} path={PATH} href={href} />

      <Card id="create-title" sectionId="new-scheme" title={t('list.createTitle')}>
        {ready ? (
          <CreateSchemeForm
            options={options}
            defaults={defaults}
            lastResult={resultFor(actionData, 'create')}
          />
        ) : (
          <div className="flex flex-col gap-2 text-slate-700">
            <p>{t('list.notReady')}</p>
            <ul className="list-disc pl-6">
              {options.companies.length ? null : (
                <li>
                  {richT(t, 'list.addCompany', {
                    link: (
                      <Link className="link" to="/admin/company-management">
                        {t('list.addCompanyLink')}
                      </Link>
                    ),
                  })}
                </li>
              )}
              {options.questionnaires.length ? null : (
                <li>
                  {richT(t, 'list.publishQuestionnaire', {
                    link: (
                      <Link className="link" to="/admin/questionnaire-management">
                        {t('list.publishQuestionnaireLink')}
                      </Link>
                    ),
                  })}
                </li>
              )}
            </ul>
          </div>
        )}
      </Card>
    </section>
  )
}
