import { getFormProps, getInputProps } from '@conform-to/react'
import { data, Form, Link, useNavigation } from 'react-router'
import type { Route } from './+types/forgot-password'
import { useConformForm } from '#app/components/form-kit'
import { Field, FormErrors } from '#app/components/forms'
import { parseForm, readFormData } from '#app/lib/form-data.server'
import { BotCheck } from '#app/components/turnstile'
import { requestPasswordReset } from '#app/modules/auth/auth.server'
import { authErrorMessage } from '#app/modules/auth/errors'
import { AuthPage } from '#app/modules/auth/components/auth-page'
import { requireAnonymous } from '#app/modules/auth/guards.server'
import { ForgotPasswordSchema } from '#app/modules/auth/schemas'
import { verifyTurnstile } from '#app/modules/auth/turnstile.server'
import type { RouteHandle } from '#app/root'

export const handle: RouteHandle = { layout: 'default' }

export const meta: Route.MetaFunction = () => [{ title: 'Forgot Password' }]

/** Said whether or not the address has an account: the page must not reveal which. */
export const RESET_SENT_MESSAGE =
  'If an account exists for that address, we have sent it a link to choose a new password. The link works for one hour.'

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
        result: submission.reply({ formErrors: [authErrorMessage('auth/captcha-check-failed')] }),
        sent: false,
      },
      { status: 400 },
    )
  }
  await requestPasswordReset(submission.value.email, context.ip, { after: context.responseSent })
  return { result: submission.reply({ resetForm: true }), sent: true }
}

export default function ForgotPassword({ actionData }: Route.ComponentProps) {
  const navigation = useNavigation()
  const [form, fields] = useConformForm(ForgotPasswordSchema, {
    id: 'forgot-password',
    lastResult: actionData?.result,
  })
  return (
    <AuthPage
      title="Forgot your password?"
      intro="Enter the e-mail address you sign in with and we will send you a link."
      sentMessage={actionData?.sent ? RESET_SENT_MESSAGE : null}
    >
      <Form method="post" className="card flex flex-col gap-4" {...getFormProps(form)}>
        <FormErrors id={form.errorId} errors={form.errors} />
        <Field
          label="E-mail address"
          inputProps={{ ...getInputProps(fields.email, { type: 'email' }), autoComplete: 'email' }}
          errors={fields.email.errors}
        />
        <BotCheck />
        <button type="submit" className="btn btn-primary" disabled={navigation.state === 'submitting'}>
          Send reset link
        </button>
        <Link to="/sign-in" className="link self-start text-sm">
          Back to sign in
        </Link>
      </Form>
    </AuthPage>
  )
}
