import { getFormProps, type SubmissionResult } from '@conform-to/react'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { Form } from 'react-router'
import { ConformField } from '#app/components/form-parts'
import { useConformForm } from '#app/components/form-kit'
import { FormErrors } from '#app/components/forms'
import { setUpCode } from '#app/modules/auth/schemas'
import * as z from '#app/lib/zod'

/**
 * The pieces the sign-in's second step and the admin's profile share (ADR 048): setting up an
 * authenticator (a QR code drawn on the server, the same secret as text, the first code to prove
 * it), and the recovery codes shown once.
 */

export type SetUpView = { qrCode: string; secret: string }

/** Either page's confirmation form (each action parses its own intent's schema). */
const SetUpFormSchema = z.object({ intent: z.string(), code: setUpCode })

/** Scan or type the secret, then prove it with the app's first code (`intent` tells the page's action). */
export function SetUpAuthenticator({
  setup,
  intent,
  formId,
  lastResult,
  busy,
  hidden,
  secondary,
}: {
  setup: SetUpView
  intent: string
  formId: string
  lastResult: SubmissionResult<string[]> | undefined
  busy: boolean
  hidden?: ReactNode
  /** Another button beside "Turn on" (cancel), in a form of its own. */
  secondary?: ReactNode
}) {
  const { t } = useTranslation('second-factor')
  const [form, fields] = useConformForm(SetUpFormSchema, { id: formId, lastResult })
  return (
    <div className="flex flex-col gap-4">
      <ol className="flex list-decimal flex-col gap-4 pl-5 text-slate-700">
        <li>
          <p>{t('setUp.scan')}</p>
          <img
            src={setup.qrCode}
            alt={t('setUp.qrAlt')}
            width={180}
            height={180}
            className="mt-3 h-45 w-45 rounded border border-slate-200 bg-white"
          />
        </li>
        <li>
          <p>{t('setUp.type')}</p>
          <p
            className="mt-2 rounded bg-slate-100 p-2 font-mono text-sm break-all text-slate-900"
            data-testid="totp-secret"
          >
            {setup.secret}
          </p>
        </li>
        <li>
          <p>{t('setUp.enter')}</p>
        </li>
      </ol>
      <Form method="post" className="flex flex-col gap-4" {...getFormProps(form)}>
        <input type="hidden" name="intent" value={intent} />
        {hidden}
        <FormErrors id={form.errorId} errors={form.errors} />
        <ConformField
          label={t('setUp.code')}
          meta={fields.code}
          autoComplete="one-time-code"
          inputMode="numeric"
          spellCheck={false}
        />
        <div className="flex flex-wrap gap-3">
          <button type="submit" className="btn btn-primary" disabled={busy}>
            {busy ? t('checking') : t('setUp.turnOn')}
          </button>
        </div>
      </Form>
      {secondary}
    </div>
  )
}

/** The recovery codes, once: what they are for, and that they will not be shown again. */
export function RecoveryCodes({ codes, children }: { codes: string[]; children?: ReactNode }) {
  const { t } = useTranslation('second-factor')
  return (
    <section
      aria-labelledby="recovery-codes-title"
      className="flex flex-col gap-3 rounded-md border border-amber-300 bg-amber-50 p-4 text-amber-950"
    >
      <h3 id="recovery-codes-title" className="font-semibold">
        {t('recovery.title')}
      </h3>
      <p>{t('recovery.text')}</p>
      <ul className="grid grid-cols-1 gap-1 font-mono text-sm sm:grid-cols-2" aria-label={t('recovery.list')}>
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
      {children}
    </section>
  )
}
