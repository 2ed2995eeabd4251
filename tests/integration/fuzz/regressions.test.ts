import { beforeAll, describe, expect, test } from 'vitest'
import { createActionCode } from '#app/modules/action-code/action-code.server'
import { createBrand, createUser } from '#db/factories'
import { getDb } from '#db/client'
import { useTestDatabase } from '#tests/support/database'
import { changedTables, fingerprint } from '#tests/support/fingerprint'
import { cookiesFrom, location, send, sessionCookieFor, useTestServer } from '#tests/support/app'
import { alertTexts } from '#tests/integration/auth/helpers'
import {
  assignmentRow,
  createWorld,
  field,
  form,
  responseOf,
} from '#tests/integration/journey/answer-helpers'

/**
 * What the fuzzer (actions.fuzz.test.ts) found, each pinned as the request it sent: every one was
 * a 500, or a 4xx that wrote rows, before its fix.
 */
useTestDatabase()
const server = useTestServer()

let adminCookie = ''
beforeAll(async () => {
  adminCookie = await sessionCookieFor((await createUser({ role: 'admin' })).id)
})

const urlencoded = (pairs: Array<[string, string]>) => new URLSearchParams(pairs).toString()

async function post(
  path: string,
  pairs: Array<[string, string]>,
  cookie: string,
  method = 'POST',
): Promise<{ response: Response; html: string; changed: string[] }> {
  const before = await fingerprint()
  const response = await fetch(server.url + path, {
    method,
    body: urlencoded(pairs),
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: cookie },
    redirect: 'manual',
  })
  const html = await response.text()
  return { response, html, changed: changedTables(before, await fingerprint()) }
}

describe('Conform’s control fields in a hand-made post (a 500: their JSON was parsed)', () => {
  test('POST /verification?mode=resetPassword with a junk __state__ is a 400 that writes nothing', async () => {
    const user = await createUser({ role: 'employee' })
    const { code } = await createActionCode(getDb(), { kind: 'reset_password', userId: user.id })
    const link = await send(server, `/verification?mode=resetPassword&code=${code}`)
    expect(location(link)).toBe('/verification?mode=resetPassword')
    const cookie = cookiesFrom(link)
    const { response, html, changed } = await post(
      '/verification?mode=resetPassword',
      [
        ['password', '{}'],
        ['confirmPassword', 'someone@example.test'],
        ['__state__', '\u{a969c}\u{2ba5e}'],
      ],
      cookie,
    )
    expect(response.status).toBe(400)
    expect(alertTexts(html).join(' ')).toContain('control field (“__state__”)')
    expect(changed).toEqual([])
  })

  test('DELETE /admin/brand-management (a create form) with a junk __state__ is a 400', async () => {
    const { response, changed } = await post(
      '/admin/brand-management?sort=name-asc',
      [
        ['intent', 'create'],
        ['name', '7.337916824910662e+154'],
        ['primaryColor', '#1d4ed8'],
        ['accentColor', '#0f766e'],
        ['__state__', '\u{883d0}'],
      ],
      adminCookie,
      'DELETE',
    )
    expect(response.status).toBe(400)
    expect(changed).toEqual([])
  })
})

describe('a colour sent twice or as a group (a 500: the page choked on a list)', () => {
  test.each([
    ['accentColor twice', [['accentColor', '9']]],
    [
      'name as a group, accentColor twice',
      [
        ['name.x', 'Brand'],
        ['accentColor', '#0f766e'],
      ],
    ],
    ['primaryColor twice', [['primaryColor', 'goto-0']]],
  ] as Array<[string, Array<[string, string]>]>)('%s', async (_label, extra) => {
    const brand = await createBrand()
    const { response, changed } = await post(
      `/admin/brand-management/${brand.id}?delete=`,
      [
        ['intent', 'update'],
        ['name', brand.name],
        ['primaryColor', '#1d4ed8'],
        ['accentColor', '#0f766e'],
        ['senderName', ''],
        ['callbackUrl', ''],
        ['contactEmail', ''],
        ['profileUrl', ''],
        ...extra,
      ],
      adminCookie,
    )
    expect(response.status).toBe(400)
    expect(changed).toEqual([])
  })
})

describe('a submit with required answers missing (a 400 that saved the section)', () => {
  test('the section is saved, so the answer is a 200 that says what is missing, not a 4xx', async () => {
    const w = await createWorld()
    const before = await fingerprint()
    const response = await send(server, `/assignment/${w.rater.id}?section=3`, {
      cookie: w.colleagueCookie,
      form: form([
        ['section', '3'],
        [field(w.q[5]!.id), ''],
        [field(w.q[6]!.id), '3'],
        ['intent', 'submit'],
      ]),
    })
    expect(response.status).toBe(200)
    expect(alertTexts(await response.text()).join(' ')).toContain('Not submitted yet.')
    // What it wrote: the section's answer, and the assignment is under way (not submitted).
    expect(changedTables(before, await fingerprint()).sort()).toEqual(
      expect.arrayContaining(['answers', 'responses']),
    )
    expect((await assignmentRow(w.rater.id)).status).toBe('in_progress')
    expect((await responseOf(w.rater.id))!.submittedAt).toBeNull()
  })
})
