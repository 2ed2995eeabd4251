import { createContext, use, type ReactNode } from 'react'
import { Form, Link } from 'react-router'
import { choicesOf, labelledChoices, type Choice } from '#app/components/choices'
import { useTranslation } from 'react-i18next'

/** What a bar tells its fields: the prefix of their ids and the list's query they show. */
const BarContext = createContext<{ idPrefix?: string; query?: Record<string, string | undefined> }>({})

/**
 * The filter bar of every admin list: a GET form (so every search, filter and sort is a link and
 * the page works without JavaScript) holding a search box, selects and the sort, then "Show" and a
 * link that clears it. Keyed by the query, so following that link (or any other) also resets the
 * boxes to what the URL says. Given `idPrefix` and `query`, its fields take their ids and values
 * from them, so each names only its `name`.
 */
export function FilterBar({
  label,
  idPrefix,
  query,
  resetKey,
  layout = 'row',
  className,
  hidden,
  clear,
  children,
}: {
  /** The search landmark's name ("Search employees"). */
  label: string
  /** The start of its fields' ids ("employees" → "employees-state"). */
  idPrefix?: string
  /** The list's query as the URL has it: what its fields show. */
  query?: Record<string, string | undefined>
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
  const { t } = useTranslation('common')
  const clearLink = clear?.href ? (
    <Link className={layout === 'row' ? 'link self-center' : 'link'} to={clear.href}>
      {clear.label}
    </Link>
  ) : null
  const show = (
    <button type="submit" className="btn btn-secondary">
      {t('kit.show')}
    </button>
  )
  return (
    <BarContext value={{ idPrefix, query }}>
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
    </BarContext>
  )
}

/** What every field of the bar is told; `id` and `value` come from the bar when it has them. */
type BarFieldProps = {
  id?: string
  name: string
  label: string
  value?: string
  /** A line under the field that says how to fill it. */
  help?: ReactNode
  className?: string
}

/**
 * A field of the bar: its label, the control (drawn by `control` with its id, name, value and the
 * id of the help line) and the help line (its id is the field's, with `-help`).
 */
function BarField({
  name,
  label,
  help,
  className = 'flex flex-col gap-1',
  control,
  ...given
}: BarFieldProps & {
  control: (attributes: {
    id: string
    name: string
    defaultValue: string | undefined
    'aria-describedby': string | undefined
  }) => ReactNode
}) {
  const { idPrefix, query } = use(BarContext)
  const id = given.id ?? `${idPrefix}-${name === 'q' ? 'search' : name}`
  const helpId = help ? `${id}-help` : undefined
  return (
    <div className={className}>
      <label htmlFor={id} className="label">
        {label}
      </label>
      {control({ id, name, defaultValue: given.value ?? query?.[name], 'aria-describedby': helpId })}
      {help ? (
        <p id={helpId} className="text-xs text-slate-600">
          {help}
        </p>
      ) : null}
    </div>
  )
}

/** The bar's search box (`q` unless named otherwise), with its label and an optional help line. */
export function SearchField({
  name = 'q',
  maxLength = 100,
  ...field
}: Omit<BarFieldProps, 'name'> & { name?: string; maxLength?: number }) {
  return (
    <BarField
      {...field}
      name={name}
      control={(attributes) => (
        <input {...attributes} type="search" maxLength={maxLength} className="input" />
      )}
    />
  )
}

/**
 * One labelled filter of a list's GET form (company, state, sort…): a select whose value stays in
 * the URL. Its first choice, the empty "no filter" one, says `anyLabel` ("Any <label>" unless told
 * otherwise; none when false); `help` a line under it, such as the note of a select that depends
 * on another ("Choose a company first to list its schemes").
 */
export function FilterSelect({
  label,
  options,
  anyLabel,
  ...field
}: BarFieldProps & { options: Choice[]; anyLabel?: string | false }) {
  const { t } = useTranslation('common')
  // "Any company" in English and French; German keeps its nouns' capitals.
  const any =
    anyLabel ?? t('kit.anyOf', { label: t('kit.lowerCaseLabels') === 'yes' ? label.toLowerCase() : label })
  return (
    <BarField
      {...field}
      label={label}
      control={({ defaultValue, ...attributes }) => (
        <select {...attributes} defaultValue={defaultValue ?? ''} className="input">
          {any === false ? null : <option value="">{any}</option>}
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      )}
    />
  )
}

/** The sort select of a bar: the orders a list offers, each with its label. */
export function SortSelect<Sort extends string>({
  sorts,
  labels,
}: {
  sorts: readonly Sort[]
  labels: Record<Sort, string>
}) {
  const { t } = useTranslation('common')
  return (
    <FilterSelect
      name="sort"
      label={t('kit.sortBy')}
      anyLabel={false}
      options={labelledChoices(sorts, labels)}
    />
  )
}

/** The company → scheme pair: a company filter, and the schemes (narrowed by it when there are many). */
export function CompanySchemeSelects({
  companies,
  schemes,
  schemesNeedCompany,
}: {
  companies: Array<{ id: string; name: string }>
  schemes: Array<{ id: string; name: string; companyName: string }>
  /** Too many schemes to list at once: the company filter narrows them. */
  schemesNeedCompany: boolean
}) {
  const { t } = useTranslation('common')
  return (
    <>
      <FilterSelect
        name="company"
        label={t('kit.company')}
        anyLabel={t('kit.allCompanies')}
        options={choicesOf(companies)}
      />
      <FilterSelect
        name="scheme"
        label={t('kit.scheme')}
        options={schemes.map((s) => ({ value: s.id, label: `${s.name} (${s.companyName})` }))}
        help={schemesNeedCompany ? t('kit.chooseCompanyFirst') : undefined}
      />
    </>
  )
}
