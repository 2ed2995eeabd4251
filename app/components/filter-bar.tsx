import type { ReactNode } from 'react'
import { Form, Link } from 'react-router'

/**
 * The filter bar of every admin list: a GET form (so every search, filter and sort is a link and
 * the page works without JavaScript) holding a search box, selects and the sort, then "Show" and a
 * link that clears it. Keyed by the query, so following that link (or any other) also resets the
 * boxes to what the URL says.
 */
export function FilterBar({
  label,
  resetKey,
  layout = 'row',
  className,
  hidden,
  clear,
  children,
}: {
  /** The search landmark's name ("Search employees"). */
  label: string
  /** What the boxes show (the URL's query), so a new URL redraws them; none for a bar that need not. */
  resetKey?: ReadonlyArray<string | undefined>
  /** `row`: one wrapping line; `grid`: columns, with "Show" and the clear link in the last cell. */
  layout?: 'row' | 'grid'
  /** The form's layout classes, when the default of its `layout` does not fit. */
  className?: string
  /** Fields every submission carries (a tab). */
  hidden?: Record<string, string>
  /** The link back to the list without its filters, shown only when `href` is set. */
  clear?: { href: string | null; label: string }
  children: ReactNode
}) {
  const clearLink = clear?.href ? (
    <Link className={layout === 'row' ? 'link self-center' : 'link'} to={clear.href}>
      {clear.label}
    </Link>
  ) : null
  const show = (
    <button type="submit" className="btn btn-secondary">
      Show
    </button>
  )
  return (
    <Form
      key={resetKey ? JSON.stringify(resetKey) : undefined}
      method="get"
      role="search"
      aria-label={label}
      className={
        className ??
        (layout === 'row'
          ? 'flex flex-wrap items-end gap-3'
          : 'grid gap-3 sm:grid-cols-2 lg:grid-cols-4 lg:items-end')
      }
    >
      {Object.entries(hidden ?? {}).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      {children}
      {layout === 'row' ? (
        <>
          {show}
          {clearLink}
        </>
      ) : (
        <div className="flex flex-wrap items-center gap-3">
          {show}
          {clearLink}
        </div>
      )}
    </Form>
  )
}

/** The line under a field that says how to fill it (its id is the field's, with `-help`). */
function FieldHelp({ id, help }: { id: string; help?: ReactNode }) {
  if (!help) return null
  return (
    <p id={`${id}-help`} className="text-xs text-slate-600">
      {help}
    </p>
  )
}

/** The bar's search box (`q` unless named otherwise), with its label and an optional help line. */
export function SearchField({
  id,
  label,
  value,
  name = 'q',
  maxLength = 100,
  help,
  className = 'flex flex-col gap-1',
}: {
  id: string
  label: string
  value: string
  name?: string
  maxLength?: number
  help?: ReactNode
  className?: string
}) {
  return (
    <div className={className}>
      <label htmlFor={id} className="label">
        {label}
      </label>
      <input
        id={id}
        type="search"
        name={name}
        defaultValue={value}
        maxLength={maxLength}
        className="input"
        aria-describedby={help ? `${id}-help` : undefined}
      />
      <FieldHelp id={id} help={help} />
    </div>
  )
}

/**
 * One labelled filter of a list's GET form (company, state, sort…): a select whose value stays in
 * the URL. `anyLabel` adds the empty "no filter" choice first; `help` a line under it, such as the
 * note of a select that depends on another ("Choose a company first to list its schemes").
 */
export function FilterSelect({
  id,
  name,
  label,
  value,
  options,
  anyLabel,
  help,
  className = 'flex flex-col gap-1',
}: {
  id: string
  name: string
  label: string
  value: string | undefined
  options: Array<{ value: string; label: string }>
  anyLabel?: string
  help?: ReactNode
  className?: string
}) {
  return (
    <div className={className}>
      <label htmlFor={id} className="label">
        {label}
      </label>
      <select
        id={id}
        name={name}
        defaultValue={value ?? ''}
        className="input"
        aria-describedby={help ? `${id}-help` : undefined}
      >
        {anyLabel !== undefined ? <option value="">{anyLabel}</option> : null}
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      <FieldHelp id={id} help={help} />
    </div>
  )
}

/** The sort select of a bar: the orders a list offers, each with its label. */
export function SortSelect<Sort extends string>({
  id,
  value,
  sorts,
  labels,
}: {
  id: string
  value: Sort
  sorts: readonly Sort[]
  labels: Record<Sort, string>
}) {
  return (
    <FilterSelect
      id={id}
      name="sort"
      label="Sort by"
      value={value}
      options={sorts.map((s) => ({ value: s, label: labels[s] }))}
    />
  )
}

/** The company → scheme pair: a company filter, and the schemes (narrowed by it when there are many). */
export function CompanySchemeSelects({
  idPrefix,
  company,
  scheme,
  companies,
  schemes,
  schemesNeedCompany,
}: {
  idPrefix: string
  company: string
  scheme: string
  companies: Array<{ id: string; name: string }>
  schemes: Array<{ id: string; name: string; companyName: string }>
  /** Too many schemes to list at once: the company filter narrows them. */
  schemesNeedCompany: boolean
}) {
  return (
    <>
      <FilterSelect
        id={`${idPrefix}-company`}
        name="company"
        label="Company"
        value={company}
        anyLabel="All companies"
        options={companies.map((c) => ({ value: c.id, label: c.name }))}
      />
      <FilterSelect
        id={`${idPrefix}-scheme`}
        name="scheme"
        label="Scheme"
        value={scheme}
        anyLabel="Any scheme"
        options={schemes.map((s) => ({ value: s.id, label: `${s.name} (${s.companyName})` }))}
        help={schemesNeedCompany ? 'Choose a company first to list its schemes.' : undefined}
      />
    </>
  )
}
