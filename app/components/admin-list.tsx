import { Form, Link, useLocation } from 'react-router'

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
    // Keyed by the query so "Clear search" (a link) also clears the box.
    <Form
      key={`${q}|${sort}`}
      method="get"
      role="search"
      aria-label={`Search ${noun}`}
      className="flex flex-wrap items-end gap-3"
    >
      <div className="flex min-w-56 flex-1 flex-col gap-1">
        <label htmlFor={`${id}-search`} className="label">
          {searchLabel}
        </label>
        <input
          id={`${id}-search`}
          type="search"
          name="q"
          defaultValue={q}
          maxLength={100}
          className="input"
        />
      </div>
      <FilterSelect
        id={`${id}-sort`}
        name="sort"
        label="Sort by"
        value={sort}
        options={sorts.map((s) => ({ value: s, label: sortLabels[s] }))}
      />
      <button type="submit" className="btn btn-secondary">
        Show
      </button>
      {q ? (
        <Link className="link self-center" to={`${path}?${new URLSearchParams({ sort })}`}>
          Clear search
        </Link>
      ) : null}
    </Form>
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
 * One labelled filter of a list's GET form (company, state, sort…): a select whose value stays in
 * the URL. `anyLabel` adds the empty "no filter" choice first.
 */
export function FilterSelect({
  id,
  name,
  label,
  value,
  options,
  anyLabel,
  className = 'flex flex-col gap-1',
}: {
  id: string
  name: string
  label: string
  value: string | undefined
  options: Array<{ value: string; label: string }>
  anyLabel?: string
  className?: string
}) {
  return (
    <div className={className}>
      <label htmlFor={id} className="label">
        {label}
      </label>
      <select id={id} name={name} defaultValue={value ?? ''} className="input">
        {anyLabel !== undefined ? <option value="">{anyLabel}</option> : null}
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  )
}
