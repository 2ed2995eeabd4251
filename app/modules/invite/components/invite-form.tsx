import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { useTranslation } from 'react-i18next'
import { Form, Link, useNavigation } from 'react-router'
import { useConformForm } from '#app/components/form-kit'
import { FormErrors } from '#app/components/forms'
import { BotCheck } from '#app/components/turnstile'
import { InviteSchema } from '#app/modules/invite/schemas'
import { ColleagueFields } from './colleague-fields'

export function InviteForm({
  schemeId,
  action,
  lastResult,
  onBehalf,
  suggestion,
  fillHref,
  help,
}: {
  /** Whom to choose, in the page's words (sent by the loader: the page's JS has a budget). */
  help: string
  /** The manager on record while not invited; `fill`: the form filled in for them (`?fill=manager`). */
  suggestion?: { name: string; email: string; fill: boolean } | null
  /** This page with `?fill=manager`. */
  fillHref?: string
  schemeId: string
  /** This page without ?revoke=, so a sent invitation does not reopen a confirmation. */
  action: string
  lastResult: SubmissionResult<string[]> | undefined
  onBehalf: boolean
}) {
  const { t } = useTranslation('invite')
  const navigation = useNavigation()
  const busy = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'invite'
  const [form, fields] = useConformForm(InviteSchema, {
    id: 'invite',
    lastResult,
    defaultValue: suggestion?.fill
      ? { name: suggestion.name, email: suggestion.email, relationship: 'manager' }
      : undefined,
  })
  return (
    <section aria-labelledby="invite-title" className="card flex flex-col gap-4">
      <h2 id="invite-title" className="text-lg font-semibold">
        {t('form.title')}
      </h2>
      <p className="text-sm text-slate-700">{help}</p>
      {suggestion ? (
        <p className="rounded-md border border-indigo-200 bg-indigo-50 p-3 text-sm text-indigo-950">
          {/* The name in bold where the sentence has it (richT's way, without its module: the JS budget). */}
          {t(onBehalf ? 'form.suggestionOnBehalf' : 'form.suggestionOwn', { name: '\uE000' })
            .split('\uE000')
            .map((part, i) => (i ? [<strong key={i}>{suggestion.name}</strong>, part] : part))}{' '}
          {suggestion.fill ? (
            t('form.filled')
          ) : (
            <Link className="link" to={fillHref ?? '?fill=manager'} preventScrollReset>
              {t('form.fill')}
            </Link>
          )}
        </p>
      ) : null}
      <Form method="post" action={action} className="flex flex-col gap-4" {...getFormProps(form)}>
        <input type="hidden" name="intent" value="invite" />
        <input type="hidden" name="schemeId" value={schemeId} />
        <FormErrors id={form.errorId} errors={form.errors} />
        <ColleagueFields
          name={fields.name}
          email={fields.email}
          relationship={fields.relationship}
          relationshipHelp={t(onBehalf ? 'form.helpOnBehalf' : 'form.helpOwn')}
        />
        <BotCheck />
        <div>
          <button type="submit" className="btn btn-primary" disabled={busy}>
            {busy ? t('form.sending') : t('form.send')}
          </button>
        </div>
      </Form>
    </section>
  )
}
