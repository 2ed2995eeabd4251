import { and, eq, sql } from 'drizzle-orm'
import { getDb } from '#db/client'
import { emailOutbox, nominees, schemeMembers } from '#db/schema/index'
import { createCompany, createScheme, createUser, enrolEmployee } from '#db/factories'
import { send, sessionCookieFor } from '#tests/support/app'
import { textOf } from '#tests/integration/auth/helpers'

/**
 * Shared by the nomination tests (nominations.test.ts, nominations-review.test.ts): a fresh scheme
 * whose lists are approved, a manager and their report enrolled in it, and requests to the list
 * page as the employee, the manager or anyone holding a cookie.
 */

export const NOMINATIONS_PAGE = '/user/nominations'

export type ListSetupOptions = {
  approval?: 'manager' | 'admin'
  chooser?: 'employee' | 'admin' | 'employee_admin_edits'
  maxColleagues?: number
  withManager?: boolean
  nominationsCloseAt?: Date
  companyId?: string
}

export async function listScheme(options: ListSetupOptions = {}) {
  const company = options.companyId ? { id: options.companyId } : await createCompany({})
  const scheme = await createScheme({
    companyId: company.id,
    nominationApproval: options.approval ?? 'manager',
    nominationChooser: options.chooser ?? 'employee',
    maxColleagues: options.maxColleagues ?? 8,
    nominationsCloseAt: options.nominationsCloseAt ?? null,
  })
  const manager =
    options.withManager === false
      ? null
      : await createUser({ role: 'employee', companyId: company.id, displayName: 'Mona Manager' })
  const employee = await createUser({
    role: 'employee',
    companyId: company.id,
    displayName: 'Erin Employee',
    managerId: manager?.id ?? null,
  })
  await enrolEmployee(scheme, employee.id)
  const cookie = await sessionCookieFor(employee.id)
  const managerCookie = manager ? await sessionCookieFor(manager.id) : ''
  const href = (viewer: 'employee' | 'other' = 'employee') =>
    viewer === 'employee'
      ? `${NOMINATIONS_PAGE}?scheme=${scheme.id}`
      : `${NOMINATIONS_PAGE}?scheme=${scheme.id}&employee=${employee.id}`
  // Addresses of this setup's own: the database (and the rate limits) are shared by a file's tests.
  const tag = scheme.id.slice(0, 8)
  const address = (local: string) => `${local}.${tag}@example.test`
  return { company, scheme, manager, employee, cookie, managerCookie, href, address }
}

export type ListSetup = Awaited<ReturnType<typeof listScheme>>

/** 'employee', 'manager', or any other signed-in cookie. */
export type Viewer = 'employee' | 'manager' | string

/** Requests to a setup's list page through the test server, as one viewer or another. */
export function listRequests(server: { url: string }) {
  const cookieOf = (s: ListSetup, as: Viewer) =>
    as === 'employee' ? s.cookie : as === 'manager' ? s.managerCookie : as
  const hrefFor = (s: ListSetup, as: Viewer) => s.href(as === 'employee' ? 'employee' : 'other')
  const post = (s: ListSetup, form: Record<string, string>, as: Viewer = 'employee') =>
    send(server, hrefFor(s, as), { cookie: cookieOf(s, as), form: { schemeId: s.scheme.id, ...form } })
  return {
    post,
    add: (s: ListSetup, name: string, email: string, relationship = 'peer', as: Viewer = 'employee') =>
      post(s, { intent: 'add', name, email, relationship }, as),
    page: async (s: ListSetup, as: Viewer = 'employee') => {
      const response = await send(server, hrefFor(s, as), { cookie: cookieOf(s, as) })
      return { status: response.status, text: textOf(await response.text()) }
    },
  }
}

export async function memberOf(s: ListSetup) {
  const [row] = await getDb()
    .select()
    .from(schemeMembers)
    .where(and(eq(schemeMembers.schemeId, s.scheme.id), eq(schemeMembers.employeeId, s.employee.id)))
  return row!
}

export async function listOf(s: ListSetup) {
  return getDb()
    .select()
    .from(nominees)
    .where(and(eq(nominees.schemeId, s.scheme.id), eq(nominees.employeeId, s.employee.id)))
    .orderBy(nominees.createdAt)
}

export async function mailTo(to: string, template: string) {
  return getDb()
    .select()
    .from(emailOutbox)
    .where(and(eq(emailOutbox.recipient, to), sql`${emailOutbox.templateKey} = ${template}`))
}
