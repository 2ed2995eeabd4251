import { getFormProps, getInputProps } from '@conform-to/react'
import { useTranslation } from 'react-i18next'
import { data, Form, Link, useNavigation } from 'react-router'
import type { Route } from './+types/forgot-password'
import { useConformForm } from '#app/components/form-kit'
import { Field, FormErrors } from '#app/components/forms'
import { parseForm, readFormData } from '#app/lib/form-data.server'
import { BotCheck } from '#app/components/turnstile'
import { requestPasswordReset } from '#app/modules/auth/auth.server'
import { translatedAuthError } from '#app/modules/auth/errors.server'
import { AuthPage } from '#app/modules/auth/components/auth-page'
import { requireAnonymous } from '#app/modules/auth/guards.server'
import { ForgotPasswordSchema } from '#app/modules/auth/schemas'
import { verifyTurnstile } from '#app/modules/auth/turnstile.server'
import { metaT } from '#app/modules/i18n/meta'
import type { RouteHandle } from '#app/root'

export const handle: RouteHandle = { layout: 'default', i18n: 'auth' }

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: metaT(matches, 'auth:forgotPassword.metaTitle') },
]

/**
 * Said whether or not the address has an account: the page must not reveal which. In English; the
 * page says it in the reader's language (auth:forgotPassword.sent, which equals this).
 */
export const RESET_SENT_MESSAGE =
  'If an account exists for that address, we have sent it a link to choose a new password. The link works for one hour.'

/** How long a reset link works (action-code.server.ts, reset_password), as the page says it. */
export const RESET_LINK_HOURS = 1

export async function loader({ request }: Route.LoaderArgs) {
  await requireAnonymous(request)
  return null
}

export async function action({ request, context }: Route.ActionArgs) {
  await requireAnonymous(request)
  const formData = await readFormData(request)
  const submission = parseForm(formData, { schema: ForgotPasswordSchema })
  if (submission.status !== 'success')
    return data({ result: submission.reply(), sent: false }, { status: 400 })
  if (!(await verifyTurnstile(formData, context.ip))) {
    return data(
      {
        result: submission.reply({
          formErrors: [await translatedAuthError(request, 'auth/captcha-check-failed')],
        }),
        sent: false,
      },
      { status: 400 },
    )
  }
  await requestPasswordReset(submission.value.email, context.ip, { after: context.responseSent })
  return { result: submission.reply({ resetForm: true }), sent: true }
}

export default function ForgotPassword({ actionData }: Route.ComponentProps) {
  const { t } = useTranslation('auth')
  const navigation = useNavigation()
  const [form, fields] = useConformForm(ForgotPasswordSchema, {
    id: 'forgot-password',
    lastResult: actionData?.result,
  })
  return (
    <AuthPage
      title={t('forgotPassword.title')}
      intro={t('forgotPassword.intro')}
      sentMessage={actionData?.sent ? t('forgotPassword.sent', { hours: RESET_LINK_HOURS }) : null}
    >
      <Form method="post" className="card flex flex-col gap-4" {...getFormProps(form)}>
        <FormErrors id={form.errorId} errors={form.errors} />
        <Field
          label={t('forgotPassword.email')}
          inputProps={{ ...getInputProps(fields.email, { type: 'email' }), autoComplete: 'email' }}
          errors={fields.email.errors}
        />
        <BotCheck />
        <button type="submit" className="btn btn-primary" disabled={navigation.state === 'submitting'}>
          {t('forgotPassword.submit')}
        </button>
        <Link to="/sign-in" className="link self-start text-sm">
          {t('forgotPassword.back')}
        </Link>
      </Form>
    </AuthPage>
  )
}
