import type { TFunction } from 'i18next'
import { parseForm } from '#app/lib/form-data.server'
import type { Actor } from '#app/lib/outcome'
import { formAnswer, type FormAnswer } from '#app/lib/reply.server'
import type { Toast } from '#app/modules/toast/toast.server'
import { checkCurrentPassword, refusedPassword } from './current-password.server'
import {
  DisableTwoFactorSchema,
  RecoveryCodesSchema,
  TwoFactorConfirmSchema,
  type TwoFactorIntent,
} from './schemas'
import {
  cancelEnrolment,
  confirmEnrolment,
  regenerateRecoveryCodes,
  removeSecondFactor,
  startEnrolment,
} from './totp.server'

/**
 * The two-factor forms of an admin's profile (ADR 048), told apart by `intent` like the page's other
 * forms: start a set-up, confirm it with the app's first code, cancel it, make new recovery codes
 * (a code), turn it off (the password and a code). The answer is a toast to redirect with, or the
 * recovery codes to show once in this answer only.
 */
export type TwoFactorDone = { toast: Toast } | { recoveryCodes: string[] }
export type TwoFactorAnswer = FormAnswer<TwoFactorIntent, TwoFactorDone>

const CODES_SHOWN = (value: { recoveryCodes: string[] }): TwoFactorDone => ({
  recoveryCodes: value.recoveryCodes,
})

export async function submitTwoFactorForm(
  formData: FormData,
  actor: Actor,
  intent: TwoFactorIntent,
  { required }: { required: boolean },
  /** The second-factor namespace in the request's language (getFixedT(request, 'second-factor')): the toasts. */
  t: TFunction<'second-factor'>,
): Promise<TwoFactorAnswer> {
  if (intent === 'two-factor-start')
    return formAnswer(intent, null, await startEnrolment(actor), () => ({
      toast: {
        kind: 'info',
        title: t('settings.toast.startedTitle'),
        description: t('settings.toast.started'),
      },
    }))

  if (intent === 'two-factor-cancel')
    return formAnswer(intent, null, await cancelEnrolment(actor), () => ({
      toast: {
        kind: 'info',
        title: t('settings.toast.cancelledTitle'),
        description: t('settings.toast.cancelled'),
      },
    }))

  if (intent === 'two-factor-confirm') {
    const submission = parseForm(formData, { schema: TwoFactorConfirmSchema })
    if (submission.status !== 'success') return { ok: false, intent, result: submission.reply() }
    return formAnswer(intent, submission, await confirmEnrolment(actor, submission.value.code), CODES_SHOWN)
  }

  if (intent === 'two-factor-codes') {
    const hideFields = ['code']
    const submission = parseForm(formData, { schema: RecoveryCodesSchema })
    if (submission.status !== 'success')
      return { ok: false, intent, result: submission.reply({ hideFields }) }
    const outcome = await regenerateRecoveryCodes(actor, submission.value.code)
    return formAnswer(intent, submission, outcome, CODES_SHOWN, hideFields)
  }

  // intent === 'two-factor-disable'
  const hideFields = ['currentPassword', 'code']
  const submission = parseForm(formData, { schema: DisableTwoFactorSchema })
  if (submission.status !== 'success') return { ok: false, intent, result: submission.reply({ hideFields }) }
  const check = await checkCurrentPassword(actor.id, submission.value.currentPassword)
  const outcome = check.ok ? await removeSecondFactor(actor, submission.value.code) : refusedPassword(check)
  return formAnswer(
    intent,
    submission,
    outcome,
    () => ({
      toast: required
        ? {
            kind: 'info',
            title: t('settings.toast.offTitle'),
            description: t('settings.toast.offRequired'),
          }
        : {
            kind: 'success',
            title: t('settings.toast.offTitle'),
            description: t('settings.toast.off'),
          },
    }),
    hideFields,
  )
}
