import type { ShouldRevalidateFunctionArgs } from 'react-router'
import { describe, expect, test } from 'vitest'
import { shouldRevalidate as assignmentShouldRevalidate } from '#app/routes/assignment.$id'
import { shouldRevalidate as rootShouldRevalidate } from '#app/root'

/**
 * After a fetcher's submit React Router reloads every route whose shouldRevalidate says so, in one
 * more request. An autosave changes nothing any loader shows: the assignment page and the root (the
 * only routes on /assignment/:id) must both decline, or the autosave costs two requests. Every
 * other submission keeps React Router's own answer.
 */
function args(intent: string | null, defaultShouldRevalidate = true): ShouldRevalidateFunctionArgs {
  const formData = new FormData()
  if (intent !== null) formData.set('intent', intent)
  const url = new URL('http://localhost/assignment/a?section=1')
  return {
    currentUrl: url,
    currentParams: { id: 'a' },
    nextUrl: url,
    nextParams: { id: 'a' },
    formMethod: 'POST',
    formAction: '/assignment/a?section=1',
    formEncType: 'application/x-www-form-urlencoded',
    formData,
    actionStatus: 200,
    defaultShouldRevalidate,
  } as ShouldRevalidateFunctionArgs
}

describe.each([
  ['root', rootShouldRevalidate],
  ['assignment page', assignmentShouldRevalidate],
])('the %s', (_name, shouldRevalidate) => {
  test('does not reload its data after an autosave', () => {
    expect(shouldRevalidate(args('autosave'))).toBe(false)
  })

  test.each(['save', 'next', 'previous', 'finish-later', 'submit'])(
    'keeps React Router’s answer after “%s”',
    (intent) => {
      expect(shouldRevalidate(args(intent, true))).toBe(true)
      expect(shouldRevalidate(args(intent, false))).toBe(false)
    },
  )

  test('keeps React Router’s answer for a navigation or a revalidation without a form', () => {
    expect(shouldRevalidate({ ...args(null), formData: undefined })).toBe(true)
  })
})
