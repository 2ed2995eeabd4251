import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { ssoFailureMessage, type SsoFailureView } from '#app/modules/sso/failure'

/** Where a sign-in through an organisation's provider ended when it failed: what happened, and the way back. */
export function SsoFailurePage({ failure }: { failure: SsoFailureView }) {
  const { t } = useTranslation('sso')
  const { title, body, values } = ssoFailureMessage(failure)
  return (
    <div className="mx-auto flex max-w-md flex-col gap-6 px-6 py-16">
      <h1 className="text-3xl font-bold tracking-tight">{t(title, values)}</h1>
      <div role="alert" className="card flex flex-col gap-4">
        <p className="break-words text-slate-800">{t(body, values)}</p>
        <Link to="/sign-in" className="btn btn-primary self-start">
          {t('back')}
        </Link>
      </div>
    </div>
  )
}
