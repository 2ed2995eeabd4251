import { and, eq } from 'drizzle-orm'
import { expect, test } from 'vitest'
import { assignments, schemeMembers } from '#db/schema/index'
import { createCompany, createScheme, createUser } from '#db/factories'
import { getDb } from '#db/client'
import { enrolEmployees } from '#app/modules/scheme/enrol.server'
import { useTestDatabase } from '#tests/support/database'

const db = useTestDatabase()

test('enrols active employees of the scheme’s company once each, with one self assignment, and nobody else', async () => {
  const company = await createCompany({})
  const other = await createCompany({})
  const scheme = await createScheme({ companyId: company.id })
  const a = await createUser({ role: 'employee', companyId: company.id })
  const b = await createUser({ role: 'employee', companyId: company.id })
  const disabled = await createUser({ role: 'employee', companyId: company.id, disabledAt: new Date() })
  const foreign = await createUser({ role: 'employee', companyId: other.id })
  const admin = await createUser({ role: 'admin' })
  const ids = [a.id, b.id, disabled.id, foreign.id, admin.id]

  const first = await getDb().transaction((tx) => enrolEmployees(tx, scheme.id, ids))
  expect(new Set(first.enrolled)).toEqual(new Set([a.id, b.id]))
  const again = await getDb().transaction((tx) => enrolEmployees(tx, scheme.id, ids))
  expect(again.enrolled).toEqual([])

  const members = await db().select().from(schemeMembers).where(eq(schemeMembers.schemeId, scheme.id))
  expect(new Set(members.map((m) => m.employeeId))).toEqual(new Set([a.id, b.id]))
  const selfRows = await db()
    .select()
    .from(assignments)
    .where(and(eq(assignments.schemeId, scheme.id), eq(assignments.relationship, 'self')))
  expect(selfRows.map((r) => r.subjectId).sort()).toEqual([a.id, b.id].sort())
  for (const row of selfRows) {
    expect(row.respondentId).toBe(row.subjectId)
    expect(row.questionnaireId).toBe(scheme.questionnaireId)
    expect(row.dueAt?.getTime()).toBe(scheme.closesAt.getTime())
  }
})
