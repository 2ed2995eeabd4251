import { getFormProps, getInputProps, useForm, type SubmissionResult } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { data, Form, useNavigation } from 'react-router'
import type { Route } from './+types/edit-profile'
import { unreadableForm } from '#app/lib/form-data.server'
import { Field, FormErrors } from '#app/components/forms'
import { getEnv } from '#app/config/env.server'
import { readFormData } from '#app/lib/form-data.server'
import { notFound, requireUser } from '#app/modules/auth/guards.server'
import { ROUTE_ROLES } from '#app/modules/auth/permissions'
import { readImageUpload } from '#app/modules/file/file.server'
import { redirectWithToast } from '#app/modules/toast/toast.server'
import {
  ChangeEmailSchema,
  changePasswordSchema,
  PHOTO_ACCEPT,
  PhotoSchema,
  ProfileSchema,
  type ProfileIntent,
} from '#app/modules/user/profile-schemas'
import {
  changePassword,
  getProfile,
  requestEmailChange,
  updatePhoto,
  updateProfile,
  type Outcome,
} from '#app/modules/user/profile.server'
import type { RouteHandle } from '#app/root'

export const handle: RouteHandle = { layout: 'user', transition: true }

export const meta: Route.MetaFunction = () => [{ title: 'Edit profile · Panorama' }]

const PAGE = '/user/edit-profile'

// React Router keeps an action's headers only when the route passes them on: a 429's Retry-After.
export const headers: Route.HeadersFunction = ({ actionHeaders }) => {
  const retryAfter = actionHeaders.get('Retry-After')
  return retryAfter ? { 'Retry-After': retryAfter } : new Headers()
}

/**
 * The employee's own profile: four forms told apart by `intent` (profile, photo, password, email),
 * each validated by the same Zod schema in the browser and here, each working without JavaScript.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const { user } = await requireUser(request, { roles: ROUTE_ROLES['user/edit-profile'] })
  const profile = await getProfile(user.id)
  if (!profile) notFound()
  return { profile, passwordMinLength: getEnv().PASSWORD_MIN_LENGTH }
}

type Reply = SubmissionResult<string[]>

/** A refusal from profile.server.ts as the form's reply (429 with Retry-After for a rate limit). */
function refused(
  intent: ProfileIntent,
  submission: { reply: (options?: object) => Reply },
  outcome: Extract<Outcome<unknown>, { ok: false }>,
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
      status: outcome.status,
      headers: outcome.retryAfterSeconds ? { 'Retry-After': String(outcome.retryAfterSeconds) } : undefined,
    },
  )
}

export async function action({ request, context }: Route.ActionArgs) {
  const { user, session } = await requireUser(request, { roles: ROUTE_ROLES['user/edit-profile'] })
  const formData = await readFormData(request)
  const actor = { id: user.id, sessionId: session.id, ip: context.ip || null }
  const intent = formData.get('intent')

  if (intent === 'profile') {
    const submission = parseWithZod(formData, { schema: ProfileSchema })
    if (submission.status !== 'success') return data({ intent, result: submission.reply() }, { status: 400 })
    const outcome = await updateProfile(actor, submission.value)
    if (!outcome.ok) return refused(intent, submission, outcome)
    return redirectWithToast(
      PAGE,
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
    const submission = parseWithZod(formData, { schema: PhotoSchema })
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
      PAGE,
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
    const submission = parseWithZod(formData, { schema })
    if (submission.status !== 'success') {
      return data({ intent, result: submission.reply({ hideFields }) }, { status: 400 })
    }
    const outcome = await changePassword(actor, submission.value)
    if (!outcome.ok) return refused(intent, submission, outcome, hideFields)
    return redirectWithToast(PAGE, {
      kind: 'success',
      title: 'Password changed',
      description: 'You stay signed in here; every other device has been signed out.',
    })
  }

  if (intent === 'email') {
    const hideFields = ['currentPassword']
    const submission = parseWithZod(formData, { schema: ChangeEmailSchema })
    if (submission.status !== 'success') {
      return data({ intent, result: submission.reply({ hideFields }) }, { status: 400 })
    }
    const outcome = await requestEmailChange(actor, submission.value)
    if (!outcome.ok) return refused(intent, submission, outcome, hideFields)
    return redirectWithToast(PAGE, {
      kind: 'success',
      title: 'Check your inbox',
      description: `We sent a link to ${outcome.value.email}. Your address changes once you follow it.`,
    })
  }

  return unreadableForm()
}

type Profile = Route.ComponentProps['loaderData']['profile']

export default function EditProfile({ loaderData, actionData }: Route.ComponentProps) {
  const { profile, passwordMinLength } = loaderData
  const resultFor = (intent: ProfileIntent) =>
    actionData?.intent === intent ? (actionData.result as Reply) : undefined
  const unknownErrors = actionData?.intent === 'unknown' ? actionData.result.error?.[''] : undefined
  return (
    <section aria-labelledby="page-title" className="flex max-w-3xl flex-col gap-8">
      <div className="flex flex-col gap-2">
        <h1 id="page-title" className="text-2xl font-bold tracking-tight">
          Edit profile
        </h1>
        <p className="text-slate-700">
          Your name and photo appear in the portal&apos;s header. Colleagues you invite see your name in their
          e-mail and questionnaire.
        </p>
      </div>
      <FormErrors errors={unknownErrors} />
      {/* Keyed by the saved values: after a save each form starts again from them. */}
      <DetailsForm
        key={`${profile.displayName}\n${profile.phone ?? ''}`}
        profile={profile}
        lastResult={resultFor('profile')}
      />
      <PhotoForm key={profile.photoFileId ?? 'none'} profile={profile} lastResult={resultFor('photo')} />
      <PasswordForm email={profile.email} minLength={passwordMinLength} lastResult={resultFor('password')} />
      <EmailForm
        key={`${profile.email}\n${profile.pendingEmail?.email ?? ''}`}
        profile={profile}
        lastResult={resultFor('email')}
      />
    </section>
  )
}

/** The submit button's "working" state for one of the page's forms. */
function useBusy(intent: ProfileIntent) {
  const navigation = useNavigation()
  return navigation.state === 'submitting' && navigation.formData?.get('intent') === intent
}

function DetailsForm({ profile, lastResult }: { profile: Profile; lastResult: Reply | undefined }) {
  const busy = useBusy('profile')
  const [form, fields] = useForm({
    id: 'profile-details',
    constraint: getZodConstraint(ProfileSchema),
    defaultValue: { displayName: profile.displayName, phone: profile.phone ?? '' },
    lastResult,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ProfileSchema }),
    // Errors clear as they are fixed, not on blur (a message vanishing under the pointer moves the button).
    shouldRevalidate: 'onInput',
  })
  return (
    <Form
      method="post"
      aria-labelledby="details-title"
      className="card flex flex-col gap-4"
      {...getFormProps(form)}
    >
      <h2 id="details-title" className="text-lg font-semibold">
        Your details
      </h2>
      <input type="hidden" name="intent" value="profile" />
      <FormErrors id={form.errorId} errors={form.errors} />
      <Field
        label="Display name"
        help="How the portal and your colleagues see you."
        inputProps={{ ...getInputProps(fields.displayName, { type: 'text' }), autoComplete: 'name' }}
        errors={fields.displayName.errors}
      />
      <Field
        label="Phone (optional)"
        help="With the country code if you are abroad, for example +44 20 7946 0958."
        inputProps={{ ...getInputProps(fields.phone, { type: 'tel' }), autoComplete: 'tel' }}
        errors={fields.phone.errors}
      />
      <div>
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {busy ? 'Saving…' : 'Save details'}
        </button>
      </div>
    </Form>
  )
}

function PhotoForm({ profile, lastResult }: { profile: Profile; lastResult: Reply | undefined }) {
  const busy = useBusy('photo')
  const [form, fields] = useForm({
    id: 'profile-photo',
    constraint: getZodConstraint(PhotoSchema),
    lastResult,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: PhotoSchema }),
    shouldRevalidate: 'onInput',
  })
  const name = profile.displayName || profile.email
  return (
    <Form
      method="post"
      encType="multipart/form-data"
      aria-labelledby="photo-title"
      className="card flex flex-col gap-4"
      {...getFormProps(form)}
    >
      <h2 id="photo-title" className="text-lg font-semibold">
        Photo
      </h2>
      <input type="hidden" name="intent" value="photo" />
      <FormErrors id={form.errorId} errors={form.errors} />
      {profile.photoFileId ? (
        <img
          src={`/files/${profile.photoFileId}`}
          alt={`Your current photo, ${name}`}
          width={96}
          height={96}
          className="h-24 w-24 rounded-full border border-slate-200 bg-white object-cover"
        />
      ) : (
        <p className="text-sm text-slate-700">No photo yet: your initials are shown instead.</p>
      )}
      <Field
        label={profile.photoFileId ? 'Upload a new photo' : 'Upload a photo'}
        help="PNG, JPEG or WebP, 2 MB at most. A square picture of your face works best."
        inputProps={{ ...getInputProps(fields.photo, { type: 'file' }), accept: PHOTO_ACCEPT }}
        errors={fields.photo.errors}
      />
      <div className="flex flex-wrap gap-3">
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {busy ? 'Saving…' : 'Save photo'}
        </button>
        {profile.photoFileId ? (
          // Its name and value travel with the form, so removal needs no JavaScript and no file.
          <button type="submit" name="remove" value="true" className="btn btn-secondary" disabled={busy}>
            Remove photo
          </button>
        ) : null}
      </div>
    </Form>
  )
}

function PasswordForm({
  email,
  minLength,
  lastResult,
}: {
  email: string
  minLength: number
  lastResult: Reply | undefined
}) {
  const busy = useBusy('password')
  const schema = changePasswordSchema(minLength)
  const [form, fields] = useForm({
    id: 'profile-password',
    constraint: getZodConstraint(schema),
    lastResult,
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
    shouldRevalidate: 'onInput',
  })
  return (
    <Form
      method="post"
      aria-labelledby="password-title"
      className="card flex flex-col gap-4"
      {...getFormProps(form)}
    >
      <h2 id="password-title" className="text-lg font-semibold">
        Password
      </h2>
      <p className="text-slate-700">
        Changing your password keeps you signed in here and signs you out everywhere else.
      </p>
      <input type="hidden" name="intent" value="password" />
      {/* Lets password managers file the new password under the right account. */}
      <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
      <FormErrors id={form.errorId} errors={form.errors} />
      <Field
        label="Current password"
        inputProps={{
          ...getInputProps(fields.currentPassword, { type: 'password' }),
          autoComplete: 'current-password',
        }}
        errors={fields.currentPassword.errors}
      />
      <Field
        label="New password"
        help={`At least ${minLength} characters.`}
        inputProps={{
          ...getInputProps(fields.newPassword, { type: 'password' }),
          autoComplete: 'new-password',
        }}
        errors={fields.newPassword.errors}
      />
      <Field
        label="Repeat the new password"
        inputProps={{
          ...getInputProps(fields.confirmPassword, { type: 'password' }),
          autoComplete: 'new-password',
        }}
        errors={fields.confirmPassword.errors}
      />
      <div>
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {busy ? 'Changing…' : 'Change password'}
        </button>
      </div>
    </Form>
  )
}

function EmailForm({ profile, lastResult }: { profile: Profile; lastResult: Reply | undefined }) {
  const busy = useBusy('email')
  const [form, fields] = useForm({
    id: 'profile-email',
    constraint: getZodConstraint(ChangeEmailSchema),
    lastResult,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ChangeEmailSchema }),
    shouldRevalidate: 'onInput',
  })
  const pending = profile.pendingEmail
  return (
    <Form
      method="post"
      aria-labelledby="email-title"
      className="card flex flex-col gap-4"
      {...getFormProps(form)}
    >
      <h2 id="email-title" className="text-lg font-semibold">
        E-mail address
      </h2>
      <p className="text-slate-700">
        You sign in with <strong>{profile.email}</strong>. A new address takes effect once you follow the link
        we send to it.
      </p>
      {pending ? (
        <div className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950">
          <p className="font-semibold">Pending change to {pending.email} — check your inbox.</p>
          <p>
            Until you follow the link in that e-mail, keep signing in with {profile.email}. Asking again sends
            a new link, and the earlier one stops working.
          </p>
        </div>
      ) : null}
      <input type="hidden" name="intent" value="email" />
      <FormErrors id={form.errorId} errors={form.errors} />
      <Field
        label="New e-mail address"
        inputProps={{ ...getInputProps(fields.newEmail, { type: 'email' }), autoComplete: 'email' }}
        errors={fields.newEmail.errors}
      />
      <Field
        label="Current password"
        help="To confirm it is you."
        inputProps={{
          ...getInputProps(fields.currentPassword, { type: 'password' }),
          autoComplete: 'current-password',
        }}
        errors={fields.currentPassword.errors}
      />
      <div>
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {busy ? 'Sending…' : 'Send confirmation link'}
        </button>
      </div>
    </Form>
  )
}
