import { useTranslation } from 'react-i18next'

/** Where the employee's data export is downloaded (ADR 055): the route answers the one signed in. */
export const MY_DATA_HREF = '/user/edit-profile/my-data.zip'

/**
 * "Download my data" on the profile page (issue 21 §4): what the ZIP holds and what it does not. A
 * plain link, not a `download` one, so that a refusal (too many downloads this hour) shows as a page
 * while the ZIP itself arrives as an attachment and leaves the profile where it is.
 */
export function MyDataCard() {
  const { t } = useTranslation('profile')
  return (
    <section aria-labelledby="my-data-title" className="card flex flex-col gap-4">
      <h2 id="my-data-title" className="text-lg font-semibold">
        {t('myData.title')}
      </h2>
      <p className="text-slate-700">{t('myData.intro')}</p>
      <p className="text-sm text-slate-600">{t('myData.notIncluded')}</p>
      <p>
        <a className="btn btn-secondary" href={MY_DATA_HREF}>
          {t('myData.download')}
        </a>
      </p>
    </section>
  )
}
