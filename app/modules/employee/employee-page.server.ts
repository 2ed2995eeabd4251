import { companyOptions, getEmployee, getEmployeeActivity } from './employee.server'
import { EmployeeDetailQuerySchema } from './schemas'

/**
 * Everything an employee's page shows (ADR 033): their details, their schemes and the feedback
 * asked of them, the companies for the edit form, and whether the disable confirmation is open.
 * Null for an unknown or malformed uid, an admin's or a colleague's.
 */
export async function loadEmployeePage(uid: string, searchParams: URLSearchParams) {
  const employee = await getEmployee(uid)
  if (!employee) return null
  const query = EmployeeDetailQuerySchema.parse(Object.fromEntries(searchParams))
  const [activity, companies] = await Promise.all([getEmployeeActivity(employee.id), companyOptions()])
  return {
    employee,
    ...activity,
    companies,
    confirmDisable: query.disable === '1' && employee.state !== 'disabled',
  }
}
