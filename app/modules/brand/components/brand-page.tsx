import { Link } from 'react-router'
import { formErrorsOf, resultFor, type IntentReply } from '#app/components/form-kit'
import { ConfirmPanel, PageHeader } from '#app/components/page-kit'
import { FormErrors } from '#app/components/forms'
import type { PageData } from '#app/lib/page-data'
import type { loadBrandPage } from '../brand-page.server'
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
  const { brand, confirmDelete, languages } = data
  const updateResult = resultFor(actionData, 'update')
  const deleteResult = resultFor(actionData, 'delete')
  const unknownErrors = actionData?.intent === 'unknown' ? formErrorsOf(actionData.result) : undefined
  return (
    <section aria-labelledby="page-title" className="flex max-w-3xl flex-col gap-8">
      <div className="flex flex-col gap-2">
        <Link to={LIST} className="link self-start text-sm">
          ← All brands
        </Link>
        <PageHeader title={brand.name}>
          Used by {brand.companyCount} {brand.companyCount === 1 ? 'company' : 'companies'}. Changes show in
          their e-mails and pages straight away.
        </PageHeader>
      </div>
      <FormErrors errors={unknownErrors} />
      {/* A refusal posted without the confirmation on screen (a stale tab) still shows its reason. */}
      {!confirmDelete ? <FormErrors errors={formErrorsOf(deleteResult)} /> : null}

      {confirmDelete ? (
        <ConfirmPanel
          id="delete-brand"
          title={`Delete “${brand.name}”?`}
          intent="delete"
          fields={{}}
          confirmLabel="Yes, delete the brand"
          pendingLabel="Deleting…"
          cancelHref="."
          lastResult={deleteResult}
          backLabel="Back to the brand"
          blockedBy={
            brand.companyCount > 0 ? (
              <>
                {brand.companyCount === 1
                  ? 'One company uses this brand, so it cannot be deleted. Move that company to another brand first'
                  : `${brand.companyCount} companies use this brand, so it cannot be deleted. Move those companies to another brand first`}{' '}
                (on the{' '}
                <Link className="link" to="/admin/company-management">
                  companies page
                </Link>
                ).
              </>
            ) : null
          }
        >
          <p className="text-slate-800">
            The brand, its logo and its own e-mail wording are removed for good. This cannot be undone.
          </p>
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
            Delete this brand
          </h2>
          <p className="text-slate-700">
            {brand.companyCount
              ? 'A brand can be deleted once no company uses it.'
              : 'No company uses this brand, so it can be deleted.'}
          </p>
          <Link to="?delete" className="btn btn-secondary">
            Delete brand…
          </Link>
        </section>
      )}
    </section>
  )
}
