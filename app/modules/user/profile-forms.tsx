import { getFormProps, getInputProps, type SubmissionResult } from '@conform-to/react'
import { Form, useNavigation } from 'react-router'
import { useConformForm } from '#app/components/form-kit'
import { Field, FormErrors } from '#app/components/forms'
import {
  ChangeEmailSchema,
  changePasswordSchema,
  PHOTO_ACCEPT,
  PhotoSchema,
  ProfileSchema,
  type ProfileIntent,
} from './profile-schemas'

/**
 * The profile forms (details, photo, password, e-mail), each validated by the same Zod schema in the
 * browser and on the server, each working without JavaScript. Employees' /user/edit-profile and
 * admins' /admin/profile show them; profile-action.server.ts answers their posts.
 */

export type Reply = SubmissionResult<string[]>

export type ProfileView = {
  email: string
  displayName: string
  phone: string | null
  photoFileId: string | null
  pendingEmail: { email: string; expiresAt: string } | null
}

/** The submit button's "working" state for one of the page's forms. */
function useBusy(intent: ProfileIntent) {
  const navigation = useNavigation()
  return navigation.state === 'submitting' && navigation.formData?.get('intent') === intent
}

export function DetailsForm({
  profile,
  lastResult,
}: {
  profile: ProfileView
  lastResult: Reply | undefined
}) {
  const busy = useBusy('profile')
  const [form, fields] = useConformForm(ProfileSchema, {
    id: 'profile-details',
    defaultValue: { displayName: profile.displayName, phone: profile.phone ?? '' },
    lastResult,
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

export function PhotoForm({ profile, lastResult }: { profile: ProfileView; lastResult: Reply | undefined }) {
  const busy = useBusy('photo')
  const [form, fields] = useConformForm(PhotoSchema, { id: 'profile-photo', lastResult })
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

export function PasswordForm({
  email,
  minLength,
  lastResult,
}: {
  email: string
  minLength: number
  lastResult: Reply | undefined
}) {
  const busy = useBusy('password')
  const [form, fields] = useConformForm(changePasswordSchema(minLength), {
    id: 'profile-password',
    lastResult,
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

export function EmailForm({ profile, lastResult }: { profile: ProfileView; lastResult: Reply | undefined }) {
  const busy = useBusy('email')
  const [form, fields] = useConformForm(ChangeEmailSchema, { id: 'profile-email', lastResult })
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
