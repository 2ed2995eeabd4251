import { useEffect, useRef } from 'react'
import { useTranslation } from 'react-i18next'
import { Form, Link, useNavigation } from 'react-router'
import type { InvitedColleague as Colleague } from '#app/modules/invite/invite.server'

export function RevokePanel({ colleague, cancelHref }: { colleague: Colleague; cancelHref: string }) {
  const { t } = useTranslation('invite')
  const navigation = useNavigation()
  const busy = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'revoke'
  const heading = useRef<HTMLHeadingElement>(null)
  // Opened by a link: move focus here so keyboard and screen-reader users land on the question.
  useEffect(() => heading.current?.focus(), [])
  return (
    <section aria-labelledby="revoke-title" className="card flex flex-col gap-3 border-red-300">
      <h2 id="revoke-title" ref={heading} tabIndex={-1} className="text-lg font-semibold text-red-900">
        {t('revoke.title', { name: colleague.name })}
      </h2>
      <p className="text-slate-800">
        {t('revoke.text', {
          email: colleague.email,
          name: colleague.name,
          started: colleague.status === 'started' ? 'yes' : 'no',
        })}
      </p>
      <Form method="post" action={cancelHref} className="flex flex-wrap gap-3">
        <input type="hidden" name="intent" value="revoke" />
        <input type="hidden" name="assignmentId" value={colleague.id} />
        <button type="submit" className="btn btn-danger" disabled={busy}>
          {busy ? t('revoke.busy') : t('revoke.confirm')}
        </button>
        <Link to={cancelHref} className="btn btn-secondary">
          {t('revoke.cancel')}
        </Link>
      </Form>
    </section>
  )
}
