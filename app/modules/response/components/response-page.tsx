import { Link } from 'react-router'
import { useTranslation } from 'react-i18next'
import { richT } from '#app/modules/i18n/rich'
import { Card } from '#app/components/card'
import { formErrorsOf, resultFor, type IntentReply } from '#app/components/form-kit'
import { PageHeader } from '#app/components/page-kit'
import { FormErrors, useFormMessage } from '#app/components/forms'
import type { PageData } from '#app/lib/page-data'
import type { loadResponsePage } from '../response-page.server'
import type { RevealedRespondent } from '../response.server'
import { ANSWERS_ADMIN_MESSAGES } from '../schemas'
import { DayTime, ResponseStateBadge, useAnswerLabels } from './response-list'
import { ReopenForm, RespondentCell, ResponseAnswers, RevealForm } from './response-view'

/**
 * One response's admin page (the route is app/routes/admin/answer-management.$responseId.tsx):
 * the response read-only, "reveal who answered" and reopen.
 */

const LIST = '/admin/answer-management'

export function ResponsePage({
  data,
  actionData,
}: {
  data: PageData<typeof loadResponsePage>
  /** The action's reply: a reveal's reply carries the name, for this reply only. */
  actionData: IntentReply | (NonNullable<IntentReply> & { revealed?: RevealedRespondent })
}) {
  const { t } = useTranslation('answers')
  const say = useFormMessage()
  const { relationships } = useAnswerLabels()
  const { header, sections } = data.view
  const blockedBy =
    header.state !== 'submitted'
      ? say(ANSWERS_ADMIN_MESSAGES.notSubmitted)
      : header.phase !== 'open'
        ? t('response.schemeNotOpen', { scheme: header.schemeName })
        : null
  const revealed = actionData && 'revealed' in actionData ? (actionData.revealed ?? null) : null
  return (
    <section aria-labelledby="page-title" className="flex max-w-4xl flex-col gap-6">
      <PageHeader title={t('response.title', { name: header.subjectName })}>
        <Link className="link" to={LIST}>
          {t('response.back')}
        </Link>
      </PageHeader>
      <Card id="about-title" title={t('response.about')} className="gap-3">
        <dl className="grid gap-x-6 gap-y-2 sm:grid-cols-[auto_1fr]">
          <dt className="font-medium">{t('response.state')}</dt>
          <dd>
            <ResponseStateBadge state={header.state} />
          </dd>
          <dt className="font-medium">{t('response.scheme')}</dt>
          <dd className="break-words">
            {t('response.schemeOf', { scheme: header.schemeName, company: header.companyName })}
          </dd>
          <dt className="font-medium">{t('response.questionnaire')}</dt>
          <dd className="break-words">{header.questionnaireTitle}</dd>
          <dt className="font-medium">{t('response.relationship')}</dt>
          <dd>{relationships[header.relationship]}</dd>
          <dt className="font-medium">{t('response.answeredBy')}</dt>
          <dd className="break-words">
            <RespondentCell respondent={header.respondent} revealed={revealed} />
          </dd>
          <dt className="font-medium">{t('response.started')}</dt>
          <dd>
            <DayTime day={header.started} />
          </dd>
          <dt className="font-medium">{t('response.submitted')}</dt>
          <dd>
            <DayTime day={header.submitted} />
          </dd>
          {header.reopened ? (
            <>
              <dt className="font-medium">{t('response.lastReopened')}</dt>
              <dd>
                <DayTime day={header.reopened} />
              </dd>
            </>
          ) : null}
        </dl>
      </Card>
      {header.respondent.kind === 'self' ? (
        // Nothing to reveal: only a hand-made post gets here, and it reads why.
        <FormErrors id="reveal-errors" errors={formErrorsOf(resultFor(actionData, 'reveal'))} />
      ) : !revealed ? (
        <RevealForm lastResult={resultFor(actionData, 'reveal')} allowed={data.revealAllowed} />
      ) : null}
      {header.reopenRequest ? (
        <Card id="request-title" title={t('response.requestTitle')} className="gap-2">
          <p className="text-slate-800">
            {richT(
              t,
              header.reopenRequest.note ? 'response.askedOnWithNote' : 'response.askedOnWithoutNote',
              { date: <DayTime day={header.reopenRequest.requested} /> },
            )}
          </p>
          {header.reopenRequest.note ? (
            <blockquote className="whitespace-pre-wrap break-words border-l-4 border-slate-300 pl-3 text-slate-800">
              {`“${header.reopenRequest.note}”`}
            </blockquote>
          ) : null}
          <p className="text-slate-700">
            {richT(t, 'response.requestHow', {
              link: (
                <Link className="link" to={`${LIST}/reopen-requests`}>
                  {t('response.requestLink')}
                </Link>
              ),
            })}
          </p>
        </Card>
      ) : null}
      <ReopenForm lastResult={resultFor(actionData, 'reopen')} blockedBy={blockedBy} />
      <ResponseAnswers sections={sections} />
    </section>
  )
}
