import * as z from '#app/lib/zod'
import type { HeatmapCursor } from './cohort.server'

/**
 * The heatmap's query: the view (`heat` or `table`) and the page's cursor (the last participant of
 * the page before: their name and report id). Anything malformed reads as the first page of the
 * heat view: a bookmark with a bad cursor is no error worth a page of its own.
 */
const HeatmapQuery = z.object({
  view: z.optional(z.enum(['heat', 'table'])),
  after: z.optional(z.uuid()),
  name: z.optional(z.string().check(z.maxLength(200))),
})

export function heatmapQuery(params: URLSearchParams): {
  view: 'heat' | 'table'
  after: HeatmapCursor | null
  /** The cursor as a query string, for the view switch to keep the page. */
  pageQuery: string
} {
  const parsed = HeatmapQuery.safeParse({
    view: params.get('view') ?? undefined,
    after: params.get('after') ?? undefined,
    name: params.get('name') ?? undefined,
  })
  const value = parsed.success ? parsed.data : {}
  const view = value.view ?? 'heat'
  const after = value.after && value.name !== undefined ? { id: value.after, name: value.name } : null
  const pageQuery = after ? new URLSearchParams({ after: after.id, name: after.name }).toString() : ''
  return { view, after, pageQuery }
}
