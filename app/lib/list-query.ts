import { searchTerm } from '#app/lib/text-rules'
import * as z from '#app/lib/zod'

/**
 * The one list-query schema every admin list reads its URL with (Zod Mini: these run in the browser
 * too, beside the labels the filter bars show): the search box `q`, a sort order, the keyset
 * cursors `after`/`before`, and the list's own filters. A bad value never fails the page: it falls
 * back to the default, and where a list says so, it is named (`readNamedFilters`).
 */

/** The four orders of a list sorted by a name (or a title) or by when a row was created. */
export const NAME_SORTS = ['name-asc', 'name-desc', 'created-desc', 'created-asc'] as const
export type NameSort = (typeof NAME_SORTS)[number]
export const NAME_SORT_LABELS: Record<NameSort, string> = {
  'name-asc': 'Name, A to Z',
  'name-desc': 'Name, Z to A',
  'created-desc': 'Newest first',
  'created-asc': 'Oldest first',
}

/** The search box: trimmed, clipped, without control characters (Postgres refuses a NUL byte). */
export const searchText = z.pipe(
  z.catch(z.string().check(z.trim()), ''),
  z.transform((v: string) => searchTerm(v)),
)

/** A keyset cursor: checked (and an unreadable one reported) where it is decoded (keyset.server.ts). */
export const cursorParam = z.catch(z.optional(z.string()), undefined)

/** A filter by a row's id (a company, a scheme): an id, or '' for none (anything else reads as none). */
export const idOrEmpty = z.catch(
  z.pipe(
    z.optional(z.string()),
    z.transform((v: string | undefined) => (v && z.uuid().safeParse(v).success ? v : '')),
  ),
  '',
)

/** `q`, `sort` (one of `sorts`, else `fallback`), `after` and `before`: spread into a list's schema. */
export function listQueryShape<const Sorts extends readonly [string, ...string[]]>(
  sorts: Sorts,
  fallback: Sorts[number],
) {
  return {
    q: searchText,
    sort: z.catch(z.enum(sorts), fallback) as z.ZodMiniCatch<z.ZodMiniEnum<{ [K in Sorts[number]]: K }>>,
    after: cursorParam,
    before: cursorParam,
  }
}

/** A list's URL read through its schema (every field falls back, so this never throws). */
export function parseListQuery<Schema extends z.ZodMiniType>(
  schema: Schema,
  searchParams: URLSearchParams,
): z.output<Schema> {
  return schema.parse(Object.fromEntries(searchParams)) as z.output<Schema>
}

/** `q`, `after`, `before` and a sort by {@link NAME_SORTS}, A to Z unless the URL says otherwise. */
export const nameListQueryShape = listQueryShape(NAME_SORTS, 'name-asc')

/** The query of a list searched by name and sorted by {@link NAME_SORTS} alone (brands, companies, administrators). */
export const NameListQuerySchema = z.object(nameListQueryShape)
export type NameListQuery = z.output<typeof NameListQuerySchema>

export function parseNameListQuery(searchParams: URLSearchParams): NameListQuery {
  return parseListQuery(NameListQuerySchema, searchParams)
}

/**
 * Filters whose bad value is dropped and named: a value that is not one the page offers (an
 * edited or outdated link) is not applied, and the page says which one it dropped — never a 500,
 * never a silent guess.
 */
export function readNamedFilters<Fields extends Record<string, z.ZodMiniType>>(
  searchParams: URLSearchParams,
  fields: Fields,
  names: Record<keyof Fields, string>,
  fallbacks: { [K in keyof Fields]: z.output<Fields[K]> },
): { values: { [K in keyof Fields]: z.output<Fields[K]> }; problems: string[] } {
  const problems: string[] = []
  const values = { ...fallbacks }
  for (const key of Object.keys(fields) as Array<keyof Fields>) {
    const raw = searchParams.get(key as string)
    if (raw === null) continue
    const parsed = fields[key]!.safeParse(raw.trim())
    if (parsed.success) values[key] = parsed.data as z.output<Fields[typeof key]>
    else problems.push(`The ${names[key]} in this link was not understood, so it is not applied.`)
  }
  return { values, problems }
}
