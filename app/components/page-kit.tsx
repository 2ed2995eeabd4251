import { getFormProps } from '@conform-to/react'
import { useEffect, useRef, type ReactNode } from 'react'
import { Form, Link } from 'react-router'
import { usePendingIntent, useResultForm, type FormResult } from '#app/components/form-kit'
import { FormErrors, useFormMessage } from '#app/components/forms'
import { useTranslation } from 'react-i18next'

/**
 * The page pieces of the form kit: notices, the confirmation panel, the page header and titled cards. Apart from
 * the hooks (form-kit.tsx) so that a page with one small form does not load them.
 */

/** Notices from the loader (an out-of-date page link, a record that has gone). */
export function Notices({ notices }: { notices: string[] }) {
  const say = useFormMessage()
  if (!notices.length) return null
  return (
    <div role="status" className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950">
      {notices.map((n) => (
        <p key={n}>{say(n)}</p>
      ))}
    </div>
  )
}

/**
 * The one confirmation for delete, revoke, disable and the like: opened by a link (`?delete=<id>`),
 * it takes the focus, says what will happen (or why it cannot), and posts the intent with its
 * hidden fields. `blockedBy` replaces the question and the confirm button with the reason.
 */
export function ConfirmPanel({
  id,
  title,
  intent,
  fields,
  confirmLabel,
  pendingLabel,
  cancelHref,
  lastResult,
  blockedBy,
  tone = 'danger',
  backLabel,
  children,
}: {
  id: string
  title: string
  intent: string
  fields: Record<string, string>
  confirmLabel: string
  pendingLabel: string
  cancelHref: string
  lastResult: FormResult
  /** Why the change cannot be made (may hold a link to where it can be fixed). */
  blockedBy?: ReactNode
  tone?: 'danger' | 'primary'
  /** The cancel link's words when the change is blocked. */
  backLabel?: string
  children: ReactNode
}) {
  const { t } = useTranslation('common')
  const busy = usePendingIntent(intent)
  const heading = useRef<HTMLHeadingElement>(null)
  const [form] = useResultForm(id, lastResult)
  // Opened by a link: move focus here so keyboard and screen-reader users land on the question.
  useEffect(() => heading.current?.focus(), [])
  const danger = tone === 'danger'
  return (
    <section
      aria-labelledby={`${id}-title`}
      className={`card flex flex-col gap-3 ${danger ? 'border-red-300' : 'border-indigo-300'}`}
    >
      <h2
        id={`${id}-title`}
        ref={heading}
        tabIndex={-1}
        className={`text-lg font-semibold ${danger ? 'text-red-900' : 'text-slate-900'}`}
      >
        {title}
      </h2>
      {blockedBy ? <p className="text-slate-800">{blockedBy}</p> : children}
      <FormErrors id={form.errorId} errors={form.errors} />
      <Form method="post" className="flex flex-wrap gap-3" {...getFormProps(form)}>
        <input type="hidden" name="intent" value={intent} />
        {Object.entries(fields).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        {blockedBy ? null : (
          <button type="submit" className={`btn ${danger ? 'btn-danger' : 'btn-primary'}`} disabled={busy}>
            {busy ? pendingLabel : confirmLabel}
          </button>
        )}
        <Link to={cancelHref} className="btn btn-secondary">
          {blockedBy ? (backLabel ?? t('kit.backToList')) : t('kit.cancel')}
        </Link>
      </Form>
    </section>
  )
}

/** The heading block every admin page starts with. */
export function PageHeader({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div>
      <h1 id="page-title" className="text-2xl font-bold tracking-tight">
        {title}
      </h1>
      {children ? <p className="mt-1 text-slate-700">{children}</p> : null}
    </div>
  )
}
