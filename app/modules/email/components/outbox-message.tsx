import { isLanguage, languageInfo } from '#app/modules/i18n/languages'
import { Form } from 'react-router'
import { formErrorsOf, usePendingIntent, type FormResult } from '#app/components/form-kit'
import { FormErrors } from '#app/components/forms'
import type { PageData } from '#app/lib/page-data'
import { Card } from '#app/components/card'
import { TEMPLATE_LABELS } from '../schemas'
import type { getOutboxMessage } from '../template-editing.server'
import { OutboxState } from './outbox-state'
import { MessageParts } from './message-parts'

/** The page's message, as the domain function that builds the page returns it (ADR 033). */
type Message = PageData<typeof getOutboxMessage>

const when = (iso: string | null) => (iso ? `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC` : '—')

/** One message's facts, its retry and its body (codes masked by the loader; an erased body says so). */
export function OutboxMessageView({ message, retryResult }: { message: Message; retryResult: FormResult }) {
  const retrying = usePendingIntent('retry')
  const facts: Array<[string, React.ReactNode]> = [
    ['State', <OutboxState key="s" status={message.status} leaseExpired={message.leaseExpired} />],
    ['Template', TEMPLATE_LABELS[message.templateKey]],
    ['Language', isLanguage(message.language) ? languageInfo(message.language).name : message.language],
    ['Brand', message.brandName ?? 'Default'],
    ['From name', message.senderName ?? 'The deployment’s sender'],
    ['Attempts', String(message.attempts)],
    ['Queued', when(message.createdAt)],
    [message.status === 'queued' ? 'Next attempt' : 'Last scheduled', when(message.nextAttemptAt)],
    ['Sent', when(message.sentAt)],
    ['Last error', message.lastError ?? '—'],
  ]
  return (
    <div className="flex flex-col gap-6">
      <Card id="facts-title" title="Delivery">
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
              {retrying ? 'Queueing…' : 'Retry this message'}
            </button>
          </Form>
        ) : message.status === 'failed' ? (
          <p className="text-sm text-slate-700">{message.retry.reason}</p>
        ) : null}
      </Card>

      <Card id="body-title" title="Message" className="gap-3">
        {message.bodyErasedAt ? (
          <p className="rounded-md border border-slate-200 bg-slate-50 p-3 text-slate-800">
            The body was erased on {when(message.bodyErasedAt)}: it carried a one-time link, which is not kept
            once it has been delivered or has expired.
          </p>
        ) : (
          <>
            {message.linkExpiresAt ? (
              <p className="text-sm text-slate-700">
                One-time codes in the links are hidden (••••••). The body is erased once delivered or by{' '}
                {when(message.linkExpiresAt)}.
              </p>
            ) : null}
            <MessageParts
              htmlTitle="HTML part of the message"
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
