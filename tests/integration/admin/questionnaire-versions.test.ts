import { asc, eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { answers, questionnaires, questions } from '#db/schema/index'
import { createQuestionnaire, createUser, questionsOf } from '#db/factories'
import { useTestDatabase } from '#tests/support/database'
import { buildReport, QUESTIONS } from '#tests/integration/journey/report-scenario'
import { publishBlockers } from '#app/modules/questionnaire/checks'
import {
  questionnaireFile,
  readQuestionnaireFile,
  type QnContent,
} from '#app/modules/questionnaire/format.server'
import {
  addSection,
  contentOf,
  getQuestionnaire,
  importQuestionnaire,
  moveQuestion,
  newVersion,
  renameSection,
  updateQuestion,
  deleteQuestion,
} from '#app/modules/questionnaire/questionnaire.server'
import { loadReport } from '#app/modules/report/report.server'

/**
 * Versions and the file format at the service level: editing a questionnaire a scheme uses makes
 * a new version and never touches the answers given to the old one (whose report still renders);
 * export → import → export gives back the same file, for every kind of question.
 */
const db = useTestDatabase()

const actor = async () => ({ id: (await createUser({ role: 'admin' })).id, ip: null })

describe('versions', () => {
  test('a new version leaves v1, its answers and its report untouched', async () => {
    const scenario = await buildReport({ minRaters: 1, raters: [{}] })
    const v1 = (await getQuestionnaire(scenario.scheme.questionnaireId))!
    const before = await loadReport(scenario.rid)
    expect(before?.status).toBe('ready')
    const answersBefore = await db().select().from(answers).orderBy(asc(answers.id))
    const questionsBefore = await questionsOf(v1.id)

    const me = await actor()
    const made = await newVersion(me, v1.id)
    expect(made.ok).toBe(true)
    if (!made.ok) return
    const v2 = await getQuestionnaire(made.value.id)
    expect(v2).toMatchObject({ version: 2, status: 'draft', parentId: v1.id, lineageId: v1.lineageId })
    // Edit v2 thoroughly: rename a section, reword and move questions, delete one.
    const first = v2!.sections[0]!
    expect((await renameSection(me, v2!.id, first.id, 'Renamed')).ok).toBe(true)
    const q0 = first.questions[0]!
    expect(
      (
        await updateQuestion(me, v2!.id, q0.id, {
          kind: 'scale',
          text: 'Changed.',
          raterText: '{{name}} changed.',
          category: 'New area',
          required: false,
          allowNa: false,
          min: 0,
          max: 3,
        })
      ).ok,
    ).toBe(true)
    expect((await moveQuestion(me, v2!.id, q0.id, 'down')).ok).toBe(true)
    expect((await deleteQuestion(me, v2!.id, v2!.sections.at(-1)!.questions[0]!.id)).ok).toBe(true)
    expect((await addSection(me, v2!.id, 'Extra')).ok).toBe(true)

    // v1: the same questions, the same answers, the same report.
    expect(await questionsOf(v1.id)).toEqual(questionsBefore)
    expect(await db().select().from(answers).orderBy(asc(answers.id))).toEqual(answersBefore)
    const [v1Row] = await db().select().from(questionnaires).where(eq(questionnaires.id, v1.id))
    expect(v1Row!.status).toBe('published')
    const after = await loadReport(scenario.rid)
    expect(after).toEqual(before)
    // v2 is its own set of questions.
    const v2Questions = await db().select().from(questions).where(eq(questions.questionnaireId, v2!.id))
    expect(v2Questions.every((q) => !questionsBefore.some((b) => b.id === q.id))).toBe(true)
  })
})

describe('publish checks', () => {
  const scale = { kind: 'scale' as const, text: 'I x.', options: { min: 1, max: 5, labels: ['a', 'b'] } }
  test.each([
    ['nothing at all', [], ['Add at least one section']],
    ['an empty section', [{ title: 'E', questions: [] }], ['has no questions', 'rating-scale question']],
    [
      'a scale with one label',
      [{ title: 'A', questions: [{ ...scale, options: { labels: ['only'] } }] }],
      ['at least two labels'],
    ],
    [
      'a choice with one choice',
      [
        {
          title: 'A',
          questions: [scale, { kind: 'single' as const, text: 'Pick', options: { labels: ['x'] } }],
        },
      ],
      ['at least two choices'],
    ],
    [
      'a multi with none',
      [{ title: 'A', questions: [scale, { kind: 'multi' as const, text: 'P', options: {} }] }],
      ['at least two choices'],
    ],
    [
      'no scale question',
      [{ title: 'A', questions: [{ kind: 'text' as const, text: 'T', options: {} }] }],
      ['rating-scale question'],
    ],
    [
      'more labels than points',
      [{ title: 'A', questions: [{ ...scale, options: { min: 1, max: 2, labels: ['a', 'b', 'c'] } }] }],
      ['3 labels for 2 points'],
    ],
  ])('%s', (_name, sections, expected) => {
    const found = publishBlockers(sections).join('\n')
    for (const e of expected) expect(found).toContain(e)
  })
  test('a complete questionnaire has no blockers', () => {
    expect(publishBlockers([{ title: 'A', questions: [scale] }])).toEqual([])
  })
})

describe('export → import round trip', () => {
  const every: QnContent = {
    title: 'Every kind',
    intro: 'Line one\nLine two\twith a tab',
    sections: [
      {
        title: 'First',
        questions: [
          {
            key: crypto.randomUUID(),
            kind: 'scale',
            text: 'I a.',
            raterText: '{{name}} a.',
            competency: 'A',
            required: true,
            options: { min: 0, max: 4, labels: ['n', 'l', 'm', 'h', 'x'], allowNa: true },
          },
          {
            key: crypto.randomUUID(),
            kind: 'single',
            text: 'I b.',
            raterText: 'Does {{ name }} b?',
            competency: 'B',
            required: false,
            options: { labels: ['yes', 'no'] },
          },
        ],
      },
      { title: 'Empty', questions: [] },
      {
        title: 'Second “quoted” ünïcode 🎉',
        questions: [
          {
            key: crypto.randomUUID(),
            kind: 'multi',
            text: 'I c.',
            raterText: '{{name}} c.',
            competency: 'A',
            required: true,
            options: { labels: ['p', 'q', 'r'] },
          },
          {
            key: crypto.randomUUID(),
            kind: 'text',
            text: 'I d.',
            raterText: '{{name}} d.',
            competency: 'C',
            required: false,
            options: {},
          },
          {
            key: crypto.randomUUID(),
            kind: 'textarea',
            text: 'I e.',
            raterText: '{{name}} e.',
            competency: 'C',
            required: true,
            options: {},
          },
          {
            key: crypto.randomUUID(),
            kind: 'scale',
            text: 'I f.',
            raterText: '{{name}} f.',
            competency: 'D',
            required: true,
            options: { min: 1, max: 3, labels: [], allowNa: false },
          },
        ],
      },
    ],
  }

  test.each([
    ['every kind, an empty section, unicode', every],
    ['no sections', { title: 'Bare', intro: '', sections: [] }],
    ['the report scenario', null],
  ])('%s', async (_name, given) => {
    const me = await actor()
    let content: QnContent
    if (given) content = given
    else
      content = contentOf((await getQuestionnaire((await createQuestionnaire({ questions: QUESTIONS })).id))!)
    const file = questionnaireFile(content)
    const read = readQuestionnaireFile(JSON.stringify(file))
    expect(read).toEqual({ ok: true, content })
    if (!read.ok) return
    const imported = await importQuestionnaire(me, read.content)
    expect(imported.ok).toBe(true)
    if (!imported.ok) return
    const stored = await getQuestionnaire(imported.value.id)
    expect(contentOf(stored!)).toEqual(content)
    expect(questionnaireFile(contentOf(stored!))).toEqual(file)
  })

  test('randomised contents survive the round trip', async () => {
    const me = await actor()
    let seed = 42
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31
      return seed % n
    }
    const word = () => ['alpha', 'beta', 'γάμμα', 'delta "q"', 'eps\\ilon', '🎯 target'][rand(6)]!
    for (let round = 0; round < 5; round++) {
      const content: QnContent = {
        title: `Random ${round} ${word()}`,
        intro: rand(2) ? `${word()}\n${word()}` : '',
        sections: Array.from({ length: 1 + rand(4) }, (_, s) => ({
          title: `S${s} ${word()}`,
          questions: Array.from({ length: rand(5) }, (_, n) => {
            const kind = (['scale', 'single', 'multi', 'text', 'textarea'] as const)[rand(5)]!
            const labels = Array.from({ length: rand(5) }, (_, i) => `L${i} ${word()}`)
            const min = rand(3)
            return {
              key: crypto.randomUUID(),
              kind,
              text: `Q${n} ${word()}`,
              raterText: `{{name}} ${word()}`,
              competency: word(),
              required: Boolean(rand(2)),
              options:
                kind === 'scale'
                  ? { min, max: min + 4, labels: labels.slice(0, 5), allowNa: Boolean(rand(2)) }
                  : kind === 'text' || kind === 'textarea'
                    ? {}
                    : { labels },
            }
          }),
        })),
      }
      const read = readQuestionnaireFile(JSON.stringify(questionnaireFile(content)))
      expect(read).toEqual({ ok: true, content })
      const imported = await importQuestionnaire(me, content)
      if (!imported.ok) throw new Error('import refused')
      expect(contentOf((await getQuestionnaire(imported.value.id))!)).toEqual(content)
    }
  })
})
