import type { ReactNode } from 'react'
import { Link, useLocation } from 'react-router'
import { Section } from '#app/components/card'
import { DataTable, type Column } from '#app/components/data-table'
import { formErrorsOf, type IntentReply } from '#app/components/form-kit'
import { NAME_SORTS, type NameSort } from '#app/lib/list-query'
import { FilterBar, SearchField, SortSelect } from '#app/components/filter-bar'
import { FormErrors } from '#app/components/forms'
import { useTranslation } from 'react-i18next'

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

/** The list part of an admin page: its heading, then the filters, the table and the page links. */
export function ListSection({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Section id="list-title" title={title}>
      {children}
    </Section>
  )
}

/**
 * A list searched by its names and sorted by the name orders (brands, companies, administrators): the
 * search form, the table and the page links under "All <noun>". `children` draws one row, as in
 * `DataTable`; `after` stands between the table and the page links.
 */
export function NameList<Row>({
  path,
  noun,
  nounText,
  searchLabel,
  query: { q, sort },
  columns,
  page,
  noMatch,
  empty,
  href,
  reset,
  after,
  children,
}: {
  path: string
  /** Plural, lower-case, in English: "brands" (the start of the fields' ids). */
  noun: string
  /** The same noun in the reader's language ("brands", "Marken"): the list's title, captions and links. */
  nounText: string
  /** The search box's label, when it searches more than names. */
  searchLabel?: string
  query: { q: string; sort: NameSort }
  columns: Column[]
  page: { rows: Row[]; next: string | null; prev: string | null }
  /** What shows when nothing matches the search `q`. */
  noMatch: (q: string) => string
  /** What shows when there is nothing at all. */
  empty: string
  href: HrefFor
  reset?: Record<string, null>
  after?: ReactNode
  children: (row: Row) => ReactNode
}) {
  const { t } = useTranslation('common')
  const sortLabels = useNameSortLabels()
  const noun1 = `${nounText.charAt(0).toUpperCase()}${nounText.slice(1)}`
  return (
    <ListSection title={t('kit.allOf', { noun: nounText })}>
      <FilterBar
        label={t('kit.searchOf', { noun: nounText })}
        idPrefix={noun}
        query={{ q, sort }}
        resetKey={[q, sort]}
        clear={{ href: q ? `${path}?${new URLSearchParams({ sort })}` : null, label: t('kit.clearSearch') }}
      >
        <SearchField
          label={searchLabel ?? t('kit.searchByName')}
          className="flex min-w-56 flex-1 flex-col gap-1"
        />
        <SortSelect sorts={NAME_SORTS} labels={sortLabels} />
      </FilterBar>
      <DataTable
        caption={
          q
            ? t('kit.captionMatching', { noun: noun1, q, sort: sortLabels[sort] })
            : t('kit.caption', { noun: noun1, sort: sortLabels[sort] })
        }
        columns={columns}
        rows={page.rows}
        empty={q ? noMatch(q) : empty}
      >
        {children}
      </DataTable>
      {after}
      <ListPagination noun={nounText} reset={reset} next={page.next} prev={page.prev} href={href} />
    </ListSection>
  )
}

/** The name orders' labels in the reader's language (NAME_SORT_LABELS is their English). */
export function useNameSortLabels(): Record<NameSort, string> {
  const { t } = useTranslation('common')
  return Object.fromEntries(NAME_SORTS.map((s) => [s, t(`kit.nameSort.${s}`)])) as Record<NameSort, string>
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
  const { t } = useTranslation('common')
  if (!next && !prev) return null
  return (
    <nav aria-label={t('kit.pagesOf', { noun })} className="flex flex-wrap gap-3">
      {prev ? (
        <>
          <Link className="btn btn-secondary" to={href({ ...reset, after: null, before: null })}>
            {t('kit.firstPage')}
          </Link>
          <Link className="btn btn-secondary" rel="prev" to={href({ ...reset, after: null, before: prev })}>
            {t('kit.previousPage')}
          </Link>
        </>
      ) : null}
      {next ? (
        <Link className="btn btn-secondary" rel="next" to={href({ ...reset, before: null, after: next })}>
          {t('kit.nextPage')}
        </Link>
      ) : null}
    </nav>
  )
}

/** Why a create form is not shown yet, with the link to what has to exist first. */
export function CreateFirst({ reason, href, label }: { reason: string; href: string; label: string }) {
  return (
    <p className="text-slate-700">
      {reason}{' '}
      <Link className="link" to={href}>
        {label}
      </Link>
      .
    </p>
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
