import net from 'node:net'
import { eq } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'
import { auditLog, brands, companies, questionnaires, sessions, users } from '#db/schema/index'
import { createBrand, createCompany, createUser } from '#db/factories'
import { TEXT_MESSAGES } from '#app/lib/text-rules'
import { INVITE_MESSAGES } from '#app/modules/invite/schemas'
import { useTestDatabase } from '#tests/support/database'
import { changedTables, fingerprint } from '#tests/support/fingerprint'
import { send, sessionCookieFor, useTestServer } from '#tests/support/app'
import { alertTexts, FACTORY_PASSWORD, fieldErrors, textOf } from '#tests/integration/auth/helpers'
import {
  answersOf,
  createWorld,
  field,
  form,
  questionErrors,
  type World,
} from '#tests/integration/journey/answer-helpers'
import { enrolledEmployee } from '#tests/integration/journey/invite-helpers'

/**
 * Outside testers' junk (issue 7, items 3 and 4) through the real HTTP stack: control characters
 * in free-text fields, and a field sent twice or as a list. Each is a 400 with a message where the
 * person sees it, and nothing is written; before, Postgres refused the NUL byte, or the page that
 * showed the refusal choked on a list, and both were 500s.
 */
const db = useTestDatabase()
const server = useTestServer()

let adminCookie = ''
beforeAll(async () => {
  adminCookie = await sessionCookieFor((await createUser({ role: 'admin' })).id)
})

/** A urlencoded body from pairs, so a name can repeat. */
const body = (pairs: Array<[string, string]>) => new URLSearchParams(pairs).toString()
const postRaw = (path: string, pairs: Array<[string, string]>, cookie: string | null = adminCookie) =>
  fetch(server.url + path, {
    method: 'POST',
    body: body(pairs),
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...(cookie ? { Cookie: cookie } : {}) },
    redirect: 'manual',
  })

/** Asserts nothing was written while `run` ran, and returns its response. */
async function writesNothing(run: () => Promise<Response>) {
  const before = await fingerprint()
  const response = await run()
  expect(changedTables(before, await fingerprint())).toEqual([])
  return response
}

const brandUpdate = (overrides: Record<string, string> = {}): Array<[string, string]> =>
  Object.entries({
    intent: 'update',
    name: 'Harbour Consulting',
    primaryColor: '#123456',
    accentColor: '#abcdef',
    senderName: 'Harbour People Team',
    callbackUrl: 'https://harbour.example.com/callback',
    contactEmail: 'team@harbour.example.com',
    profileUrl: 'https://www.linkedin.com/company/harbour',
    ...overrides,
  })

describe('control characters in free-text fields (item 3)', () => {
  test.each([
    ['name', 'Harbour\u0000Consulting'],
    ['name', 'Harbour\u0007Consulting'],
    ['name', 'Harbour\tConsulting'],
    ['senderName', 'People\u0000Team'],
    ['callbackUrl', 'https://harbour.example.com/call\u0000back'],
    ['profileUrl', 'https://harbour.example.com/\u001bprofile'],
  ])('brand update: %s = %j is refused beside the field', async (name, value) => {
    const brand = await createBrand()
    const response = await writesNothing(() =>
      postRaw(`/admin/brand-management/${brand.id}`, brandUpdate({ [name]: value })),
    )
    expect(response.status).toBe(400)
    const messages = fieldErrors(await response.text(), name)
    expect(messages.some((m) => /line breaks, tabs|control characters/.test(m))).toBe(true)
  })

  test('brand create and company create/update refuse a NUL in the name', async () => {
    const brand = await createBrand()
    const company = await createCompany({ brandId: brand.id })
    for (const [path, pairs] of [
      [
        '/admin/brand-management',
        [
          ['intent', 'create'],
          ['name', 'New\u0000Brand'],
          ['primaryColor', '#112233'],
          ['accentColor', '#445566'],
        ],
      ],
      [
        '/admin/company-management',
        [
          ['intent', 'create'],
          ['name', 'New\u0000Company'],
          ['brandId', brand.id],
        ],
      ],
      [
        // The edit form shows (with its errors) when the page's address names the company.
        `/admin/company-management?edit=${company.id}`,
        [
          ['intent', 'update'],
          ['companyId', company.id],
          ['name', 'Renamed\u0000Company'],
          ['brandId', brand.id],
        ],
      ],
    ] as Array<[string, Array<[string, string]>]>) {
      const response = await writesNothing(() => postRaw(path, pairs))
      expect(response.status, path).toBe(400)
      const html = await response.text()
      expect(fieldErrors(html, 'name')).toEqual([TEXT_MESSAGES.singleLine])
    }
    expect((await db().select().from(companies).where(eq(companies.id, company.id)))[0]!.name).toBe(
      company.name,
    )
  })

  test('the profile’s display name refuses a NUL', async () => {
    const employee = await createUser({ role: 'employee', displayName: 'Erin Example' })
    const cookie = await sessionCookieFor(employee.id)
    const response = await writesNothing(() =>
      postRaw(
        '/user/edit-profile',
        [
          ['intent', 'profile'],
          ['displayName', 'Erin\u0000Example'],
          ['phone', ''],
        ],
        cookie,
      ),
    )
    expect(response.status).toBe(400)
    expect(fieldErrors(await response.text(), 'displayName')).toEqual([TEXT_MESSAGES.singleLine])
    expect((await db().select().from(users).where(eq(users.id, employee.id)))[0]!.displayName).toBe(
      'Erin Example',
    )
  })

  test('a colleague’s name in an invitation refuses a NUL', async () => {
    const w = await enrolledEmployee()
    const cookie = await sessionCookieFor(w.employee.id)
    const response = await writesNothing(() =>
      postRaw(
        '/user/colleague-invite',
        [
          ['intent', 'invite'],
          ['schemeId', w.scheme.id],
          ['name', 'Pat\u0000Peer'],
          ['email', 'pat.peer@example.test'],
          ['relationship', 'peer'],
        ],
        cookie,
      ),
    )
    expect(response.status).toBe(400)
    expect(fieldErrors(await response.text(), 'name')).toEqual([INVITE_MESSAGES.nameLineBreak])
  })

  describe('answers', () => {
    let w: World
    beforeAll(async () => {
      w = await createWorld()
    })
    const save = (section: string, pairs: Array<[string, string]>) =>
      send(server, `/assignment/${w.self.id}?section=${section}`, {
        cookie: w.employeeCookie,
        form: form([['intent', 'save'], ['section', section], ...pairs]),
      })

    test.each([
      ['a NUL in a one-line answer', 2, 4, 'keep\u0000going', TEXT_MESSAGES.multiLine],
      ['a DEL in a one-line answer', 2, 4, 'keep\u007fgoing', TEXT_MESSAGES.multiLine],
      ['a NUL in a text area', 3, 5, 'Delegate\u0000more', TEXT_MESSAGES.multiLine],
      ['an escape in a text area', 3, 5, 'Delegate \u001b[31mmore', TEXT_MESSAGES.multiLine],
    ])('%s is refused beside the question', async (_label, section, index, value, message) => {
      const response = await writesNothing(() => save(String(section), [[field(w.q[index]!.id), value]]))
      expect(response.status).toBe(400)
      expect(questionErrors(await response.text(), w.q[index]!.id)).toEqual([message])
    })

    test('a text area keeps its line breaks and tabs', async () => {
      const response = await save('3', [[field(w.q[5]!.id), 'Delegate more.\r\n\tSay no sooner.']])
      expect(response.status).toBe(302)
      expect((await answersOf(w.self.id)).get(w.q[5]!.id)!.textValue).toBe('Delegate more.\n\tSay no sooner.')
    })
  })

  test('a list’s search box and cursor with a NUL fall back instead of failing the page', async () => {
    await createBrand({ name: 'Searchable Brand' })
    const cursor = Buffer.from(
      JSON.stringify({ s: 'name', v: 'A\u0000', id: '00000000-0000-4000-8000-000000000000' }),
    ).toString('base64url')
    for (const path of [
      '/admin/brand-management?q=Search%00able',
      '/admin/company-management?q=%00',
      `/admin/brand-management?after=${cursor}`,
      `/admin/company-management?before=${cursor}`,
    ]) {
      const response = await send(server, path, { cookie: adminCookie })
      expect(response.status, path).toBe(200)
    }
    const found = await send(server, '/admin/brand-management?q=Search%00able', { cookie: adminCookie })
    expect(await found.text()).toContain('Searchable Brand')
  })
})

describe('text Postgres cannot store, on every input path (issue 15, A5)', () => {
  // NUL: Postgres refuses it in text and jsonb. Half of a surrogate pair alone: jsonb refuses it
  // (the audit insert was a 500) and text silently keeps U+FFFD instead. JSON can spell both.
  const questionnaireFile = () => ({
    format: 'panorama-questionnaire',
    version: 1,
    title: 'Imported',
    intro: 'About you.',
    sections: [
      {
        title: 'Listening',
        questions: [
          {
            kind: 'scale',
            text: 'I listen.',
            raterText: '{{name}} listens.',
            competency: 'Listening',
            scale: { min: 1, max: 3, labels: ['Rarely', 'Often', 'Always'] },
          },
          {
            kind: 'single',
            text: 'I prefer.',
            raterText: '{{name}} prefers.',
            competency: 'Style',
            choices: ['Mornings', 'Evenings'],
          },
        ],
      },
    ],
  })
  type File = ReturnType<typeof questionnaireFile>
  const importFile = (file: unknown) => {
    const data = new FormData()
    data.append('intent', 'import')
    // JSON.stringify writes a lone surrogate as the escape "\ud800", as a hand-edited file would.
    data.append('file', new Blob([JSON.stringify(file)], { type: 'application/json' }), 'q.json')
    return send(server, '/admin/questionnaire-management', { form: data, cookie: adminCookie })
  }

  test.each([
    [
      'title',
      'Lead\ud800ership',
      (f: File, v: string) => (f.title = v),
      'title: holds half of a character pair',
    ],
    [
      'intro',
      'About\udc00 you',
      (f: File, v: string) => (f.intro = v),
      'intro: holds half of a character pair',
    ],
    [
      'a section title',
      '\udbffListening',
      (f: File, v: string) => (f.sections[0]!.title = v),
      'sections[0].title: holds half of a character pair',
    ],
    [
      'a question text',
      'I listen\udfff.',
      (f: File, v: string) => (f.sections[0]!.questions[0]!.text = v),
      'sections[0].questions[0].text: holds half of a character pair',
    ],
    [
      'a scale label (jsonb)',
      'Of\ud800ten',
      (f: File, v: string) => (f.sections[0]!.questions[0]!.scale!.labels[1] = v),
      'sections[0].questions[0].scale.labels[1]: holds half of a character pair',
    ],
    [
      'a choice (jsonb)',
      'Even\ud83dings',
      (f: File, v: string) => (f.sections[0]!.questions[1]!.choices![1] = v),
      'sections[0].questions[1].choices[1]: holds half of a character pair',
    ],
    [
      'a NUL in a choice (jsonb)',
      'Even\u0000ings',
      (f: File, v: string) => (f.sections[0]!.questions[1]!.choices![0] = v),
      'sections[0].questions[1].choices[0]: must be one line without control characters',
    ],
    [
      'a NUL in the title',
      'Lead\u0000ership',
      (f: File, v: string) => (f.title = v),
      'title: must be one line without control characters',
    ],
  ] as Array<[string, string, (f: File, v: string) => void, string]>)(
    'questionnaire import: %s is a 400 naming its place, and nothing is written',
    async (_label, value, put, message) => {
      const file = questionnaireFile()
      put(file, value)
      const response = await writesNothing(() => importFile(file))
      expect(response.status).toBe(400)
      expect(textOf(await response.text())).toContain(message)
    },
  )

  test('questionnaire import: the same file without the bad character imports (so it was the character)', async () => {
    const response = await importFile(questionnaireFile())
    expect(response.status).toBe(302)
    const id = response.headers.get('Location')!.split('/').pop()!
    expect((await db().select().from(questionnaires).where(eq(questionnaires.id, id)))[0]!.title).toBe(
      'Imported',
    )
    expect((await db().select().from(auditLog).where(eq(auditLog.entityId, id)))[0]!.details).toMatchObject({
      title: 'Imported',
    })
  })

  test('a password field refuses a NUL beside itself (the form kit’s backstop), and the password stays', async () => {
    const employee = await createUser({ role: 'employee' })
    const cookie = await sessionCookieFor(employee.id)
    const before = (await db().select().from(users).where(eq(users.id, employee.id)))[0]!.passwordHash
    const response = await writesNothing(() =>
      postRaw(
        '/user/edit-profile',
        [
          ['intent', 'password'],
          ['currentPassword', FACTORY_PASSWORD],
          ['newPassword', 'a brand\u0000new password'],
          ['confirmPassword', 'a brand\u0000new password'],
        ],
        cookie,
      ),
    )
    expect(response.status).toBe(400)
    const html = await response.text()
    expect(fieldErrors(html, 'newPassword')).toEqual([TEXT_MESSAGES.unstorable])
    expect(fieldErrors(html, 'confirmPassword')).toEqual([TEXT_MESSAGES.unstorable])
    expect((await db().select().from(users).where(eq(users.id, employee.id)))[0]!.passwordHash).toBe(before)
  })

  test('sign-in: a NUL in the password or the hidden redirect is a 400 beside the field, no session', async () => {
    const user = await createUser({ role: 'employee' })
    for (const pairs of [
      [
        ['email', user.email],
        ['password', `${FACTORY_PASSWORD}\u0000`],
      ],
      [
        ['email', user.email],
        ['password', FACTORY_PASSWORD],
        ['redirectTo', '/user\u0000'],
      ],
    ] as Array<Array<[string, string]>>) {
      const response = await writesNothing(() => postRaw('/sign-in', pairs, null))
      expect(response.status).toBe(400)
      const html = await response.text()
      const name = pairs[pairs.length - 1]![0]
      // The hidden field has no place of its own: the form's message names it.
      expect(alertTexts(html).join(' ')).toContain(
        `The field “${name}” holds a character that cannot be saved`,
      )
      if (name === 'password') expect(fieldErrors(html, 'password')).toEqual([TEXT_MESSAGES.unstorable])
    }
  })

  test('e-mail template editing: a NUL in the subject or the body is refused beside the field', async () => {
    for (const [name, value] of [
      ['subject', 'Welcome\u0000'],
      ['body', 'Hello\u0000 {{link}}'],
      ['html', '<p>Hello\u0000 {{link}}</p>'],
    ]) {
      const fields: Record<string, string> = {
        intent: 'save',
        subject: 'Welcome',
        body: 'Hello {{link}}',
        html: '',
        [name!]: value!,
      }
      const response = await writesNothing(() =>
        postRaw('/admin/email-management/activate_account', Object.entries(fields)),
      )
      expect(response.status, name).toBe(400)
      const messages = fieldErrors(await response.text(), name!)
      expect(messages.length, name).toBeGreaterThan(0)
    }
  })

  test('a form cannot carry a lone surrogate: its encoding makes it U+FFFD, which is ordinary text', async () => {
    const brand = await createBrand()
    const response = await fetch(`${server.url}/admin/brand-management/${brand.id}`, {
      method: 'POST',
      // The UTF-8 bytes a lone surrogate would have (ED A0 80), which no valid UTF-8 holds.
      body: body(brandUpdate({ name: 'Harbour' })).replace('name=Harbour&', 'name=Harbour%ED%A0%80&'),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: adminCookie },
      redirect: 'manual',
    })
    expect(response.status).toBeLessThan(500)
    const name = (await db().select().from(brands).where(eq(brands.id, brand.id)))[0]!.name
    expect(name.startsWith('Harbour')).toBe(true)
    expect(name).not.toMatch(/\p{Cs}/u)
  })

  describe('answers', () => {
    let w: World
    beforeAll(async () => {
      w = await createWorld()
    })

    test.each([
      ['a lone surrogate', 'keep\ud800going'],
      ['a NUL', 'keep\u0000going'],
    ])('autosave posted as JSON with %s is a 400, and nothing is written', async (_label, value) => {
      const response = await writesNothing(() =>
        send(server, `/assignment/${w.self.id}?section=2`, {
          cookie: w.employeeCookie,
          json: { intent: 'autosave', section: '2', [field(w.q[4]!.id)]: value },
        }),
      )
      expect(response.status).toBe(400)
    })

    test('autosave as a form with a NUL in a text answer is refused beside the question', async () => {
      const response = await writesNothing(() =>
        send(server, `/assignment/${w.self.id}?section=2`, {
          cookie: w.employeeCookie,
          form: form([
            ['intent', 'autosave'],
            ['section', '2'],
            [field(w.q[4]!.id), 'keep\u0000going'],
          ]),
        }),
      )
      expect(response.status).toBe(400)
    })
  })

  test.each([
    ['a lone surrogate', 'abc\ud800.def'],
    ['a NUL', 'abc\u0000.def'],
  ])('session sync: a token with %s is malformed input (400), not a failed check', async (_label, token) => {
    const response = await writesNothing(() =>
      send(server, '/api/__session', { json: { token }, cookie: adminCookie }),
    )
    expect(response.status).toBe(400)
    expect(await response.json()).toMatchObject({ code: 'auth/invalid-argument' })
  })

  test('every value a page reads from its address or path, holding a NUL or a broken pair, answers without a 500', async () => {
    const w = await createWorld()
    const junk = [
      '%00',
      '%ED%A0%80',
      encodeURIComponent(Buffer.from(JSON.stringify({ v: '\ud800' })).toString('base64url')),
    ]
    const asAdmin = [
      '/admin/company-management?edit=J&delete=J&q=J&after=J',
      '/admin/brand-management?q=J&before=J',
      '/admin/brand-management/J',
      '/admin/employee-management?q=J&company=J&scheme=J&state=J&after=J',
      '/admin/employee-management?import=J&show=J&after=J',
      '/admin/employee-management/J',
      '/admin/scheme-management?q=J&company=J&status=J&after=J',
      `/admin/scheme-management/${w.scheme.id}?edit=J&q=J&after=J`,
      '/admin/questionnaire-management?q=J&status=J&after=J',
      '/admin/questionnaire-management/J',
      '/admin/email-management?tab=outbox&to=J&state=J&template=J&brand=J&after=J',
      '/admin/email-management/J',
      '/admin/answer-management?scheme=J&company=J&questionnaire=J&q=J&relationship=J&state=J&after=J',
      '/admin/answer-management/export.csv?identities=J&scheme=J&q=J',
      '/admin/admin-management?q=J&after=J',
      `/user/colleague-invite?employee=J&scheme=J`,
      '/files/J',
    ]
    const asEmployee = [
      '/user/colleague-invite?scheme=J&revoke=J',
      '/user/thank-you?assignment=J&later=J',
      `/questionnaire/${w.self.id}?assignment=J`,
      `/assignment/${w.self.id}?section=J`,
      '/assignment/J',
    ]
    const anonymous = [
      '/sign-in?brand=J&redirectTo=J',
      '/verification?mode=invite&code=J',
      '/verification?mode=J',
    ]
    for (const [paths, cookie] of [
      [asAdmin, adminCookie],
      [asEmployee, w.employeeCookie],
      [anonymous, null],
    ] as Array<[string[], string | null]>) {
      for (const path of paths)
        for (const value of junk) {
          const url = path.replaceAll('J', value)
          const response = await send(server, url, { cookie })
          expect(response.status, url).toBeLessThan(500)
        }
    }
  })

  test('list URLs: a cursor holding a lone surrogate, and a search cut inside an emoji, still answer', async () => {
    const cursor = Buffer.from(
      JSON.stringify({ s: 'name', v: 'A\ud800', id: '00000000-0000-4000-8000-000000000000' }),
    ).toString('base64url')
    const emoji = encodeURIComponent('a'.repeat(99) + '\ud83d\ude00')
    for (const path of [
      `/admin/brand-management?after=${cursor}`,
      `/admin/questionnaire-management?before=${cursor}`,
      `/admin/employee-management?q=${emoji}`,
      `/admin/email-management?tab=outbox&to=${emoji}`,
    ]) {
      const response = await send(server, path, { cookie: adminCookie })
      expect(response.status, path).toBe(200)
    }
  })
})

describe('headers stored with a session (item 3)', () => {
  /** One raw HTTP/1.1 request (fetch refuses to send such headers at all); answers the status line. */
  function rawPost(path: string, headers: string, body: string) {
    const { hostname, port } = new URL(server.url)
    return new Promise<string>((resolve, reject) => {
      const socket = net.connect(Number(port), hostname, () => {
        socket.write(
          Buffer.from(
            `POST ${path} HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: application/x-www-form-urlencoded\r\n` +
              `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n${headers}\r\n${body}`,
            'latin1',
          ),
        )
      })
      let answer = ''
      socket.on('data', (chunk) => (answer += chunk.toString('latin1')))
      socket.on('end', () => resolve(answer.split('\r\n')[0]!))
      socket.on('error', reject)
    })
  }

  test('a control character in the User-Agent never reaches the sessions table: Node refuses the request', async () => {
    const user = await createUser({ role: 'employee' })
    const body = new URLSearchParams({ email: user.email, password: 'correct horse battery' }).toString()
    for (const agent of ['Mozilla\u0000/5.0', 'Mozilla\u0001/5.0', 'Mozilla\u007f/5.0']) {
      const before = await fingerprint()
      expect(await rawPost('/sign-in', `User-Agent: ${agent}\r\n`, body)).toBe('HTTP/1.1 400 Bad Request')
      expect(changedTables(before, await fingerprint())).toEqual([])
    }
    // The same sign-in with an ordinary agent works, so it was the header that was refused.
    expect(await rawPost('/sign-in', 'User-Agent: Mozilla/5.0\r\n', body)).toBe('HTTP/1.1 302 Found')
    expect(await db().select().from(sessions).where(eq(sessions.userId, user.id))).toHaveLength(1)
  })
})

describe('a field sent twice or as a list (item 4)', () => {
  test('accentColor twice on a brand is a 400 that names the field, and the page still renders', async () => {
    const brand = await createBrand()
    const before = (await db().select().from(brands).where(eq(brands.id, brand.id)))[0]
    const response = await writesNothing(() =>
      postRaw(`/admin/brand-management/${brand.id}`, [...brandUpdate(), ['accentColor', '#abcdef']]),
    )
    expect(response.status).toBe(400)
    const html = await response.text()
    expect(alertTexts(html).join(' ')).toContain(
      'The field “accentColor” was sent more than once. Reload the page and try again.',
    )
    expect(fieldErrors(html, 'accentColor')).toEqual(['This field takes one value, sent once.'])
    // The form shows the first value again, never a list.
    expect(html).toContain('value="#abcdef"')
    expect((await db().select().from(brands).where(eq(brands.id, brand.id)))[0]).toEqual(before)
  })

  test.each([
    ['a scalar as a list', [['accentColor[0]', '#abcdef']], 'was sent as a list or group of values'],
    ['a scalar as an object', [['name.first', 'Harbour']], 'was sent as a list or group of values'],
    ['Conform’s intent field, malformed', [['__intent__', '{not json']], 'control field'],
    ['Conform’s state field, malformed', [['__state__', '{not json']], 'control field'],
    ['intent twice', [['intent', 'update']], '“intent” was sent more than once'],
  ] as Array<[string, Array<[string, string]>, string]>)(
    'brand update with %s is a 400, not a 500',
    async (_label, extra, message) => {
      const brand = await createBrand()
      const response = await writesNothing(() =>
        postRaw(`/admin/brand-management/${brand.id}`, [...brandUpdate(), ...extra]),
      )
      expect(response.status).toBe(400)
      expect(alertTexts(await response.text()).join(' ')).toContain(message)
    },
  )

  test('every form of every page refuses a repeated field: create, profile, invite, sign-in', async () => {
    const employee = await createUser({ role: 'employee' })
    const employeeCookie = await sessionCookieFor(employee.id)
    const w = await enrolledEmployee()
    const inviterCookie = await sessionCookieFor(w.employee.id)
    const cases: Array<[string, Array<[string, string]>, string | null, string]> = [
      [
        '/admin/brand-management',
        [
          ['intent', 'create'],
          ['name', 'Twice Ltd'],
          ['name', 'Twice Ltd'],
          ['primaryColor', '#112233'],
          ['accentColor', '#445566'],
        ],
        adminCookie,
        'name',
      ],
      [
        '/user/edit-profile',
        [
          ['intent', 'profile'],
          ['displayName', 'Erin'],
          ['displayName', 'Erin'],
        ],
        employeeCookie,
        'displayName',
      ],
      [
        '/user/colleague-invite',
        [
          ['intent', 'invite'],
          ['schemeId', w.scheme.id],
          ['name', 'Pat Peer'],
          ['email', 'pat@example.test'],
          ['email', 'pat@example.test'],
          ['relationship', 'peer'],
        ],
        inviterCookie,
        'email',
      ],
      [
        '/user/colleague-invite',
        [
          ['intent', 'resend'],
          ['assignmentId', crypto.randomUUID()],
          ['assignmentId', crypto.randomUUID()],
        ],
        inviterCookie,
        'assignmentId',
      ],
      [
        '/sign-in',
        [
          ['email', employee.email],
          ['email', employee.email],
          ['password', 'correct horse battery'],
        ],
        null,
        'email',
      ],
    ]
    for (const [path, pairs, cookie, name] of cases) {
      const response = await postRaw(path, pairs, cookie)
      expect(response.status, path).toBe(400)
      expect(alertTexts(await response.text()).join(' '), path).toContain(`“${name}” was sent more than once`)
    }
  })

  describe('answers', () => {
    test('intent or section twice is refused; a multiple choice still takes several boxes', async () => {
      const w = await createWorld()
      const url = `/assignment/${w.self.id}?section=2`
      for (const extra of [[['section', '2']], [['intent', 'next']]] as Array<Array<[string, string]>>) {
        const response = await writesNothing(() =>
          send(server, url, {
            cookie: w.employeeCookie,
            form: form([['intent', 'save'], ['section', '2'], [field(w.q[4]!.id), 'Fine'], ...extra]),
          }),
        )
        expect(response.status).toBe(400)
        expect(alertTexts(await response.text()).join(' ')).toContain('was sent more than once')
      }
      const response = await send(server, url, {
        cookie: w.employeeCookie,
        form: form([
          ['intent', 'save'],
          ['section', '2'],
          [field(w.q[3]!.id), 'Empathy'],
          [field(w.q[3]!.id), 'Vision'],
        ]),
      })
      expect(response.status).toBe(302)
      expect((await answersOf(w.self.id)).get(w.q[3]!.id)!.choices).toEqual(['Vision', 'Empathy'])
    })
  })
})
