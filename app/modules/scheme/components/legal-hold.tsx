import { getTextareaProps } from '@conform-to/react'
import { useTranslation } from 'react-i18next'
import { Card } from '#app/components/card'
import { resultFor, useConformForm, useResultForm, type IntentReply } from '#app/components/form-kit'
import { IntentForm, SubmitButton } from '#app/components/form-parts'
import { ErrorList, FormErrors } from '#app/components/forms'
import { formatDateTime } from '#app/lib/dates'
import { useIntlLocale } from '#app/modules/i18n/use-intl-locale'
import type { SchemeDetail } from '#app/modules/scheme/scheme.server'
import { LEGAL_HOLD_REASON_MAX, SchemeLegalHoldSchema } from '#app/modules/scheme/schemas'

/**
 * A scheme's legal hold (issue 21 §3, ADR 058): place one with a reason, or lift the one that
 * stands; and, once retention has dealt with the scheme, what it did and when.
 */
export function LegalHoldCard({
  scheme,
  actionData,
}: {
  scheme: Pick<
    SchemeDetail,
    'legalHoldAt' | 'legalHoldReason' | 'retentionAppliedAt' | 'retentionMode' | 'timeZone'
  >
  actionData: IntentReply
}) {
  const { t } = useTranslation('scheme-page')
  const locale = useIntlLocale()
  const when = (at: string) => formatDateTime(at, scheme.timeZone, locale)
  const [form, fields] = useConformForm(SchemeLegalHoldSchema, {
    id: 'legal-hold',
    lastResult: resultFor(actionData, 'legal-hold'),
  })
  const lift = useResultForm('lift-legal-hold', resultFor(actionData, 'lift-legal-hold'))
  return (
    <Card id="legal-hold-title" title={t('legalHold.title')}>
      <p className="text-slate-800">{t('legalHold.intro')}</p>
      {scheme.retentionAppliedAt ? (
        <p className="text-slate-800">
          {t('legalHold.retained', {
            mode: scheme.retentionMode ?? 'anonymise',
            at: when(scheme.retentionAppliedAt),
          })}
        </p>
      ) : null}
      {scheme.legalHoldAt ? (
        <IntentForm form={lift[0]} intent="lift-legal-hold" className="flex flex-col gap-3">
          <FormErrors id={lift[0].errorId} errors={lift[0].errors} />
          <p className="font-semibold">{t('legalHold.heldSince', { at: when(scheme.legalHoldAt) })}</p>
          {scheme.legalHoldReason ? (
            <p className="whitespace-pre-line text-slate-800">{scheme.legalHoldReason}</p>
          ) : null}
          <div>
            <SubmitButton
              intent="lift-legal-hold"
              label={t('legalHold.lift')}
              pendingLabel={t('legalHold.lifting')}
              className="btn btn-secondary"
            />
          </div>
        </IntentForm>
      ) : (
        <IntentForm form={form} intent="legal-hold" className="flex flex-col gap-3">
          <FormErrors id={form.errorId} errors={form.errors} />
          <div className="flex flex-col gap-1">
            <label htmlFor={fields.reason.id} className="label">
              {t('legalHold.reasonLabel')}
            </label>
            <textarea
              {...getTextareaProps(fields.reason)}
              key={fields.reason.key}
              rows={3}
              maxLength={LEGAL_HOLD_REASON_MAX}
              className="input"
            />
            <ErrorList id={fields.reason.errorId} errors={fields.reason.errors} />
          </div>
          <div>
            <SubmitButton
              intent="legal-hold"
              label={t('legalHold.place')}
              pendingLabel={t('legalHold.placing')}
            />
          </div>
        </IntentForm>
      )}
    </Card>
  )
}
