import { and, eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { auditLog, emailOutbox, schemeMembers, schemes } from '#db/schema/index'
import { createCompany, createScheme, createUser, enrolEmployee } from '#db/factories'
import { inviteColleague } from '#app/modules/invite/invite.server'
import { loadReport } from '#app/modules/report/report.server'
import { updateScheme } from '#app/modules/scheme/scheme.server'
import { SCHEME_MESSAGES } from '#app/modules/scheme/schemas'
import { useTestDatabase } from '#tests/support/database'
import { schemeInputFromRow } from '#tests/support/scheme-input'
import { answersFor, buildReport, type RaterSpec } from './report-scenario'

/**
 * The scheme option "show the manager's answers on their own, even below the threshold" (issue 11
 * §2, DESIGN.md §8, ADR 021): off by default; when on, the manager group stands alone with one
 * manager, the rest of the anonymity rule still holds, the manager's invitation says so, and the
 * option can be switched on only before the first manager is invited.
 */
const db = useTestDatabase()

const team = (peers: number): RaterSpec[] => [
  { relationship: 'manager', answers: (qs) => answersFor(qs, { value: 1 }) },
  ...Array.from({ length: peers }, () => ({
    relationship: 'peer' as const,
    answers: (qs: Parameters<NonNullable<RaterSpec['answers']>>[0]) => answersFor(qs, { value: 5 }),
  })),
]

type Ready = Extract<NonNullable<Awaited<ReturnType<typeof loadReport>>>, { status: 'ready' }>

describe('the report with the manager option', () => {
  test('off (the default): one manager beside five peers pools with them; no manager figure', async () => {
    const s = await buildReport({ minRaters: 3, raters: team(5) })
    const report = (await loadReport(s.rid)) as Ready
    expect(report.status).toBe('ready')
    expect(report.groups).toEqual([])
  })

  test('on: the manager stands alone with one answer, beside the peers; the figures are theirs', async () => {
    const s = await buildReport({ minRaters: 3, raters: team(5), showManager: true })
    const report = (await loadReport(s.rid)) as Ready
    expect(report.groups.map((g) => [g.key, g.raters])).toEqual([
      ['manager', 1],
      ['peer', 5],
    ])
    const scale = report.questions.find((q) => q.kind === 'scale')!
    expect(scale.colleagues.groups).toEqual([1, 5])
  })

  test('on, but only two others: the manager’s figure would give theirs away, so no groups', async () => {
    const s = await buildReport({ minRaters: 3, raters: team(2), showManager: true })
    const report = (await loadReport(s.rid)) as Ready
    expect(report.status).toBe('ready')
    expect(report.groups).toEqual([])
  })
})

async function world(showManager: boolean) {
  const company = await createCompany()
  const scheme = await createScheme({ companyId: company.id, showManagerBelowThreshold: showManager })
  const employee = await createUser({ role: 'employee', companyId: company.id, password: null })
  await enrolEmployee(scheme, employee.id)
  return { scheme, employee }
}

async function invite(w: Awaited<ReturnType<typeof world>>, relationship: 'manager' | 'peer') {
  const email = `${relationship}.${crypto.randomUUID()}@example.test`
  const outcome = await inviteColleague(
    { id: w.employee.id, role: 'employee' },
    { employeeId: w.employee.id, schemeId: w.scheme.id, name: `The ${relationship}`, email, relationship },
  )
  expect(outcome.ok).toBe(true)
  const [mail] = await db().select().from(emailOutbox).where(eq(emailOutbox.recipient, email))
  return mail!.text
}

describe('what colleagues are told', () => {
  test('with the option on, the manager’s invitation says their answers show as the manager’s view', async () => {
    const w = await world(true)
    const manager = await invite(w, 'manager')
    expect(manager).toContain('manager, your answers are shown to them as the manager')
    expect(manager).not.toContain('combined with those of other colleagues')
    const peer = await invite(w, 'peer')
    expect(peer).toContain(
      'Your answers are combined with those of other colleagues and shown without your name',
    )
  })

  test('with the option off, a manager is told what everyone is told', async () => {
    const w = await world(false)
    const manager = await invite(w, 'manager')
    expect(manager).toContain(
      'Your answers are combined with those of other colleagues and shown without your name',
    )
    expect(manager).not.toContain('as the manager')
  })
})

describe('switching the option on', () => {
  const inputOf = (scheme: typeof schemes.$inferSelect, showManagerBelowThreshold: boolean) =>
    schemeInputFromRow(scheme, { showManagerBelowThreshold })

  test('works before a manager is invited (audited), and is refused beside the field after', async () => {
    const admin = await createUser({ role: 'admin', password: null })
    const w = await world(false)
    const on = await updateScheme({ id: admin.id }, w.scheme.id, inputOf(w.scheme, true))
    expect(on).toEqual({ ok: true, value: { changed: ['showManagerBelowThreshold'] } })
    const [audit] = await db()
      .select({ details: auditLog.details })
      .from(auditLog)
      .where(and(eq(auditLog.action, 'scheme.update'), eq(auditLog.entityId, w.scheme.id)))
    expect(audit!.details).toEqual({ changes: { showManagerBelowThreshold: { from: false, to: true } } })

    // Off again (always allowed: more private), then a manager is invited, then on is refused.
    const [fresh] = await db().select().from(schemes).where(eq(schemes.id, w.scheme.id))
    expect((await updateScheme({ id: admin.id }, w.scheme.id, inputOf(fresh!, false))).ok).toBe(true)
    await invite(w, 'manager')
    const refused = await updateScheme({ id: admin.id }, w.scheme.id, inputOf(fresh!, true))
    expect(refused).toMatchObject({
      ok: false,
      fieldErrors: { showManagerBelowThreshold: [SCHEME_MESSAGES.showManagerTooLate] },
    })
    const [after] = await db()
      .select({ on: schemes.showManagerBelowThreshold })
      .from(schemes)
      .where(eq(schemes.id, w.scheme.id))
    expect(after!.on).toBe(false)
    expect(
      await db().select().from(schemeMembers).where(eq(schemeMembers.schemeId, w.scheme.id)),
    ).toHaveLength(1)
  })
})
