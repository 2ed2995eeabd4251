import { useTranslation } from 'react-i18next'
import { Form } from 'react-router'
import {
  useConformForm,
  usePendingIntent,
  useResetAfterSuccess,
  type FormResult,
} from '#app/components/form-kit'
import { ConformField, RowForm } from '#app/components/form-parts'
import { stateBadge } from '#app/components/state-badge'
import { AdminInviteSchema, ADMIN_STATE_LABELS, type AdminState } from '#app/modules/administrator/schemas'

export function InviteAdminForm({ lastResult }: { lastResult: FormResult }) {
  const { t } = useTranslation('admins')
  const [form, fields] = useConformForm(AdminInviteSchema, { id: 'invite-admin', lastResult })
  useResetAfterSuccess(form.id, 'invite', lastResult)
  return (
    <RowForm form={form} intent="invite" label={t('invite.send')} pendingLabel={t('invite.sending')}>
      <ConformField label={t('invite.name')} meta={fields.name} autoComplete="off" />
      <ConformField label={t('invite.email')} meta={fields.email} type="email" autoComplete="off" />
    </RowForm>
  )
}

const ADMIN_STATE_TONES: Record<AdminState, string> = {
  active: 'ring-1 bg-emerald-50 text-emerald-900 ring-emerald-300',
  invited: 'ring-1 bg-amber-50 text-amber-950 ring-amber-300',
  disabled: 'ring-1 bg-slate-100 text-slate-800 ring-slate-300',
}

/** An administrator's state in the reader's language (ADMIN_STATE_LABELS is its English). */
export function AdminStateBadge({ state }: { state: AdminState }) {
  const { t } = useTranslation('admins')
  const labels = Object.fromEntries(
    (Object.keys(ADMIN_STATE_LABELS) as AdminState[]).map((s) => [s, t(`states.${s}`)]),
  ) as Record<AdminState, string>
  return stateBadge<AdminState>(labels, ADMIN_STATE_TONES)({ state })
}

/** A one-button form posting an intent (resend, end all sessions): works without JavaScript. */
export function IntentButton({
  intent,
  fields,
  label,
  pendingLabel,
  tone = 'secondary',
}: {
  intent: string
  fields: Record<string, string>
  label: string
  pendingLabel: string
  tone?: 'secondary' | 'danger' | 'primary'
}) {
  const busy = usePendingIntent(intent)
  return (
    <Form method="post">
      <input type="hidden" name="intent" value={intent} />
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <button type="submit" className={`btn btn-${tone}`} disabled={busy}>
        {busy ? pendingLabel : label}
      </button>
    </Form>
  )
}
