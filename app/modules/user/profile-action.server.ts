import type { SubmissionResult } from '@conform-to/react'
import type { TFunction } from 'i18next'
import { getEnv } from '#app/config/env.server'
import { parseForm, UNREADABLE_FORM_MESSAGE } from '#app/lib/form-data.server'
import { formAnswer, type FormAnswer } from '#app/lib/reply.server'
import { readImageUpload } from '#app/modules/file/file.server'
import type { Toast } from '#app/modules/toast/toast.server'
import { availableLanguages } from '#app/modules/i18n/i18n.server'
import { LANGUAGE_NOT_OFFERED } from '#app/modules/i18n/languages'
import {
  ChangeEmailSchema,
  changePasswordSchema,
  LanguageSchema,
  PhotoSchema,
  ProfileSchema,
  type ProfileIntent,
} from './profile-schemas'
import {
  changePassword,
  requestEmailChange,
  updateLanguage,
  updatePhoto,
  updateProfile,
  type ProfileActor,
} from './profile.server'

/**
 * The posts of a profile page (employees' /user/edit-profile, admins' /admin/profile): the forms are
 * told apart by `intent`; each is parsed with its schema and handed to profile.server.ts. The answer
 * is an outcome — the toast to show, or the form's result and why it was refused — which the route
 * turns into HTTP (app/lib/reply.server.ts `replyAnswer`). The route guards first and says which
 * forms its page shows.
 */
export type ProfileAnswer = FormAnswer<ProfileIntent, Toast>

/** Bad input: the submission's own messages (400). */
const invalid = (intent: ProfileIntent, result: SubmissionResult<string[]>): ProfileAnswer => ({
  ok: false,
  intent,
  result,
})

export async function submitProfileForm(
  formData: FormData,
  actor: ProfileActor,
  intents: readonly ProfileIntent[],
  /** The profile namespace in the request's language (getFixedT(request, 'profile')): the toasts. */
  t: TFunction<'profile'>,
): Promise<ProfileAnswer> {
  const intent = formData.get('intent')
  if (typeof intent !== 'string' || !intents.includes(intent as ProfileIntent))
    return {
      ok: false,
      intent: 'unknown',
      result: { status: 'error', error: { '': [UNREADABLE_FORM_MESSAGE] } },
    }

  if (intent === 'profile') {
    const submission = parseForm(formData, { schema: ProfileSchema })
    if (submission.status !== 'success') return invalid(intent, submission.reply())
    return formAnswer(intent, submission, await updateProfile(actor, submission.value), ({ changed }) =>
      changed.length
        ? { kind: 'success', title: t('toast.profileSaved'), description: t('toast.profileSavedText') }
        : { kind: 'info', title: t('toast.nothing'), description: t('toast.profileSame') },
    )
  }

  if (intent === 'photo') {
    const submission = parseForm(formData, { schema: PhotoSchema })
    if (submission.status !== 'success') return invalid(intent, submission.reply())
    let outcome
    if (submission.value.remove) {
      outcome = await updatePhoto(actor, { remove: true })
    } else {
      const upload = await readImageUpload(formData.get('photo'))
      if (!upload?.ok) {
        const message = upload ? upload.message : 'Choose a photo to upload.'
        return invalid(intent, submission.reply({ fieldErrors: { photo: [message] } }))
      }
      outcome = await updatePhoto(actor, { image: { bytes: upload.bytes, mime: upload.mime } })
    }
    return formAnswer(intent, submission, outcome, ({ photoFileId, changed }) =>
      photoFileId
        ? { kind: 'success', title: t('toast.photoSaved'), description: t('toast.photoSavedText') }
        : changed
          ? { kind: 'success', title: t('toast.photoRemoved') }
          : { kind: 'info', title: t('toast.noPhoto') },
    )
  }

  if (intent === 'language') {
    const submission = parseForm(formData, { schema: LanguageSchema })
    if (submission.status !== 'success') return invalid(intent, submission.reply())
    const { language } = submission.value
    // Only a language the portal offers now (shipped, or previewed: ADR 050).
    if (language && !availableLanguages().includes(language))
      return invalid(intent, submission.reply({ fieldErrors: { language: [LANGUAGE_NOT_OFFERED] } }))
    return formAnswer(intent, submission, await updateLanguage(actor, language), ({ changed }) =>
      changed
        ? { kind: 'success', title: t('toast.languageSaved'), description: t('toast.languageSavedText') }
        : { kind: 'info', title: t('toast.nothing'), description: t('toast.languageSame') },
    )
  }

  if (intent === 'password') {
    const hideFields = ['currentPassword', 'newPassword', 'confirmPassword']
    const submission = parseForm(formData, { schema: changePasswordSchema(getEnv().PASSWORD_MIN_LENGTH) })
    if (submission.status !== 'success') return invalid(intent, submission.reply({ hideFields }))
    const outcome = await changePassword(actor, submission.value)
    const toast = (): Toast => ({
      kind: 'success',
      title: t('toast.passwordChanged'),
      description: t('toast.passwordChangedText'),
    })
    return formAnswer(intent, submission, outcome, toast, hideFields)
  }

  // intent === 'email'
  const hideFields = ['currentPassword']
  const submission = parseForm(formData, { schema: ChangeEmailSchema })
  if (submission.status !== 'success') return invalid('email', submission.reply({ hideFields }))
  const outcome = await requestEmailChange(actor, submission.value)
  const toast = ({ email }: { email: string }): Toast => ({
    kind: 'success',
    title: t('toast.inbox'),
    description: t('toast.inboxText', { email }),
  })
  return formAnswer('email', submission, outcome, toast, hideFields)
}
