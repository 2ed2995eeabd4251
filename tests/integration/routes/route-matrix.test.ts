import { beforeAll, describe, expect, test } from 'vitest'
import { employeeImports, responses } from '#db/schema/index'
import { createBrand, createRaterAssignment, createScheme, createUser, enrolEmployee } from '#db/factories'
import { useTestDatabase } from '#tests/support/database'
import { location, send, sessionCookieFor, useTestServer } from '#tests/support/app'
import { enqueueEmail } from '#app/modules/email/outbox.server'
import { createIdentityProvider } from '#app/modules/sso/provider.server'

/**
 * The whole route × visitor matrix of the spec (portal-spec §2, DESIGN.md §2): every path, for an
 * anonymous visitor, a colleague, an employee and an admin, by GET and by POST — the status and,
 * for redirects, where to.
 */
const db = useTestDatabase()
const server = useTestServer()

type Visitor = 'anonymous' | 'colleague' | 'employee' | 'admin'
const VISITORS: Visitor[] = ['anonymous', 'colleague', 'employee', 'admin']
const cookies: Record<Visitor, string | null> = {
  anonymous: null,
  colleague: null,
  employee: null,
  admin: null,
}
const ids = {
  selfAssignment: '',
  otherSelfAssignment: '',
  raterAssignment: '',
  questionnaire: '',
  rid: '',
  otherRid: '',
  brand: '',
  outbox: '',
  employee: '',
  colleague: '',
  import: '',
  scheme: '',
  company: '',
  admin: '',
  other: '',
  provider: '',
}

beforeAll(async () => {
  const admin = await createUser({ role: 'admin' })
  const employee = await createUser({ role: 'employee' })
  const other = await createUser({ role: 'employee' })
  const colleague = await createUser({ role: 'colleague' })
  const scheme = await createScheme()
  const self = await enrolEmployee(scheme, employee.id)
  const otherSelf = await enrolEmployee(scheme, other.id)
  const rater = await createRaterAssignment({ scheme, subjectId: employee.id, respondentId: colleague.id })
  const [rid] = await db().insert(responses).values({ assignmentId: self!.id }).returning()
  const [otherRid] = await db().insert(responses).values({ assignmentId: otherSelf!.id }).returning()
  const brand = await createBrand()
  const { id: outbox } = await enqueueEmail(db(), {
    to: 'matrix@example.com',
    template: 'response_ready',
    values: { link: 'https://x.test/' },
  })
  const [staged] = await db()
    .insert(employeeImports)
    .values({ createdBy: admin.id, fileName: 'x.csv' })
    .returning()
  Object.assign(ids, {
    admin: admin.id,
    other: other.id,
    employee: employee.id,
    colleague: colleague.id,
    import: staged!.id,
    selfAssignment: self!.id,
    otherSelfAssignment: otherSelf!.id,
    raterAssignment: rater.id,
    questionnaire: scheme.questionnaireId,
    rid: rid!.id,
    otherRid: otherRid!.id,
    brand: brand.id,
    outbox,
    scheme: scheme.id,
    company: scheme.companyId,
  })
  // An identity provider (issue 20 §1): its page, and the sign-in page asking for the address first.
  const provider = await createIdentityProvider(
    { id: admin.id },
    {
      name: 'Matrix SSO',
      issuer: 'https://login.matrix.example/v2.0',
      clientId: 'matrix',
      clientSecret: 'matrix-secret',
      scopes: ['openid', 'email'],
      domains: ['matrix.example'],
      companyIds: [],
      allowPassword: true,
      jitCompanyId: null,
    },
  )
  if (!provider.ok) throw new Error('the matrix provider was refused')
  ids.provider = provider.value.id
  cookies.admin = await sessionCookieFor(admin.id)
  cookies.employee = await sessionCookieFor(employee.id)
  cookies.colleague = await sessionCookieFor(colleague.id)
})

const signIn = (path: string) => `/sign-in?${new URLSearchParams({ redirectTo: path })}`
const home = (v: Visitor) =>
  v === 'admin'
    ? '/admin'
    : v === 'employee'
      ? '/user'
      : v === 'colleague'
        ? `/assignment/${ids.raterAssignment}`
        : ''

/** Expected outcome: a status, or a redirect target. `page` = the permitted visitor's answer. */
type Outcome = number | { to: string; status?: number }

function guarded(path: string, roles: Visitor[], page: number): Record<Visitor, Outcome> {
  return Object.fromEntries(
    VISITORS.map((v) => [
      v,
      v === 'anonymous' ? { to: signIn(path) } : roles.includes(v) ? page : { to: home(v) },
    ]),
  ) as Record<Visitor, Outcome>
}
function loggedOut(page: Outcome): Record<Visitor, Outcome> {
  return {
    anonymous: page,
    colleague: { to: home('colleague') },
    employee: { to: '/user' },
    admin: { to: '/admin' },
  }
}
const all = (o: Outcome): Record<Visitor, Outcome> => ({ anonymous: o, colleague: o, employee: o, admin: o })

type Row = { path: () => string; get: Record<Visitor, Outcome>; post: Record<Visitor, Outcome> }
const ADMIN_PAGES = [
  '/admin',
  '/admin/answer-management',
  '/admin/answer-management/reopen-requests',
  '/admin/company-management',
  '/admin/brand-management',
  '/admin/email-management',
  '/admin/email-management?tab=outbox&state=failed',
  '/admin/email-management/colleague_invite',
  '/admin/admin-management',
  '/admin/identity-provider-management',
  '/admin/api-keys',
  '/admin/api-keys/reference',
  '/admin/webhooks',
  '/admin/employee-management',
  '/admin/scheme-management',
  '/admin/questionnaire-management',
  '/admin/profile',
]
// Admin management pages with forms answer a bare POST with 400 (no intent); the rest are not built.
const ADMIN_POST: Record<string, number> = {
  '/admin/answer-management': 400,
  '/admin/answer-management/reopen-requests': 400,
  '/admin/company-management': 400,
  '/admin/employee-management': 400,
  '/admin/admin-management': 400,
  '/admin/identity-provider-management': 400,
  '/admin/api-keys': 400,
  '/admin/webhooks': 400,
  '/admin/brand-management': 400,
  '/admin/email-management/colleague_invite': 400,
  '/admin/scheme-management': 400,
  '/admin/questionnaire-management': 400,
  '/admin/profile': 400,
}

const ROWS = (): Row[] => [
  // A plain POST to "/" reaches the root route, which has no action; the index's own action is "/?index".
  { path: () => '/', get: loggedOut(200), post: all(405) },
  { path: () => '/?index', get: loggedOut(200), post: loggedOut(405) },
  { path: () => '/sign-in', get: loggedOut(200), post: loggedOut(400) },
  { path: () => '/forgot-password', get: loggedOut(200), post: loggedOut(400) },
  // Single sign-on (issue 20 §1, ADR 049): the start and the callback are GETs for signed-out
  // visitors. Without an address the start goes back to the sign-in page; a callback without a state
  // is a clear page (400). Neither has an action.
  { path: () => '/sign-in/sso', get: loggedOut({ to: '/sign-in' }), post: all(405) },
  { path: () => '/sign-in/sso/callback', get: loggedOut(400), post: all(405) },
  // The sign-in's second step (ADR 048): logged-out, and only with the challenge a good password
  // leaves (tests/integration/auth/second-factor.test.ts); without one, back to the password.
  {
    path: () => '/sign-in/second-factor',
    get: { ...loggedOut(200), anonymous: { to: '/sign-in' } },
    post: { ...loggedOut(200), anonymous: { to: '/sign-in' } },
  },
  { path: () => '/verification', get: all(400), post: all(400) },
  {
    path: () => '/login',
    get: all({ to: '/sign-in', status: 301 }),
    post: all({ to: '/sign-in', status: 301 }),
  },
  {
    path: () => '/user',
    get: guarded('/user', ['employee'], 200),
    post: guarded('/user', ['employee'], 405),
  },
  {
    path: () => '/user/edit-profile',
    get: guarded('/user/edit-profile', ['employee'], 200),
    post: guarded('/user/edit-profile', ['employee'], 400),
  },
  // The employee's own data as a ZIP (issue 21 §4, ADR 055): employees only, GET only.
  {
    path: () => '/user/edit-profile/my-data.zip',
    get: guarded('/user/edit-profile/my-data.zip', ['employee'], 200),
    post: all(405),
  },
  {
    path: () => '/user/thank-you',
    get: guarded('/user/thank-you', ['employee', 'colleague'], 200),
    // "I need to change my answers" (ADR 039): a bare POST names no intent.
    post: guarded('/user/thank-you', ['employee', 'colleague'], 400),
  },
  {
    path: () => '/user/colleague-invite',
    get: guarded('/user/colleague-invite', ['employee', 'admin'], 200),
    post: guarded('/user/colleague-invite', ['employee', 'admin'], 400),
  },
  // The colleague directory's type-ahead (issue 18 §3), a resource route answering JSON, GET only:
  // an employee's own list; an admin has none of their own (404) but may search an employee's;
  // another employee's list is not an employee's to search (404, as for any unknown id).
  {
    path: () => '/user/colleague-invite/directory?q=emp',
    get: { ...guarded('/user/colleague-invite/directory?q=emp', ['employee', 'admin'], 200), admin: 404 },
    post: all(405),
  },
  {
    path: () => `/user/colleague-invite/directory?employee=${ids.employee}&q=emp`,
    get: guarded(
      `/user/colleague-invite/directory?employee=${ids.employee}&q=emp`,
      ['employee', 'admin'],
      200,
    ),
    post: all(405),
  },
  {
    path: () => `/user/colleague-invite/directory?employee=${ids.other}&q=emp`,
    get: {
      ...guarded(`/user/colleague-invite/directory?employee=${ids.other}&q=emp`, ['employee', 'admin'], 200),
      employee: 404,
    },
    post: all(405),
  },
  {
    path: () => `/user/response-${ids.rid}`,
    get: { ...guarded(`/user/response-${ids.rid}`, ['employee', 'admin'], 200) },
    post: { ...guarded(`/user/response-${ids.rid}`, ['employee', 'admin'], 405) },
  },
  // Another employee's report: the employee gets a 404, never a hint that it exists.
  {
    path: () => `/user/response-${ids.otherRid}`,
    get: { ...guarded(`/user/response-${ids.otherRid}`, ['employee', 'admin'], 200), employee: 404 },
    post: { ...guarded(`/user/response-${ids.otherRid}`, ['employee', 'admin'], 405), employee: 404 },
  },
  {
    path: () => '/user/response-not-a-uuid',
    get: { ...guarded('/user/response-not-a-uuid', ['employee', 'admin'], 404) },
    post: { ...guarded('/user/response-not-a-uuid', ['employee', 'admin'], 404) },
  },
  // The report as a PDF (issue 19 §7, ADR 046): these reports are not released, so the employee and
  // admins are refused in words (409) before any browser runs; another employee's is a 404; GET only.
  {
    path: () => `/user/response-${ids.rid}/report.pdf`,
    get: guarded(`/user/response-${ids.rid}/report.pdf`, ['employee', 'admin'], 409),
    post: all(405),
  },
  {
    path: () => `/user/response-${ids.otherRid}/report.pdf`,
    get: {
      ...guarded(`/user/response-${ids.otherRid}/report.pdf`, ['employee', 'admin'], 409),
      employee: 404,
    },
    post: all(405),
  },
  {
    path: () => '/user/response-not-a-uuid/report.pdf',
    get: guarded('/user/response-not-a-uuid/report.pdf', ['employee', 'admin'], 404),
    post: all(405),
  },
  { path: () => `/user/answers-${ids.rid}/report.pdf`, get: all(404), post: all(405) },
  { path: () => '/user/responses', get: all(404), post: all(404) },
  // The development plan (ADR 043): the employee's own report's (not released here: the page says
  // why); another employee's is a 404. A bare POST names no intent (400) whoever's it is: each
  // intent checks ownership in its own statement, so the answer never tells one report from another.
  {
    path: () => `/user/development-plan/${ids.rid}`,
    get: guarded(`/user/development-plan/${ids.rid}`, ['employee'], 200),
    post: guarded(`/user/development-plan/${ids.rid}`, ['employee'], 400),
  },
  {
    path: () => `/user/development-plan/${ids.otherRid}`,
    get: guarded(`/user/development-plan/${ids.otherRid}`, ['employee'], 404),
    post: guarded(`/user/development-plan/${ids.otherRid}`, ['employee'], 400),
  },
  {
    path: () => '/user/development-plan/not-a-uuid',
    get: guarded('/user/development-plan/not-a-uuid', ['employee'], 404),
    post: guarded('/user/development-plan/not-a-uuid', ['employee'], 400),
  },
  // A report shared with a manager: this employee manages nobody, so nothing is shared with them
  // (404, the same as no report); an admin reads reports at /user/response-:rid instead.
  {
    path: () => `/user/shared/${ids.otherRid}`,
    get: guarded(`/user/shared/${ids.otherRid}`, ['employee'], 404),
    post: guarded(`/user/shared/${ids.otherRid}`, ['employee'], 404),
  },
  {
    path: () => `/assignment/${ids.selfAssignment}`,
    get: {
      ...guarded(`/assignment/${ids.selfAssignment}`, ['admin', 'employee', 'colleague'], 200),
      colleague: 404,
    },
    // An empty answer form is refused (400) for the respondent; admins may look but never answer (403).
    post: {
      ...guarded(`/assignment/${ids.selfAssignment}`, ['admin', 'employee', 'colleague'], 400),
      admin: 403,
      colleague: 404,
    },
  },
  {
    path: () => `/assignment/${ids.raterAssignment}`,
    get: {
      ...guarded(`/assignment/${ids.raterAssignment}`, ['admin', 'employee', 'colleague'], 200),
      employee: 404,
    },
    post: {
      ...guarded(`/assignment/${ids.raterAssignment}`, ['admin', 'employee', 'colleague'], 400),
      admin: 403,
      employee: 404,
    },
  },
  {
    path: () => `/assignment/${ids.otherSelfAssignment}`,
    get: {
      ...guarded(`/assignment/${ids.otherSelfAssignment}`, ['admin', 'employee', 'colleague'], 200),
      employee: 404,
      colleague: 404,
    },
    post: {
      ...guarded(`/assignment/${ids.otherSelfAssignment}`, ['admin', 'employee', 'colleague'], 403),
      employee: 404,
      colleague: 404,
    },
  },
  {
    path: () => `/questionnaire/${ids.questionnaire}`,
    get: guarded(`/questionnaire/${ids.questionnaire}`, ['admin', 'employee', 'colleague'], 200),
    post: guarded(`/questionnaire/${ids.questionnaire}`, ['admin', 'employee', 'colleague'], 405),
  },
  {
    path: () => '/questionnaire/00000000-0000-4000-8000-000000000000',
    get: guarded(
      '/questionnaire/00000000-0000-4000-8000-000000000000',
      ['admin', 'employee', 'colleague'],
      404,
    ),
    post: guarded(
      '/questionnaire/00000000-0000-4000-8000-000000000000',
      ['admin', 'employee', 'colleague'],
      404,
    ),
  },
  ...ADMIN_PAGES.map((p) => ({
    path: () => p,
    get: guarded(p, ['admin'], 200),
    post: guarded(p, ['admin'], ADMIN_POST[p] ?? 405),
  })),
  {
    path: () => `/admin/employee-management/${ids.employee}`,
    get: guarded(`/admin/employee-management/${ids.employee}`, ['admin'], 200),
    post: guarded(`/admin/employee-management/${ids.employee}`, ['admin'], 400),
  },
  // Not an employee (unknown, malformed, a colleague's account): the 404 page.
  ...['00000000-0000-4000-8000-000000000000', 'some-uid', () => ids.colleague].map((uid) => ({
    path: () => `/admin/employee-management/${typeof uid === 'function' ? uid() : uid}`,
    get: guarded(`/admin/employee-management/${typeof uid === 'function' ? uid() : uid}`, ['admin'], 404),
    post: guarded(`/admin/employee-management/${typeof uid === 'function' ? uid() : uid}`, ['admin'], 404),
  })),
  {
    path: () => '/admin/employee-management/template.csv',
    get: guarded('/admin/employee-management/template.csv', ['admin'], 200),
    // A download has no action: React Router answers 405 before any loader runs.
    post: all(405),
  },
  {
    path: () => `/admin/employee-management/imports/${ids.import}/problems.csv`,
    get: guarded(`/admin/employee-management/imports/${ids.import}/problems.csv`, ['admin'], 200),
    post: all(405),
  },
  {
    path: () => `/admin/brand-management/${ids.brand}`,
    get: guarded(`/admin/brand-management/${ids.brand}`, ['admin'], 200),
    post: guarded(`/admin/brand-management/${ids.brand}`, ['admin'], 400),
  },
  // A brand's wording of an e-mail (`<key>.<brandId>`), an unknown brand's and an unknown key: 404.
  {
    path: () => `/admin/email-management/reminder.${ids.brand}`,
    get: guarded(`/admin/email-management/reminder.${ids.brand}`, ['admin'], 200),
    post: guarded(`/admin/email-management/reminder.${ids.brand}`, ['admin'], 400),
  },
  {
    path: () => '/admin/email-management/reminder.00000000-0000-4000-8000-000000000000',
    get: guarded('/admin/email-management/reminder.00000000-0000-4000-8000-000000000000', ['admin'], 404),
    post: guarded('/admin/email-management/reminder.00000000-0000-4000-8000-000000000000', ['admin'], 400),
  },
  {
    path: () => '/admin/email-management/some-id',
    get: guarded('/admin/email-management/some-id', ['admin'], 404),
    post: guarded('/admin/email-management/some-id', ['admin'], 404),
  },
  // One outbox message; a bare POST has no intent (400); unknown and malformed ids are a 404.
  {
    path: () => `/admin/email-management/outbox/${ids.outbox}`,
    get: guarded(`/admin/email-management/outbox/${ids.outbox}`, ['admin'], 200),
    post: guarded(`/admin/email-management/outbox/${ids.outbox}`, ['admin'], 400),
  },
  {
    path: () => '/admin/email-management/outbox/not-a-uuid',
    get: guarded('/admin/email-management/outbox/not-a-uuid', ['admin'], 404),
    post: guarded('/admin/email-management/outbox/not-a-uuid', ['admin'], 400),
  },
  // A webhook endpoint's page (ADR 057): unknown and malformed ids are the not-found page.
  {
    path: () => '/admin/webhooks/00000000-0000-4000-8000-000000000000',
    get: guarded('/admin/webhooks/00000000-0000-4000-8000-000000000000', ['admin'], 404),
    post: guarded('/admin/webhooks/00000000-0000-4000-8000-000000000000', ['admin'], 404),
  },
  {
    path: () => '/admin/webhooks/not-a-uuid',
    get: guarded('/admin/webhooks/not-a-uuid', ['admin'], 404),
    post: guarded('/admin/webhooks/not-a-uuid', ['admin'], 404),
  },
  {
    path: () => '/admin/brand-management/00000000-0000-4000-8000-000000000000',
    get: guarded('/admin/brand-management/00000000-0000-4000-8000-000000000000', ['admin'], 404),
    post: guarded('/admin/brand-management/00000000-0000-4000-8000-000000000000', ['admin'], 404),
  },
  // An identity provider's page: a real id answers (a bare POST names no intent: 400); unknown and
  // malformed ids are the not-found page.
  {
    path: () => `/admin/identity-provider-management/${ids.provider}`,
    get: guarded(`/admin/identity-provider-management/${ids.provider}`, ['admin'], 200),
    post: guarded(`/admin/identity-provider-management/${ids.provider}`, ['admin'], 400),
  },
  ...['00000000-0000-4000-8000-000000000000', 'some-id'].map((id) => ({
    path: () => `/admin/identity-provider-management/${id}`,
    get: guarded(`/admin/identity-provider-management/${id}`, ['admin'], 404),
    post: guarded(`/admin/identity-provider-management/${id}`, ['admin'], 404),
  })),
  // An administrator's page: real ids answer (a bare POST names no admin: 400); unknown, malformed
  // and non-admin ids are the not-found page.
  {
    path: () => `/admin/admin-management/${ids.admin}`,
    get: guarded(`/admin/admin-management/${ids.admin}`, ['admin'], 200),
    post: guarded(`/admin/admin-management/${ids.admin}`, ['admin'], 400),
  },
  ...['00000000-0000-4000-8000-000000000000', 'some-uid', () => ids.employee].map((uid) => ({
    path: () => `/admin/admin-management/${typeof uid === 'function' ? uid() : uid}`,
    get: guarded(`/admin/admin-management/${typeof uid === 'function' ? uid() : uid}`, ['admin'], 404),
    post: guarded(`/admin/admin-management/${typeof uid === 'function' ? uid() : uid}`, ['admin'], 404),
  })),
  // A scheme's page: real ids answer, unknown and malformed ones are the not-found page.
  {
    path: () => `/admin/scheme-management/${ids.scheme}`,
    get: guarded(`/admin/scheme-management/${ids.scheme}`, ['admin'], 200),
    post: guarded(`/admin/scheme-management/${ids.scheme}`, ['admin'], 400),
  },
  // The report release confirmations (ADR 022): the same guards; a bare POST names no intent.
  {
    path: () => `/admin/scheme-management/${ids.scheme}?release=${ids.employee}`,
    get: guarded(`/admin/scheme-management/${ids.scheme}?release=${ids.employee}`, ['admin'], 200),
    post: guarded(`/admin/scheme-management/${ids.scheme}?release=${ids.employee}`, ['admin'], 400),
  },
  {
    path: () => `/admin/scheme-management/${ids.scheme}?confirm=release-all`,
    get: guarded(`/admin/scheme-management/${ids.scheme}?confirm=release-all`, ['admin'], 200),
    post: guarded(`/admin/scheme-management/${ids.scheme}?confirm=release-all`, ['admin'], 400),
  },
  // Every released report of a scheme as one ZIP (issue 19 §7): none is released here, so the admin
  // is refused in words (409); unknown and malformed schemes are a 404; GET only.
  {
    path: () => `/admin/scheme-management/${ids.scheme}/reports.zip`,
    get: guarded(`/admin/scheme-management/${ids.scheme}/reports.zip`, ['admin'], 409),
    post: all(405),
  },
  ...['some-scheme', '00000000-0000-4000-8000-000000000000'].map((id) => ({
    path: () => `/admin/scheme-management/${id}/reports.zip`,
    get: guarded(`/admin/scheme-management/${id}/reports.zip`, ['admin'], 404),
    post: all(405),
  })),
  ...['some-scheme', '00000000-0000-4000-8000-000000000000'].map((id) => ({
    path: () => `/admin/scheme-management/${id}`,
    get: guarded(`/admin/scheme-management/${id}`, ['admin'], 404),
    post: guarded(`/admin/scheme-management/${id}`, ['admin'], 404),
  })),
  // A cohort's group report and heatmap (issue 19 §4, ADR 045), of a scheme and of a company:
  // admins only, read-only (a POST is guarded, then 405); unknown and malformed ids are not found.
  ...(['group-report', 'heatmap'] as const).flatMap((page) =>
    (['scheme', 'company'] as const).flatMap((scope) => {
      const path = (id: string) =>
        `/admin/${scope === 'scheme' ? 'scheme' : 'company'}-management/${id}/${page}`
      const real = () => path(scope === 'scheme' ? ids.scheme : ids.company)
      return [
        { path: real, get: guarded(real(), ['admin'], 200), post: guarded(real(), ['admin'], 405) },
        ...['some-id', '00000000-0000-4000-8000-000000000000'].map((id) => ({
          path: () => path(id),
          get: guarded(path(id), ['admin'], 404),
          post: guarded(path(id), ['admin'], 405),
        })),
      ]
    }),
  ),
  // A company's retention (issue 21 §3, ADR 058): admins only; a POST without an intent is a 400;
  // unknown and malformed ids are not found.
  {
    path: () => `/admin/company-management/${ids.company}/retention`,
    get: guarded(`/admin/company-management/${ids.company}/retention`, ['admin'], 200),
    post: guarded(`/admin/company-management/${ids.company}/retention`, ['admin'], 400),
  },
  ...['some-id', '00000000-0000-4000-8000-000000000000'].map((id) => ({
    path: () => `/admin/company-management/${id}/retention`,
    get: guarded(`/admin/company-management/${id}/retention`, ['admin'], 404),
    post: guarded(`/admin/company-management/${id}/retention`, ['admin'], 404),
  })),
  // A group report as a branded PDF (issue 19 §4, §7): admins only, GET only; with nothing released
  // here, the admin is refused in words (409); unknown and malformed ids are not found.
  ...(['scheme', 'company'] as const).flatMap((scope) => {
    const path = (id: string) => `/admin/${scope}-management/${id}/group-report.pdf`
    const real = () => path(scope === 'scheme' ? ids.scheme : ids.company)
    return [
      { path: real, get: guarded(real(), ['admin'], 409), post: all(405) },
      ...['some-id', '00000000-0000-4000-8000-000000000000'].map((id) => ({
        path: () => path(id),
        get: guarded(path(id), ['admin'], 404),
        post: all(405),
      })),
    ]
  }),
  // A questionnaire's builder and its JSON download: real ids answer (a bare POST names no intent:
  // 400), unknown and malformed ones are the not-found page.
  {
    path: () => `/admin/questionnaire-management/${ids.questionnaire}`,
    get: guarded(`/admin/questionnaire-management/${ids.questionnaire}`, ['admin'], 200),
    post: guarded(`/admin/questionnaire-management/${ids.questionnaire}`, ['admin'], 400),
  },
  {
    path: () => `/admin/questionnaire-management/${ids.questionnaire}/export.json`,
    get: guarded(`/admin/questionnaire-management/${ids.questionnaire}/export.json`, ['admin'], 200),
    post: all(405),
  },
  ...['some-qid', '00000000-0000-4000-8000-000000000000'].map((id) => ({
    path: () => `/admin/questionnaire-management/${id}`,
    get: guarded(`/admin/questionnaire-management/${id}`, ['admin'], 404),
    post: guarded(`/admin/questionnaire-management/${id}`, ['admin'], 404),
  })),
  {
    path: () => '/admin/questionnaire-management/some-qid/export.json',
    get: guarded('/admin/questionnaire-management/some-qid/export.json', ['admin'], 404),
    post: all(405),
  },
  // Answer management: one response (a bare POST names no intent: 400), unknown ids the not-found
  // page, and the CSV export (a resource route: GET only).
  {
    path: () => `/admin/answer-management/${ids.rid}`,
    get: guarded(`/admin/answer-management/${ids.rid}`, ['admin'], 200),
    post: guarded(`/admin/answer-management/${ids.rid}`, ['admin'], 400),
  },
  ...['some-rid', '00000000-0000-4000-8000-000000000000'].map((id) => ({
    path: () => `/admin/answer-management/${id}`,
    get: guarded(`/admin/answer-management/${id}`, ['admin'], 404),
    post: guarded(`/admin/answer-management/${id}`, ['admin'], 404),
  })),
  {
    path: () => '/admin/answer-management/export.csv',
    get: guarded('/admin/answer-management/export.csv', ['admin'], 200),
    post: all(405),
  },
  // The REST API (issue 21 §1, ADR 054): no session opens it — whoever visits without an API key
  // gets a 401 problem; its document is public; other methods are 405, other paths a 404 problem.
  // A path that takes POST (a create, an action) answers it 401 too; one that does not, 405.
  ...['/api/v1/companies', '/api/v1/employees', '/api/v1/schemes'].map((p) => ({
    path: () => p,
    get: all(401),
    post: all(401),
  })),
  ...[
    `/api/v1/companies/${'00000000-0000-4000-8000-000000000000'}`,
    `/api/v1/employees/${'00000000-0000-4000-8000-000000000000'}`,
    `/api/v1/schemes/${'00000000-0000-4000-8000-000000000000'}`,
    `/api/v1/schemes/${'00000000-0000-4000-8000-000000000000'}/participants`,
    `/api/v1/schemes/${'00000000-0000-4000-8000-000000000000'}/reports`,
    `/api/v1/schemes/${'00000000-0000-4000-8000-000000000000'}/answers`,
  ].map((p) => ({ path: () => p, get: all(401), post: all(405) })),
  ...[
    '/api/v1/employees/bulk',
    `/api/v1/employees/${'00000000-0000-4000-8000-000000000000'}/disable`,
    `/api/v1/employees/${'00000000-0000-4000-8000-000000000000'}/enable`,
    `/api/v1/schemes/${'00000000-0000-4000-8000-000000000000'}/enrolments`,
    `/api/v1/schemes/${'00000000-0000-4000-8000-000000000000'}/launch`,
  ].map((p) => ({ path: () => p, get: all(405), post: all(401) })),
  { path: () => `/api/v1/employees/${ids.employee}`, get: all(401), post: all(405) },
  { path: () => '/api/v1/openapi.json', get: all(200), post: all(405) },
  { path: () => '/api/v1/no/such/endpoint', get: all(404), post: all(404) },
  // npm run bench's reference page: public, a constant, no action.
  { path: () => '/bench/ping', get: all(200), post: all(405) },
  { path: () => '/no/such/page', get: all(404), post: all(404) },
]

async function outcome(method: 'GET' | 'POST', row: Row, visitor: Visitor) {
  const path = row.path()
  const expected = (method === 'GET' ? row.get : row.post)[visitor]
  const response = await send(server, path, {
    method,
    cookie: cookies[visitor],
    form: method === 'POST' ? {} : undefined,
  })
  await response.arrayBuffer()
  const want = typeof expected === 'number' ? `${expected}` : `${expected.status ?? 302} -> ${expected.to}`
  const got =
    response.status >= 300 && response.status < 400
      ? `${response.status} -> ${location(response)}`
      : `${response.status}`
  return { line: `${method} ${path}: ${got}`, want: `${method} ${path}: ${want}` }
}

describe.each(VISITORS)('as %s', (visitor) => {
  test.each(['GET', 'POST'] as const)('every route, %s', async (method) => {
    const results = []
    for (const row of ROWS()) results.push(await outcome(method, row, visitor))
    expect(results.map((r) => r.line)).toEqual(results.map((r) => r.want))
  })
})

test('/login keeps the query string', async () => {
  const response = await send(server, '/login?redirectTo=%2Fadmin')
  expect(response.status).toBe(301)
  expect(location(response)).toBe('/sign-in?redirectTo=%2Fadmin')
})
