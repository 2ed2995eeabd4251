import { and, eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { actionCodes, auditLog, emailOutbox, files, rateLimits, users } from '#db/schema/index'
import { createCompany, createUser } from '#db/factories'
import { createActionCode } from '#app/modules/action-code/action-code.server'
import { actionLink } from '#app/modules/action-code/action-code.server'
import { AUTH_ERROR_MESSAGES } from '#app/modules/auth/errors'
import { createSmtpTransport, processOutboxOnce, type MailTransport } from '#app/modules/email/outbox.server'
import { PHONE_MESSAGE, PHONE_TOO_LONG } from '#app/modules/user/profile-schemas'
import { EMAIL_TAKEN, SAME_EMAIL, TOO_MANY, WRONG_CURRENT_PASSWORD } from '#app/modules/user/profile.server'
import { useTestDatabase } from '#tests/support/database'
import { cookiesFrom, location, send, sessionCookieFor, useTestServer } from '#tests/support/app'
import { extractLinks, startSmtpCatcher, type SmtpCatcher } from '#tests/support/smtp-catcher'
import {
  FACTORY_PASSWORD,
  alertTexts,
  fieldErrors,
  postSignIn,
  sessionRowsOf,
  sessionTokenFrom,
  textOf,
  titleOf,
} from '#tests/integration/auth/helpers'

/**
 * /user/edit-profile through the real HTTP stack (the production build): the four forms (details,
 * photo, password, e-mail), every way each can be wrong with nothing written, the sessions a password
 * change ends, and the e-mail change delivered over SMTP to the new address and applied by its link.
 */
const db = useTestDatabase()
const server = useTestServer()
let catcher: SmtpCatcher
let transport: MailTransport

const PAGE = '/user/edit-profile'
const APP_URL = 'http://localhost:3000'
const NEW_PASSWORD = 'a fresh and longer passphrase'

let companyId = ''

beforeAll(async () => {
  catcher = await startSmtpCatcher()
  transport = createSmtpTransport(catcher.url)
  companyId = (await createCompany({ name: 'Profile Test Company' })).id
})

afterAll(async () => {
  transport?.close?.()
  await catcher?.close()
})

// Sign-in attempts from this file share one address (127.0.0.1); each test starts with no counters.
beforeEach(async () => {
  await db().delete(rateLimits)
})

/** An employee with a session of their own (each test its own person, so no test sees another's rows). */
async function employee(overrides: Parameters<typeof createUser>[0] = {}) {
  const user = await createUser({ role: 'employee', companyId, ...overrides })
  return { ...user, cookie: await sessionCookieFor(user.id) }
}

const post = (cookie: string, form: Record<string, string> | FormData) => send(server, PAGE, { cookie, form })

async function page(cookie: string) {
  const response = await send(server, PAGE, { cookie })
  expect(response.status).toBe(200)
  return response.text()
}

/** Follows a redirect as a browser does (carrying the toast cookie) and returns the page it lands on. */
async function follow(response: Response, cookie: string) {
  expect(response.status).toBe(302)
  expect(location(response)).toBe(PAGE)
  expect(response.headers.getSetCookie().some((c) => c.startsWith('__toast=') && !/max-age=0/i.test(c))).toBe(
    true,
  )
  return page(cookiesFrom(response, cookie))
}

function headerOf(html: string) {
  const match = /<header[\s\S]*?<\/header>/.exec(html)
  expect(match, 'the page has a header').not.toBeNull()
  return match![0]
}

const userRow = async (id: string) => (await db().select().from(users).where(eq(users.id, id)))[0]!
const count = async (table: typeof files | typeof emailOutbox | typeof actionCodes | typeof auditLog) =>
  (
    await db()
      .select({ n: sql<number>`count(*)::int` })
      .from(table)
  )[0]!.n
const auditOf = (userId: string) =>
  db()
    .select({ action: auditLog.action, actorId: auditLog.actorId, details: auditLog.details })
    .from(auditLog)
    .where(and(eq(auditLog.entity, 'user'), eq(auditLog.entityId, userId)))
    .orderBy(auditLog.at)

/** Everything a profile change could write: after a refusal it must be exactly as before. */
async function snapshot(userId: string) {
  return {
    user: await userRow(userId),
    files: await count(files),
    outbox: await count(emailOutbox),
    codes: await count(actionCodes),
    audit: await count(auditLog),
    sessions: (await sessionRowsOf(userId)).map((s) => s.id).sort(),
  }
}

// A real 1×1 PNG, byte for byte.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
)
// The JPEG signature is all the content check reads; the rest only has to be bytes.
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from('rest of a jpeg')])

function photoForm(bytes: Uint8Array | null, options: { type?: string; name?: string } = {}) {
  const form = new FormData()
  form.set('intent', 'photo')
  if (bytes) {
    form.set(
      'photo',
      new Blob([new Uint8Array(bytes)], { type: options.type ?? 'image/png' }),
      options.name ?? 'me.png',
    )
  }
  return form
}

describe('guard', () => {
  test('anonymous visitors are sent to sign in, for the page and for every form', async () => {
    const response = await send(server, PAGE)
    expect(response.status).toBe(302)
    expect(location(response)).toBe(`/sign-in?redirectTo=${encodeURIComponent(PAGE)}`)
    const before = await count(auditLog)
    const posted = await send(server, PAGE, { form: { intent: 'profile', displayName: 'Nobody' } })
    expect(posted.status).toBe(302)
    expect(location(posted)).toBe(`/sign-in?redirectTo=${encodeURIComponent(PAGE)}`)
    expect(await count(auditLog)).toBe(before)
  })

  test('a colleague and an admin are sent to their own home, and their posts change nothing', async () => {
    for (const [role, home] of [
      ['colleague', '/user/thank-you'],
      ['admin', '/admin'],
    ] as const) {
      const user = await createUser({ role, displayName: `Original ${role}` })
      const cookie = await sessionCookieFor(user.id)
      const response = await send(server, PAGE, { cookie })
      expect(response.status).toBe(302)
      expect(location(response)).toBe(home)
      const before = await snapshot(user.id)
      const posted = await post(cookie, { intent: 'profile', displayName: 'Changed by post' })
      expect(posted.status).toBe(302)
      expect(location(posted)).toBe(home)
      expect(await snapshot(user.id)).toEqual(before)
    }
  })
})

describe('the page', () => {
  test('shows the current details, four forms told apart by intent, and initials in the header', async () => {
    const me = await employee({ displayName: 'Ada Lovelace', phone: '+44 20 7946 0958' })
    const html = await page(me.cookie)
    expect(titleOf(html)).toBe('Edit profile · Panorama')
    for (const intent of ['profile', 'photo', 'password', 'email']) {
      expect(html).toContain(`name="intent" value="${intent}"`)
    }
    expect(html).toMatch(
      /name="displayName"[^>]*value="Ada Lovelace"|value="Ada Lovelace"[^>]*name="displayName"/,
    )
    expect(html).toContain('value="+44 20 7946 0958"')
    expect(textOf(html)).toContain(`You sign in with ${me.email}`)
    expect(textOf(html)).not.toContain('Pending change')
    // The photo form posts multipart; no photo yet, so no remove button.
    expect(html).toMatch(/id="profile-photo"[^>]*enctype="multipart\/form-data"/i)
    // The visible text: the page's messages (its i18n data block) hold the words of every state.
    expect(textOf(html)).not.toContain('Remove photo')
    const header = headerOf(html)
    expect(textOf(header)).toContain('AL Ada Lovelace')
    expect(header).not.toContain('/files/')
  })

  test('a body that is not a form, or a form without a known intent, is a 400 with a message', async () => {
    const me = await employee()
    const before = await snapshot(me.id)
    for (const response of [
      await post(me.cookie, {}),
      await post(me.cookie, { intent: 'delete-account', displayName: 'X' }),
      await send(server, PAGE, { cookie: me.cookie, json: { intent: 'profile', displayName: 'JSON' } }),
    ]) {
      expect(response.status).toBe(400)
      expect(alertTexts(await response.text())).toContain(
        'This form could not be read. Reload the page and try again.',
      )
    }
    expect(await snapshot(me.id)).toEqual(before)
  })
})

describe('details (intent=profile)', () => {
  test('saves a trimmed name and a phone number, audits the change and shows the new name in the header', async () => {
    const me = await employee({ displayName: 'Old Name', phone: null })
    const response = await post(me.cookie, {
      intent: 'profile',
      displayName: '  Grace Hopper  ',
      phone: '  +1 (555)   010-9999 ',
    })
    const html = await follow(response, me.cookie)
    expect(textOf(html)).toContain('Profile saved')
    expect(textOf(headerOf(html))).toContain('GH Grace Hopper')
    expect(await userRow(me.id)).toMatchObject({ displayName: 'Grace Hopper', phone: '+1 (555) 010-9999' })
    expect(await auditOf(me.id)).toEqual([
      {
        action: 'user.profile_updated',
        actorId: me.id,
        details: {
          changes: {
            displayName: { from: 'Old Name', to: 'Grace Hopper' },
            phone: { from: null, to: '+1 (555) 010-9999' },
          },
        },
      },
    ])
  })

  test('a blank phone clears it; the same values again save nothing and say so', async () => {
    const me = await employee({ displayName: 'Keep Me', phone: '020 7946 0958' })
    const cleared = await post(me.cookie, { intent: 'profile', displayName: 'Keep Me', phone: '   ' })
    expect(cleared.status).toBe(302)
    expect((await userRow(me.id)).phone).toBeNull()
    const before = await snapshot(me.id)
    const again = await post(me.cookie, { intent: 'profile', displayName: 'Keep Me', phone: '' })
    expect(textOf(await follow(again, me.cookie))).toContain('Nothing to save')
    expect(await snapshot(me.id)).toEqual(before)
  })

  test('the limits themselves are accepted: 120 characters of name, a 6-digit phone', async () => {
    const me = await employee()
    const name = 'n'.repeat(120)
    const response = await post(me.cookie, { intent: 'profile', displayName: name, phone: '123456' })
    expect(response.status).toBe(302)
    expect(await userRow(me.id)).toMatchObject({ displayName: name, phone: '123456' })
  })

  test.each([
    ['an empty name', { displayName: '' }, 'displayName', 'Enter your name.'],
    ['a blank name', { displayName: '    ' }, 'displayName', 'Enter your name.'],
    ['no name field at all', { displayName: undefined }, 'displayName', 'Enter your name.'],
    [
      'a name over 120 characters',
      { displayName: 'x'.repeat(121) },
      'displayName',
      'Use at most 120 characters for your name.',
    ],
    ['letters in the phone', { phone: '0800 FLOWERS' }, 'phone', PHONE_MESSAGE],
    ['a phone that is too short', { phone: '12345' }, 'phone', PHONE_MESSAGE],
    ['a + in the middle', { phone: '44+20 7946 0958' }, 'phone', PHONE_MESSAGE],
    ['punctuation without digits', { phone: '(--- --)' }, 'phone', PHONE_MESSAGE],
    ['a phone over 30 characters', { phone: '+44 20 7946 0958 0000 0000 0000 00' }, 'phone', PHONE_TOO_LONG],
  ])('refuses %s beside the field and writes nothing', async (_label, overrides, field, message) => {
    const me = await employee({ displayName: 'Unchanged', phone: '+44 20 7946 0958' })
    const before = await snapshot(me.id)
    const form: Record<string, string> = { intent: 'profile', displayName: 'Valid Name', phone: '' }
    for (const [key, value] of Object.entries(overrides)) {
      if (value === undefined) delete form[key]
      else form[key] = value
    }
    const response = await post(me.cookie, form)
    expect(response.status).toBe(400)
    expect(fieldErrors(await response.text(), field)).toEqual([message])
    expect(await snapshot(me.id)).toEqual(before)
  })
})

describe('photo (intent=photo)', () => {
  test('upload, replace and remove: served at /files/<id>, shown in the header, old files deleted, all audited', async () => {
    const me = await employee({ displayName: 'Pat Photo' })
    const filesBefore = await count(files)

    const uploaded = await post(me.cookie, photoForm(PNG))
    const afterUpload = await follow(uploaded, me.cookie)
    expect(textOf(afterUpload)).toContain('Photo saved')
    const first = (await userRow(me.id)).photoFileId!
    expect(first).toMatch(/^[0-9a-f-]{36}$/)
    const [stored] = await db().select().from(files).where(eq(files.id, first))
    expect(stored).toMatchObject({ mime: 'image/png', size: PNG.byteLength, ownerId: me.id })
    const served = await send(server, `/files/${first}`)
    expect(served.status).toBe(200)
    expect(served.headers.get('content-type')).toBe('image/png')
    expect(Buffer.from(await served.arrayBuffer()).equals(PNG)).toBe(true)
    // In the header (decorative, beside the name) and on the page (with alt text), with a remove button.
    expect(headerOf(afterUpload)).toMatch(new RegExp(`<img[^>]*src="/files/${first}"[^>]*alt=""`))
    expect(afterUpload).toContain(`alt="Your current photo, Pat Photo"`)
    expect(afterUpload).toContain('Remove photo')

    const replaced = await post(me.cookie, photoForm(JPEG, { type: 'image/jpeg', name: 'me.jpg' }))
    expect(replaced.status).toBe(302)
    const second = (await userRow(me.id)).photoFileId!
    expect(second).not.toBe(first)
    expect((await send(server, `/files/${second}`)).headers.get('content-type')).toBe('image/jpeg')
    expect((await send(server, `/files/${first}`)).status).toBe(404)
    expect(await count(files)).toBe(filesBefore + 1)

    const removeForm = new FormData()
    removeForm.set('intent', 'photo')
    removeForm.set('remove', 'true')
    removeForm.set('photo', new Blob([]), '')
    const removed = await post(me.cookie, removeForm)
    const afterRemove = await follow(removed, me.cookie)
    expect(textOf(afterRemove)).toContain('Photo removed')
    expect((await userRow(me.id)).photoFileId).toBeNull()
    expect((await send(server, `/files/${second}`)).status).toBe(404)
    expect(await count(files)).toBe(filesBefore)
    expect(headerOf(afterRemove)).not.toContain('/files/')
    expect(textOf(headerOf(afterRemove))).toContain('PP Pat Photo')

    expect((await auditOf(me.id)).map((a) => [a.action, a.details])).toEqual([
      ['user.photo_updated', { from: null, to: first }],
      ['user.photo_updated', { from: first, to: second }],
      ['user.photo_removed', { from: second, to: null }],
    ])
  })

  test('removing when there is no photo writes nothing and says so', async () => {
    const me = await employee()
    const before = await snapshot(me.id)
    const response = await post(me.cookie, { intent: 'photo', remove: 'true' })
    expect(textOf(await follow(response, me.cookie))).toContain('No photo to remove')
    expect(await snapshot(me.id)).toEqual(before)
  })

  test.each([
    ['a text file calling itself a PNG', () => photoForm(Buffer.from('not really a png'))],
    [
      'an SVG (scriptable, not accepted)',
      () => photoForm(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), { type: 'image/svg+xml' }),
    ],
  ])('refuses %s and writes nothing', async (_label, makeForm) => {
    const me = await employee()
    await post(me.cookie, photoForm(PNG))
    const before = await snapshot(me.id)
    const response = await post(me.cookie, makeForm())
    expect(response.status).toBe(400)
    expect(fieldErrors(await response.text(), 'photo')).toEqual(['Upload a PNG, JPEG or WebP image.'])
    expect(await snapshot(me.id)).toEqual(before)
  })

  test('refuses an image over 2 MB and writes nothing', async () => {
    const me = await employee()
    const before = await snapshot(me.id)
    const big = new Uint8Array(2 * 1024 * 1024 + 1)
    big.set(PNG)
    const response = await post(me.cookie, photoForm(big))
    expect(response.status).toBe(400)
    expect(fieldErrors(await response.text(), 'photo')).toEqual(['The photo must be 2 MB or smaller.'])
    expect(await snapshot(me.id)).toEqual(before)
  })

  test('a save with no file chosen asks for one', async () => {
    const me = await employee()
    const before = await snapshot(me.id)
    const form = photoForm(null)
    form.set('photo', new Blob([]), '')
    const response = await post(me.cookie, form)
    expect(response.status).toBe(400)
    expect(fieldErrors(await response.text(), 'photo')).toEqual(['Choose a photo to upload.'])
    expect(await snapshot(me.id)).toEqual(before)
  })
})

describe('password (intent=password)', () => {
  const change = (cookie: string, fields: Partial<Record<string, string>> = {}) =>
    post(cookie, {
      intent: 'password',
      currentPassword: FACTORY_PASSWORD,
      newPassword: NEW_PASSWORD,
      confirmPassword: NEW_PASSWORD,
      ...fields,
    } as Record<string, string>)

  test('changes it, ends the other sessions, keeps this one, and the new password signs in', async () => {
    const me = await employee()
    const laptop = await sessionCookieFor(me.id)
    const phone = await sessionCookieFor(me.id)
    const otherPerson = await employee()
    expect(await sessionRowsOf(me.id)).toHaveLength(3)

    const response = await change(me.cookie)
    const html = await follow(response, me.cookie)
    expect(textOf(html)).toContain('Password changed')
    // The page after the redirect was served on this very session: it survived.
    const kept = decodeURIComponent(me.cookie.split('=')[1]!).split('.')[0]!
    expect((await sessionRowsOf(me.id)).map((s) => s.id)).toEqual([kept])
    for (const cookie of [laptop, phone]) {
      const ended = await send(server, PAGE, { cookie })
      expect(ended.status).toBe(302)
      expect(location(ended)).toMatch(/^\/sign-in\?/)
    }
    // Someone else's sessions are none of this change's business.
    expect(await sessionRowsOf(otherPerson.id)).toHaveLength(1)

    const withOld = await postSignIn(server, { email: me.email, password: FACTORY_PASSWORD })
    expect(withOld.status).toBe(400)
    const withNew = await postSignIn(server, { email: me.email, password: NEW_PASSWORD })
    expect(withNew.status).toBe(302)
    expect(location(withNew)).toBe('/user')
    expect(sessionTokenFrom(withNew)).toBeTruthy()

    expect(await auditOf(me.id)).toEqual([
      { action: 'user.password_changed', actorId: me.id, details: { otherSessionsEnded: true } },
    ])
  })

  test.each([
    [
      'a wrong current password',
      { currentPassword: 'not my password' },
      'currentPassword',
      WRONG_CURRENT_PASSWORD,
    ],
    ['no current password', { currentPassword: '' }, 'currentPassword', 'Enter your current password.'],
    [
      'a new password under the policy',
      { newPassword: 'short', confirmPassword: 'short' },
      'newPassword',
      'Use at least 8 characters.',
    ],
    [
      'a confirmation that does not match',
      { confirmPassword: `${NEW_PASSWORD}!` },
      'confirmPassword',
      'The passwords do not match.',
    ],
    [
      'the current password as the new one',
      { newPassword: FACTORY_PASSWORD, confirmPassword: FACTORY_PASSWORD },
      'newPassword',
      'Choose a password different from your current one.',
    ],
  ])(
    'refuses %s beside the field, echoes no password and writes nothing',
    async (_label, fields, field, message) => {
      const me = await employee()
      const other = await sessionCookieFor(me.id)
      const before = await snapshot(me.id)
      const response = await change(me.cookie, fields)
      expect(response.status).toBe(400)
      const html = await response.text()
      expect(fieldErrors(html, field)).toEqual([message])
      for (const typed of Object.values(fields).filter(Boolean))
        expect(html).not.toContain(`value="${typed}"`)
      expect(await snapshot(me.id)).toEqual(before)
      expect((await send(server, PAGE, { cookie: other })).status).toBe(200)
    },
  )

  test('five wrong current passwords, then even the right one is refused for a while; others are unaffected', async () => {
    const me = await employee()
    const before = await snapshot(me.id)
    for (let i = 0; i < 5; i++) {
      const wrong = await change(me.cookie, { currentPassword: `guess number ${i}` })
      expect(wrong.status).toBe(400)
      expect(fieldErrors(await wrong.text(), 'currentPassword')).toEqual([WRONG_CURRENT_PASSWORD])
    }
    const limited = await change(me.cookie)
    expect(limited.status).toBe(429)
    expect(Number(limited.headers.get('Retry-After'))).toBeGreaterThan(0)
    expect(alertTexts(await limited.text())).toContain(TOO_MANY)
    expect(TOO_MANY).toBe(AUTH_ERROR_MESSAGES['auth/too-many-requests'])
    // The e-mail form asks for the same password, so it shares the limit.
    const viaEmail = await post(me.cookie, {
      intent: 'email',
      newEmail: `elsewhere-${me.id}@example.test`,
      currentPassword: FACTORY_PASSWORD,
    })
    expect(viaEmail.status).toBe(429)
    expect(await snapshot(me.id)).toEqual(before)

    // The limit is this account's, not everyone's.
    const someoneElse = await employee()
    expect((await change(someoneElse.cookie)).status).toBe(302)
  })
})

describe('e-mail address (intent=email)', () => {
  const request = (cookie: string, newEmail: string, currentPassword = FACTORY_PASSWORD) =>
    post(cookie, { intent: 'email', newEmail, currentPassword })

  /** Delivers the outbox over SMTP; the verify link in the message that went to `to`. */
  async function deliveredLink(to: string) {
    await processOutboxOnce({ transport })
    const message = await catcher.waitFor((m) => m.envelopeTo.includes(to), 10_000)
    const links = extractLinks(message.text).filter((l) =>
      l.startsWith(`${APP_URL}/verification?mode=verifyEmail&code=`),
    )
    expect(links, message.text).toHaveLength(1)
    return { link: links[0]!, message }
  }

  /** Follows the link as a browser does: its GET shows a confirm button, whose POST applies the change. */
  const open = async (link: string) => {
    const url = new URL(link)
    const opened = await send(server, url.pathname + url.search)
    if (opened.status !== 302 || location(opened) !== '/verification?mode=verifyEmail') return opened
    return send(server, '/verification?mode=verifyEmail', { cookie: cookiesFrom(opened), form: {} })
  }

  test('following the link changes nothing by itself: the page asks to confirm, and only its POST applies the change', async () => {
    const me = await employee()
    const newEmail = `confirm-${me.id.slice(0, 8)}@example.test`
    expect((await request(me.cookie, newEmail)).status).toBe(302)
    const { link } = await deliveredLink(newEmail)
    const url = new URL(link)
    // A mail scanner, a prefetch, another site's navigation: GETs, as many as they like.
    for (let i = 0; i < 2; i++) {
      const opened = await send(server, url.pathname + url.search)
      expect(opened.status).toBe(302)
      expect(location(opened)).toBe('/verification?mode=verifyEmail')
      const confirm = await send(server, '/verification?mode=verifyEmail', { cookie: cookiesFrom(opened) })
      expect(confirm.status).toBe(200)
      const html = await confirm.text()
      expect(html).toMatch(/<form[^>]*method="post"/)
      expect(textOf(html)).toContain(`Confirm ${newEmail} as the e-mail address you sign in with.`)
    }
    expect((await userRow(me.id)).email).toBe(me.email)
    const confirmed = await open(link)
    expect(location(confirmed)).toBe('/verification?mode=verifyEmail&done=1')
    expect((await userRow(me.id)).email).toBe(newEmail)
  })

  test('changes only once the link sent to the new address is followed; then the new address signs in', async () => {
    const me = await employee({ displayName: 'Mo Mover' })
    const newEmail = `mo.moved-${me.id.slice(0, 8)}@example.test`

    const response = await request(me.cookie, `  ${newEmail.toUpperCase()} `)
    const html = await follow(response, me.cookie)
    expect(textOf(html)).toContain('Check your inbox')
    expect(textOf(html)).toContain(`Pending change to ${newEmail} — check your inbox.`)
    // Nothing changed yet: the account still has, and signs in with, the old address.
    expect((await userRow(me.id)).email).toBe(me.email)
    const queued = await db().select().from(emailOutbox).where(eq(emailOutbox.entityId, me.id))
    expect(queued.map((r) => [r.recipient, r.templateKey])).toEqual([[newEmail, 'verify_email']])
    expect(await auditOf(me.id)).toEqual([
      {
        action: 'user.email_change_requested',
        actorId: me.id,
        details: { from: me.email, to: newEmail },
      },
    ])

    const { link, message } = await deliveredLink(newEmail)
    expect(message.envelopeTo).toEqual([newEmail])
    expect(catcher.messages.some((m) => m.envelopeTo.includes(me.email))).toBe(false)
    expect(message.text).toContain('Mo Mover')
    expect((await postSignIn(server, { email: newEmail, password: FACTORY_PASSWORD })).status).toBe(400)

    const followed = await open(link)
    expect(followed.status).toBe(302)
    expect(location(followed)).toBe('/verification?mode=verifyEmail&done=1')
    const done = await send(server, location(followed)!)
    expect(done.status).toBe(200)
    expect(textOf(await done.text())).toContain('Your e-mail address is confirmed.')

    const row = await userRow(me.id)
    expect(row.email).toBe(newEmail)
    expect(row.emailVerifiedAt).not.toBeNull()
    expect((await postSignIn(server, { email: me.email, password: FACTORY_PASSWORD })).status).toBe(400)
    const signedIn = await postSignIn(server, { email: newEmail, password: FACTORY_PASSWORD })
    expect(signedIn.status).toBe(302)
    expect(location(signedIn)).toBe('/user')

    // The pending notice is gone; the page shows the new address; the link was single-use.
    const after = textOf(await page(me.cookie))
    expect(after).toContain(`You sign in with ${newEmail}`)
    expect(after).not.toContain('Pending change')
    const replay = await open(link)
    expect(replay.status).toBe(410)
    expect(textOf(await replay.text())).toContain(AUTH_ERROR_MESSAGES['auth/expired-action-code'])
  })

  test('an expired link answers 410 and changes nothing', async () => {
    const me = await employee()
    const { code } = await db().transaction((tx) =>
      createActionCode(tx, {
        kind: 'verify_email',
        userId: me.id,
        email: `late-${me.id.slice(0, 8)}@example.test`,
        expiresAt: new Date(Date.now() - 1000),
      }),
    )
    // An expired request is not "pending" either.
    expect(textOf(await page(me.cookie))).not.toContain('Pending change')
    const response = await open(actionLink('verify_email', code))
    expect(response.status).toBe(410)
    expect((await userRow(me.id)).email).toBe(me.email)
  })

  test('a newer request voids the older link; only the latest address can win', async () => {
    const me = await employee()
    const first = `first-${me.id.slice(0, 8)}@example.test`
    const second = `second-${me.id.slice(0, 8)}@example.test`
    expect((await request(me.cookie, first)).status).toBe(302)
    expect((await request(me.cookie, second)).status).toBe(302)
    expect(textOf(await page(me.cookie))).toContain(`Pending change to ${second}`)
    const { link: firstLink } = await deliveredLink(first)
    const { link: secondLink } = await deliveredLink(second)
    expect((await open(firstLink)).status).toBe(410)
    expect((await userRow(me.id)).email).toBe(me.email)
    expect((await open(secondLink)).status).toBe(302)
    expect((await userRow(me.id)).email).toBe(second)
  })

  test('an address taken by someone else after the request makes the link answer 410', async () => {
    const me = await employee()
    const wanted = `contested-${me.id.slice(0, 8)}@example.test`
    expect((await request(me.cookie, wanted)).status).toBe(302)
    const { link } = await deliveredLink(wanted)
    await createUser({ role: 'employee', email: wanted })
    expect((await open(link)).status).toBe(410)
    expect((await userRow(me.id)).email).toBe(me.email)
  })

  test.each([
    [
      'an invalid address',
      () => 'not-an-address',
      'newEmail',
      'Enter a valid e-mail address, like name@example.com.',
    ],
    ['an empty address', () => '', 'newEmail', 'Enter the new e-mail address.'],
  ])('refuses %s beside the field and writes nothing', async (_label, makeEmail, field, message) => {
    const me = await employee()
    const before = await snapshot(me.id)
    const response = await request(me.cookie, makeEmail())
    expect(response.status).toBe(400)
    const html = await response.text()
    expect(fieldErrors(html, field)).toEqual([message])
    expect(html).not.toContain(FACTORY_PASSWORD)
    expect(await snapshot(me.id)).toEqual(before)
  })

  test('refuses the address it already has (in any case), an address another account has, and a wrong password', async () => {
    const me = await employee()
    const other = await createUser({ role: 'colleague' })
    const before = await snapshot(me.id)

    const same = await request(me.cookie, me.email.toUpperCase())
    expect(same.status).toBe(400)
    expect(fieldErrors(await same.text(), 'newEmail')).toEqual([SAME_EMAIL])

    const taken = await request(me.cookie, other.email)
    expect(taken.status).toBe(400)
    expect(fieldErrors(await taken.text(), 'newEmail')).toEqual([EMAIL_TAKEN])

    const wrong = await request(me.cookie, `free-${me.id.slice(0, 8)}@example.test`, 'not my password')
    expect(wrong.status).toBe(400)
    const html = await wrong.text()
    expect(fieldErrors(html, 'currentPassword')).toEqual([WRONG_CURRENT_PASSWORD])
    expect(html).not.toContain('not my password')

    expect(await snapshot(me.id)).toEqual(before)
  })

  test('at most five change requests an hour: the form cannot be used to mail anyone at will', async () => {
    const me = await employee()
    for (let i = 0; i < 5; i++) {
      expect((await request(me.cookie, `try-${i}-${me.id.slice(0, 8)}@example.test`)).status).toBe(302)
    }
    const before = await snapshot(me.id)
    const limited = await request(me.cookie, `try-5-${me.id.slice(0, 8)}@example.test`)
    expect(limited.status).toBe(429)
    expect(alertTexts(await limited.text())).toContain(TOO_MANY)
    expect(await snapshot(me.id)).toEqual(before)
  })
})
