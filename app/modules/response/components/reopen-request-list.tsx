import { Form, Link, useNavigation } from 'react-router'
import { useTranslation } from 'react-i18next'
import { richT } from '#app/modules/i18n/rich'
import { ListPagination, ListSection, type HrefFor } from '#app/components/admin-list'
import type { IntentReply } from '#app/components/form-kit'
import { FormErrors } from '#app/components/forms'
import type { PageData } from '#app/lib/page-data'
import type { loadReopenRequests, ReopenRequestRow } from '../reopen-request.server'
import { DECLINE_REASON_MAX } from '../reopen-request-schemas'
import { DayTime, useAnswerLabels } from './response-list'

/**
 * The admins' list of reopen requests (ADR 039): newest first, each with the respondent's note and
 * one-click "Reopen" and "Decline". Like answer management's list it says whom the feedback is
 * about and the respondent's relationship, never who answered.
 */

const LIST = '/admin/answer-management'

/** The messages of the last refused post (a request answered meanwhile, a reason too long). */
function replyErrors(actionData: IntentReply): string[] | undefined {
  if (!actionData) return undefined
  const errors = actionData.result.error ?? {}
  const all = Object.values(errors).flatMap((messages) => messages ?? [])
  return all.length ? all : undefined
}

export function ReopenRequestList({
  data,
  actionData,
  href,
}: {
  data: PageData<typeof loadReopenRequests>
  actionData: IntentReply
  href: HrefFor
}) {
  const { t } = useTranslation('answers')
  const { page } = data
  return (
    <ListSection title={t('requests.section')}>
      <FormErrors id="request-errors" errors={replyErrors(actionData)} />
      {page.rows.length ? (
        <ul className="flex flex-col gap-4">
          {page.rows.map((row) => (
            <RequestItem key={row.id} row={row} />
          ))}
        </ul>
      ) : (
        <p className="card text-slate-700">{t('requests.none')}</p>
      )}
      <ListPagination noun={t('requests.noun')} next={page.next} prev={page.prev} href={href} />
    </ListSection>
  )
}

/** Whether this row's form with this intent is being posted (the other rows' buttons stay as they are). */
function usePosting(intent: string, responseId: string) {
  const navigation = useNavigation()
  return (
    navigation.state !== 'idle' &&
    navigation.formData?.get('intent') === intent &&
    navigation.formData?.get('responseId') === responseId
  )
}

function RequestItem({ row }: { row: ReopenRequestRow }) {
  const { t } = useTranslation('answers')
  const { relationships } = useAnswerLabels()
  const titleId = `request-${row.id}`
  const about = t('requests.about', { relationship: relationships[row.relationship], name: row.subjectName })
  const reopening = usePosting('approve-request', row.id)
  const declining = usePosting('decline-request', row.id)
  return (
    <li>
      <article aria-labelledby={titleId} className="card flex flex-col gap-3">
        <div className="flex flex-col gap-1">
          <h3 id={titleId} className="font-semibold text-slate-900">
            <Link className="link" to={`${LIST}/${row.id}`}>
              {row.relationship === 'self'
                ? t('requests.selfTitle', { name: row.subjectName })
                : t('requests.colleagueTitle', { relationship: row.relationship, name: row.subjectName })}
            </Link>
          </h3>
          <p className="text-sm text-slate-700">
            {richT(
              t,
              'requests.askedOn',
              { date: <DayTime day={row.requested} /> },
              { scheme: row.schemeName, company: row.companyName },
            )}
          </p>
        </div>
        {row.note ? (
          <blockquote className="whitespace-pre-wrap break-words border-l-4 border-slate-300 pl-3 text-slate-800">
            {`“${row.note}”`}
          </blockquote>
        ) : (
          <p className="italic text-slate-700">{t('requests.noNote')}</p>
        )}
        {row.phase !== 'open' ? (
          <p className="text-slate-800">{t('requests.notOpen', { scheme: row.schemeName })}</p>
        ) : null}
        <div className="flex flex-wrap items-start gap-3">
          {row.phase === 'open' ? (
            <Form method="post">
              <input type="hidden" name="intent" value="approve-request" />
              <input type="hidden" name="responseId" value={row.id} />
              <button type="submit" className="btn btn-primary" disabled={reopening}>
                {reopening ? t('requests.reopening') : t('requests.reopen')}
                <span className="sr-only"> ({about})</span>
              </button>
            </Form>
          ) : null}
          <details className="min-w-0 flex-1 rounded-md border border-slate-200 px-3 py-2">
            <summary className="cursor-pointer font-medium">
              {t('requests.decline')}
              <span className="sr-only"> ({about})</span>
            </summary>
            <Form method="post" className="mt-3 flex flex-col gap-3">
              <input type="hidden" name="intent" value="decline-request" />
              <input type="hidden" name="responseId" value={row.id} />
              <div className="flex flex-col gap-1">
                <label htmlFor={`decline-reason-${row.id}`} className="label">
                  {t('requests.declineReason')}
                </label>
                <textarea
                  id={`decline-reason-${row.id}`}
                  name="reason"
                  rows={2}
                  maxLength={DECLINE_REASON_MAX}
                  className="input"
                />
              </div>
              <div>
                <button type="submit" className="btn btn-secondary" disabled={declining}>
                  {declining ? t('requests.declining') : t('requests.declineRequest')}
                </button>
              </div>
            </Form>
          </details>
        </div>
      </article>
    </li>
  )
}
