import { getFormProps, type SubmissionResult } from '@conform-to/react'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { Form, useNavigation } from 'react-router'
import { ConformField, ConformSelect } from '#app/components/form-parts'
import { isLanguage } from '#app/modules/i18n/languages'
import { useConformForm } from '#app/components/form-kit'
import { FormErrors } from '#app/components/forms'
import { richT } from '#app/modules/i18n/rich'
import {
  ChangeEmailSchema,
  changePasswordSchema,
  LanguageSchema,
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
  language?: string | null
  pendingEmail: { email: string; expiresAt: string } | null
}

/** The submit button's "working" state for one of the page's forms. */
function useBusy(intent: ProfileIntent) {
  const navigation = useNavigation()
  return navigation.state === 'submitting' && navigation.formData?.get('intent') === intent
}

type ConformForm = ReturnType<typeof useConformForm>[0]

/**
 * One profile form as a card: its heading names the form, the intent tells the action which form
 * it is, and the form-level messages come first (`intro` sits under the heading, `hidden` beside
 * the intent).
 */
function ProfileCard({
  form,
  intent,
  title,
  intro,
  hidden,
  multipart,
  children,
}: {
  form: ConformForm
  intent: ProfileIntent
  title: string
  intro?: ReactNode
  hidden?: ReactNode
  multipart?: boolean
  children: ReactNode
}) {
  const titleId = `${intent === 'profile' ? 'details' : intent}-title`
  return (
    <Form
      method="post"
      encType={multipart ? 'multipart/form-data' : undefined}
      aria-labelledby={titleId}
      className="card flex flex-col gap-4"
      {...getFormProps(form)}
    >
      <h2 id={titleId} className="text-lg font-semibold">
        {title}
      </h2>
      {intro}
      <input type="hidden" name="intent" value={intent} />
      {hidden}
      <FormErrors id={form.errorId} errors={form.errors} />
      {children}
    </Form>
  )
}

/** The card's one submit button, saying what it does while it works. */
function SubmitButton({ busy, label, busyLabel }: { busy: boolean; label: string; busyLabel: string }) {
  return (
    <div>
      <button type="submit" className="btn btn-primary" disabled={busy}>
        {busy ? busyLabel : label}
      </button>
    </div>
  )
}

/**
 * The portal's language for this person (ADR 050): the languages offered (by the loader: shipped,
 * or previewed), or "Use the default" — their organisation's, else their browser's.
 */
export function LanguageForm({
  current,
  options,
  lastResult,
}: {
  current: string | null
  options: ReadonlyArray<{ value: string; label: string }>
  lastResult: Reply | undefined
}) {
  const { t } = useTranslation('profile')
  const busy = useBusy('language')
  const [form, fields] = useConformForm(LanguageSchema, {
    id: 'profile-language',
    // Blank is "Use the default"; a stored code selects its option.
    defaultValue: { language: isLanguage(current) ? current : undefined },
    lastResult,
  })
  return (
    <ProfileCard form={form} intent="language" title={t('language.title')}>
      <ConformSelect
        label={t('language.label')}
        meta={fields.language}
        options={options}
        placeholder={t('language.default')}
        help={t('language.help')}
      />
      <SubmitButton busy={busy} label={t('language.save')} busyLabel={t('saving')} />
    </ProfileCard>
  )
}

export function DetailsForm({
  profile,
  lastResult,
}: {
  profile: ProfileView
  lastResult: Reply | undefined
}) {
  const { t } = useTranslation('profile')
  const busy = useBusy('profile')
  const [form, fields] = useConformForm(ProfileSchema, {
    id: 'profile-details',
    defaultValue: { displayName: profile.displayName, phone: profile.phone ?? '' },
    lastResult,
  })
  return (
    <ProfileCard form={form} intent="profile" title={t('details.title')}>
      <ConformField
        label={t('details.name')}
        help={t('details.nameHelp')}
        meta={fields.displayName}
        autoComplete="name"
      />
      <ConformField
        label={t('details.phone')}
        help={t('details.phoneHelp')}
        meta={fields.phone}
        type="tel"
        autoComplete="tel"
      />
      <SubmitButton busy={busy} label={t('details.save')} busyLabel={t('saving')} />
    </ProfileCard>
  )
}

export function PhotoForm({ profile, lastResult }: { profile: ProfileView; lastResult: Reply | undefined }) {
  const { t } = useTranslation('profile')
  const busy = useBusy('photo')
  const [form, fields] = useConformForm(PhotoSchema, { id: 'profile-photo', lastResult })
  const name = profile.displayName || profile.email
  return (
    <ProfileCard form={form} intent="photo" title={t('photo.title')} multipart>
      {profile.photoFileId ? (
        <img
          src={`/files/${profile.photoFileId}`}
          alt={t('photo.current', { name })}
          width={96}
          height={96}
          className="h-24 w-24 rounded-full border border-slate-200 bg-white object-cover"
        />
      ) : (
        <p className="text-sm text-slate-700">{t('photo.none')}</p>
      )}
      <ConformField
        label={profile.photoFileId ? t('photo.uploadNew') : t('photo.upload')}
        help={t('photo.help')}
        meta={fields.photo}
        type="file"
        accept={PHOTO_ACCEPT}
      />
      <div className="flex flex-wrap gap-3">
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {busy ? t('saving') : t('photo.save')}
        </button>
        {profile.photoFileId ? (
          // Its name and value travel with the form, so removal needs no JavaScript and no file.
          <button type="submit" name="remove" value="true" className="btn btn-secondary" disabled={busy}>
            {t('photo.remove')}
          </button>
        ) : null}
      </div>
    </ProfileCard>
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
  const { t } = useTranslation('profile')
  const busy = useBusy('password')
  const [form, fields] = useConformForm(changePasswordSchema(minLength), {
    id: 'profile-password',
    lastResult,
  })
  return (
    <ProfileCard
      form={form}
      intent="password"
      title={t('password.title')}
      intro={<p className="text-slate-700">{t('password.intro')}</p>}
      // Lets password managers file the new password under the right account.
      hidden={<input type="email" name="username" autoComplete="username" value={email} readOnly hidden />}
    >
      <ConformField
        label={t('password.current')}
        meta={fields.currentPassword}
        type="password"
        autoComplete="current-password"
      />
      <ConformField
        label={t('password.new')}
        help={t('password.newHelp', { min: minLength })}
        meta={fields.newPassword}
        type="password"
        autoComplete="new-password"
      />
      <ConformField
        label={t('password.repeat')}
        meta={fields.confirmPassword}
        type="password"
        autoComplete="new-password"
      />
      <SubmitButton busy={busy} label={t('password.save')} busyLabel={t('password.saving')} />
    </ProfileCard>
  )
}

export function EmailForm({ profile, lastResult }: { profile: ProfileView; lastResult: Reply | undefined }) {
  const { t } = useTranslation('profile')
  const busy = useBusy('email')
  const [form, fields] = useConformForm(ChangeEmailSchema, { id: 'profile-email', lastResult })
  return (
    <ProfileCard
      form={form}
      intent="email"
      title={t('email.title')}
      intro={<EmailIntro email={profile.email} pending={profile.pendingEmail} />}
    >
      <ConformField label={t('email.new')} meta={fields.newEmail} type="email" autoComplete="email" />
      <ConformField
        label={t('email.current')}
        help={t('email.currentHelp')}
        meta={fields.currentPassword}
        type="password"
        autoComplete="current-password"
      />
      <SubmitButton busy={busy} label={t('email.save')} busyLabel={t('email.saving')} />
    </ProfileCard>
  )
}

/** Where the address stands: the one signed in with, and a change waiting for its link. */
function EmailIntro({ email, pending }: { email: string; pending: ProfileView['pendingEmail'] }) {
  const { t } = useTranslation('profile')
  return (
    <>
      <p className="text-slate-700">{richT(t, 'email.signedInWith', { email: <strong>{email}</strong> })}</p>
      {pending ? (
        <div className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950">
          <p className="font-semibold">{t('email.pending', { email: pending.email })}</p>
          <p>{t('email.pendingText', { email })}</p>
        </div>
      ) : null}
    </>
  )
}
