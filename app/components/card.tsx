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

/**
 * A titled part of a page without the card's frame (a list of cards, a table), named by its heading
 * like {@link Card}. `aside` stands beside the heading (a link to more).
 */
export function Section({
  id,
  title,
  aside,
  className = 'gap-4',
  children,
}: {
  /** The heading's id. */
  id: string
  title: ReactNode
  aside?: ReactNode
  className?: string
  children: ReactNode
}) {
  const heading = (
    <h2 id={id} className="text-lg font-semibold">
      {title}
    </h2>
  )
  return (
    <section aria-labelledby={id} className={`flex flex-col ${className}`}>
      {aside ? (
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          {heading}
          {aside}
        </div>
      ) : (
        heading
      )}
      {children}
    </section>
  )
}
