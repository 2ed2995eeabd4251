import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { FormErrors } from '#app/components/forms'

export function PickEmployee({
  explanation,
  errors,
}: {
  explanation: string
  errors: string[] | null | undefined
}) {
  const { t } = useTranslation('invite')
  return (
    <section aria-labelledby="page-title" className="flex max-w-3xl flex-col gap-4">
      <h1 id="page-title" className="text-2xl font-bold tracking-tight">
        {t('title')}
      </h1>
      <FormErrors errors={errors} />
      <div className="card flex flex-col gap-3">
        <h2 className="text-lg font-semibold">{t('pick.title')}</h2>
        <p className="text-slate-700">{explanation}</p>
        <p>
          <Link className="btn btn-primary" to="/admin/employee-management">
            {t('pick.go')}
          </Link>
        </p>
      </div>
    </section>
  )
}
