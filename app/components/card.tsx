import type { ReactNode } from 'react'

/**
 * A titled card of a page: a `<section>` named by its heading (so it is a region screen readers can
 * jump to). `className` adds to the card's column layout, usually its gap.
 */
export function Card({
  id,
  sectionId,
  title,
  className = 'gap-4',
  children,
}: {
  /** The heading's id. */
  id: string
  /** The section's own id, where a link points at the card. */
  sectionId?: string
  title: ReactNode
  className?: string
  children: ReactNode
}) {
  return (
    <section aria-labelledby={id} id={sectionId} className={`card flex flex-col ${className}`}>
      <h2 id={id} className="text-lg font-semibold">
        {title}
      </h2>
      {children}
    </section>
  )
}
