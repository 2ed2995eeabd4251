import { Form } from 'react-router'
import { formErrorsOf, usePendingIntent, type FormResult } from '#app/components/form-kit'
import { FormErrors, useFormMessage } from '#app/components/forms'
import type { PageData } from '#app/lib/page-data'
import { Card } from '#app/components/card'
import { formatDateTime } from '#app/lib/dates'
import { formatCount } from '#app/lib/numbers'
import type { getOutboxMessage } from '../template-editing.server'
import { OutboxState } from './outbox-state'
import { MessageParts } from './message-parts'
import { useEmailWords } from './use-email-words'

/** The page's message, as the domain function that builds the page returns it (ADR 033). */
type Message = PageData<typeof getOutboxMessage>

/** One message's facts, its retry and its body (codes masked by the loader; an erased body says so). */
export function OutboxMessageView({ message, retryResult }: { message: Message; retryResult: FormResult }) {
  const retrying = usePendingIntent('retry')
  const { t, locale, templateLabel, languageName } = useEmailWords()
  const say = useFormMessage()
  const when = (iso: string | null) => (iso ? formatDateTime(iso, 'UTC', locale) : '—')
  const facts: Array<[string, React.ReactNode]> = [
    [t('message.state'), <OutboxState key="s" status={message.status} leaseExpired={message.leaseExpired} />],
    [t('message.template'), templateLabel(message.templateKey)],
    [t('message.language'), languageName(message.language)],
    [t('message.brand'), message.brandName ?? t('message.default')],
    [t('message.fromName'), message.senderName ?? t('message.deploymentSender')],
    [t('message.attempts'), formatCount(message.attempts, locale)],
    [t('message.queued'), when(message.createdAt)],
    [
      message.status === 'queued' ? t('message.nextAttempt') : t('message.lastScheduled'),
      when(message.nextAttemptAt),
    ],
    [t('message.sent'), when(message.sentAt)],
    [t('message.lastError'), message.lastError ?? '—'],
  ]
  return (
    <div className="flex flex-col gap-6">
      <Card id="facts-title" title={t('message.delivery')}>
        <dl className="grid gap-x-6 gap-y-2 sm:grid-cols-[10rem_minmax(0,1fr)]">
          {facts.map(([term, value]) => (
            <div key={term} className="contents">
              <dt className="font-medium text-slate-800">{term}</dt>
              <dd className="break-words text-slate-900">{value}</dd>
            </div>
          ))}
        </dl>
        <FormErrors errors={formErrorsOf(retryResult)} />
        {message.retry.allowed ? (
          <Form method="post">
            <input type="hidden" name="intent" value="retry" />
            <button type="submit" className="btn btn-primary" disabled={retrying}>
              {retrying ? t('message.queueing') : t('message.retry')}
            </button>
          </Form>
        ) : message.status === 'failed' ? (
          <p className="text-sm text-slate-700">{say(message.retry.reason)}</p>
        ) : null}
      </Card>

      <Card id="body-title" title={t('message.message')} className="gap-3">
        {message.bodyErasedAt ? (
          <p className="rounded-md border border-slate-200 bg-slate-50 p-3 text-slate-800">
            {t('message.erased', { date: when(message.bodyErasedAt) })}
          </p>
        ) : (
          <>
            {message.linkExpiresAt ? (
              <p className="text-sm text-slate-700">
                {t('message.codesHidden', { date: when(message.linkExpiresAt) })}
              </p>
            ) : null}
            <MessageParts
              htmlTitle={t('message.htmlTitle')}
              html={message.html}
              text={message.text}
              height="h-[28rem]"
            />
          </>
        )}
      </Card>
    </div>
  )
}
