import { data } from 'react-router'
import { getEnv } from '#app/config/env.server'
import { parseForm, readFormData, unreadableForm } from '#app/lib/form-data.server'
import { refusalStatus, type Refusal } from '#app/lib/outcome'
import { readImageUpload } from '#app/modules/file/file.server'
import { redirectWithToast } from '#app/modules/toast/toast.server'
import type { Reply } from './profile-forms'
import {
  ChangeEmailSchema,
  changePasswordSchema,
  PhotoSchema,
  ProfileSchema,
  type ProfileIntent,
} from './profile-schemas'
import {
  changePassword,
  requestEmailChange,
  updatePhoto,
  updateProfile,
  type ProfileActor,
} from './profile.server'

/**
 * The posts of a profile page (employees' /user/edit-profile, admins' /admin/profile): the forms are
 * told apart by `intent`; each is parsed with its schema and handed to profile.server.ts, and the
 * page comes back with a toast. The route guards first and says which forms its page shows.
 */

/** A refusal from profile.server.ts as the form's reply (429 with Retry-After for a rate limit). */
function refused(
  intent: ProfileIntent,
  submission: { reply: (options?: object) => Reply },
  outcome: Refusal,
  hideFields?: string[],
) {
  return data(
    {
      intent,
      result: submission.reply({
        formErrors: outcome.formErrors,
        fieldErrors: outcome.fieldErrors,
        hideFields,
      }),
    },
    {
      status: refusalStatus(outcome),
      headers: outcome.retryAfterSeconds ? { 'Retry-After': String(outcome.retryAfterSeconds) } : undefined,
    },
  )
}

export async function profileAction(
  request: Request,
  actor: ProfileActor,
  options: { page: string; intents: readonly ProfileIntent[] },
) {
  const { page } = options
  const formData = await readFormData(request)
  const intent = formData.get('intent')
  if (typeof intent !== 'string' || !options.intents.includes(intent as ProfileIntent))
    return unreadableForm()

  if (intent === 'profile') {
    const submission = parseForm(formData, { schema: ProfileSchema })
    if (submission.status !== 'success') return data({ intent, result: submission.reply() }, { status: 400 })
    const outcome = await updateProfile(actor, submission.value)
    if (!outcome.ok) return refused(intent, submission, outcome)
    return redirectWithToast(
      page,
      outcome.value.changed.length
        ? {
            kind: 'success',
            title: 'Profile saved',
            description: 'Your name and phone number are up to date.',
          }
        : { kind: 'info', title: 'Nothing to save', description: 'Your profile already had those details.' },
    )
  }

  if (intent === 'photo') {
    const submission = parseForm(formData, { schema: PhotoSchema })
    if (submission.status !== 'success') return data({ intent, result: submission.reply() }, { status: 400 })
    let outcome
    if (submission.value.remove) {
      outcome = await updatePhoto(actor, { remove: true })
    } else {
      const upload = await readImageUpload(formData.get('photo'))
      if (!upload?.ok) {
        const message = upload ? upload.message : 'Choose a photo to upload.'
        return data(
          { intent, result: submission.reply({ fieldErrors: { photo: [message] } }) },
          { status: 400 },
        )
      }
      outcome = await updatePhoto(actor, { image: { bytes: upload.bytes, mime: upload.mime } })
    }
    if (!outcome.ok) return refused(intent, submission, outcome)
    return redirectWithToast(
      page,
      outcome.value.photoFileId
        ? { kind: 'success', title: 'Photo saved', description: 'It now shows beside your name.' }
        : outcome.value.changed
          ? { kind: 'success', title: 'Photo removed' }
          : { kind: 'info', title: 'No photo to remove' },
    )
  }

  if (intent === 'password') {
    const hideFields = ['currentPassword', 'newPassword', 'confirmPassword']
    const schema = changePasswordSchema(getEnv().PASSWORD_MIN_LENGTH)
    const submission = parseForm(formData, { schema })
    if (submission.status !== 'success') {
      return data({ intent, result: submission.reply({ hideFields }) }, { status: 400 })
    }
    const outcome = await changePassword(actor, submission.value)
    if (!outcome.ok) return refused(intent, submission, outcome, hideFields)
    return redirectWithToast(page, {
      kind: 'success',
      title: 'Password changed',
      description: 'You stay signed in here; every other device has been signed out.',
    })
  }

  // intent === 'email'
  const hideFields = ['currentPassword']
  const submission = parseForm(formData, { schema: ChangeEmailSchema })
  if (submission.status !== 'success') {
    return data({ intent: 'email' as const, result: submission.reply({ hideFields }) }, { status: 400 })
  }
  const outcome = await requestEmailChange(actor, submission.value)
  if (!outcome.ok) return refused('email', submission, outcome, hideFields)
  return redirectWithToast(page, {
    kind: 'success',
    title: 'Check your inbox',
    description: `We sent a link to ${outcome.value.email}. Your address changes once you follow it.`,
  })
}
