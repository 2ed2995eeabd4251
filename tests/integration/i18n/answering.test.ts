import { eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { companies, questions, schemes, users } from '#db/schema/index'
import { createBrand, createQuestionnaire, createScheme, enrolEmployee, questionsOf } from '#db/factories'
import { useTestDatabase } from '#tests/support/database'
import { cookiesFrom, location, send, sessionCookieFor, signedIn, useTestServer } from '#tests/support/app'
import { textOf, titleOf } from '#tests/integration/auth/helpers'
import { buildReport } from '#tests/integration/journey/report-scenario'
import { usePreviewLanguages } from '#tests/support/languages'

/**
 * The answering pages, the development plan and "Shared with you" in the reader's language (issue 20
 * §3, ADR 050): with German previewed, a reader whose brand speaks German gets the pages' own words,
 * dates, a form's message and the toasts in German, <html lang="de">; without it, the same pages
 * read as they always have.
 */
const db = useTestDatabase()
const server = useTestServer()

const preview = usePreviewLanguages(server)

const langOf = (html: string) => /<html lang="([^"]*)"/.exec(html)?.[1]

/**
 * An employee of a company whose brand's default language is German (or the language given), with a
 * self-assessment in a scheme offered in English and German.
 */
async function germanEmployee(brandLanguage: 'de' | 'fr' = 'de') {
  const brand = await createBrand({ defaultLanguage: brandLanguage })
  const qn = await createQuestionnaire({
    title: 'Working together',
    questions: [
      {
        section: 'Listening',
        kind: 'scale',
        text: 'I listen carefully.',
        raterText: '{{name}} listens carefully.',
        category: 'Communication',
        options: { min: 1, max: 3, labels: ['Rarely', 'Sometimes', 'Often'], allowNa: true },
        required: true,
      },
      {
        section: 'Listening',
        kind: 'single',
        text: 'I ask questions.',
        raterText: '{{name}} asks questions.',
        category: 'Communication',
        options: { labels: ['Yes', 'No'] },
      },
      {
        section: 'Growth',
        kind: 'text',
        text: 'One thing to keep:',
        raterText: 'One thing {{name}} should keep:',
        category: 'Growth',
        required: false,
      },
    ],
  })
  const { user, cookie } = await signedIn({ role: 'employee' })
  const scheme = await createScheme({ questionnaireId: qn.id, languages: ['en', 'de'] })
  await db().update(companies).set({ brandId: brand.id }).where(eq(companies.id, scheme.companyId))
  await db().update(users).set({ companyId: scheme.companyId }).where(eq(users.id, user.id))
  const self = await enrolEmployee(scheme, user.id)
  return { user, cookie, qn, self, brand, questions: await questionsOf(qn.id) }
}

const get = async (path: string, cookie: string) => {
  const response = await send(server, path, { cookie, headers: { 'Accept-Language': 'en-US,en;q=0.9' } })
  return { status: response.status, html: await response.text() }
}

function formOf(pairs: Array<[string, string]>) {
  const body = new FormData()
  for (const [k, v] of pairs) body.append(k, v)
  return body
}

describe('the answering pages in German', () => {
  test('the introduction and the answering page: words, title, dates, <html lang="de">', async () => {
    preview('de')
    const { cookie, qn, self } = await germanEmployee()
    const intro = await get(`/questionnaire/${qn.id}?assignment=${self.id}`, cookie)
    expect(intro.status).toBe(200)
    expect(langOf(intro.html)).toBe('de')
    expect(titleOf(intro.html)).toBe('Working together · Einführung · Panorama')
    const introText = textOf(intro.html)
    expect(introText).toContain('Ihre Selbsteinschätzung: Die Fragen betreffen Sie selbst.')
    expect(introText).toContain('3 Fragen in 2 Abschnitten')
    expect(introText).toContain('Status: Nicht begonnen')
    expect(introText).toMatch(/noch \d+ Tage/)
    // The deadline in German, as Intl writes it ("30. Juni 2026 um 23:59 MESZ").
    expect(introText).toMatch(
      /\d{1,2}\. (Januar|Februar|März|April|Mai|Juni|Juli|August|September|Oktober|November|Dezember) \d{4} um/,
    )
    expect(introText).toContain('Beginnen')

    const page = await get(`/assignment/${self.id}`, cookie)
    expect(langOf(page.html)).toBe('de')
    expect(titleOf(page.html)).toBe('Listening (Abschnitt 1 von 2) · Working together · Panorama')
    const text = textOf(page.html)
    for (const words of [
      'Abschnitt 1 von 2',
      '0 von 3 Fragen beantwortet',
      'Pflichtfrage',
      'Nicht zutreffend',
      'Bitte antworten Sie bis',
      'Speichern und später fertigstellen',
      'Nächster Abschnitt →',
    ])
      expect(text, words).toContain(words)
    expect(text).not.toContain('Next section')
  })

  test('a refused answer says why in German; a save’s toast is German', async () => {
    preview('de')
    const { cookie, self, questions } = await germanEmployee()
    const [, single] = questions
    const refused = await send(server, `/assignment/${self.id}?section=1`, {
      cookie,
      form: formOf([
        ['intent', 'save'],
        ['section', '1'],
        [`q-${single!.id}`, 'Maybe'],
      ]),
    })
    expect(refused.status).toBe(400)
    const html = await refused.text()
    expect(textOf(html)).toContain('Wählen Sie eine der aufgeführten Optionen.')
    expect(textOf(html)).not.toContain('Choose one of the options listed.')
    expect(textOf(html)).toContain(
      'Eine Antwort muss korrigiert werden, bevor sie gespeichert werden kann: siehe den Hinweis bei der Frage.',
    )

    // "Next" past a required question left open: saved, with the toast saying so in German.
    const next = await send(server, `/assignment/${self.id}?section=1`, {
      cookie,
      form: formOf([
        ['intent', 'next'],
        ['section', '1'],
        [`q-${single!.id}`, 'Yes'],
      ]),
    })
    expect(next.status).toBe(302)
    const landed = await get(location(next)!, cookiesFrom(next, cookie))
    expect(textOf(landed.html)).toContain('Gespeichert, mit offenen Fragen')
    expect(textOf(landed.html)).toContain(
      'Eine Pflichtfrage in „Listening“ ist unbeantwortet. Sie können vor dem Abschicken darauf zurückkommen.',
    )
  })

  test('with a brand whose language is not shipped (French), the same pages read as they always have', async () => {
    const { cookie, qn, self } = await germanEmployee('fr')
    const intro = await get(`/questionnaire/${qn.id}?assignment=${self.id}`, cookie)
    expect(langOf(intro.html)).toBe('en')
    expect(titleOf(intro.html)).toBe('Working together · Introduction · Panorama')
    expect(textOf(intro.html)).toContain('Your self-assessment: the questions are about yourself.')
    expect(textOf(intro.html)).toContain('3 questions in 2 sections')
    const page = await get(`/assignment/${self.id}`, cookie)
    expect(titleOf(page.html)).toBe('Listening (section 1 of 2) · Working together · Panorama')
    expect(textOf(page.html)).toContain('0 of 3 questions answered')
    expect(textOf(page.html)).toContain('Save and finish later')
    expect(textOf(page.html)).not.toContain('Abschnitt')
  })
})

describe('the development plan and the shared report in German', () => {
  test('the plan page, its toast and its form message; the manager’s “Shared with you”', async () => {
    preview('de')
    // This time the people's own language is German (their profile), not their brand's.
    const s = await buildReport({ minRaters: 1, raters: [{}], release: true })
    await db().update(users).set({ language: 'de' }).where(eq(users.id, s.employee.id))
    const { user: manager, cookie: managerCookie } = await signedIn({
      role: 'employee',
      language: 'de',
      displayName: 'Mara Manager',
    })
    await db().update(users).set({ managerId: manager.id }).where(eq(users.id, s.employee.id))
    const cookie = await sessionCookieFor(s.employee.id)
    const plan = `/user/development-plan/${s.rid}`
    // The scheme offers German and a scale question has its German wording: the plan lists it so.
    await db()
      .update(schemes)
      .set({ languages: ['en', 'de'] })
      .where(eq(schemes.id, s.scheme.id))
    const scaleQuestion = s.qs.find((q) => q.kind === 'scale')!
    await db()
      .update(questions)
      .set({ translations: { de: { text: 'Ich höre aufmerksam zu.' } } })
      .where(eq(questions.id, scaleQuestion.id))

    const page = await get(plan, cookie)
    expect(page.status).toBe(200)
    expect(langOf(page.html)).toBe('de')
    expect(titleOf(page.html)).toBe('Ihr Entwicklungsplan · Panorama')
    expect(textOf(page.html)).toContain('Einen Schwerpunkt hinzufügen')
    expect(textOf(page.html)).toContain('Mit Ihrer Führungskraft teilen')
    // The focus areas to choose from: their scores and groups in German, numbers written the German way.
    expect(textOf(page.html)).toMatch(/Communication \(Sie (—|\d,\d), Kolleginnen und Kollegen (—|\d,\d)\)/)
    expect(page.html).toContain('label="Kompetenzen"')
    expect(textOf(page.html)).toMatch(/Ich höre aufmerksam zu\. \(Sie /)
    expect(page.html).toContain('label="Fragen: Communication"')
    expect(textOf(page.html)).not.toMatch(/\(you |colleagues \d|Competencies|Questions: /)

    const junk = await send(server, plan, { cookie, form: { intent: 'add', focus: 'whatever' } })
    expect(junk.status).toBe(400)
    expect(textOf(await junk.text())).toContain('Wählen Sie eine Kompetenz oder Frage aus Ihrem Bericht.')

    const added = await send(server, plan, {
      cookie,
      form: { intent: 'add', focus: 'category:Communication' },
    })
    expect(added.status).toBe(302)
    const landed = await get(location(added)!, cookiesFrom(added, cookie))
    expect(textOf(landed.html)).toContain('„Communication“ zu Ihrem Plan hinzugefügt')
    expect(textOf(landed.html)).toContain('Bereich, den Sie entwickeln')

    const shared = await send(server, plan, { cookie, form: { intent: 'share', includePlan: 'on' } })
    expect(shared.status).toBe(302)
    const after = await get(plan, cookiesFrom(shared, cookie))
    expect(textOf(after.html)).toContain('Mit Mara Manager geteilt')
    // The date the report was shared, in German.
    expect(textOf(after.html)).toMatch(/Seit \d{1,2}\. \S+ \d{4} mit Mara Manager geteilt/)

    const home = await get('/user', managerCookie)
    expect(textOf(home.html)).toContain('Mit Ihnen geteilt')
    expect(textOf(home.html)).toMatch(/geteilt am \d{1,2}\. \S+ \d{4}, mit Entwicklungsplan/)
    const report = await get(`/user/shared/${s.rid}`, managerCookie)
    expect(report.status).toBe(200)
    expect(textOf(report.html)).toMatch(/hat diesen Bericht am \d{1,2}\. \S+ \d{4} mit Ihnen geteilt/)
    expect(textOf(report.html)).toContain('Entwicklungsplan von ')
  })
})
