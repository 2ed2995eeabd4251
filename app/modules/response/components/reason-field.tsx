import { getTextareaProps } from '@conform-to/react'
import type { ReactNode } from 'react'
import { ErrorList } from '#app/components/forms'

/**
 * The reason an admin gives for an audited change (reopening answers, revealing who answered,
 * exporting names): a labelled textarea bound to its Conform field, with its errors.
 */
export function ReasonField({
  meta,
  rows,
  maxLength,
  children,
}: {
  meta: Parameters<typeof getTextareaProps>[0]
  rows: number
  maxLength: number
  /** The label. */
  children: ReactNode
}) {
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={meta.id} className="label">
        {children}
      </label>
      <textarea
        {...getTextareaProps(meta)}
        key={meta.key}
        rows={rows}
        maxLength={maxLength}
        className="input"
      />
      <ErrorList id={meta.errorId} errors={meta.errors} />
    </div>
  )
}
