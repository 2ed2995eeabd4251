import { Form, Link, useNavigation } from 'react-router'
import type { InvitedColleague as Colleague, InviteScheme as Scheme } from '#app/modules/invite/invite.server'
import { INVITE_STATUS_LABELS, RELATIONSHIP_LABELS, type InviteStatus } from '#app/modules/invite/schemas'

const COLUMNS = ['Name', 'E-mail', 'Relationship', 'Status']

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
  const navigation = useNavigation()
  const pending = navigation.state === 'submitting' ? navigation.formData : undefined
  return (
    <section aria-labelledby="invited-title" className="flex flex-col gap-3">
      <h2 id="invited-title" className="text-lg font-semibold">
        Invited colleagues
      </h2>
      {colleagues.length === 0 ? (
        <p className="text-slate-700">
          {onBehalf ? 'No colleague has been invited yet.' : 'You have not invited anyone yet.'}{' '}
          {scheme.open ? 'Use the form below to send the first invitation.' : null}
        </p>
      ) : (
        // Below 640 px each invitation is a stacked card (name, address, relationship, status, then the
        // buttons, all within the screen); wider, a table. `relative` keeps the buttons' screen-reader
        // labels inside the box, where they cannot widen the page.
        <div className="relative overflow-x-auto rounded-xl border border-slate-200 bg-white">
          <table className="w-full text-left text-sm max-sm:block">
            <caption className="sr-only">
              Colleagues invited to {scheme.name}, with the state of each invitation
            </caption>
            <thead className="border-b border-slate-200 bg-slate-50 text-slate-800 max-sm:sr-only">
              <tr>
                {COLUMNS.map((label) => (
                  <th key={label} scope="col" className="px-4 py-3 font-semibold">
                    {label}
                  </th>
                ))}
                <th scope="col" className="px-4 py-3 font-semibold">
                  <span className="sr-only">Actions</span>
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
                      {RELATIONSHIP_LABELS[c.relationship]}
                    </td>
                    <td className="px-4 py-3 max-sm:p-0">
                      <span
                        className={`inline-block rounded-full border px-2 py-0.5 text-xs font-semibold ${STATUS_STYLES[c.status]}`}
                      >
                        {INVITE_STATUS_LABELS[c.status]}
                      </span>
                      {c.invitedAt && c.status !== 'revoked' ? (
                        <span className="mt-1 block text-xs whitespace-nowrap text-slate-700 max-sm:ml-2 max-sm:inline">
                          invited <time dateTime={c.invitedAt}>{c.invitedOn}</time>
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
                              {resending ? 'Sending…' : 'Resend'}
                              <span className="sr-only"> the invitation to {c.name}</span>
                            </button>
                          </Form>
                          <Link
                            to={hrefFor({ revoke: c.id })}
                            className="btn btn-secondary"
                            preventScrollReset
                          >
                            Revoke…<span className="sr-only"> the invitation to {c.name}</span>
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
