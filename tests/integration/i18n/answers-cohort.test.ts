import { eq } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'
import { questionnaireSections, questions, responses, schemes } from '#db/schema/index'
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
import { DEMO_QUESTIONS } from '#db/seed'
import { releaseOnClose } from '#app/modules/report/release.server'
import { addParticipant } from '#tests/integration/journey/report-scenario'
import { formatDate } from '#app/lib/dates'
import { useTestDatabase } from '#tests/support/database'
import { cookiesFrom, location, send, signedIn, useTestServer } from '#tests/support/app'
import { textOf, titleOf } from '#tests/integration/auth/helpers'
import { usePreviewLanguages } from '#tests/support/languages'

/**
 * Answer management and the cohort pages in the admin's language (issue 20 §3, ADR 050/051): with
 * German previewed and asked for by the browser, the list, one response (its questionnaire's wording
 * in German where the scheme offers German and it is translated, the source wording where not),
 * reopen requests, the group report and heatmap speak German, with German dates, form messages,
 * toasts and plain-text refusals; without the preview, English as before.
 */
const db = useTestDatabase()
const server = useTestServer()

const PAGE = '/admin/answer-management'
const GERMAN = { 'Accept-Language': 'de-DE,de;q=0.9' }
/** A language not shipped (French is in preview only): English is served. */
const FRENCH = { 'Accept-Language': 'fr-FR,fr;q=0.9' }
let adminCookie = ''
let world: Awaited<ReturnType<typeof makeWorld>>

const preview = usePreviewLanguages(server)

async function makeWorld() {
  const company = await createCompany({ name: 'Acme Sprachen' })
  const scheme = await createScheme({ companyId: company.id, name: 'Frühjahr 360' })
  await db()
    .update(schemes)
    .set({ languages: ['en', 'de'] })
    .where(eq(schemes.id, scheme.id))
  const [question] = await questionsOf(scheme.questionnaireId)
  const labels = ((question!.options as { labels?: string[] }).labels ?? []).map((l) =>
    l === 'Often' ? 'Oft' : '',
  )
  await db()
    .update(questions)
    .set({ translations: { de: { text: 'Ich höre anderen aufmerksam zu.', raterText: '', labels } } })
    .where(eq(questions.id, question!.id))
  await db()
    .update(questionnaireSections)
    .set({ translations: { de: { title: 'Zusammenarbeit' } } })
    .where(eq(questionnaireSections.id, question!.sectionId))
  const subject = await createUser({ role: 'employee', companyId: company.id, displayName: 'Sam Subject' })
  const self = (await enrolEmployee(scheme, subject.id))!
  const selfResponse = await createResponse({
    assignmentId: self.id,
    submitted: true,
    answers: [{ questionId: question!.id, numericValue: 4 }],
  })
  const rater = await createUser({ role: 'colleague', displayName: 'Rita Rater' })
  const a = await createRaterAssignment({
    scheme,
    subjectId: subject.id,
    respondentId: rater.id,
    relationship: 'peer',
  })
  const raterResponse = await createResponse({
    assignmentId: a.id,
    submitted: true,
    answers: [{ questionId: question!.id, numericValue: 4 }],
  })
  await db()
    .update(responses)
    .set({ reopenRequestedAt: new Date(), reopenRequestNote: 'Falsche Person bewertet.' })
    .where(eq(responses.id, raterResponse.id))
  return { company, scheme, selfResponse, raterResponse }
}

beforeAll(async () => {
  adminCookie = (await signedIn({ role: 'admin', displayName: 'Ada Admin' })).cookie
  world = await makeWorld()
})

async function page(path: string, headers: Record<string, string> = {}) {
  const response = await send(server, path, { cookie: adminCookie, headers })
  expect(response.status, path).toBe(200)
  return response.text()
}
const langOf = (html: string) => /<html lang="([^"]*)"/.exec(html)?.[1]

describe('answer management in German', () => {
  test('the list: words, title, filters, states and German dates', async () => {
    preview('de,fr')
    const html = await page(PAGE, GERMAN)
    expect(langOf(html)).toBe('de')
    expect(titleOf(html)).toBe('Antwortverwaltung · Panorama admin')
    const text = textOf(html)
    expect(text).toContain('Alle Antworten, ohne die Namen der Antwortenden')
    expect(text).toContain('Eine Anfrage zum Wiederöffnen wartet')
    expect(text).toContain('Selbsteinschätzung')
    expect(text).toContain('Abgeschickt')
    expect(text).toContain('CSV herunterladen')
    const [row] = await db().select().from(responses).where(eq(responses.id, world.selfResponse.id))
    expect(text).toContain(formatDate(row!.startedAt, world.scheme.timeZone, 'de-DE'))
    expect(text).not.toContain('Answer management')
  })

  test('one response: the questionnaire in German where translated, the source where not', async () => {
    preview('de,fr')
    const self = textOf(await page(`${PAGE}/${world.selfResponse.id}`, GERMAN))
    expect(self).toContain('Antwort zu Sam Subject')
    expect(self).toContain('Zusammenarbeit')
    expect(self).toContain('Ich höre anderen aufmerksam zu.')
    expect(self).toContain('4 — Oft')
    expect(self).toContain('Sam Subject (eigene Selbsteinschätzung)')
    // The colleague wording has no German: the source, with the subject's name.
    const rater = textOf(await page(`${PAGE}/${world.raterResponse.id}`, GERMAN))
    expect(rater).toContain('Sam Subject listens carefully to others.')
    expect(rater).toContain('Die antwortende Person möchte diese Antworten ändern')
    expect(rater).toContain('Anzeigen, wer geantwortet hat')
  })

  test('a form message and a toast in German', async () => {
    preview('de,fr')
    const refused = await send(server, `${PAGE}/${world.raterResponse.id}`, {
      cookie: adminCookie,
      headers: GERMAN,
      form: { intent: 'reopen', reason: ' ' },
    })
    expect(refused.status).toBe(400)
    expect(textOf(await refused.text())).toContain('Geben Sie an, warum die Antworten wieder geöffnet werden')
    const done = await send(server, `${PAGE}/${world.selfResponse.id}`, {
      cookie: adminCookie,
      headers: GERMAN,
      form: { intent: 'reopen', reason: 'Bitte prüfen Sie Abschnitt 2.' },
    })
    expect(done.status).toBe(302)
    const landed = await send(server, location(done)!, {
      cookie: cookiesFrom(done, adminCookie),
      headers: GERMAN,
    })
    const text = textOf(await landed.text())
    expect(text).toContain('Antworten wieder geöffnet')
    expect(text).toContain('kann ihre Antworten zu Sam Subject ändern')
  })

  test('a refusal that names the scheme, in German', async () => {
    const elsewhere = await createCompany({ name: 'Herbst GmbH' })
    const closed = await createScheme({ companyId: elsewhere.id, name: 'Herbst 360', status: 'closed' })
    const person = await createUser({ role: 'employee', companyId: elsewhere.id, displayName: 'Olga' })
    const [question] = await questionsOf(closed.questionnaireId)
    const answered = await createResponse({
      assignmentId: (await enrolEmployee(closed, person.id))!.id,
      submitted: true,
      answers: [{ questionId: question!.id, numericValue: 3 }],
    })
    preview('de,fr')
    const refused = await send(server, `${PAGE}/${answered.id}`, {
      cookie: adminCookie,
      headers: GERMAN,
      form: { intent: 'reopen', reason: 'Bitte noch einmal.' },
    })
    expect(refused.status).toBe(400)
    expect(textOf(await refused.text())).toContain('und Herbst 360 ist derzeit nicht offen')
  })

  test('reopen requests, and the CSV’s refusal in words', async () => {
    preview('de,fr')
    const html = await page(`${PAGE}/reopen-requests`, GERMAN)
    expect(titleOf(html)).toBe('Anfragen zum Wiederöffnen · Antwortverwaltung · Panorama admin')
    const text = textOf(html)
    expect(text).toContain('Feedback einer Kollegin oder eines Kollegen zu Sam Subject')
    expect(text).toContain('angefragt am')
    expect(text).toContain('Anfrage ablehnen')
    const csv = await send(server, `${PAGE}/export.csv?state=bogus`, { cookie: adminCookie, headers: GERMAN })
    expect(csv.status).toBe(400)
    expect(await csv.text()).toContain('Es wurde nichts exportiert')
  })
})

describe('the cohort pages in German', () => {
  test('group report, heatmap and the PDF’s refusal', async () => {
    preview('de,fr')
    const base = `/admin/scheme-management/${world.scheme.id}`
    const report = await page(`${base}/group-report`, GERMAN)
    expect(langOf(report)).toBe('de')
    expect(titleOf(report)).toBe('Gruppenbericht · Frühjahr 360 · Panorama admin')
    expect(textOf(report)).toContain('Gruppenbericht: Frühjahr 360')
    expect(textOf(report)).toContain('Es wurde noch kein Bericht freigegeben.')
    expect(textOf(report)).toContain('Zurück zum Programm')
    const heatmap = textOf(await page(`${base}/heatmap`, GERMAN))
    expect(heatmap).toContain('Tabelle mit Selbsteinschätzung')
    expect(heatmap).toContain('Die Heatmap füllt sich')
    const company = textOf(await page(`/admin/company-management/${world.company.id}/group-report`, GERMAN))
    expect(company).toContain('Acme Sprachen, über 1 Programm')
    const pdf = await send(server, `${base}/group-report.pdf`, { cookie: adminCookie, headers: GERMAN })
    expect(pdf.status).toBe(409)
    expect(await pdf.text()).toContain('Der Gruppenbericht hat nichts zu drucken')
  })
})

describe('a released cohort in German', () => {
  test('the figures with a decimal comma, the series and counts in German', async () => {
    const company = await createCompany({ name: 'Kohorte GmbH' })
    const questionnaire = await createQuestionnaire({ title: 'Kohorte 360', questions: DEMO_QUESTIONS })
    const qs = await questionsOf(questionnaire.id)
    const scheme = await createScheme({
      name: 'Kohorte A',
      companyId: company.id,
      questionnaireId: questionnaire.id,
      opensAt: new Date(Date.now() - 30 * 86_400_000),
      closesAt: new Date(Date.now() - 86_400_000),
      status: 'closed',
      minRaters: 3,
    })
    const answers = (value: (i: number) => number) =>
      qs.map((q, i) =>
        q.kind === 'scale'
          ? { questionId: q.id, numericValue: value(i) }
          : q.kind === 'single' || q.kind === 'multi'
            ? { questionId: q.id, choices: q.options.labels!.slice(0, 1) }
            : { questionId: q.id, textValue: 'Ein Kommentar' },
      )
    for (let p = 0; p < 3; p++)
      await addParticipant(scheme, {
        name: `Person ${p}`,
        self: answers((i) => 1 + ((i + p) % 5)),
        colleagues: Array.from({ length: 3 }, (_, r) => ({
          answers: answers((i) => 2 + ((i + r + p) % 3)),
          relationship: 'peer' as const,
        })),
        release: false,
      })
    await releaseOnClose(new Date(), { schemeId: scheme.id })
    preview('de,fr')
    const base = `/admin/scheme-management/${scheme.id}`
    const report = textOf(await page(`${base}/group-report`, GERMAN))
    expect(report).toContain('3 Teilnehmende mit freigegebenem Bericht, davon 3 mit Ergebnissen')
    expect(report).toContain('Alle Kolleginnen und Kollegen')
    expect(report).toMatch(/Kompetenzmittelwerte nach Bewertergruppe/)
    expect(report).toMatch(/ \d,\d n = 3 /)
    expect(report).not.toMatch(/ \d\.\d n = 3 /)
    const heatmap = textOf(await page(`${base}/heatmap?view=table`, GERMAN))
    expect(heatmap).toContain('Teilnehmende Person')
    expect(heatmap).toMatch(/Person 0 (\d,\d )+/)
  })
})

describe('for a language not shipped', () => {
  test('English, as before, whatever the browser asks for', async () => {
    const list = await page(PAGE, FRENCH)
    expect(langOf(list)).toBe('en')
    expect(titleOf(list)).toBe('Answer management · Panorama admin')
    expect(textOf(list)).toContain('One reopen request is waiting')
    const rater = textOf(await page(`${PAGE}/${world.raterResponse.id}`, FRENCH))
    expect(rater).toContain('Working together')
    expect(rater).toContain('Sam Subject listens carefully to others.')
    const report = await page(`/admin/scheme-management/${world.scheme.id}/group-report`, FRENCH)
    expect(textOf(report)).toContain('No report has been released yet.')
    expect(textOf(report)).not.toContain('Gruppenbericht')
  })
})
