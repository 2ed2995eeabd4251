import type { ReactNode } from 'react'
import { Link, useLocation } from 'react-router'
import { formErrorsOf, type IntentReply } from '#app/components/form-kit'
import { FilterBar, SearchField, SortSelect } from '#app/components/filter-bar'
import { FormErrors } from '#app/components/forms'

export { FilterSelect } from '#app/components/filter-bar'

/**
 * The pieces every admin list shares (search box, sort, keyset page links): one copy, so each
 * management page only names its path, its noun and its sort orders.
 */

export type HrefFor = (changes: Record<string, string | null>) => string

/** Builds links to this list that keep its current search, sort and page, changing only `changes`. */
export function useListHref(path: string): HrefFor {
  const location = useLocation()
  return (changes) => {
    const params = new URLSearchParams(location.search)
    for (const [key, value] of Object.entries(changes)) {
      if (value === null) params.delete(key)
      else params.set(key, value)
    }
    params.delete('index')
    const search = params.toString()
    return search ? `${path}?${search}` : path
  }
}

export function ListSearchForm<Sort extends string>({
  path,
  noun,
  q,
  sort,
  sorts,
  sortLabels,
  searchLabel = 'Search by name',
}: {
  /** The search box's label, when it searches more than names. */
  searchLabel?: string
  path: string
  /** Plural, lower-case: "brands". */
  noun: string
  q: string
  sort: Sort
  sorts: readonly Sort[]
  sortLabels: Record<Sort, string>
}) {
  const id = noun.replace(/\W+/g, '-')
  return (
    <FilterBar
      label={`Search ${noun}`}
      resetKey={[q, sort]}
      clear={{ href: q ? `${path}?${new URLSearchParams({ sort })}` : null, label: 'Clear search' }}
    >
      <SearchField
        id={`${id}-search`}
        label={searchLabel}
        value={q}
        className="flex min-w-56 flex-1 flex-col gap-1"
      />
      <SortSelect id={`${id}-sort`} value={sort} sorts={sorts} labels={sortLabels} />
    </FilterBar>
  )
}

/** The list part of an admin page: its heading, then the filters, the table and the page links. */
export function ListSection({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section aria-labelledby="list-title" className="flex flex-col gap-4">
      <h2 id="list-title" className="text-lg font-semibold">
        {title}
      </h2>
      {children}
    </section>
  )
}

/** First / previous / next page links of a keyset-paginated list; `reset` names params to drop too. */
export function ListPagination({
  noun,
  next,
  prev,
  href,
  reset = {},
}: {
  noun: string
  next: string | null
  prev: string | null
  href: HrefFor
  reset?: Record<string, null>
}) {
  if (!next && !prev) return null
  return (
    <nav aria-label={`Pages of ${noun}`} className="flex flex-wrap gap-3">
      {prev ? (
        <>
          <Link className="btn btn-secondary" to={href({ ...reset, after: null, before: null })}>
            First page
          </Link>
          <Link className="btn btn-secondary" rel="prev" to={href({ ...reset, after: null, before: prev })}>
            Previous page
          </Link>
        </>
      ) : null}
      {next ? (
        <Link className="btn btn-secondary" rel="next" to={href({ ...reset, before: null, after: next })}>
          Next page
        </Link>
      ) : null}
    </nav>
  )
}

/**
 * The form-level messages of a post the page did not understand (an unknown intent, an unreadable
 * body), shown above everything else; `fallback` when there are none.
 */
export function UnknownIntentErrors({
  actionData,
  fallback,
}: {
  actionData: IntentReply
  fallback?: string[]
}) {
  const unknown = actionData?.intent === 'unknown' ? formErrorsOf(actionData.result) : undefined
  return <FormErrors errors={unknown ?? fallback} />
}
