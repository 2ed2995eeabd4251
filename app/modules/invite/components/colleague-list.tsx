import { useTranslation } from 'react-i18next'
import { Form, Link, useNavigation } from 'react-router'
import type { InvitedColleague as Colleague, InviteScheme as Scheme } from '#app/modules/invite/invite.server'
import type { InviteStatus } from '#app/modules/invite/schemas'

const COLUMNS = ['name', 'email', 'relationship', 'status'] as const

const STATUS_STYLES: Record<InviteStatus, string> = {
  invited: 'border-slate-300 bg-slate-50 text-slate-800',
  started: 'border-amber-300 bg-amber-50 text-amber-950',
  answered: 'border-green-300 bg-green-50 text-green-900',
  revoked: 'border-slate-300 bg-white text-slate-700 line-through',
}

export function ColleagueList({
  scheme,
  colleagues,
  hrefFor,
  onBehalf,
}: {
  scheme: Scheme
  colleagues: Colleague[]
  hrefFor: (changes: { revoke?: string }) => string
  onBehalf: boolean
}) {
  const { t } = useTranslation('invite')
  const { t: tHome } = useTranslation('home')
  const navigation = useNavigation()
  const pending = navigation.state === 'submitting' ? navigation.formData : undefined
  return (
    <section aria-labelledby="invited-title" className="flex flex-col gap-3">
      <h2 id="invited-title" className="text-lg font-semibold">
        {t('list.title')}
      </h2>
      {colleagues.length === 0 ? (
        <p className="text-slate-700">
          {t(onBehalf ? 'list.emptyOnBehalf' : 'list.emptyOwn')} {scheme.open ? t('list.useForm') : null}
        </p>
      ) : (
        // Below 640 px each invitation is a stacked card (name, address, relationship, status, then the
        // buttons, all within the screen); wider, a table. `relative` keeps the buttons' screen-reader
        // labels inside the box, where they cannot widen the page.
        <div className="relative overflow-x-auto rounded-xl border border-slate-200 bg-white">
          <table className="w-full text-left text-sm max-sm:block">
            <caption className="sr-only">{t('list.caption', { scheme: scheme.name })}</caption>
            <thead className="border-b border-slate-200 bg-slate-50 text-slate-800 max-sm:sr-only">
              <tr>
                {COLUMNS.map((column) => (
                  <th key={column} scope="col" className="px-4 py-3 font-semibold">
                    {t(`list.${column}`)}
                  </th>
                ))}
                <th scope="col" className="px-4 py-3 font-semibold">
                  <span className="sr-only">{t('list.actions')}</span>
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-200 max-sm:block">
              {colleagues.map((c) => {
                const changeable = scheme.open && (c.status === 'invited' || c.status === 'started')
                const resending = pending?.get('intent') === 'resend' && pending.get('assignmentId') === c.id
                return (
                  <tr key={c.id} className="max-sm:flex max-sm:flex-col max-sm:gap-1 max-sm:px-4 max-sm:py-3">
                    <th scope="row" className="px-4 py-3 font-medium break-words max-sm:p-0">
                      {c.name}
                    </th>
                    <td className="px-4 py-3 break-words text-slate-800 max-sm:p-0">{c.email}</td>
                    <td className="px-4 py-3 text-slate-800 max-sm:p-0">
                      {tHome(`relationship.${c.relationship}`)}
                    </td>
                    <td className="px-4 py-3 max-sm:p-0">
                      <span
                        className={`inline-block rounded-full border px-2 py-0.5 text-xs font-semibold ${STATUS_STYLES[c.status]}`}
                      >
                        {c.status === 'revoked' ? t('list.revoked') : tHome(`inviteStatus.${c.status}`)}
                      </span>
                      {c.invitedAt && c.status !== 'revoked' ? (
                        <span className="mt-1 block text-xs whitespace-nowrap text-slate-700 max-sm:ml-2 max-sm:inline">
                          {t('list.invited')} <time dateTime={c.invitedAt}>{c.invitedOn}</time>
                        </span>
                      ) : null}
                    </td>
                    <td className="px-4 py-3 max-sm:p-0 max-sm:empty:hidden">
                      {changeable ? (
                        <div className="flex flex-wrap items-center justify-end gap-2 max-sm:justify-start max-sm:pt-2">
                          <Form method="post" action={hrefFor({})} preventScrollReset>
                            <input type="hidden" name="intent" value="resend" />
                            <input type="hidden" name="assignmentId" value={c.id} />
                            <button type="submit" className="btn btn-secondary" disabled={resending}>
                              {resending ? t('list.sending') : t('list.resend')}
                              <span className="sr-only">{t('list.theInvitationTo', { name: c.name })}</span>
                            </button>
                          </Form>
                          <Link
                            to={hrefFor({ revoke: c.id })}
                            className="btn btn-secondary"
                            preventScrollReset
                          >
                            {t('list.revoke')}
                            <span className="sr-only">{t('list.theInvitationTo', { name: c.name })}</span>
                          </Link>
                        </div>
                      ) : null}
                    </td>
                  </tr>
                )
              })}
            </tbody>
          </table>
        </div>
      )}
    </section>
  )
}
