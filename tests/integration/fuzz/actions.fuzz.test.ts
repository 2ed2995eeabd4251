import crypto from 'node:crypto'
import fc from 'fast-check'
import { afterAll, beforeAll, expect, test } from 'vitest'
import routes from '#app/routes'
import { files } from '#db/schema/index'
import { createActionCode } from '#app/modules/action-code/action-code.server'
import { createRaterAssignment, createResponse, createUser, enrolEmployee } from '#db/factories'
import { getDb } from '#db/client'
import { enqueueEmail } from '#app/modules/email/outbox.server'
import { useTestDatabase } from '#tests/support/database'
import { changedTables, fingerprint, type Fingerprint } from '#tests/support/fingerprint'
import { cookiesFrom, sessionCookieFor, useTestServer } from '#tests/support/app'
import { createWorld } from '#tests/integration/journey/answer-helpers'
import { formsIn, sameRouteLinks, type FormTemplate } from './html-forms'

/**
 * Issue 7, item 23: junk posted to every route of app/routes.ts, as every kind of visitor, through
 * the real HTTP stack (the production build). Every answer must be below 500, and a refused
 * request (4xx) must write nothing (tests/support/fingerprint.ts says what may move regardless).
 *
 * The routes come from app/routes.ts and the forms from the pages themselves (their server-rendered
 * HTML), so a route or form added later is fuzzed without touching this file. Route parameters are
 * real ids of seeded rows, or junk. The junk: NUL and control characters, fields sent twice, list
 * and object names where a plain value belongs, deeply nested names, huge and negative numbers,
 * invalid UTF-8, files where text belongs, wrong content types, JSON, broken multipart bodies.
 *
 * The run is bounded (FUZZ_RUNS, default below) and seeded (FUZZ_SEED, default fixed): the seed is
 * printed, and a failure prints the request that failed, the seed and fast-check's path (FUZZ_PATH
 * replays that case alone, though without the cases before it the rows may differ). FUZZ_VERBOSE=1
 * lists the forms found and every request with its answer.
 *   FUZZ_RUNS=5000 FUZZ_SEED=123 npx vitest run tests/integration/fuzz
 */
const DEFAULT_RUNS = 400
const DEFAULT_SEED = 72023
const RUNS = Number(process.env.FUZZ_RUNS) || DEFAULT_RUNS
const SEED = process.env.FUZZ_SEED !== undefined ? Number(process.env.FUZZ_SEED) : DEFAULT_SEED
const VERBOSE = Boolean(process.env.FUZZ_VERBOSE)

useTestDatabase()
const server = useTestServer()

type Role = 'anonymous' | 'admin' | 'employee' | 'colleague'
const ROLES: Role[] = ['anonymous', 'admin', 'employee', 'colleague']

// ---------------------------------------------------------------------------------------------
// The routes, from app/routes.ts (children included).

type RouteEntry = { path?: string; index?: boolean; children?: RouteEntry[] }
function flatten(entries: RouteEntry[], parent = ''): string[] {
  return entries.flatMap((entry) => {
    const own = entry.index ? parent || '/' : `${parent}/${entry.path ?? ''}`.replace(/\/+/g, '/')
    return [...(entry.path !== undefined || entry.index ? [own] : []), ...flatten(entry.children ?? [], own)]
  })
}
const ROUTES = [...new Set(flatten(routes as RouteEntry[]))]
const paramsOf = (route: string) => [...route.matchAll(/:(\w+)|\*/g)].map((m) => m[1] ?? '*')

// ---------------------------------------------------------------------------------------------
// The seeded world: one row of each kind the routes take ids of, and a signed-in cookie per role.

const ids: Record<string, string> = {}
/** Real ids by route parameter name; a parameter not named here gets any seeded id. */
const goodParams: Record<string, () => string[]> = {
  id: () => [
    ids.brand!,
    ids.selfAssignment!,
    ids.raterAssignment!,
    ids.questionnaire!,
    ids.file!,
    // E-mail template editor ids: a key (the default) and a key with a brand (ADR 016).
    'colleague_invite',
    `reminder.${ids.brand!}`,
  ],
  messageId: () => [ids.outbox!],
  uid: () => [ids.admin!, ids.employee!],
  schemeId: () => [ids.scheme!],
  qid: () => [ids.questionnaire!],
  responseSlug: () => [`response-${ids.response!}`, `response-${ids.otherResponse!}`],
  '*': () => ['no-such-page', 'admin/x/y'],
}
const JUNK_PARAMS = [
  'new',
  '0',
  '-1',
  '99999999999999999999999',
  '00000000-0000-0000-0000-000000000000',
  crypto.randomUUID(),
  '%00',
  '%C0%80',
  '%FF%FE',
  '%E2%80%AE',
  'response-',
  'response-%00',
  'x'.repeat(300),
  '..%2F..%2Fadmin',
  '__proto__',
]
const userIds: Record<Exclude<Role, 'anonymous'>, string> = { admin: '', employee: '', colleague: '' }
const cookies: Record<Role, string | null> = { anonymous: null, admin: null, employee: null, colleague: null }
/**
 * Pages no page of the app links to: e-mailed links (visiting one sets the cookie its form needs)
 * and pages reached from features not built yet (an admin picks an employee to invite for).
 */
const entryLinks: string[] = []

/** A form found on a page: who saw it, where it posts, and a cookie an e-mail link set for it. */
type Found = FormTemplate & { role: Role; target: string; linkCookie: string }
const found: Found[] = []
/** "role route" pairs whose page the visitor may open. */
const accessible = new Set<string>()
const plausible = new Set<string>([
  'Acme Ltd',
  'Pat Peer',
  'pat.peer@example.test',
  'erin@example.test',
  '#123456',
  'https://example.com/page',
  '+44 20 7946 0958',
  'correct horse battery',
  'a long enough passphrase',
  '1',
  '2',
  '3',
  'na',
  'peer',
  'manager',
  'true',
  'on',
])

beforeAll(async () => {
  const w = await createWorld()
  const admin = await createUser({ role: 'admin' })
  const other = await createUser({ role: 'employee', companyId: w.company.id })
  const otherSelf = (await enrolEmployee(w.scheme, other.id))!
  await createRaterAssignment({ scheme: w.scheme, subjectId: other.id, respondentId: w.colleague.id })
  const response = await createResponse({ assignmentId: w.self.id })
  const otherResponse = await createResponse({ assignmentId: otherSelf.id, submitted: true })
  const png = Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
    'base64',
  )
  const [file] = await getDb()
    .insert(files)
    .values({
      mime: 'image/png',
      size: png.length,
      sha256: crypto.createHash('sha256').update(png).digest('hex'),
      bytes: png,
    })
    .returning()
  Object.assign(ids, {
    brand: w.brand.id,
    company: w.company.id,
    scheme: w.scheme.id,
    questionnaire: w.questionnaire.id,
    selfAssignment: w.self.id,
    raterAssignment: w.rater.id,
    admin: admin.id,
    employee: w.employee.id,
    colleague: w.colleague.id,
    other: other.id,
    response: response.id,
    otherResponse: otherResponse.id,
    file: file!.id,
    outbox: (
      await enqueueEmail(getDb(), {
        to: 'fuzz-outbox@example.test',
        template: 'response_ready',
        brandId: w.brand.id,
        values: { link: 'https://x.test/' },
      })
    ).id,
  })
  userIds.admin = admin.id
  userIds.employee = w.employee.id
  userIds.colleague = w.colleague.id
  for (const role of ['admin', 'employee', 'colleague'] as const)
    cookies[role] = await sessionCookieFor(userIds[role])
  for (const id of Object.values(ids)) plausible.add(id)

  const reset = await createActionCode(getDb(), { kind: 'reset_password', userId: other.id })
  const invited = await createUser({ role: 'employee', password: null, emailVerifiedAt: null })
  const activate = await createActionCode(getDb(), { kind: 'activate_account', userId: invited.id })
  const signInLink = await createActionCode(getDb(), { kind: 'sign_in_link', userId: other.id })
  entryLinks.push(
    `/verification?mode=resetPassword&code=${reset.code}`,
    `/verification?mode=signIn&code=${signInLink.code}`,
    `/verification?mode=activateAccount&code=${activate.code}`,
    `/verification?mode=invite&code=${w.inviteCode}`,
    `/user/colleague-invite?employee=${w.employee.id}`,
  )

  await discoverForms()
  if (VERBOSE)
    for (const f of found)
      console.log(
        'FORM',
        f.role,
        f.target,
        f.fields.map(([k]) => k).join(','),
        f.submitters.map((x) => x.join('=')).join(','),
      )
})

/** GETs a page (not following redirects) and keeps its HTML when it is one. */
async function page(path: string, cookie: string | null) {
  const controller = new AbortController()
  const response = await fetch(server.url + path, {
    headers: cookie ? { Cookie: cookie } : {},
    redirect: 'manual',
    signal: controller.signal,
  })
  const html = (response.headers.get('content-type') ?? '').includes('text/html') ? await response.text() : ''
  // Not an HTML page (an image, the event stream): its body is not needed.
  controller.abort()
  return { response, html }
}

function concrete(route: string, pick: (param: string) => string) {
  if (route === '/') return '/'
  return route.replace(/:(\w+)|\*/g, (_m, name: string | undefined) => pick(name ?? '*'))
}

async function discoverForms() {
  const seen = new Set<string>()
  const keep = (role: Role, pageUrl: string, html: string, linkCookie = '') => {
    for (const form of formsIn(html)) {
      // Where a browser would post it: the form's action, else the page's own address.
      const url = new URL(form.action ?? pageUrl, 'http://x')
      const target = url.pathname + url.search
      // The header's sign-out form is on every page, a list's create form on each of its sorts:
      // once per visitor is enough. Forms of a numbered step (?section=2) differ in their fields,
      // those behind two e-mailed links in the cookie the link set.
      const key = `${role} ${url.pathname} ${form.fields.map(([k]) => k)} ${form.submitters.join()} ${linkCookie}`
      if (seen.has(key)) continue
      seen.add(key)
      found.push({ ...form, role, target, linkCookie })
      for (const [, value] of form.fields) if (value && value.length < 200) plausible.add(value)
      for (const values of Object.values(form.choices)) for (const v of values) plausible.add(v)
    }
  }
  for (const role of ROLES) {
    for (const route of ROUTES) {
      const params = paramsOf(route)
      const candidates = params.length
        ? (goodParams[params[0]!]?.() ?? Object.values(ids)).map((id) => concrete(route, () => id))
        : [concrete(route, () => '')]
      for (const path of candidates) {
        const first = await page(path, cookies[role])
        // A guard's redirect: this visitor may not open the route, whichever the id.
        if (first.response.status >= 300 && first.response.status < 400) break
        if (first.response.status !== 200) continue
        accessible.add(`${role} ${route}`)
        keep(role, path, first.html)
        // The same page with a query: an edit form, a confirmation, a chosen employee.
        // One link per set of query names: ?sort=name-asc shows the forms ?sort=name-desc shows.
        const queries = new Set<string>()
        for (const link of sameRouteLinks(first.html, path)) {
          const names = [...new URL(link, 'http://x').searchParams.keys()].sort().join()
          if (queries.has(names) || queries.size >= 6) continue
          queries.add(names)
          const next = await page(link, cookies[role])
          if (next.response.status === 200) keep(role, link, next.html)
        }
        // A form posting to a numbered step (?section=1): the next steps have forms of their own.
        for (const form of formsIn(first.html)) {
          const step = /^(.*[?&][\w-]+=)(\d{1,2})(&.*)?$/.exec(form.action ?? '')
          if (!step || new URL(form.action!, 'http://x').pathname !== path) continue
          for (let n = Number(step[2]) + 1; n <= Number(step[2]) + 4; n++) {
            const next = await page(`${step[1]}${n}${step[3] ?? ''}`, cookies[role])
            if (next.response.status === 200) keep(role, `${step[1]}${n}${step[3] ?? ''}`, next.html)
          }
        }
      }
    }
    // Pages no page links to. An e-mailed link sets a cookie; the form behind it posts with it.
    for (const link of entryLinks) {
      const first = await page(link, cookies[role])
      if (first.response.status === 200) keep(role, link, first.html)
      const target = first.response.headers.get('location')
      if (first.response.status !== 302 || !target) continue
      // The visitor's own session cookie is added when posting (it may be renewed by then).
      const linkCookie = cookiesFrom(first.response)
        .split('; ')
        .filter((pair) => pair && !pair.startsWith('__session='))
        .join('; ')
      const next = await page(target, [cookies[role], linkCookie].filter(Boolean).join('; ') || null)
      if (next.response.status === 200) keep(role, target, next.html, linkCookie)
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Junk.

const junkText = fc.oneof(
  fc.constantFrom(
    '\u0000',
    'Acme\u0000Ltd',
    '\u0001\u0002\u0008\u001b[31m\u007f',
    'a\u0085b\u009f',
    'line\r\nbreak',
    'tab\there',
    '',
    ' ',
    '-1',
    '0',
    '-99999999999999999999',
    '99999999999999999999',
    '1e309',
    '-0',
    'NaN',
    'Infinity',
    '2147483648',
    '9'.repeat(400),
    '__proto__',
    'constructor',
    '[]',
    '{}',
    '{"type":"update","payload":{}}',
    'null',
    '\ud800',
    // Issue 15, A5: each half of a pair alone, a pair cut short and one reversed (jsonb refuses
    // them all; an HTML form's encoding turns them into U+FFFD, a JSON body does not).
    '\udc00',
    'Lead\ud83d',
    '\ude00\ud83d',
    '\uffff',
    '\u202e',
    '<script>alert(1)</script>',
    "' OR 1=1 --",
    '../../etc/passwd',
    'x'.repeat(6000),
    'goto-0',
    'goto-99999',
    'autosave',
    'submit',
  ),
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.integer().map(String),
  fc.double().map(String),
  fc.bigInt().map(String),
)

const FILE_CONTENTS = [
  'random',
  String.raw`{"format":"panorama-questionnaire","version":1,"title":"Lead\ud800ership","sections":[]}`,
  String.raw`{"format":"panorama-questionnaire","version":1,"title":"T","intro":"a\u0000b","sections":[{"title":"S","questions":[{"kind":"single","text":"I x.","raterText":"{{name}} x.","competency":"C","choices":["a\udc00","b\u0000"]}]}]}`,
  String.raw`{"token":"\ud800"}`,
  'name,email,company\nNul\u0000Byte,nul@example.test,Acme Ltd\n',
] as const

const junkName = fc.oneof(
  fc.constantFrom(
    'intent',
    'a[0]',
    'a[]',
    'a.b',
    '__intent__',
    '__state__',
    '__proto__',
    '__proto__[x]',
    'constructor.prototype',
    'x[-1]',
    'x[99999999999]',
    '',
    '[',
  ),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.nat(80).map((n) => `a${'[0]'.repeat(n)}`),
  fc.nat(80).map((n) => `a${'.b'.repeat(n)}`),
)

const mutation = fc.oneof(
  {
    arbitrary: fc.record({ kind: fc.constant('set' as const), field: fc.nat(), value: junkText }),
    weight: 3,
  },
  {
    // A control character inside a value that is otherwise fine: it gets past the other checks.
    arbitrary: fc.record({
      kind: fc.constant('inject' as const),
      field: fc.nat(),
      at: fc.nat(),
      char: fc.constantFrom(
        '\u0000',
        '\u0001',
        '\u0008',
        '\u001b',
        '\u007f',
        '\u0085',
        '\t',
        '\n',
        '\r',
        '\u2028',
        '\ud800',
        '\udfff',
      ),
    }),
    weight: 4,
  },
  {
    arbitrary: fc.record({ kind: fc.constant('plausible' as const), field: fc.nat(), choice: fc.nat() }),
    weight: 3,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant('twice' as const),
      field: fc.nat(),
      value: fc.option(junkText),
    }),
    weight: 4,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant('shape' as const),
      field: fc.nat(),
      suffix: fc.constantFrom('[0]', '[]', '.x', '[0][1].y', '[-1]', '[99999999999]', '[0]'.repeat(40)),
    }),
    weight: 2,
  },
  { arbitrary: fc.record({ kind: fc.constant('drop' as const), field: fc.nat() }), weight: 1 },
  {
    // The address's query: the page's own parameters (?edit=, ?section=, ?employee=) or new ones.
    arbitrary: fc.record({
      kind: fc.constant('query' as const),
      name: fc.oneof(fc.nat(), junkName),
      value: junkText,
    }),
    weight: 1,
  },
  {
    // Cookies: the session's, the toast's and a link's pending cookie, replaced by junk.
    arbitrary: fc.record({
      kind: fc.constant('cookie' as const),
      name: fc.constantFrom('__session', '__toast', '__action', 'junk'),
      value: junkText,
    }),
    weight: 1,
  },
  { arbitrary: fc.record({ kind: fc.constant('add' as const), name: junkName, value: junkText }), weight: 2 },
  {
    // A file: random bytes, or text that gets past a format's first checks to its strings (JSON
    // escapes for NUL and lone surrogates, a questionnaire file's shape; a CSV line with a NUL).
    arbitrary: fc.record({
      kind: fc.constant('file' as const),
      field: fc.nat(),
      content: fc.constantFrom(...FILE_CONTENTS),
      name: fc.constantFrom('junk.png', 'q.json', 'people.csv', 'a\u0000b.json', 'Lead\ud800.csv'),
    }),
    weight: 1,
  },
)
type Mutation = typeof mutation extends fc.Arbitrary<infer T> ? T : never

const ENCODINGS = [
  'urlencoded',
  'urlencoded',
  'urlencoded',
  'multipart',
  'multipart',
  'invalid-utf8',
  'json',
  'json-junk',
  'text',
  'none',
  'wrong-type',
  'broken-multipart',
] as const
type Encoding = (typeof ENCODINGS)[number]

const junkCase = fc.record({
  // Three cases in four post one of the pages' own forms, as the visitor who saw it, with a few
  // fields turned to junk: that is how junk gets past the guards to the parsing and the queries.
  // The rest post anywhere, as anyone, with route parameters real or junk.
  pageForm: fc.constantFrom(true, true, true, false),
  role: fc.constantFrom(...ROLES),
  route: fc.nat(),
  params: fc.array(
    fc.record({ kind: fc.constantFrom('good', 'good', 'good', 'any', 'junk'), pick: fc.nat() }),
    {
      minLength: 2,
      maxLength: 2,
    },
  ),
  template: fc.nat(),
  submitter: fc.nat(),
  fill: fc.array(fc.nat(), { maxLength: 10 }),
  mutations: fc.array(mutation, { minLength: 1, maxLength: 3 }),
  encoding: fc.constantFrom(...ENCODINGS),
  formEncoding: fc.constantFrom(
    ...(['urlencoded', 'urlencoded', 'urlencoded', 'multipart', 'multipart', 'invalid-utf8'] as const),
    ...ENCODINGS,
  ),
  json: fc.oneof(
    fc.jsonValue({ maxDepth: 4 }),
    junkText.map((token) => ({ token })),
    fc.constantFrom({ token: ['a'] }, { token: { a: 1 } }, { token: 'x'.repeat(5000) }, { token: '' }),
  ),
  method: fc.constantFrom(...Array<string>(12).fill('POST'), 'PUT', 'PATCH', 'DELETE'),
  // React Router refuses a cross-origin action before it runs: now and then, not every time.
  origin: fc.constantFrom(...Array<null>(18).fill(null), 'https://evil.example', 'null'),
})
type JunkCase = typeof junkCase extends fc.Arbitrary<infer T> ? T : never

// ---------------------------------------------------------------------------------------------
// Building a request from a case.

type Built = {
  method: string
  path: string
  role: Role
  headers: Record<string, string>
  body?: BodyInit
  describe: string
}

function build(c: JunkCase): Built {
  let template: Found | undefined
  let role = c.role
  let path: string
  if (c.pageForm && found.length) {
    template = found[c.template % found.length]!
    role = template.role
    path = template.target
  } else {
    // Mostly a route this visitor may open (past its guard), sometimes any.
    const open = ROUTES.filter((r) => accessible.has(`${role} ${r}`))
    const pool = open.length && c.route % 3 !== 0 ? open : ROUTES
    const route = pool[c.route % pool.length]!
    let paramIndex = 0
    path = concrete(route, (name) => {
      const choice = c.params[paramIndex++ % c.params.length]!
      const good = goodParams[name]?.() ?? Object.values(ids)
      if (choice.kind === 'good') return good[choice.pick % good.length]!
      if (choice.kind === 'any') return Object.values(ids)[choice.pick % Object.values(ids).length]!
      return JUNK_PARAMS[choice.pick % JUNK_PARAMS.length]!
    })
    // Fields from some page's form (junk here), or none.
    if (found.length && c.template % 4 !== 3) template = found[c.template % found.length]
  }

  const fields: Array<[string, string | File]> = template ? template.fields.map(([k, v]) => [k, v]) : []
  if (template?.submitters.length) fields.push(template.submitters[c.submitter % template.submitters.length]!)
  const plausibleList = [...plausible]
  const choicesFor = (name: string) => [
    ...(template && Object.hasOwn(template.choices, name) ? template.choices[name]! : []),
    ...plausibleList,
  ]
  c.fill.forEach((pick, i) => {
    const entry = fields[i]
    if (entry && entry[1] === '') entry[1] = choicesFor(entry[0])[pick % choicesFor(entry[0]).length]!
  })
  for (const m of c.mutations as Mutation[]) {
    const at = 'field' in m && fields.length ? m.field % fields.length : -1
    switch (m.kind) {
      case 'set':
        if (at >= 0) fields[at]![1] = m.value
        break
      case 'inject': {
        const value = at >= 0 ? fields[at]![1] : undefined
        if (typeof value === 'string') {
          const i = m.at % (value.length + 1)
          fields[at]![1] = value.slice(0, i) + m.char + value.slice(i)
        }
        break
      }
      case 'plausible':
        if (at >= 0)
          fields[at]![1] = choicesFor(fields[at]![0])[m.choice % choicesFor(fields[at]![0]).length]!
        break
      case 'twice':
        if (at >= 0) fields.push([fields[at]![0], m.value ?? fields[at]![1]])
        break
      case 'shape':
        if (at >= 0) fields[at]![0] += m.suffix
        break
      case 'drop':
        if (at >= 0) fields.splice(at, 1)
        break
      case 'add':
        fields.push([m.name, m.value])
        break
      case 'file': {
        const file = () =>
          new File([m.content === 'random' ? crypto.randomBytes(64) : m.content], m.name, {
            type: m.name.endsWith('.png') ? 'image/png' : 'application/octet-stream',
          })
        if (at >= 0) fields[at]![1] = file()
        else if (template?.files[0]) fields.push([template.files[0], file()])
        break
      }
    }
  }
  for (const name of template?.files ?? [])
    if (!fields.some(([k]) => k === name)) fields.push([name, new File([], '')])

  const url = new URL(path, 'http://x')
  const cookieJunk: string[] = []
  for (const m of c.mutations as Mutation[]) {
    if (m.kind === 'query') {
      const own = [...url.searchParams.keys()]
      const name = typeof m.name === 'number' ? (own.length ? own[m.name % own.length]! : 'q') : m.name
      url.searchParams.set(name, m.value)
    }
    // (Through UTF-8 first: a lone surrogate cannot be percent-encoded.)
    if (m.kind === 'cookie')
      cookieJunk.push(`${m.name}=${encodeURIComponent(Buffer.from(m.value).toString())}`)
  }
  path = url.pathname + url.search

  const headers: Record<string, string> = {}
  // The visitor's session, and for a form behind an e-mail link the cookie the link set.
  // Junk first: a server reading the first cookie of a name reads the junk one.
  const cookie = [...cookieJunk, cookies[role], c.pageForm ? template?.linkCookie : '']
    .filter(Boolean)
    .join('; ')
  if (cookie) headers.Cookie = cookie
  if (c.origin) headers.Origin = c.origin

  const chosen = c.pageForm ? c.formEncoding : c.encoding
  const encoding: Encoding =
    fields.some(([, v]) => typeof v !== 'string') && chosen === 'urlencoded' ? 'multipart' : chosen
  const asText = fields.map(([k, v]) => [k, typeof v === 'string' ? v : 'file'] as [string, string])
  let body: BodyInit | undefined
  switch (encoding) {
    case 'urlencoded':
      headers['Content-Type'] = 'application/x-www-form-urlencoded'
      body = new URLSearchParams(asText).toString()
      break
    case 'multipart': {
      const data = new FormData()
      for (const [k, v] of fields) data.append(k, v)
      body = data
      break
    }
    case 'invalid-utf8': {
      headers['Content-Type'] = 'application/x-www-form-urlencoded'
      const encoded = new URLSearchParams(asText).toString()
      const raw = Buffer.concat([
        Buffer.from(encoded),
        Buffer.from('&x=%FF%FE%C0%80&'),
        Buffer.from([0xff, 0xfe, 0xc3, 0x28, 0x3d, 0x80]),
      ])
      body = raw
      break
    }
    case 'json':
      headers['Content-Type'] = 'application/json'
      body = JSON.stringify(Object.fromEntries(asText))
      break
    case 'json-junk':
      headers['Content-Type'] = 'application/json'
      body = JSON.stringify(c.json)
      break
    case 'text':
      headers['Content-Type'] = 'text/plain;charset=UTF-8'
      body = asText.map(([k, v]) => `${k}=${v}`).join('\r\n')
      break
    case 'none':
      break
    case 'wrong-type':
      headers['Content-Type'] = 'application/x-www-form-urlencoded'
      body = JSON.stringify(c.json)
      break
    case 'broken-multipart':
      headers['Content-Type'] = 'multipart/form-data; boundary=----junk'
      body = `------junk\r\nContent-Disposition: form-data; name="intent"\r\n\r\nsave\r\n------ju`
      break
  }
  const describe = `${c.method} ${path} as ${role} (${encoding}${c.origin ? `, Origin ${c.origin}` : ''}) ${JSON.stringify(
    encoding === 'json-junk' || encoding === 'wrong-type' ? c.json : asText,
  ).slice(0, 600)}`
  return { method: c.method, path, role, headers, body, describe }
}

// ---------------------------------------------------------------------------------------------
// Cut-off uploads (issue 15, A1): a multipart body that stops short, as a browser's cancelled
// upload or a dropped connection leaves it, posted to the pages' forms — those with a file input
// above all (the CSV import, a brand's logo, a questionnaire's JSON, profile photos). The file is a
// CSV long enough that the import has staged rows when the body stops. Nothing may be kept, and
// the server must answer (the process ended on the CSV import's cut-off file before). It runs
// before the junk below, on the world as seeded (the junk may end sessions, delete a brand).

/** 3,000 employees (~110 kB): the CSV import stages them in batches while the body arrives. */
const UPLOAD = Buffer.from(
  `name,email,company\n${Array.from({ length: 3_000 }, (_, i) => `Person ${i},cut${i}@example.test,Acme Ltd\n`).join('')}`,
)

/** The form as a browser posts it (its file inputs carry UPLOAD), and where its closing boundary starts. */
function multipartOf(form: Found, submitter: number) {
  const boundary = `----cut${crypto.randomBytes(8).toString('hex')}`
  const fields: Array<[string, string | Buffer]> = form.fields.map(([k, v]) => [k, v])
  if (form.submitters.length) fields.push(form.submitters[submitter % form.submitters.length]!)
  for (const name of form.files) fields.push([name, UPLOAD])
  const parts = fields.map(([name, value]) =>
    typeof value === 'string'
      ? Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
      : Buffer.concat([
          Buffer.from(
            `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="people.csv"\r\nContent-Type: text/csv\r\n\r\n`,
          ),
          value,
          Buffer.from('\r\n'),
        ]),
  )
  const open = Buffer.concat(parts)
  return {
    body: Buffer.concat([open, Buffer.from(`--${boundary}--\r\n`)]),
    // Cutting anywhere up to here leaves a body that cannot be complete.
    closingAt: open.length,
    type: `multipart/form-data; boundary=${boundary}`,
  }
}

test(`a multipart body cut off anywhere, posted to the forms (with a file above all), answers below 500 and keeps nothing (seed ${SEED})`, async () => {
  const fileForms = found.filter((f) => f.files.length)
  // The upload forms the issue names are among them; the world has them all.
  expect(fileForms.map((f) => `${f.role} ${new URL(f.target, 'http://x').pathname}`)).toEqual(
    expect.arrayContaining([
      'admin /admin/employee-management',
      `admin /admin/brand-management/${ids.brand}`,
      'admin /admin/questionnaire-management',
      'employee /user/edit-profile',
    ]),
  )
  const counts = { refused: 0, other: 0 }
  let stored = await fingerprint()
  await fc.assert(
    fc.asyncProperty(
      fc.record({
        withFile: fc.constantFrom(true, true, true, false),
        form: fc.nat(),
        submitter: fc.nat(),
        // Just before the closing boundary (the whole form but its end), or anywhere before it.
        cut: fc.oneof(fc.constant(1), fc.double({ min: 0, max: 1, noNaN: true })),
      }),
      async ({ withFile, form: pick, submitter, cut }) => {
        const pool = withFile ? fileForms : found
        const form = pool[pick % pool.length]!
        const { body, closingAt, type } = multipartOf(form, submitter)
        const length = Math.max(1, Math.round(closingAt * cut))
        const describe = `POST ${form.target} as ${form.role}: ${length} of ${body.length} bytes (closing boundary at ${closingAt})`
        const cookie = [cookies[form.role], form.linkCookie].filter(Boolean).join('; ')
        let response: Response
        try {
          response = await fetch(server.url + form.target, {
            method: 'POST',
            headers: { 'Content-Type': type, ...(cookie ? { Cookie: cookie } : {}) },
            body: body.subarray(0, length),
            redirect: 'manual',
            signal: AbortSignal.timeout(20_000),
          })
          await response.arrayBuffer()
        } catch (error) {
          throw new Error(`${describe}\n→ the request failed: ${String(error)}`, { cause: error })
        }
        if (VERBOSE) console.log(`${response.status} ${describe}`)
        expect(response.status, describe).toBeLessThan(500)
        // A form with a file always reads its body, and this visitor gets past its guard: a body
        // that cannot be complete is refused. (Other forms' routes may not read it: sign-out.)
        if (form.files.length)
          expect(response.status, `${describe} → ${response.headers.get('location')}`).toBe(400)
        if (response.status >= 400) counts.refused++
        else counts.other++
        const after = await fingerprint()
        if (response.status >= 400)
          expect(changedTables(stored, after), `${describe}\n→ ${response.status} wrote rows`).toEqual([])
        stored = after
        // Signed out, or signed in as someone else (an entry link's button needs no body, ADR 007):
        // the visitor's own session is gone either way, so the next case starts with a new one.
        const sessionChanged = response.headers.getSetCookie().some((h) => /^__session=/i.test(h))
        if (form.role !== 'anonymous' && sessionChanged) {
          cookies[form.role] = await sessionCookieFor(userIds[form.role])
          stored = await fingerprint()
        }
      },
    ),
    { numRuns: Math.max(40, Math.round(RUNS / 5)), seed: SEED, endOnFailure: true },
  )
  console.log(`fuzz, cut-off multipart: ${JSON.stringify(counts)}`)
}, 600_000)

// ---------------------------------------------------------------------------------------------

const statuses = new Map<number, number>()
let before: Fingerprint | undefined

afterAll(() => {
  console.log(
    `fuzz: ${RUNS} runs, seed ${SEED}; statuses ${JSON.stringify(Object.fromEntries([...statuses].sort()))}`,
  )
})

test(`no junk posted to any route, as any visitor, answers 5xx or writes on a 4xx (seed ${SEED})`, async () => {
  console.log(
    `fuzz: ${ROUTES.length} routes, ${found.length} forms; seed ${SEED} (FUZZ_SEED), ${RUNS} runs (FUZZ_RUNS)`,
  )
  await fc.assert(
    fc.asyncProperty(junkCase, async (c) => {
      const request = build(c)
      before ??= await fingerprint()
      let response: Response
      let text: string
      try {
        response = await fetch(server.url + request.path, {
          method: request.method,
          headers: request.headers,
          body: request.body,
          redirect: 'manual',
        })
        text = await response.text()
      } catch (error) {
        throw new Error(`${request.describe}\n→ the request failed: ${String(error)}`, { cause: error })
      }
      const status = response.status
      statuses.set(status, (statuses.get(status) ?? 0) + 1)
      if (VERBOSE) console.log(`${status} ${request.describe.slice(0, 300)}`)
      expect(status, `${request.describe}\n→ ${status} ${text.slice(0, 300)}`).toBeLessThan(500)
      const after = await fingerprint()
      if (status >= 400) {
        expect(changedTables(before, after), `${request.describe}\n→ ${status} wrote rows`).toEqual([])
      }
      before = after
      // A visitor signed out by this request (sign-out, an empty session token) signs in again.
      const signedOut = response.headers
        .getSetCookie()
        .some((h) => /^__session=(;|[^;]*;.*max-age=0)/i.test(h))
      if (request.role !== 'anonymous' && signedOut) {
        cookies[request.role] = await sessionCookieFor(userIds[request.role])
        before = await fingerprint()
      }
    }),
    // No shrinking: each case writes rows, so a shrunk case would run against another database.
    {
      numRuns: RUNS,
      seed: SEED,
      endOnFailure: true,
      ...(process.env.FUZZ_PATH ? { path: process.env.FUZZ_PATH } : {}),
    },
  )
}, 600_000)
