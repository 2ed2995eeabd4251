import type { ReactNode } from 'react'
import { Link } from 'react-router'
import { TableScroller } from '#app/components/table-scroller'
import { useTranslation } from 'react-i18next'

/**
 * The table of every admin list: a caption (for screen readers), the column headers, one row per
 * item drawn by the caller, and a sentence instead of the table when there is nothing to show. It
 * sits in a `TableScroller` (ADR 031), so on a phone it scrolls inside its own box and says so. The
 * box is `relative`, so the screen-reader-only texts of its cells stay inside it rather than widening
 * the page.
 */

export type Column = string | { label: ReactNode; className?: string; key?: string }

export function DataTable<Row>({
  caption,
  columns,
  rows,
  empty,
  children,
}: {
  /** Read out before the table, and the name of its scrolling box ("Table: …"). */
  caption: string
  columns: Column[]
  rows: Row[]
  /** What shows instead of an empty table (nothing when null). */
  empty: ReactNode
  /** Draws one row: a `<tr>`, its first cell a row header (`RowHeader`). */
  children: (row: Row) => ReactNode
}) {
  const { t } = useTranslation('common')
  if (!rows.length) return empty === null ? null : <p className="card text-slate-700">{empty}</p>
  return (
    <TableScroller
      label={t('kit.tableLabel', { caption })}
      className="relative rounded-xl border border-slate-200 bg-white"
    >
      <table className="w-full text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="border-b border-slate-200 bg-slate-50 text-slate-800">
          <tr>
            {columns.map((column, i) => {
              const {
                label,
                className = '',
                key,
              } = typeof column === 'string' ? { label: column, key: column } : column
              return (
                <th key={key ?? i} scope="col" className={`px-4 py-3 font-semibold ${className}`.trim()}>
                  {label}
                </th>
              )
            })}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-200">{rows.map((row) => children(row))}</tbody>
      </table>
    </TableScroller>
  )
}

/**
 * A row's first cell: the item's name, a link to its page when `href` is given, and an optional
 * line of detail under it (outside the link, so the link's name stays the item's name).
 */
export function RowHeader({
  className = 'font-medium text-slate-900',
  href,
  detail,
  children,
}: {
  className?: string
  href?: string
  detail?: ReactNode
  children: ReactNode
}) {
  return (
    <th scope="row" className={`px-4 py-3 ${className}`}>
      {href ? (
        <Link className="link" to={href}>
          {children}
        </Link>
      ) : (
        children
      )}
      {detail ? <span className="block text-sm font-normal text-slate-700">{detail}</span> : null}
    </th>
  )
}

/** A plain cell (`className` adds to the padding every cell has). */
export function Cell({ className = '', children }: { className?: string; children: ReactNode }) {
  return <td className={`px-4 py-3 ${className}`.trim()}>{children}</td>
}

/** The day a row was created (its ISO instant as the machine-readable value). */
export function CreatedCell({ at }: { at: string }) {
  return (
    <Cell className="text-slate-700">
      <time dateTime={at}>{at.slice(0, 10)}</time>
    </Cell>
  )
}

/** A row's actions: links whose accessible names say which row they act on ("Edit Acme"). */
export function RowActions({
  name,
  actions,
}: {
  /** The row's name, read after each action's label. */
  name: string
  actions: Array<{ label: string; href: string; danger?: boolean }>
}) {
  return (
    <Cell>
      <div className="flex gap-3">
        {actions.map((a) => (
          <Link key={a.label} className={a.danger ? 'link text-red-800' : 'link'} to={a.href}>
            {a.label}
            <span className="sr-only"> {name}</span>
          </Link>
        ))}
      </div>
    </Cell>
  )
}
