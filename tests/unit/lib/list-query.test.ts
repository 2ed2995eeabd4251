import { describe, expect, it } from 'vitest'
import { listHref, listNotices, STALE_PAGE_NOTICE } from '#app/lib/list-page.server'
import { idOrEmpty, listQueryShape, parseListQuery, readNamedFilters } from '#app/lib/list-query'
import * as z from '#app/lib/zod'

const Schema = z.object({
  ...listQueryShape(['name-asc', 'created-desc'] as const, 'name-asc'),
  company: idOrEmpty,
})
const ID = '0b7c6f1e-8d2a-4c3b-9e5f-1a2b3c4d5e6f'

describe('the shared list query', () => {
  it('reads q, sort, cursors and a filter from the URL', () => {
    const query = parseListQuery(
      Schema,
      new URLSearchParams({ q: '  acme  ', sort: 'created-desc', after: 'abc', company: ID }),
    )
    expect(query).toEqual({ q: 'acme', sort: 'created-desc', after: 'abc', before: undefined, company: ID })
  })

  it('falls back on every bad value rather than failing the page', () => {
    const query = parseListQuery(
      Schema,
      new URLSearchParams([
        ['q', 'a\u0000b'],
        ['sort', 'nonsense'],
        ['company', 'not-an-id'],
      ]),
    )
    expect(query).toEqual({ q: 'ab', sort: 'name-asc', after: undefined, before: undefined, company: '' })
  })

  it('drops and names a filter it does not understand, keeping the others', () => {
    const fields = { state: z.enum(['open', 'closed']), sort: z.enum(['new', 'old']) }
    const { values, problems } = readNamedFilters(
      new URLSearchParams({ state: 'nope', sort: ' old ' }),
      fields,
      { state: 'state', sort: 'sort order' },
      { state: 'open', sort: 'new' },
    )
    expect(values).toEqual({ state: 'open', sort: 'old' })
    expect(problems).toEqual(['The state in this link was not understood, so it is not applied.'])
  })
})

describe('the list page helpers', () => {
  it('puts the out-of-date page notice first, then the page’s own', () => {
    expect(listNotices({ staleCursor: true }, false, 'Gone.', null)).toEqual([STALE_PAGE_NOTICE, 'Gone.'])
    expect(listNotices({ staleCursor: false })).toEqual([])
  })

  it('returns to the list as it was, without the page’s other states', () => {
    const request = new Request('http://x/admin/list?q=a&edit=1&index&sort=name-asc')
    expect(listHref(request, '/admin/list', ['edit'])).toBe('/admin/list?q=a&sort=name-asc')
    expect(listHref(new Request('http://x/admin/list?edit=1'), '/admin/list', ['edit'])).toBe('/admin/list')
  })
})
