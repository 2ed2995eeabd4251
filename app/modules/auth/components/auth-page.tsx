import type { ReactNode } from 'react'

/**
 * The frame of a signed-out form page (sign-in, forgot password): a narrow column with its heading
 * and one line of introduction, the news that a link was sent (when it was), then the page's forms.
 */
export function AuthPage({
  title,
  intro,
  sentMessage,
  children,
}: {
  title: string
  intro: ReactNode
  /** Shown as a status above the forms once a link has been sent. */
  sentMessage?: string | null
  children: ReactNode
}) {
  return (
    <div className="mx-auto flex max-w-md flex-col gap-6 px-6 py-16">
      <div>
        <h1 className="text-3xl font-bold tracking-tight">{title}</h1>
        <p className="mt-2 text-slate-700">{intro}</p>
      </div>
      {sentMessage ? (
        <div role="status" className="card border-emerald-200 bg-emerald-50 text-emerald-900">
          {sentMessage}
        </div>
      ) : null}
      {children}
    </div>
  )
}
