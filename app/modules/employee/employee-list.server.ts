import { listNotices } from '#app/lib/list-page.server'
import { listEmployees, listOptions } from './employee.server'
import type { EmployeeListQuery } from './schemas'

/**
 * The employees page's data (the page-props rule: the route returns this, its components type
 * their props from it): one page of the list and the filters' choices, two statements.
 */
export async function loadEmployeeList(query: EmployeeListQuery) {
  const [page, options] = await Promise.all([listEmployees(query), listOptions(query)])
  return {
    mode: 'list' as const,
    query: {
      q: query.q,
      company: query.company,
      scheme: query.scheme,
      state: query.state,
      sort: query.sort,
      manager: query.manager,
      department: query.company ? query.department : '',
    },
    page,
    companies: options.companies,
    schemes: options.schemes,
    schemesNeedCompany: options.schemesNeedCompany,
    departments: options.departments,
    manager: options.manager,
    notices: listNotices(page),
  }
}
