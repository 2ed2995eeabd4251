import { ROLES, type Role } from '#db/enums'
/**
 * The role matrix of the spec (§2 routes, §6 roles): pure data, no database, used by the guards
 * and by the UI to decide which links to show.
 */
export { ROLES, type Role }

export const ROUTE_ROLES = {
  user: ['employee'],
  'user/edit-profile': ['employee'],
  // An employee's own data (ADR 055); an administrator's own account is out of its scope.
  'user/edit-profile/my-data.zip': ['employee'],
  'user/thank-you': ['employee', 'colleague'],
  'user/colleague-invite': ['employee', 'admin'],
  'user/nominations': ['employee', 'admin'],
  'user/colleague-invite/directory': ['employee', 'admin'],
  'user/response': ['admin', 'employee'],
  // The employee's own plan; a report shared with them as a manager (managers are employees).
  'user/development-plan': ['employee'],
  'user/shared': ['employee'],
  'user/response/report.pdf': ['admin', 'employee'],
  assignment: ['admin', 'employee', 'colleague'],
  questionnaire: ['admin', 'employee', 'colleague'],
  admin: ['admin'],
  'admin/scheme-management/reports.zip': ['admin'],
} as const satisfies Record<string, readonly Role[]>

export type ProtectedRoute = keyof typeof ROUTE_ROLES

export function canAccess(role: Role, route: ProtectedRoute): boolean {
  return (ROUTE_ROLES[route] as readonly Role[]).includes(role)
}

/** Where a role lands after signing in (a colleague's open assignment is resolved by the server). */
export const ROLE_HOME: Record<Role, string> = {
  admin: '/admin',
  employee: '/user',
  colleague: '/user/thank-you',
}
