import { eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { answers, questionnaireSections, questionnaires, questions, schemes } from '#db/schema/index'
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
import { releaseParticipant } from '#app/modules/report/release.server'
import { useTestDatabase } from '#tests/support/database'
import { send, signedIn, useTestServer } from '#tests/support/app'
import { usePreviewLanguages } from '#tests/support/languages'

/**
 * Raters answer in their language, and reports mix languages (issue 20 §3, ADR 051), through the
 * built server: the answering page, its introduction and the report show the questionnaire in the
 * reader's language when the scheme offers it (else the source); choices keep their source labels
 * as values, so answers given in German and in English count together under one question.
 */
const db = useTestDatabase()
const server = useTestServer()

const preview = usePreviewLanguages(server)

async function bilingualScheme(languages: Array<'en' | 'de'>) {
  const qn = await createQuestionnaire({
    title: 'Working with others',
    intro: 'Answer honestly.',
    questions: [
      {
        section: 'Listening',
        kind: 'scale',
        text: 'I listen carefully.',
        raterText: '{{name}} listens carefully.',
        category: 'Communication',
        options: { min: 1, max: 3, labels: ['Rarely', 'Sometimes', 'Often'], allowNa: false },
      },
      {
        section: 'Listening',
        kind: 'single',
        text: 'I ask questions.',
        raterText: '{{name}} asks questions.',
        category: 'Communication',
        options: { labels: ['Yes', 'No'] },
      },
    ],
  })
  await db()
    .update(questionnaires)
    .set({ translations: { de: { title: 'Zusammenarbeit mit anderen', intro: 'Antworten Sie ehrlich.' } } })
    .where(eq(questionnaires.id, qn.id))
  await db()
    .update(questionnaireSections)
    .set({ translations: { de: { title: 'Zuhören' } } })
    .where(eq(questionnaireSections.questionnaireId, qn.id))
  const [scale, single] = await questionsOf(qn.id)
  await db()
    .update(questions)
    .set({
      translations: {
        de: {
          text: 'Ich höre aufmerksam zu.',
          raterText: '{{name}} hört aufmerksam zu.',
          labels: ['Selten', 'Manchmal', 'Oft'],
        },
      },
    })
    .where(eq(questions.id, scale!.id))
  await db()
    .update(questions)
    .set({
      translations: {
        de: { text: 'Ich stelle Fragen.', raterText: '{{name}} stellt Fragen.', labels: ['Ja', ''] },
      },
    })
    .where(eq(questions.id, single!.id))
  const company = await createCompany({})
  const scheme = await createScheme({
    companyId: company.id,
    questionnaireId: qn.id,
    reportRelease: 'by_admin',
    minRaters: 1,
    languages,
  })
  return { qn, scheme, company, scale: scale!, single: single! }
}

describe('answering in the reader’s language', () => {
  test('a German reader answers in German when the scheme offers it; the value posted stays the source label', async () => {
    preview('de')
    const { scheme, company, qn } = await bilingualScheme(['en', 'de'])
    const { user, cookie } = await signedIn({ role: 'employee', companyId: company.id, language: 'de' })
    const self = await enrolEmployee(scheme, user.id)
    const html = await (await send(server, `/assignment/${self.id}`, { cookie })).text()
    expect(html).toContain('Ich höre aufmerksam zu.')
    expect(html).toContain('Zusammenarbeit mit anderen')
    expect(html).toContain('Zuhören')
    expect(html).toContain('Selten')
    // The choice reads "Ja" and posts "Yes"; the untranslated "No" reads in English.
    expect(html).toMatch(/value="Yes"[^>]*\/>\s*<span>Ja<\/span>/)
    expect(html).toMatch(/value="No"[^>]*\/>\s*<span>No<\/span>/)
    expect(html).not.toContain('I listen carefully.')
    // Saving from the German page stores the question's source label and the point.
    const [scale, single] = await questionsOf(qn.id)
    const formOf = (pairs: Array<[string, string]>) => {
      const body = new FormData()
      for (const [k, v] of pairs) body.append(k, v)
      return body
    }
    const saved = await send(server, `/assignment/${self.id}?section=1`, {
      cookie,
      form: formOf([
        ['intent', 'save'],
        ['section', '1'],
        [`q-${scale!.id}`, '2'],
        [`q-${single!.id}`, 'Yes'],
      ]),
    })
    expect(saved.status).toBe(302)
    const stored = await db().select().from(answers).where(eq(answers.questionId, single!.id))
    expect(stored.map((a) => a.choices)).toEqual([['Yes']])
    // A German label posted as a value is not one of the question's choices: refused in words.
    const wrong = await send(server, `/assignment/${self.id}?section=1`, {
      cookie,
      form: formOf([
        ['intent', 'save'],
        ['section', '1'],
        [`q-${single!.id}`, 'Ja'],
      ]),
    })
    expect(wrong.status).toBe(400)
    const intro = await (
      await send(server, `/questionnaire/${qn.id}?assignment=${self.id}`, { cookie })
    ).text()
    expect(intro).toContain('Antworten Sie ehrlich.')

    // The same page in English for someone who reads English.
    const english = await signedIn({ role: 'employee', companyId: company.id, language: 'en' })
    const theirs = await enrolEmployee(scheme, english.user.id)
    const page = await (await send(server, `/assignment/${theirs.id}`, { cookie: english.cookie })).text()
    expect(page).toContain('I listen carefully.')
    expect(page).not.toContain('Ich höre aufmerksam zu.')
  })

  test('a scheme that does not offer German shows the source, even to a German reader', async () => {
    preview('de')
    const { scheme, company } = await bilingualScheme(['en'])
    const { user, cookie } = await signedIn({ role: 'employee', companyId: company.id, language: 'de' })
    const self = await enrolEmployee(scheme, user.id)
    const html = await (await send(server, `/assignment/${self.id}`, { cookie })).text()
    expect(html).toContain('I listen carefully.')
    expect(html).not.toContain('Ich höre aufmerksam zu.')
  })

  test('a report mixes answers given in both languages and reads in the reader’s language', async () => {
    preview('de')
    const { scheme, company, scale, single } = await bilingualScheme(['en', 'de'])
    const { user, cookie } = await signedIn({ role: 'employee', companyId: company.id, language: 'de' })
    const self = await enrolEmployee(scheme, user.id)
    const response = await createResponse({
      assignmentId: self.id,
      submitted: true,
      answers: [
        { questionId: scale.id, numericValue: 3 },
        { questionId: single.id, choices: ['Yes'] },
      ],
    })
    // Three colleagues: two read German, one English; their answers are stored alike.
    for (const [value, choice] of [
      [2, 'Yes'],
      [3, 'Yes'],
      [1, 'No'],
    ] as const) {
      const rater = await createUser({ role: 'colleague' })
      const a = await createRaterAssignment({ scheme, subjectId: user.id, respondentId: rater.id })
      await createResponse({
        assignmentId: a.id,
        submitted: true,
        answers: [
          { questionId: scale.id, numericValue: value },
          { questionId: single.id, choices: [choice] },
        ],
      })
    }
    const stored = await db()
      .select({ choices: answers.choices })
      .from(answers)
      .where(eq(answers.questionId, single.id))
    expect(stored.map((a) => a.choices![0]).sort()).toEqual(['No', 'Yes', 'Yes', 'Yes'])
    const admin = await createUser({ role: 'admin' })
    const released = await releaseParticipant({ id: admin.id }, scheme.id, user.id)
    expect(released.ok, JSON.stringify(released)).toBe(true)

    const german = await (await send(server, `/user/response-${response.id}`, { cookie })).text()
    expect(german).toContain('Ich höre aufmerksam zu.')
    expect(german).toContain('Ich stelle Fragen.')
    expect(german).toContain('Ja')
    expect(german).not.toContain('I listen carefully.')

    await db()
      .update(schemes)
      .set({ languages: ['en'] })
      .where(eq(schemes.id, scheme.id))
    const english = await (await send(server, `/user/response-${response.id}`, { cookie })).text()
    expect(english).toContain('I listen carefully.')
    expect(english).not.toContain('Ich höre aufmerksam zu.')
  })
})
