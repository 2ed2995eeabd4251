import { and, asc, eq } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'
import { auditLog, questionnaireSections, questionnaires, questions } from '#db/schema/index'
import { useTestDatabase } from '#tests/support/database'
import { client, send, signedIn, useTestServer } from '#tests/support/app'

/**
 * Questionnaires in several languages (issue 20 §3, ADR 051) through the built server: saving each
 * item's translation (drafts only, audited, with the source texts' limits), labels' translations
 * following their source labels, reading in a language with fallback, and what is untranslated.
 */
const db = useTestDatabase()
const server = useTestServer()

const LIST = '/admin/questionnaire-management'
let admin = ''
let employee = ''

beforeAll(async () => {
  admin = (await signedIn({ role: 'admin' })).cookie
  employee = (await signedIn({ role: 'employee' })).cookie
})

const { post, get } = client(server, () => admin)

async function draftWithQuestion() {
  const created = await post(LIST, {
    intent: 'create',
    title: `Languages ${Math.random().toString(36).slice(2, 8)}`,
  })
  expect(created.status).toBe(302)
  const id = created.headers.get('Location')!.split('/').pop()!
  expect(
    (await post(`${LIST}/${id}`, { intent: 'details', title: 'Feedback', intro: 'Please be honest.' }))
      .status,
  ).toBe(302)
  expect((await post(`${LIST}/${id}`, { intent: 'add-section', title: 'Working together' })).status).toBe(302)
  const [section] = await db()
    .select()
    .from(questionnaireSections)
    .where(eq(questionnaireSections.questionnaireId, id))
  const added = await post(`${LIST}/${id}`, {
    intent: 'add-question',
    sectionId: section!.id,
    kind: 'scale',
    text: 'I listen.',
    raterText: '{{name}} listens.',
    category: 'Communication',
  })
  expect(added.status).toBe(302)
  const questionId = added.headers.get('Location')!.split('#question-')[1]!
  return { id, sectionId: section!.id, questionId }
}

const questionRow = async (id: string) =>
  (await db().select().from(questions).where(eq(questions.id, id)))[0]!

describe('saving translations', () => {
  test('each item in German, audited; an empty field clears it; the page reads the language with fallback', async () => {
    const { id, sectionId, questionId } = await draftWithQuestion()
    const details = await post(`${LIST}/${id}`, {
      intent: 'translate-details',
      language: 'de',
      title: 'Rückmeldung',
      intro: '',
    })
    expect(details.status).toBe(302)
    expect(details.headers.get('Location')).toContain('?language=de#details')
    const section = await post(`${LIST}/${id}`, {
      intent: 'translate-section',
      language: 'de',
      sectionId,
      title: 'Zusammenarbeit',
    })
    expect(section.status).toBe(302)
    const question = await post(`${LIST}/${id}`, {
      intent: 'translate-question',
      language: 'de',
      questionId,
      text: 'Ich höre zu.',
      raterText: '{{name}} hört zu.',
      'labels[0]': 'Nie',
      'labels[2]': 'Manchmal',
    })
    expect(question.status).toBe(302)

    const [qn] = await db().select().from(questionnaires).where(eq(questionnaires.id, id))
    expect(qn!.translations).toEqual({ de: { title: 'Rückmeldung' } })
    const [s] = await db().select().from(questionnaireSections).where(eq(questionnaireSections.id, sectionId))
    expect(s!.translations).toEqual({ de: { title: 'Zusammenarbeit' } })
    const q = await questionRow(questionId)
    expect(q.translations).toEqual({
      de: { text: 'Ich höre zu.', raterText: '{{name}} hört zu.', labels: ['Nie', '', 'Manchmal', '', ''] },
    })
    const audits = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityId, id), eq(auditLog.action, 'questionnaire.translate')))
    expect(audits).toHaveLength(3)

    // The German view: source beside each translation, and how much is still untranslated
    // (the intro, three of the five labels).
    const html = await (await get(`${LIST}/${id}?language=de`)).text()
    expect(html).toContain('Zusammenarbeit')
    expect(html).toContain('Ich höre zu.')
    expect(html).toMatch(/<strong>4<\/strong> untranslated/)
    // Only the untranslated: the question stays (three labels lack), the translated section title goes.
    const only = await (await get(`${LIST}/${id}?language=de&untranslated=1`)).text()
    expect(only).toContain('Question: I listen.')
    expect(only).not.toContain('Section: Working together')

    // Clearing every field of the section removes the language from it.
    await post(`${LIST}/${id}`, { intent: 'translate-section', language: 'de', sectionId, title: '' })
    const [cleared] = await db()
      .select()
      .from(questionnaireSections)
      .where(eq(questionnaireSections.id, sectionId))
    expect(cleared!.translations).toEqual({})
  })

  test('bad input is refused in words (400), never a 500', async () => {
    const { id, sectionId, questionId } = await draftWithQuestion()
    const cases: Array<[Record<string, string>, RegExp]> = [
      [{ intent: 'translate-details', language: 'xx', title: 'T' }, /Choose one of the portal’s languages/],
      [{ intent: 'translate-details', language: 'en', title: 'T' }, /the questionnaire’s own language/],
      [{ intent: 'translate-details', language: 'de', title: 'x'.repeat(201) }, /200 characters or fewer/],
      [
        { intent: 'translate-section', language: 'de', sectionId: 'nope', title: 'T' },
        /could not be identified/,
      ],
      [
        { intent: 'translate-question', language: 'de', questionId, raterText: 'Hört zu.' },
        /must contain \{\{name\}\}/,
      ],
      [
        { intent: 'translate-question', language: 'de', questionId, raterText: '{{nom}} hört zu.' },
        /unknown placeholder/,
      ],
      [{ intent: 'translate-question', language: 'de', questionId, text: 'Zeile\u0007' }, /./],
      [
        { intent: 'translate-question', language: 'de', questionId, 'labels[0]': 'x'.repeat(81) },
        /80 characters or fewer/,
      ],
      [
        { intent: 'translate-question', language: 'de', questionId, 'labels[7]': 'Zu viel' },
        /more translated labels than the question has/,
      ],
    ]
    for (const [form, message] of cases) {
      const r = await post(`${LIST}/${id}`, form)
      expect(r.status, JSON.stringify(form)).toBe(400)
      expect(await r.text()).toMatch(message)
    }
    expect((await questionRow(questionId)).translations).toEqual({})
    void sectionId
  })

  test('guards: an employee cannot translate, a published questionnaire is frozen', async () => {
    const { id, questionId } = await draftWithQuestion()
    const r = await post(
      `${LIST}/${id}`,
      { intent: 'translate-question', language: 'de', questionId, text: 'X' },
      employee,
    )
    expect([302, 303, 403, 404]).toContain(r.status)
    expect((await questionRow(questionId)).translations).toEqual({})
    expect((await post(`${LIST}/${id}`, { intent: 'publish' })).status).toBe(302)
    const frozen = await post(`${LIST}/${id}`, {
      intent: 'translate-question',
      language: 'de',
      questionId,
      text: 'X',
    })
    expect(frozen.status).toBe(400)
    expect(await frozen.text()).toContain('published, so it can no longer change')
  })

  test("a label's translation follows it when the source labels move, are removed or added", async () => {
    const { id, questionId } = await draftWithQuestion()
    await post(`${LIST}/${id}`, {
      intent: 'translate-question',
      language: 'de',
      questionId,
      'labels[0]': 'Nie',
      'labels[1]': 'Selten',
      'labels[2]': 'Manchmal',
      'labels[3]': 'Oft',
      'labels[4]': 'Immer',
    })
    expect(
      (await post(`${LIST}/${id}`, { intent: 'move-option', questionId, index: '0', direction: 'down' }))
        .status,
    ).toBe(302)
    expect((await post(`${LIST}/${id}`, { intent: 'remove-option', questionId, index: '4' })).status).toBe(
      302,
    )
    expect(
      (await post(`${LIST}/${id}`, { intent: 'add-option', questionId, label: 'Very often' })).status,
    ).toBe(302)
    const q = await questionRow(questionId)
    expect(q.options.labels).toEqual(['Rarely', 'Never', 'Sometimes', 'Often', 'Very often'])
    expect(q.translations.de!.labels).toEqual(['Selten', 'Nie', 'Manchmal', 'Oft', ''])
  })

  test('a new version and a duplicate carry the translations', async () => {
    const { id, questionId } = await draftWithQuestion()
    await post(`${LIST}/${id}`, {
      intent: 'translate-question',
      language: 'de',
      questionId,
      text: 'Ich höre zu.',
    })
    await post(`${LIST}/${id}`, { intent: 'publish' })
    const next = await post(`${LIST}/${id}`, { intent: 'new-version' })
    const nextId = next.headers.get('Location')!.split('/').pop()!
    const copied = await db()
      .select({ translations: questions.translations })
      .from(questions)
      .where(eq(questions.questionnaireId, nextId))
      .orderBy(asc(questions.position))
    expect(copied[0]!.translations).toEqual({ de: { text: 'Ich höre zu.' } })
  })
})

describe('publishing warns about untranslated languages', () => {
  test('publish succeeds and its message says what German lacks', async () => {
    const { id, questionId } = await draftWithQuestion()
    await post(`${LIST}/${id}`, {
      intent: 'translate-question',
      language: 'de',
      questionId,
      text: 'Ich höre zu.',
    })
    const page = await (await get(`${LIST}/${id}?confirm=publish`)).text()
    expect(page).toMatch(/German lacks/)
    const r = await post(`${LIST}/${id}`, { intent: 'publish' })
    expect(r.status).toBe(302)
    const [qn] = await db().select().from(questionnaires).where(eq(questionnaires.id, id))
    expect(qn!.status).toBe('published')
    const toast = await (
      await send(server, r.headers.get('Location')!, { cookie: cookiesOf(r, admin) })
    ).text()
    expect(toast).toMatch(/German lacks 9 texts/)
  })
})

function cookiesOf(response: Response, cookie: string) {
  const set = response.headers.getSetCookie().map((c) => c.split(';')[0])
  return [cookie, ...set].join('; ')
}

describe('export and import carry the translations', () => {
  const upload = (content: string) => {
    const form = new FormData()
    form.append('intent', 'import')
    form.append('file', new File([content], 'q.json', { type: 'application/json' }))
    return post(LIST, form)
  }

  test('the file holds each item’s translations and an import restores them', async () => {
    const { id, sectionId, questionId } = await draftWithQuestion()
    await post(`${LIST}/${id}`, {
      intent: 'translate-details',
      language: 'de',
      title: 'Rückmeldung',
      intro: 'Bitte ehrlich.',
    })
    await post(`${LIST}/${id}`, {
      intent: 'translate-section',
      language: 'de',
      sectionId,
      title: 'Zusammenarbeit',
    })
    await post(`${LIST}/${id}`, {
      intent: 'translate-question',
      language: 'de',
      questionId,
      text: 'Ich höre zu.',
      raterText: '{{name}} hört zu.',
      'labels[1]': 'Selten',
    })
    const file = JSON.parse(await (await get(`${LIST}/${id}/export.json`)).text())
    expect(file.translations).toEqual({ de: { title: 'Rückmeldung', intro: 'Bitte ehrlich.' } })
    expect(file.sections[0].translations).toEqual({ de: { title: 'Zusammenarbeit' } })
    expect(file.sections[0].questions[0].translations).toEqual({
      de: { text: 'Ich höre zu.', raterText: '{{name}} hört zu.', labels: ['', 'Selten', '', '', ''] },
    })
    const imported = await upload(JSON.stringify(file))
    expect(imported.status).toBe(302)
    const newId = imported.headers.get('Location')!.split('/').pop()!
    const [qn] = await db().select().from(questionnaires).where(eq(questionnaires.id, newId))
    expect(qn!.translations).toEqual({ de: { title: 'Rückmeldung', intro: 'Bitte ehrlich.' } })
    const [q] = await db().select().from(questions).where(eq(questions.questionnaireId, newId))
    expect(q!.translations.de!.labels).toEqual(['', 'Selten', '', '', ''])
  })

  test('a file with bad translations is refused in words, naming each place, and nothing is imported', async () => {
    const before = (await db().select({ id: questionnaires.id }).from(questionnaires)).length
    const file = {
      format: 'panorama-questionnaire',
      version: 1,
      title: 'Bad translations',
      sourceLanguage: 'en',
      translations: { en: { title: 'Same' }, xx: { title: 'Unknown' } },
      sections: [
        {
          title: 'S',
          translations: { de: { title: 'x'.repeat(121) } },
          questions: [
            {
              kind: 'single',
              text: 'I?',
              raterText: '{{name}}?',
              competency: 'C',
              choices: ['Yes', 'No'],
              translations: { de: { raterText: 'Er?', labels: ['Ja', 'Nein', 'Vielleicht'], extra: 1 } },
            },
          ],
        },
      ],
    }
    const r = await upload(JSON.stringify(file))
    expect(r.status).toBe(400)
    const html = (await r.text()).replaceAll('&quot;', '"')
    expect(html).toContain('translations: has unknown field "xx"')
    expect(html).toContain('sections[0].translations.de.title: must be 120 characters or fewer')
    expect(html).toContain('sections[0].questions[0].translations.de.raterText: must contain {{name}}')
    expect(html).toContain('sections[0].questions[0].translations.de: has unknown field "extra"')
    expect((await db().select({ id: questionnaires.id }).from(questionnaires)).length).toBe(before)

    // The source language as a translation, and more labels than the question has.
    expect(html).toContain('translations.en: is the questionnaire’s own language')
    expect(html).toContain(
      'sections[0].questions[0].translations.de.labels: has 3 labels: the question has 2',
    )
  })
})

describe('the preview in a language', () => {
  test('shows the translated texts, the source where untranslated', async () => {
    const { id, questionId } = await draftWithQuestion()
    await post(`${LIST}/${id}`, {
      intent: 'translate-question',
      language: 'de',
      questionId,
      text: 'Ich höre zu.',
      raterText: '{{name}} hört zu.',
      'labels[0]': 'Nie',
    })
    const self = await (await get(`${LIST}/${id}?language=de&preview=self`)).text()
    expect(self).toContain('in German')
    expect(self).toContain('Ich höre zu.')
    expect(self).toContain('Nie')
    expect(self).toContain('Rarely')
    const colleague = await (await get(`${LIST}/${id}?language=de&preview=colleague`)).text()
    expect(colleague).toContain('Alex Example hört zu.')
    // What the page shows (the loader's data, with every translation, rides in its scripts).
    const shown = (html: string) => html.replace(/<script[\s\S]*?<\/script>/g, '')
    const source = shown(await (await get(`${LIST}/${id}?preview=self`)).text())
    expect(source).toContain('I listen.')
    expect(source).not.toContain('Ich höre zu.')
    expect(shown(self)).not.toContain('I listen.')
  })
})
