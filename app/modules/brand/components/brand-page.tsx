import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { formErrorsOf, resultFor, type IntentReply } from '#app/components/form-kit'
import { ConfirmPanel, PageHeader } from '#app/components/page-kit'
import { FormErrors } from '#app/components/forms'
import type { PageData } from '#app/lib/page-data'
import type { loadBrandPage } from '../brand-page.server'
import { richT } from '#app/modules/i18n/rich'
import { EditBrandForm } from './brand-forms'

/**
 * A brand's page (the route is app/routes/admin/brand-management.$id.tsx): every field, the logo,
 * and deletion behind a confirmation (`?delete`).
 */

const LIST = '/admin/brand-management'

export function BrandPage({
  data,
  actionData,
}: {
  data: PageData<typeof loadBrandPage>
  actionData: IntentReply
}) {
  const { t } = useTranslation('brands')
  const { brand, confirmDelete, languages } = data
  const updateResult = resultFor(actionData, 'update')
  const deleteResult = resultFor(actionData, 'delete')
  const unknownErrors = actionData?.intent === 'unknown' ? formErrorsOf(actionData.result) : undefined
  return (
    <section aria-labelledby="page-title" className="flex max-w-3xl flex-col gap-8">
      <div className="flex flex-col gap-2">
        <Link to={LIST} className="link self-start text-sm">
          {t('page.back')}
        </Link>
        <PageHeader title={brand.name}>{t('page.usedBy', { count: brand.companyCount })}</PageHeader>
      </div>
      <FormErrors errors={unknownErrors} />
      {/* A refusal posted without the confirmation on screen (a stale tab) still shows its reason. */}
      {!confirmDelete ? <FormErrors errors={formErrorsOf(deleteResult)} /> : null}

      {confirmDelete ? (
        <ConfirmPanel
          id="delete-brand"
          title={t('delete.title', { name: brand.name })}
          intent="delete"
          fields={{}}
          confirmLabel={t('delete.confirm')}
          pendingLabel={t('delete.pending')}
          cancelHref="."
          lastResult={deleteResult}
          backLabel={t('delete.back')}
          blockedBy={
            brand.companyCount > 0 ? (
              <>
                {richT(
                  t,
                  'delete.inUse',
                  {
                    link: (
                      <Link className="link" to="/admin/company-management">
                        {t('delete.companiesPage')}
                      </Link>
                    ),
                  },
                  { count: brand.companyCount },
                )}
              </>
            ) : null
          }
        >
          <p className="text-slate-800">{t('delete.text')}</p>
        </ConfirmPanel>
      ) : null}

      {/* Keyed by the saved values: after a save the form starts again from them (and the file input empties). */}
      <EditBrandForm
        key={JSON.stringify(brand)}
        brand={brand}
        languages={languages}
        lastResult={updateResult}
      />

      {confirmDelete ? null : (
        <section aria-labelledby="danger-title" className="card flex flex-col items-start gap-3">
          <h2 id="danger-title" className="text-lg font-semibold">
            {t('danger.title')}
          </h2>
          <p className="text-slate-700">{brand.companyCount ? t('danger.inUse') : t('danger.free')}</p>
          <Link to="?delete" className="btn btn-secondary">
            {t('danger.delete')}
          </Link>
        </section>
      )}
    </section>
  )
}
