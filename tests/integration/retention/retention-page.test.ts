import crypto from 'node:crypto'
import { and, eq } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'
import { auditLog, companies, schemes } from '#db/schema/index'
import { createCompany, createScheme } from '#db/factories'
import { useTestDatabase } from '#tests/support/database'
import { client, location, send, signedIn, useTestServer } from '#tests/support/app'
import { fieldErrors, textOf } from '#tests/integration/auth/helpers'

/**
 * The retention page and the legal hold (issue 21 §3, ADR 058) through the real HTTP stack: the
 * guards, the settings form with its messages, the dry run shown, and the hold on the scheme page.
 */
const db = useTestDatabase()
const server = useTestServer()

let adminCookie = ''
const admin$ = client(server, () => adminCookie)
let company = { id: '', name: '' }
let scheme = { id: '', name: '' }
const page = () => `/admin/company-management/${company.id}/retention`
const dryRun = () => `${page()}?dry-run=1`
const schemePage = () => `/admin/scheme-management/${scheme.id}`

const settings = (over: Record<string, string> = {}) => ({
  intent: 'retention',
  answersMonths: '24',
  answersMode: 'anonymise',
  accountsMonths: '12',
  auditMonths: '36',
  ...over,
})

beforeAll(async () => {
  ;({ cookie: adminCookie } = await signedIn({ role: 'admin' }))
  company = await createCompany({ name: `Retention Page ${crypto.randomUUID().slice(0, 8)}` })
  // Closed three years ago: due under any period up to 36 months.
  const closedAt = new Date(Date.now() - 3 * 365 * 24 * 60 * 60 * 1000)
  scheme = await createScheme({
    companyId: company.id,
    name: 'Leadership 2023',
    status: 'closed',
    opensAt: new Date(closedAt.getTime() - 30 * 24 * 60 * 60 * 1000),
    closesAt: closedAt,
    closedAt,
  })
})

describe('the retention page', () => {
  test('only administrators: others are sent home or to sign-in', async () => {
    const employee = await signedIn({ role: 'employee', companyId: company.id })
    for (const response of [
      await admin$.get(page(), employee.cookie),
      await admin$.post(page(), settings(), employee.cookie),
    ]) {
      expect(response.status).toBe(302)
      expect(location(response)).toBe('/user')
    }
    const anonymous = await send(server, page(), { form: settings() })
    expect(anonymous.status).toBe(302)
    expect(location(anonymous)).toMatch(/^\/sign-in/)
    const [row] = await db()
      .select({ months: companies.retentionAnswersMonths })
      .from(companies)
      .where(eq(companies.id, company.id))
    expect(row!.months).toBeNull()
    expect((await admin$.get(`/admin/company-management/${crypto.randomUUID()}/retention`)).status).toBe(404)
  })

  test('explains each setting, and with nothing set the dry run removes nothing', async () => {
    const text = textOf(await (await admin$.get(page())).text())
    expect(text).toContain(`Retention for ${company.name}`)
    expect(text).toContain('“Anonymise” keeps the released reports’ figures')
    expect(text).toContain('“Delete” removes every answer of the scheme')
    expect(text).toContain('What the next pass would remove')
    expect(text).toContain('No period is set: the worker leaves this company’s data alone.')
    expect(text).toContain('No pass has run for this company yet.')
    // A plain visit does not count (seconds on a large company): the dry run is a button.
    expect(text).toContain('Run the dry run')
    expect(text).not.toContain('No scheme is past its period.')
    const asked = textOf(await (await admin$.get(dryRun())).text())
    expect(asked).toContain('No scheme is past its period.')
    expect(asked).toContain('Run it again')
    // Any other value is a plain visit, not an error.
    const odd = await admin$.get(`${page()}?dry-run=yes%00`)
    expect(odd.status).toBe(200)
    expect(textOf(await odd.text())).toContain('Run the dry run')
  })

  test('bad input gets clear messages, nothing saved', async () => {
    const cases: [Record<string, string>, string, string][] = [
      [
        { answersMonths: '-3' },
        'answersMonths',
        'Enter how many months to keep answers after a scheme closes: a whole number from 1 to 600, or leave it empty to keep them for ever.',
      ],
      [
        { accountsMonths: 'twelve' },
        'accountsMonths',
        'Enter after how many months to delete accounts never activated or disabled: a whole number from 1 to 600, or leave it empty to keep them.',
      ],
      [
        { auditMonths: '1.5' },
        'auditMonths',
        'Enter how many months to keep audit entries with their personal data: a whole number from 1 to 600, or leave it empty to keep it for ever.',
      ],
      [
        { auditMonths: '601' },
        'auditMonths',
        'Enter how many months to keep audit entries with their personal data: a whole number from 1 to 600, or leave it empty to keep it for ever.',
      ],
      [
        { answersMode: 'shred' },
        'answersMode',
        'Choose whether answers past their period are anonymised or deleted.',
      ],
    ]
    for (const [over, field, message] of cases) {
      const response = await admin$.post(page(), settings(over))
      expect(response.status).toBe(400)
      expect(fieldErrors(await response.text(), field)).toEqual([message])
    }
    const [row] = await db()
      .select({ months: companies.retentionAnswersMonths })
      .from(companies)
      .where(eq(companies.id, company.id))
    expect(row!.months).toBeNull()
  })

  test('saving is audited; the dry run then names the scheme past its period', async () => {
    const saved = await admin$.post(page(), settings())
    expect(saved.status).toBe(302)
    // Saved settings lead to their dry run.
    expect(location(saved)).toBe(dryRun())
    const [row] = await db()
      .select({
        answers: companies.retentionAnswersMonths,
        mode: companies.retentionAnswersMode,
        accounts: companies.retentionAccountsMonths,
        audit: companies.retentionAuditMonths,
      })
      .from(companies)
      .where(eq(companies.id, company.id))
    expect(row).toEqual({ answers: 24, mode: 'anonymise', accounts: 12, audit: 36 })
    const entries = await db()
      .select({ details: auditLog.details })
      .from(auditLog)
      .where(and(eq(auditLog.action, 'company.retention'), eq(auditLog.entityId, company.id)))
    expect(entries).toHaveLength(1)
    expect(entries[0]!.details).toMatchObject({ changes: { answersMonths: { from: null, to: 24 } } })

    const text = textOf(await admin$.follow(saved))
    expect(text).toContain('Schemes past their period')
    expect(text).toContain('Leadership 2023')
    // Empty keeps for ever.
    const cleared = await admin$.post(
      page(),
      settings({ answersMonths: '', accountsMonths: '', auditMonths: '' }),
    )
    expect(cleared.status).toBe(302)
    const [after] = await db()
      .select({ answers: companies.retentionAnswersMonths })
      .from(companies)
      .where(eq(companies.id, company.id))
    expect(after!.answers).toBeNull()
    expect(textOf(await admin$.follow(cleared))).toContain('No scheme is past its period.')
  })
})

describe('the legal hold', () => {
  test('needs a reason, is audited, and can be lifted', async () => {
    const missing = await admin$.post(schemePage(), { intent: 'legal-hold', reason: '  ' })
    expect(missing.status).toBe(400)
    expect(fieldErrors(await missing.text(), 'reason')).toEqual([
      'Enter why the scheme is on legal hold, such as the claim or request it is kept for.',
    ])
    const tooLong = await admin$.post(schemePage(), { intent: 'legal-hold', reason: 'x'.repeat(501) })
    expect(tooLong.status).toBe(400)
    expect(fieldErrors(await tooLong.text(), 'reason')).toEqual([
      'The reason must be 500 characters or fewer.',
    ])

    const employee = await signedIn({ role: 'employee', companyId: company.id })
    const refused = await admin$.post(
      schemePage(),
      { intent: 'legal-hold', reason: 'Claim' },
      employee.cookie,
    )
    expect(location(refused)).toBe('/user')

    const placed = await admin$.post(schemePage(), { intent: 'legal-hold', reason: 'Tribunal claim 2026/41' })
    expect(placed.status).toBe(302)
    const [held] = await db()
      .select({ at: schemes.legalHoldAt, reason: schemes.legalHoldReason })
      .from(schemes)
      .where(eq(schemes.id, scheme.id))
    expect(held!.at).not.toBeNull()
    expect(held!.reason).toBe('Tribunal claim 2026/41')
    const text = textOf(await admin$.follow(placed))
    expect(text).toContain('On legal hold since')
    expect(text).toContain('Tribunal claim 2026/41')

    const again = await admin$.post(schemePage(), { intent: 'legal-hold', reason: 'Another' })
    expect(again.status).toBe(400)
    expect(textOf(await again.text())).toContain(
      'This scheme is already on legal hold. Lift the hold first to change its reason.',
    )

    // The retention page lists it, and the dry run leaves it out.
    await admin$.post(page(), settings())
    const retention = textOf(await (await admin$.get(dryRun())).text())
    expect(retention).toContain('Schemes on legal hold')
    expect(retention).toContain('Tribunal claim 2026/41')
    expect(retention).toContain('No scheme is past its period.')

    const lifted = await admin$.post(schemePage(), { intent: 'lift-legal-hold' })
    expect(lifted.status).toBe(302)
    const notHeld = await admin$.post(schemePage(), { intent: 'lift-legal-hold' })
    expect(notHeld.status).toBe(400)
    expect(textOf(await notHeld.text())).toContain('This scheme is not on legal hold.')
    const actions = (
      await db()
        .select({ action: auditLog.action, details: auditLog.details })
        .from(auditLog)
        .where(and(eq(auditLog.entity, 'scheme'), eq(auditLog.entityId, scheme.id)))
    ).map((e) => e.action)
    expect(actions.sort()).toEqual(['scheme.legal_hold', 'scheme.legal_hold_lifted'])
    expect(textOf(await (await admin$.get(dryRun())).text())).toContain('Leadership 2023')
  })
})
