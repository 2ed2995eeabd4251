import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { type IntentReply } from '#app/components/form-kit'
import { FormErrors } from '#app/components/forms'
import type { InvitePageData } from '#app/modules/invite/invite-page.server'
import { ColleagueList } from './colleague-list'
import { GroupOutlook } from './group-outlook'
import { InviteForm } from './invite-form'
import { PickEmployee } from './pick-employee'
import { RevokePanel } from './revoke-panel'
import { ClosedNotice, SchemePicker, SchemeSummary } from './scheme-panels'

export const INVITE_PAGE_PATH = '/user/colleague-invite'

/** The colleague-invite page: an admin's employee picker, or one employee's invitations for a scheme. */
export function InvitePage({
  loaderData,
  actionData,
}: {
  loaderData: InvitePageData
  actionData: IntentReply
}) {
  const { t } = useTranslation('invite')
  const { t: tHome } = useTranslation('home')
  if (loaderData.state === 'pick-employee')
    return (
      <PickEmployee
        explanation={loaderData.explanation}
        errors={actionData?.intent === 'unknown' ? actionData.result.error?.[''] : undefined}
      />
    )
  const { employee, onBehalf, schemes, scheme, colleagues, confirmRevoke, outlook, suggestion, listNotice } =
    loaderData
  const employeeName = employee.displayName || employee.email
  const hrefFor = (changes: { scheme?: string; revoke?: string; fill?: string }) => {
    const params = new URLSearchParams()
    const schemeId = changes.scheme ?? scheme?.id
    if (schemeId && (schemes.length > 1 || changes.scheme)) params.set('scheme', schemeId)
    if (onBehalf) params.set('employee', employee.id)
    if (changes.revoke) params.set('revoke', changes.revoke)
    if (changes.fill) params.set('fill', changes.fill)
    const search = params.toString()
    return search ? `${INVITE_PAGE_PATH}?${search}` : INVITE_PAGE_PATH
  }
  const listErrors = actionData && actionData.intent !== 'invite' ? actionData.result.error?.[''] : undefined
  return (
    <section aria-labelledby="page-title" className="flex max-w-5xl flex-col gap-8">
      <div className="flex max-w-3xl flex-col gap-3">
        <h1 id="page-title" className="text-2xl font-bold tracking-tight">
          {t('title')}
        </h1>
        {onBehalf ? (
          <p className="rounded-md border border-indigo-200 bg-indigo-50 p-3 text-sm text-indigo-950">
            {loaderData.onBehalfNote}{' '}
            <Link className="link" to="/admin/employee-management">
              {t('chooseAnother')}
            </Link>
          </p>
        ) : null}
        <p className="text-slate-700">{loaderData.intro}</p>
      </div>

      {!scheme ? (
        <div className="card flex flex-col gap-2">
          <h2 className="text-lg font-semibold">{t('notEnrolled.title')}</h2>
          <p className="text-slate-700">{loaderData.notEnrolled}</p>
        </div>
      ) : (
        <>
          {schemes.length > 1 ? (
            <SchemePicker schemes={schemes} current={scheme.id} hrefFor={hrefFor} />
          ) : null}
          <SchemeSummary scheme={scheme} who={onBehalf ? employeeName : null} />
          {scheme.managerSeesReportNote && !onBehalf ? (
            <p
              role="note"
              className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950"
            >
              {tHome('colleagues.managerSeesReport')}
            </p>
          ) : null}
          <FormErrors errors={listErrors} />
          {confirmRevoke ? (
            <RevokePanel key={confirmRevoke.id} colleague={confirmRevoke} cancelHref={hrefFor({})} />
          ) : null}
          <ColleagueList scheme={scheme} colleagues={colleagues} hrefFor={hrefFor} onBehalf={onBehalf} />
          {outlook ? <GroupOutlook outlook={outlook} /> : null}
          {listNotice ? (
            <section aria-labelledby="list-title" className="card flex flex-col gap-2">
              <h2 id="list-title" className="text-lg font-semibold">
                {listNotice.title}
              </h2>
              <p className="text-slate-700">{listNotice.text}</p>
              {listNotice.href ? (
                <p>
                  <Link className="btn btn-primary" to={listNotice.href}>
                    {listNotice.label}
                  </Link>
                </p>
              ) : null}
            </section>
          ) : scheme.open && scheme.remaining > 0 ? (
            <InviteForm
              // After an invitation is sent the list changes and the form starts empty again.
              key={`${scheme.id}:${colleagues.map((c) => c.id).join(',')}:${suggestion?.fill ? 'fill' : ''}`}
              schemeId={scheme.id}
              action={hrefFor({})}
              lastResult={actionData?.intent === 'invite' ? actionData.result : undefined}
              onBehalf={onBehalf}
              suggestion={suggestion}
              help={loaderData.inviteHelp}
              fillHref={hrefFor({ fill: 'manager' })}
            />
          ) : (
            <>
              {/* An invitation posted from a stale page still shows why it was refused. */}
              <FormErrors
                errors={actionData?.intent === 'invite' ? actionData.result.error?.[''] : undefined}
              />
              <ClosedNotice scheme={scheme} who={onBehalf ? employeeName : null} />
            </>
          )}
        </>
      )}
    </section>
  )
}
