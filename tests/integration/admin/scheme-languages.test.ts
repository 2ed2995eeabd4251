import { and, eq } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'
import { auditLog, questionnaires, questions, schemes } from '#db/schema/index'
import { createCompany, createQuestionnaire, createScheme, createUser, enrolEmployee } from '#db/factories'
import { useTestDatabase } from '#tests/support/database'
import { client, cookiesFrom, send, signedIn, useTestServer } from '#tests/support/app'
import { textOf as visibleText } from '#tests/integration/auth/helpers'

/**
 * A scheme's languages (issue 20 §3, ADR 051) through the built server: chosen on the form (the
 * questionnaire's source language always among them), refused in words when not a portal language,
 * shown on the scheme's page with what the questionnaire lacks in them, and the launch warning.
 */
const db = useTestDatabase()
const server = useTestServer()

const PAGE = '/admin/scheme-management'
let cookie = ''
beforeAll(async () => {
  cookie = (await signedIn({ role: 'admin' })).cookie
})
const { post } = client(server, () => cookie)

async function germanInPart() {
  const qn = await createQuestionnaire({ title: 'Leading well' })
  await db()
    .update(questionnaires)
    .set({ translations: { de: { title: 'Gut führen' } } })
    .where(eq(questionnaires.id, qn.id))
  await db()
    .update(questions)
    .set({ translations: { de: { text: 'Ich höre zu.', raterText: '{{name}} hört zu.' } } })
    .where(eq(questions.questionnaireId, qn.id))
  return qn
}

const form = (companyId: string, questionnaireId: string, extra: Record<string, string> = {}) => {
  const body = new FormData()
  const values = {
    intent: 'create',
    name: `Languages ${Math.random().toString(36).slice(2, 8)}`,
    companyId,
    questionnaireId,
    timeZone: 'Europe/Berlin',
    opensAt: '2031-06-01T09:00',
    closesAt: '2031-06-30T17:30',
    maxColleagues: '6',
    minRaters: '3',
    reminderCadenceDays: '7',
    reportRelease: 'on_close',
  }
  for (const [k, v] of Object.entries({ ...values, ...extra })) body.append(k, v)
  return body
}

describe('a scheme’s languages', () => {
  test('default to the source language; chosen ones are kept with it; a bad code is refused in words', async () => {
    const company = await createCompany({ name: 'Sprachen GmbH' })
    const qn = await germanInPart()
    const plain = await post(PAGE, form(company.id, qn.id))
    expect(plain.status).toBe(302)
    const plainId = plain.headers.get('Location')!.split('/').pop()!.split('?')[0]!
    expect((await db().select().from(schemes).where(eq(schemes.id, plainId)))[0]!.languages).toEqual(['en'])

    const body = form(company.id, qn.id)
    body.append('languages', 'de')
    const withGerman = await post(PAGE, body)
    expect(withGerman.status).toBe(302)
    const id = withGerman.headers.get('Location')!.split('/').pop()!.split('?')[0]!
    expect((await db().select().from(schemes).where(eq(schemes.id, id)))[0]!.languages).toEqual(['en', 'de'])

    const bad = form(company.id, qn.id)
    bad.append('languages', 'xx')
    const refused = await post(PAGE, bad)
    expect(refused.status).toBe(400)
    expect(await refused.text()).toContain('Choose among the portal’s languages.')

    // The page lists them and what German still lacks: the section and the five labels.
    const html = await (await send(server, `${PAGE}/${id}`, { cookie })).text()
    expect(html).toContain('English, German')
    expect(html).toContain('German lacks 6 texts')
    const englishOnly = await (await send(server, `${PAGE}/${plainId}`, { cookie })).text()
    expect(visibleText(englishOnly)).not.toContain('not fully translated')
  })

  test('an edit changes them (audited); launching warns about the untranslated texts and still launches', async () => {
    const qn = await germanInPart()
    const company = await createCompany({})
    const scheme = await createScheme({
      companyId: company.id,
      questionnaireId: qn.id,
      status: 'draft',
      opensAt: new Date(Date.now() + 24 * 3600 * 1000),
      closesAt: new Date(Date.now() + 30 * 24 * 3600 * 1000),
    })
    const employee = await createUser({ role: 'employee', companyId: company.id })
    await enrolEmployee(scheme, employee.id)
    const edit = form(company.id, qn.id, {
      intent: 'update',
      name: scheme.name,
      opensAt: new Date(scheme.opensAt.getTime() + 3600 * 1000).toISOString().slice(0, 16),
      closesAt: '2031-06-30T17:30',
      timeZone: 'UTC',
    })
    edit.append('languages', 'fr')
    edit.append('languages', 'de')
    const saved = await post(`${PAGE}/${scheme.id}`, edit)
    expect(saved.status).toBe(302)
    const [row] = await db().select().from(schemes).where(eq(schemes.id, scheme.id))
    expect(row!.languages).toEqual(['en', 'de', 'fr'])
    const [audit] = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityId, scheme.id), eq(auditLog.action, 'scheme.update')))
    expect(JSON.stringify(audit!.details)).toContain('"languages"')

    const launched = await post(`${PAGE}/${scheme.id}`, { intent: 'launch' })
    expect(launched.status).toBe(302)
    expect((await db().select().from(schemes).where(eq(schemes.id, scheme.id)))[0]!.status).toBe('open')
    const after = await send(server, launched.headers.get('Location')!, {
      cookie: cookiesFrom(launched, cookie),
    })
    const text = await after.text()
    expect(text).toContain('The questionnaire is not fully translated')
    expect(text).toMatch(/German lacks 6 texts, French lacks 9 texts/)
  })
})
