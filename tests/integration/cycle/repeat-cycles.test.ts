import { eq } from 'drizzle-orm'
import { afterEach, describe, expect, test } from 'vitest'
import { questions, schemes } from '#db/schema/index'
import {
  createCompany,
  createQuestionnaire,
  createRaterAssignment,
  createResponse,
  createScheme,
  createUser,
  questionsOf,
} from '#db/factories'
import { resetEnvCache } from '#app/config/env.server'
import { FOLLOWS_MESSAGES } from '#app/modules/cycle/follows.server'
import { loadCycleView } from '#app/modules/cycle/cycle.server'
import { loadReport } from '#app/modules/report/report.server'
import { releaseParticipant } from '#app/modules/report/release.server'
import {
  getQuestionnaire,
  newVersion,
  publishQuestionnaire,
} from '#app/modules/questionnaire/questionnaire.server'
import {
  createScheme as saveNewScheme,
  getSchemeFormOptions,
  updateScheme,
} from '#app/modules/scheme/scheme.server'
import { useTestDatabase } from '#tests/support/database'
import { schemeInputFromRow } from '#tests/support/scheme-input'
import { addParticipant } from '#tests/integration/journey/report-scenario'

/**
 * Repeat cycles and norms (issue 19 §5–6, ADR 044): which scheme may follow which, the report's
 * previous-cycle columns (only what the previous release showed), and the norm around its minimum.
 */
const db = useTestDatabase()
const DAY = 24 * 60 * 60 * 1000
const saved = process.env.NORM_MIN_PARTICIPANTS

afterEach(() => {
  if (saved === undefined) delete process.env.NORM_MIN_PARTICIPANTS
  else process.env.NORM_MIN_PARTICIPANTS = saved
  resetEnvCache()
})

const LABELS = ['Never', 'Rarely', 'Sometimes', 'Often', 'Always']
const QUESTIONS = [
  {
    section: 'Leading',
    kind: 'scale' as const,
    text: 'I set a clear direction.',
    raterText: '{{name}} sets a clear direction.',
    category: 'Vision',
    options: { min: 1, max: 5, labels: LABELS, allowNa: false },
  },
  {
    section: 'Leading',
    kind: 'scale' as const,
    text: 'I listen.',
    raterText: '{{name}} listens.',
    category: 'Communication',
    options: { min: 1, max: 5, labels: LABELS, allowNa: false },
  },
]

async function admin() {
  return createUser({ role: 'admin', password: null })
}

/** A scheme's dates a year ago, closed: an earlier cycle. */
const lastYear = () => ({
  opensAt: new Date(Date.now() - 400 * DAY),
  closesAt: new Date(Date.now() - 370 * DAY),
  status: 'closed' as const,
})

/** `n` colleagues who gave the same scores (one per question). */
const alike = (n: number, scores: number[]) => Array.from({ length: n }, () => scores)

/**
 * A subject in a scheme (report-scenario's addParticipant): self 3 on every question and one colleague
 * per entry of `scores` (their score per question, 3 where none), released unless told.
 */
async function participant(
  scheme: typeof schemes.$inferSelect,
  scores: number[][],
  options: { subjectId?: string; release?: boolean } = {},
) {
  const qs = await questionsOf(scheme.questionnaireId)
  const answersOf = (values: number[]) =>
    qs.map((q, i) => ({ questionId: q.id, numericValue: values[i] ?? 3 }))
  const { subjectId, rid } = await addParticipant(scheme, {
    ...options,
    self: answersOf([]),
    colleagues: scores.map((values) => ({ answers: answersOf(values) })),
  })
  return { subjectId, selfResponseId: rid }
}

/** A line of two published versions: v2 copied from v1 (keys carried), with one question added. */
async function twoVersions() {
  const actor = await admin()
  const v1 = await createQuestionnaire({ questions: QUESTIONS })
  const made = await newVersion(actor, v1.id)
  if (!made.ok) throw new Error('newVersion refused')
  const v2 = made.value.id
  const detail = await getQuestionnaire(v2)
  await db()
    .insert(questions)
    .values({
      questionnaireId: v2,
      position: 2,
      sectionId: (await db().select().from(questions).where(eq(questions.questionnaireId, v2)))[0]!.sectionId,
      section: 'Leading',
      kind: 'scale',
      text: 'I coach.',
      raterText: '{{name}} coaches.',
      category: 'Vision',
      options: { min: 1, max: 5, labels: LABELS, allowNa: false },
    })
  const published = await publishQuestionnaire(actor, v2)
  expect(published).toMatchObject({ ok: true })
  return { actor, v1, v2, detail: detail! }
}

describe('question keys across versions', () => {
  test('a new version’s copy of a question keeps its key; a new question gets its own; the builder marks them', async () => {
    const { v1, v2 } = await twoVersions()
    const one = await db().select().from(questions).where(eq(questions.questionnaireId, v1.id))
    const two = await db().select().from(questions).where(eq(questions.questionnaireId, v2))
    const keysOne = new Set(one.map((q) => q.key))
    expect(
      two
        .filter((q) => keysOne.has(q.key))
        .map((q) => q.text)
        .sort(),
    ).toEqual(['I listen.', 'I set a clear direction.'])
    const detail = await getQuestionnaire(v2)
    const marks = detail!.sections.flatMap((s) => s.questions.map((q) => [q.text, q.carriedOver]))
    expect(marks).toEqual([
      ['I set a clear direction.', true],
      ['I listen.', true],
      ['I coach.', false],
    ])
    const first = await getQuestionnaire(v1.id)
    expect(first!.sections[0]!.questions[0]!.carriedOver).toBeUndefined()
  })
})

describe('follows: which scheme may follow which', () => {
  test('refuses another company, another line, itself and a later scheme, each with its reason', async () => {
    const actor = await admin()
    const company = await createCompany()
    const { v1, v2 } = await twoVersions()
    const now = Date.now()
    const earlier = await createScheme({ companyId: company.id, questionnaireId: v1.id, ...lastYear() })
    const current = await createScheme({ companyId: company.id, questionnaireId: v2 })
    const later = await createScheme({
      companyId: company.id,
      questionnaireId: v1.id,
      opensAt: new Date(now + DAY),
      closesAt: new Date(now + 40 * DAY),
    })
    const elsewhere = await createScheme({ questionnaireId: v1.id, ...lastYear() })
    const otherLine = await createScheme({ companyId: company.id, ...lastYear() })

    // The edit form saved with only 'Follows' changed (from the stored scheme `row`).
    const follow = (followsSchemeId: string | null, row = current) =>
      updateScheme(actor, current.id, schemeInputFromRow(row, { followsSchemeId }))
    const refusal = async (follows: string) => {
      const result = await follow(follows)
      expect(result.ok).toBe(false)
      return result.ok ? null : result
    }
    expect(JSON.stringify(await refusal(elsewhere.id))).toContain(
      FOLLOWS_MESSAGES.otherCompany(elsewhere.name),
    )
    expect(JSON.stringify(await refusal(otherLine.id))).toContain(FOLLOWS_MESSAGES.otherLine(otherLine.name))
    expect(JSON.stringify(await refusal(current.id))).toContain(FOLLOWS_MESSAGES.itself)
    expect(JSON.stringify(await refusal(later.id))).toContain(FOLLOWS_MESSAGES.notEarlier(later.name))
    expect(JSON.stringify(await refusal(crypto.randomUUID()))).toContain(FOLLOWS_MESSAGES.gone)

    // An earlier scheme of the same company and line (another version of it) is fine, and can be unset.
    const good = await follow(earlier.id)
    expect(good).toMatchObject({ ok: true, value: { changed: ['followsSchemeId'] } })
    const [row] = await db().select().from(schemes).where(eq(schemes.id, current.id))
    expect(row!.followsSchemeId).toBe(earlier.id)
    // The edit form offers exactly the schemes that pass; the create form none (the choice waits for
    // the scheme to exist: a list of every scheme of every company would not scale).
    const editing = await getSchemeFormOptions(current.questionnaireId, current.id)
    expect(editing.follows).toEqual([{ id: earlier.id, name: earlier.name }])
    const creating = await getSchemeFormOptions()
    expect(creating.follows).toEqual([])
    const cleared = await follow(null, row!)
    expect(cleared).toMatchObject({ ok: true, value: { changed: ['followsSchemeId'] } })

    // Creating a scheme checks the same.
    const created = await saveNewScheme(
      actor,
      schemeInputFromRow(current, {
        name: 'Next',
        opensAt: new Date(now + 2 * DAY),
        closesAt: new Date(now + 50 * DAY),
        followsSchemeId: elsewhere.id,
      }),
    )
    expect(JSON.stringify(created)).toContain(FOLLOWS_MESSAGES.otherCompany(elsewhere.name))
  })
})

describe('the report beside the previous cycle', () => {
  async function cycles(options: { showNorm?: boolean } = {}) {
    const { v1, v2 } = await twoVersions()
    const company = await createCompany()
    const previous = await createScheme({
      companyId: company.id,
      questionnaireId: v1.id,
      ...lastYear(),
      reportRelease: 'by_admin',
    })
    const current = await createScheme({
      companyId: company.id,
      questionnaireId: v2,
      followsSchemeId: previous.id,
      showNorm: options.showNorm ?? false,
    })
    return { previous, current }
  }

  /** This cycle's three colleagues, as most tests have them. */
  const LATER = [...alike(2, [4, 4, 5]), [4, 5, 5]]

  /**
   * One employee in both cycles, their colleagues' scores in each (one array per colleague); each
   * report released unless told; `view` is then the cycle section of this cycle's report.
   */
  async function bothCycles(input: {
    before: number[][]
    after: number[][]
    releaseBefore?: boolean
    releaseAfter?: boolean
    showNorm?: boolean
  }) {
    const { previous, current } = await cycles(input)
    const before = await participant(previous, input.before, { release: input.releaseBefore })
    const after = await participant(current, input.after, {
      subjectId: before.subjectId,
      release: input.releaseAfter,
    })
    return { previous, view: await loadCycleView((await loadReport(after.selfResponseId))!) }
  }

  test('shows the previous release’s colleague averages, the change and "about the same"', async () => {
    const { previous, view } = await bothCycles({ before: alike(3, [3, 4]), after: alike(3, [4, 4, 5]) })
    expect(view!.previous?.schemeName).toBe(previous.name)
    expect(
      view!.comparison.questions.map((q) => [q.label, q.previous, q.now, q.change?.verdict ?? null]),
    ).toEqual([
      ['I set a clear direction.', 3, 4, 'higher'],
      ['I listen.', 4, 4, 'same'],
      ['I coach.', null, 5, null],
    ])
    expect(view!.comparison.categories.map((c) => [c.label, c.previous, c.change?.verdict])).toEqual([
      ['Vision', 3, 'higher'], // 3 → 4.5: the mean of the questions shown, the new one too
      ['Communication', 4, 'same'],
    ])
    expect(view!.norm).toBeNull()
  })

  test('only what the previous release showed: a later answer in the previous scheme changes nothing', async () => {
    const { previous, current } = await cycles()
    const before = await participant(previous, alike(3, [3, 4]))
    // A fourth colleague submits in the previous scheme after its release: not released, not compared.
    const late = await createUser({ role: 'colleague', password: null })
    const a = await createRaterAssignment({
      scheme: previous,
      subjectId: before.subjectId,
      respondentId: late.id,
      relationship: 'peer',
    })
    const qs = await questionsOf(previous.questionnaireId)
    await createResponse({
      assignmentId: a.id,
      answers: qs.map((q) => ({ questionId: q.id, numericValue: 1 })),
      submitted: true,
    })
    const after = await participant(current, LATER, { subjectId: before.subjectId })
    const view = await loadCycleView((await loadReport(after.selfResponseId))!)
    expect(view!.comparison.questions[0]!.previous).toBe(3)
  })

  test('a previous release below its threshold (the self-assessment alone) shows no previous column', async () => {
    const { view } = await bothCycles({ before: alike(2, [3, 4]), after: LATER, showNorm: true })
    expect(view!.previous).toBeNull()
    expect(view!.comparison.questions.every((q) => q.previous === null)).toBe(true)
  })

  // Nothing to show: no previous release (or no current one) and no norm.
  test.each([
    ['an unreleased previous report shows no previous column', { releaseBefore: false }],
    ['the current report not released: nothing', { releaseAfter: false }],
  ])('%s', async (_, unreleased) => {
    const { view } = await bothCycles({ before: alike(3, [3, 4]), after: LATER, ...unreleased })
    expect(view).toBeNull()
  })
})

describe('the norm', () => {
  test('shown from NORM_MIN_PARTICIPANTS participants of other companies, not below; each counted once', async () => {
    process.env.NORM_MIN_PARTICIPANTS = '5'
    resetEnvCache()
    const actor = await admin()
    const qn = await createQuestionnaire({ questions: QUESTIONS })
    const own = await createScheme({ questionnaireId: qn.id, showNorm: true })
    const other = await createScheme({ questionnaireId: qn.id })
    // The viewer's own company: its other participants are left out of the norm.
    await participant(own, alike(3, [1, 1]))
    const viewer = await participant(own, alike(3, [4, 4]))
    const others = []
    for (let i = 0; i < 4; i++) others.push(await participant(other, alike(3, [2, 3])))
    const norm = async () => (await loadCycleView((await loadReport(viewer.selfResponseId))!))!.norm!
    // Four participants elsewhere: below five, no norm.
    expect(await norm()).toEqual({ questions: {}, categories: {} })
    // A participant has one latest release per cycle: a second release with nothing new is refused.
    const again = await releaseParticipant(actor, other.id, others[0]!.subjectId)
    expect(again.ok).toBe(false)
    // A fifth: shown, from the other company's released figures only.
    await participant(other, alike(3, [4, 3]))
    const shown = await norm()
    expect(Object.values(shown.questions).sort()).toEqual([2.4, 3])
    expect(shown.categories).toEqual({ Vision: 2.4, Communication: 3 })
    const [key] = Object.keys(shown.questions)
    expect(key).toBeDefined()
  })
})
