import crypto from 'node:crypto'
import { and, eq, sql } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'
import { queryRows } from '#db/client'
import {
  actionCodes,
  assignments,
  companies,
  auditLog,
  emailOutbox,
  employeeImportRows,
  employeeImports,
  nominees,
  rateLimits,
  recoveryCodes,
  reportReleases,
  sessions,
  totpCredentials,
  userIdentities,
  users,
} from '#db/schema/index'
import {
  createCompany,
  createQuestionnaire,
  createRaterAssignment,
  createResponse,
  createScheme,
  createUser,
  enrolEmployee,
  questionsOf,
} from '#db/factories'
import { loadReport } from '#app/modules/report/report.server'
import { ERASED_NAME, ERASED_PHONE, erasePerson } from '#app/modules/employee/erasure.server'
import { useTestDatabase } from '#tests/support/database'
import { client, location, send, sessionCookieFor, signedIn, useTestServer } from '#tests/support/app'
import { fieldErrors, textOf } from '#tests/integration/auth/helpers'
import { answersFor, QUESTIONS, releaseNow } from '#tests/integration/journey/report-scenario'

/**
 * Erasing a person (issue 21 §4, ADR 056) through the real HTTP stack: a world where the person is
 * a subject with a released report and a rater of others in two companies (one keeps answers
 * anonymous, one deletes them), signed in twice, linked to a provider, with a second factor,
 * one-time codes, e-mails, rate-limit counters, import rows and audit entries — then erased, and
 * every text column of every table scanned for their name, addresses and phone.
 */
const db = useTestDatabase()
const server = useTestServer()

const PAGE = '/admin/employee-management'
let admin = { id: '', email: '' }
let adminCookie = ''
const admin$ = client(server, () => adminCookie)

type Ready = Extract<NonNullable<Awaited<ReturnType<typeof loadReport>>>, { status: 'ready' }>
const colleagueAverages = (report: Awaited<ReturnType<typeof loadReport>>) =>
  (report as Ready).questions.filter((q) => q.kind === 'scale').map((q) => q.colleagues?.average ?? null)

/** The person, named so nothing else in the database can contain these strings by chance. */
const PERSON = {
  displayName: 'Zephyrine Quillfeather',
  email: `zephyrine.quillfeather.${crypto.randomBytes(3).toString('hex')}@example.test`,
  formerEmail: `zq.formerly.${crypto.randomBytes(3).toString('hex')}@example.test`,
  phone: '+44 20 7946 0958',
}

/**
 * Every text, varchar, jsonb and text[] column of every table in the public schema, and how many
 * rows of each contain any of `needles` (case-insensitive): `{ "table.column": n }` for the hits.
 */
async function scan(needles: string[]) {
  const columns = await queryRows<{ table_name: string; column_name: string }>(
    db(),
    sql`SELECT c.table_name, c.column_name FROM information_schema.columns c
        JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
        WHERE c.table_schema = 'public' AND t.table_type = 'BASE TABLE'
          AND (c.data_type IN ('text', 'character varying', 'jsonb', 'json')
            OR (c.data_type = 'ARRAY' AND c.udt_name IN ('_text', '_varchar')))
        ORDER BY c.table_name, c.column_name`,
  )
  expect(columns.length).toBeGreaterThan(50)
  const hits: Record<string, number> = {}
  for (const { table_name, column_name } of columns) {
    const [row] = await queryRows<{ n: number }>(
      db(),
      sql`SELECT count(*)::int AS n FROM ${sql.identifier(table_name)}
          WHERE ${sql.join(
            needles.map((needle) => sql`${sql.identifier(column_name)}::text ILIKE ${`%${needle}%`}`),
            sql` OR `,
          )}`,
    )
    if (Number(row!.n)) hits[`${table_name}.${column_name}`] = Number(row!.n)
  }
  return hits
}

async function world() {
  const keep = await createCompany({
    name: `Keepers ${crypto.randomUUID()}`,
    erasureRaterAnswers: 'keep_anonymous',
  })
  const del = await createCompany({ name: `Deleters ${crypto.randomUUID()}`, erasureRaterAnswers: 'delete' })
  const questionnaire = await createQuestionnaire({ questions: QUESTIONS })
  const qs = await questionsOf(questionnaire.id)
  const manager = await createUser({ role: 'employee', companyId: keep.id, password: null })
  const person = await createUser({
    role: 'employee',
    companyId: keep.id,
    displayName: PERSON.displayName,
    email: PERSON.email,
    phone: PERSON.phone,
    department: 'Erasure Research',
    jobTitle: 'Quill Keeper',
    language: 'fr',
    managerId: manager.id,
  })
  const report = await createUser({
    role: 'employee',
    companyId: keep.id,
    managerId: person.id,
    password: null,
  })

  const colleague = () => createUser({ role: 'colleague', password: null })
  /** A subject in `scheme` with a submitted self-assessment and these raters' answers (value), released. */
  async function subject(
    scheme: Awaited<ReturnType<typeof createScheme>>,
    raters: { id: string; name?: string; value: number }[],
    options: { release?: boolean; subjectId?: string } = {},
  ) {
    const subjectId =
      options.subjectId ??
      (await createUser({ role: 'employee', companyId: scheme.companyId, password: null })).id
    const self = (await enrolEmployee(scheme, subjectId))!
    const selfResponse = await createResponse({
      assignmentId: self.id,
      answers: answersFor(qs, { value: 4, comment: 'My own note' }),
      submitted: true,
    })
    for (const rater of raters) {
      const assignment = await createRaterAssignment({
        scheme,
        subjectId,
        respondentId: rater.id,
        respondentName: rater.name,
      })
      await createResponse({
        assignmentId: assignment.id,
        answers: answersFor(qs, { value: rater.value, comment: `A comment scored ${rater.value}` }),
        submitted: true,
      })
    }
    if (options.release ?? true) await releaseNow(scheme.id, subjectId)
    return { subjectId, rid: selfResponse.id }
  }

  const keepScheme = await createScheme({
    companyId: keep.id,
    questionnaireId: questionnaire.id,
    minRaters: 3,
  })
  const delScheme = await createScheme({ companyId: del.id, questionnaireId: questionnaire.id, minRaters: 3 })
  const delSchemeOfOne = await createScheme({
    companyId: del.id,
    questionnaireId: questionnaire.id,
    minRaters: 1,
  })
  const them = { id: person.id, name: PERSON.displayName }

  // Their own released report, with three colleagues.
  const own = await subject(
    keepScheme,
    [
      { id: (await colleague()).id, value: 2 },
      { id: (await colleague()).id, value: 3 },
      { id: manager.id, value: 4 },
    ],
    { subjectId: person.id },
  )
  // They rate two others in the company that keeps answers, and one whose report is not released.
  const a = await subject(keepScheme, [
    { ...them, value: 5 },
    { id: (await colleague()).id, value: 1 },
    { id: (await colleague()).id, value: 2 },
  ])
  const b = await subject(keepScheme, [
    { ...them, value: 1 },
    { id: (await colleague()).id, value: 3 },
    { id: (await colleague()).id, value: 3 },
    { id: (await colleague()).id, value: 3 },
  ])
  const unreleased = await subject(keepScheme, [{ ...them, value: 2 }], { release: false })
  // …and two in the company that deletes them: one at a threshold of 3, one at a threshold of 1.
  const c = await subject(delScheme, [
    { ...them, value: 5 },
    { id: (await colleague()).id, value: 1 },
    { id: (await colleague()).id, value: 3 },
  ])
  const d = await subject(delSchemeOfOne, [
    { ...them, value: 5 },
    { id: (await colleague()).id, value: 1 },
  ])

  // Someone else's list of raters names them.
  await db().insert(nominees).values({
    schemeId: keepScheme.id,
    employeeId: unreleased.subjectId,
    email: PERSON.email,
    name: PERSON.displayName,
    relationship: 'peer',
  })
  // Signed in twice, linked to a provider, a second factor, one-time codes.
  const cookie = await sessionCookieFor(person.id)
  await sessionCookieFor(person.id)
  await db()
    .insert(userIdentities)
    .values({ userId: person.id, issuer: 'https://idp.example.test', subject: 'sub-zq' })
  await db()
    .insert(totpCredentials)
    .values({ userId: person.id, secret: 'sealed-secret', confirmedAt: new Date() })
  await db()
    .insert(recoveryCodes)
    .values({ userId: person.id, codeHash: crypto.randomBytes(16).toString('hex') })
  await db()
    .insert(actionCodes)
    .values({
      kind: 'verify_email',
      codeHash: crypto.randomBytes(16).toString('hex'),
      userId: person.id,
      email: `zephyrine.new.${crypto.randomBytes(2).toString('hex')}@example.test`,
      expiresAt: new Date(Date.now() + 3600_000),
    })
  await db()
    .insert(rateLimits)
    .values({ key: `forgot:account:${PERSON.email}`, windowStart: new Date(), count: 1 })
  // E-mails: queued to them, sent to them, queued to a colleague about their report.
  const aboutThem = await createRaterAssignment({
    scheme: keepScheme,
    subjectId: person.id,
    respondentId: (await colleague()).id,
    respondentName: 'Pending Peer',
  })
  const mail = (over: Partial<typeof emailOutbox.$inferInsert>) => ({
    recipient: PERSON.email,
    templateKey: 'reminder' as const,
    subject: `Reminder for ${PERSON.displayName}`,
    html: `<p>Dear ${PERSON.displayName} (${PERSON.email})</p>`,
    text: `Dear ${PERSON.displayName}`,
    ...over,
  })
  await db()
    .insert(emailOutbox)
    .values([
      mail({}),
      mail({ status: 'sent', sentAt: new Date() }),
      mail({
        recipient: 'someone.else@example.test',
        templateKey: 'colleague_invite',
        subject: `${PERSON.displayName} asks for your feedback`,
        entity: 'assignment',
        entityId: aboutThem.id,
      }),
    ])
  // An import that listed them, and one that names them as a manager.
  const [imported] = await db()
    .insert(employeeImports)
    .values({ createdBy: admin.id, fileName: 'people.csv' })
    .returning()
  await db()
    .insert(employeeImportRows)
    .values([
      { importId: imported!.id, line: 2, name: PERSON.displayName, email: PERSON.email, phone: PERSON.phone },
      {
        importId: imported!.id,
        line: 3,
        name: 'Someone Else',
        email: 'someone@example.test',
        managerEmail: PERSON.email,
      },
    ])
  // Earlier audit entries that name them, by their current and a former address.
  await db()
    .insert(auditLog)
    .values([
      {
        actorId: admin.id,
        action: 'employee.create',
        entity: 'user',
        entityId: person.id,
        details: { name: PERSON.displayName, email: PERSON.formerEmail, phone: PERSON.phone },
      },
      {
        actorId: admin.id,
        action: 'employee.update',
        entity: 'user',
        entityId: person.id,
        details: { changes: { email: { from: PERSON.formerEmail, to: PERSON.email } } },
      },
      {
        actorId: person.id,
        action: 'profile.update',
        entity: 'user',
        entityId: person.id,
        ip: '203.0.113.9',
      },
    ])
  return {
    aboutThem: aboutThem.id,
    keep,
    del,
    person,
    manager,
    report,
    cookie,
    own,
    a,
    b,
    c,
    d,
    unreleased,
    keepScheme,
  }
}

let w: Awaited<ReturnType<typeof world>>

beforeAll(async () => {
  ;({ user: admin, cookie: adminCookie } = await signedIn({ role: 'admin' }))
  w = await world()
})

const queued = async () =>
  (await db().select().from(emailOutbox).where(eq(emailOutbox.status, 'queued'))).length
const path = () => `${PAGE}/${w.person.id}`
const erase = (confirmEmail: string, cookie = adminCookie) =>
  admin$.post(path(), { intent: 'erase', employeeId: w.person.id, confirmEmail }, cookie)

describe('erasing a person', () => {
  test('the danger zone asks first, says what goes and what the company keeps', async () => {
    const page = await (await admin$.get(path())).text()
    expect(textOf(page)).toContain('Erase this person')
    const confirm = textOf(await (await admin$.get(`${path()}?erase=1`)).text())
    expect(confirm).toContain(`Erase ${PERSON.displayName}? Here is what goes:`)
    expect(confirm).toContain('Their self-assessment and report')
    expect(confirm).toContain(
      'The answers they gave about 3 colleagues stay only inside reports already released',
    )
    expect(confirm).toContain('This cannot be undone.')
    expect(confirm).toContain(`Type their e-mail address (${PERSON.email}) to confirm`)
  })

  test('non-administrators cannot erase: the guards send them home or to sign-in', async () => {
    const employee = await signedIn({ role: 'employee', companyId: w.keep.id })
    const asEmployee = await erase(PERSON.email, employee.cookie)
    expect(asEmployee.status).toBe(302)
    expect(location(asEmployee)).toBe('/user')
    const anonymous = await send(server, path(), {
      form: { intent: 'erase', employeeId: w.person.id, confirmEmail: PERSON.email },
    })
    expect(anonymous.status).toBe(302)
    expect(location(anonymous)).toMatch(/^\/sign-in/)
    const colleague = await signedIn({ role: 'colleague' })
    expect((await erase(PERSON.email, colleague.cookie)).status).toBe(302)
    expect((await db().select().from(users).where(eq(users.id, w.person.id)))[0]!.erasedAt).toBeNull()
  })

  test('a wrong or missing address is refused (400) with a clear message, nothing erased', async () => {
    const wrong = await erase('someone.else@example.test')
    expect(wrong.status).toBe(400)
    expect(fieldErrors(await wrong.text(), 'confirmEmail')).toEqual([
      'The address you typed is not this person’s. Type their e-mail address exactly as shown to erase them.',
    ])
    const missing = await erase('')
    expect(missing.status).toBe(400)
    expect(fieldErrors(await missing.text(), 'confirmEmail')).toEqual([
      'Type the person’s e-mail address to confirm that they are to be erased.',
    ])
    // An administrator's or an unknown id: the 404 page.
    for (const uid of [admin.id, crypto.randomUUID()])
      expect(
        (await admin$.post(`${PAGE}/${uid}`, { intent: 'erase', employeeId: uid, confirmEmail: admin.email }))
          .status,
      ).toBe(404)
    const [row] = await db().select().from(users).where(eq(users.id, w.person.id))
    expect(row).toMatchObject({ email: PERSON.email, erasedAt: null })
  })

  test('erased: nothing in any table names them, sessions end, others’ reports keep or lose figures as their company says', async () => {
    const before = {
      queued: await queued(),
      a: JSON.stringify(await loadReport(w.a.rid)),
      b: JSON.stringify(await loadReport(w.b.rid)),
      c: colleagueAverages(await loadReport(w.c.rid)),
      d: colleagueAverages(await loadReport(w.d.rid)),
    }
    expect(before.c).toEqual([3, 3, 3, 3]) // (5 + 1 + 3) / 3
    expect(before.d).toEqual([3, 3, 3, 3]) // (5 + 1) / 2
    // The world names them everywhere before.
    expect(Object.keys(await scan([PERSON.email, PERSON.displayName])).length).toBeGreaterThan(8)

    // Typed with other case and spaces: the address is the address.
    const erased = await erase(`  ${PERSON.email.toUpperCase()} `)
    expect(erased.status).toBe(302)
    expect(location(erased)).toBe(path())
    expect(textOf(await admin$.follow(erased))).toContain('Person erased')

    expect(await scan([PERSON.email, PERSON.formerEmail, PERSON.displayName, PERSON.phone])).toEqual({})

    // The account: a placeholder that cannot sign in; every session and credential gone.
    const [account] = await db().select().from(users).where(eq(users.id, w.person.id))
    expect(account).toMatchObject({
      displayName: ERASED_NAME,
      phone: null,
      photoFileId: null,
      passwordHash: null,
      language: null,
      managerId: null,
      department: null,
      jobTitle: null,
    })
    expect(account!.email).toMatch(/^erased-[0-9a-f-]{36}@invalid$/)
    expect(account!.erasedAt).not.toBeNull()
    expect(account!.disabledAt).not.toBeNull()
    const [reportRow] = await db()
      .select({ managerId: users.managerId })
      .from(users)
      .where(eq(users.id, w.report.id))
    expect(reportRow!.managerId).toBeNull()
    for (const table of [sessions, userIdentities, totpCredentials, recoveryCodes, actionCodes])
      expect(await db().select().from(table).where(eq(table.userId, w.person.id))).toEqual([])
    const signedOut = await send(server, '/user', { cookie: w.cookie })
    expect(signedOut.status).toBe(302)
    expect(location(signedOut)).toMatch(/^\/sign-in/)
    // The queued messages to them (a reminder, their report is ready) and the one about their report
    // are dropped; the sent one is kept.
    expect(await queued()).toBe(before.queued - 3)
    expect(await db().select().from(emailOutbox).where(eq(emailOutbox.entityId, w.aboutThem))).toEqual([])
    expect(
      await db().select().from(emailOutbox).where(eq(emailOutbox.recipient, account!.email)),
    ).toMatchObject([{ status: 'sent', subject: `Reminder for ${ERASED_NAME}` }])
    expect(
      await db()
        .select()
        .from(rateLimits)
        .where(sql`${rateLimits.key} LIKE 'forgot:account:%'`),
    ).toEqual([])

    // Their own report is gone: no assignment about them, no release, no membership.
    expect(await db().select().from(assignments).where(eq(assignments.subjectId, w.person.id))).toEqual([])
    expect(await db().select().from(reportReleases).where(eq(reportReleases.subjectId, w.person.id))).toEqual(
      [],
    )
    expect(await loadReport(w.own.rid)).toBeNull()

    // keep_anonymous: the released reports read exactly as before; their answers stay, tied to the
    // placeholder, without the name the subject gave; the unreleased answer is gone.
    expect(JSON.stringify(await loadReport(w.a.rid))).toBe(before.a)
    expect(JSON.stringify(await loadReport(w.b.rid))).toBe(before.b)
    const kept = await db()
      .select({ subjectId: assignments.subjectId, respondentName: assignments.respondentName })
      .from(assignments)
      .where(and(eq(assignments.respondentId, w.person.id)))
    expect(kept.map((k) => k.subjectId).sort()).toEqual([w.a.subjectId, w.b.subjectId].sort())
    expect(kept.every((k) => k.respondentName === null)).toBe(true)

    // delete: at a threshold of 3, one response fewer would give their answers away (ADR 056), so the
    // report keeps the self-assessment alone; at a threshold of 1 it is computed again without them.
    const c = (await loadReport(w.c.rid)) as Ready
    expect(c.header.colleaguesShown).toBe(false)
    expect(colleagueAverages(c).every((v) => v === null)).toBe(true)
    expect(colleagueAverages(await loadReport(w.d.rid))).toEqual([1, 1, 1, 1])

    // The counts the database keeps agree with the rows.
    const [tally] = await queryRows<{ counted: number; actual: number; employees: number; live: number }>(
      db(),
      sql`SELECT (SELECT coalesce(sum(delta), 0) FROM tallies WHERE name = 'submitted')::int AS counted,
            (SELECT count(*) FROM assignments WHERE status = 'submitted')::int AS actual,
            (SELECT coalesce(sum(delta), 0) FROM tallies WHERE name = 'employees')::int AS employees,
            (SELECT count(*) FROM users WHERE role = 'employee' AND disabled_at IS NULL)::int AS live`,
    )
    expect(tally!.counted).toBe(tally!.actual)
    expect(tally!.employees).toBe(tally!.live)

    // Audited with the actor and the id only; what they did before is kept without their address.
    const audit = await db()
      .select({ actorId: auditLog.actorId, details: auditLog.details, ip: auditLog.ip })
      .from(auditLog)
      .where(and(eq(auditLog.action, 'user.erased'), eq(auditLog.entityId, w.person.id)))
    expect(audit).toEqual([
      {
        actorId: admin.id,
        ip: '127.0.0.1', // the administrator's
        details: {
          sessionsEnded: 2,
          assignmentsRemoved: 5,
          raterAnswersKept: 2,
          raterAnswersDeleted: 3,
          releasesWithdrawn: 1,
          releasesRecomputed: 1,
        },
      },
    ])
    // What they did themselves stays, without the address they did it from.
    const theirs = await db().select().from(auditLog).where(eq(auditLog.actorId, w.person.id))
    expect(theirs.map((a) => [a.action, a.ip])).toEqual([['profile.update', null]])
    const earlier = await db().select().from(auditLog).where(eq(auditLog.action, 'employee.create'))
    expect(earlier[0]!.details).toEqual({ name: ERASED_NAME, email: account!.email, phone: ERASED_PHONE })
  })

  test('erasing twice is refused in words; the page says they were erased', async () => {
    const [account] = await db().select().from(users).where(eq(users.id, w.person.id))
    const again = await erase(account!.email)
    expect(again.status).toBe(400)
    expect(textOf(await again.text())).toContain(
      'This person has already been erased. There is nothing left to erase.',
    )
    const page = textOf(await (await admin$.get(path())).text())
    expect(page).toContain(ERASED_NAME)
    expect(page).toContain('This person was erased on')
    expect(page).not.toContain('Erase this person…')
    expect(await db().select().from(auditLog).where(eq(auditLog.action, 'user.erased'))).toHaveLength(1)
  })
})

describe('the company setting', () => {
  const COMPANIES = '/admin/company-management'
  const rowOf = async (id: string) =>
    (await db().select().from(companies).where(eq(companies.id, id)))[0]!.erasureRaterAnswers

  test('keep_anonymous by default; the edit form explains and saves it, audited; a bad value is refused', async () => {
    const company = await createCompany({ name: `Setting ${crypto.randomUUID()}` })
    expect(await rowOf(company.id)).toBe('keep_anonymous')
    const page = await (await admin$.get(`${COMPANIES}?edit=${company.id}`)).text()
    expect(page).toMatch(
      /<label for="[\w-]+-erasureRaterAnswers"[^>]*>When a person is erased, their answers about others<\/label>/,
    )
    expect(page).toMatch(
      /<option value="keep_anonymous" selected="">Keep them anonymous inside released reports<\/option>/,
    )
    expect(textOf(page)).toContain('“Delete” removes every answer')

    const form = {
      intent: 'update',
      companyId: company.id,
      name: company.name,
      brandId: company.brandId,
      feedbackRequestCap: '5',
    }
    const saved = await admin$.post(`${COMPANIES}?edit=${company.id}`, {
      ...form,
      erasureRaterAnswers: 'delete',
    })
    expect(saved.status).toBe(302)
    expect(await rowOf(company.id)).toBe('delete')
    const [entry] = await db()
      .select({ details: auditLog.details })
      .from(auditLog)
      .where(and(eq(auditLog.action, 'company.update'), eq(auditLog.entityId, company.id)))
    expect(entry!.details).toEqual({
      changes: { erasureRaterAnswers: { from: 'keep_anonymous', to: 'delete' } },
    })

    // A form without the field (an older page) leaves it as it is.
    expect((await admin$.post(`${COMPANIES}?edit=${company.id}`, form)).status).toBe(302)
    expect(await rowOf(company.id)).toBe('delete')

    const bad = await admin$.post(`${COMPANIES}?edit=${company.id}`, {
      ...form,
      erasureRaterAnswers: 'shred',
    })
    expect(bad.status).toBe(400)
    expect(fieldErrors(await bad.text(), 'erasureRaterAnswers')).toEqual([
      'Choose what happens to an erased person’s answers about others.',
    ])
    expect(await rowOf(company.id)).toBe('delete')
  })
})

describe('a colleague account', () => {
  test('is erased by the same module: its answers kept anonymous where released, nothing names it', async () => {
    const company = await createCompany({ name: `Colleague Co ${crypto.randomUUID()}` })
    const questionnaire = await createQuestionnaire({ questions: QUESTIONS })
    const qs = await questionsOf(questionnaire.id)
    const scheme = await createScheme({
      companyId: company.id,
      questionnaireId: questionnaire.id,
      minRaters: 2,
    })
    const colleague = await createUser({
      role: 'colleague',
      password: null,
      displayName: 'Ottoline Vexworth',
      email: `ottoline.vexworth.${crypto.randomBytes(3).toString('hex')}@example.test`,
    })
    const subjectUser = await createUser({ role: 'employee', companyId: company.id, password: null })
    const self = (await enrolEmployee(scheme, subjectUser.id))!
    const selfResponse = await createResponse({
      assignmentId: self.id,
      answers: answersFor(qs),
      submitted: true,
    })
    for (const rater of [colleague, await createUser({ role: 'colleague', password: null })]) {
      const assignment = await createRaterAssignment({
        scheme,
        subjectId: subjectUser.id,
        respondentId: rater.id,
        respondentName: rater.displayName,
      })
      await createResponse({
        assignmentId: assignment.id,
        answers: answersFor(qs, { value: 2 }),
        submitted: true,
      })
    }
    await releaseNow(scheme.id, subjectUser.id)
    const before = JSON.stringify(await loadReport(selfResponse.id))

    const outcome = await erasePerson({ id: admin.id }, colleague.id, colleague.email)
    expect(outcome).toMatchObject({ ok: true, value: { raterAnswersKept: 1, raterAnswersDeleted: 0 } })
    expect(await scan([colleague.email, colleague.displayName])).toEqual({})
    expect(JSON.stringify(await loadReport(selfResponse.id))).toBe(before)
    expect(await erasePerson({ id: admin.id }, colleague.id, colleague.email)).toMatchObject({
      ok: false,
      formErrors: ['This person has already been erased. There is nothing left to erase.'],
    })
    // An administrator is not a person this erases.
    expect(await erasePerson({ id: admin.id }, admin.id, admin.email)).toMatchObject({
      ok: false,
      notFound: true,
    })
  })
})
