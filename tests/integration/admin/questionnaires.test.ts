import { and, asc, eq, sql } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'
import { auditLog, questionnaireSections, questionnaires, questions } from '#db/schema/index'
import { createQuestionnaire, createScheme } from '#db/factories'
import { useTestDatabase } from '#tests/support/database'
import { client, location, send, signedIn, useTestServer } from '#tests/support/app'

/**
 * The questionnaire pages through the real HTTP stack (the production build): the list (versions,
 * search, status filter), create, duplicate, archive (refused while an open scheme uses it), the
 * JSON import and export, and every builder intent — with the bad input each must answer 400.
 */
const db = useTestDatabase()
const server = useTestServer()

const LIST = '/admin/questionnaire-management'
const DAY = 24 * 60 * 60 * 1000
let admin = ''
let employee = ''

beforeAll(async () => {
  admin = (await signedIn({ role: 'admin' })).cookie
  employee = (await signedIn({ role: 'employee' })).cookie
})

const get = (path: string, cookie = admin) => send(server, path, { cookie })
const { post } = client(server, () => admin)
const idFrom = (response: Response) => location(response)!.split('/').pop()!

async function newDraft(title = `Draft ${Math.random().toString(36).slice(2, 8)}`) {
  const response = await post(LIST, { intent: 'create', title })
  expect(response.status).toBe(302)
  return idFrom(response)
}
const sectionsOf = (id: string) =>
  db()
    .select()
    .from(questionnaireSections)
    .where(eq(questionnaireSections.questionnaireId, id))
    .orderBy(asc(questionnaireSections.position))
const questionsIn = (id: string) =>
  db().select().from(questions).where(eq(questions.questionnaireId, id)).orderBy(asc(questions.position))

async function addSection(id: string, title: string) {
  const r = await post(`${LIST}/${id}`, { intent: 'add-section', title })
  expect(r.status).toBe(302)
  return (await sectionsOf(id)).find((s) => s.title === title)!.id
}
async function addQuestion(id: string, sectionId: string, kind: string, text = `I do ${kind}.`) {
  const r = await post(`${LIST}/${id}`, {
    intent: 'add-question',
    sectionId,
    kind,
    text,
    raterText: `{{name}} does ${kind}.`,
    category: 'Teamwork',
  })
  expect(r.status).toBe(302)
  // The redirect lands on the new question: `…/<qid>#question-<id>`.
  return r.headers.get('Location')!.split('#question-')[1]!
}

describe('guards', () => {
  test('an employee cannot see or change questionnaires', async () => {
    const id = await newDraft()
    for (const path of [LIST, `${LIST}/${id}`, `${LIST}/${id}/export.json`]) {
      const r = await get(path, employee)
      expect([302, 303, 403, 404]).toContain(r.status)
    }
    const r = await post(`${LIST}/${id}`, { intent: 'add-section', title: 'X' }, employee)
    expect([302, 303, 403, 404]).toContain(r.status)
    expect(await sectionsOf(id)).toHaveLength(0)
  })

  test('an unknown or malformed id is a 404, on the page, its action and its export', async () => {
    for (const id of ['nope', '00000000-0000-4000-8000-000000000000']) {
      expect((await get(`${LIST}/${id}`)).status).toBe(404)
      expect((await get(`${LIST}/${id}/export.json`)).status).toBe(404)
      expect((await post(`${LIST}/${id}`, { intent: 'publish' })).status).toBe(404)
    }
  })
})

describe('the list', () => {
  test('shows lines of versions with how many schemes use each, searches and filters by status', async () => {
    const v1 = await createQuestionnaire({ title: 'Listed line', status: 'published' })
    const scheme = await createScheme({ questionnaireId: v1.id, name: 'Spring round' })
    const r = await post(`${LIST}/${v1.id}`, { intent: 'new-version' })
    expect(r.status).toBe(302)
    const html = await (await get(`${LIST}?q=Listed`)).text()
    expect(html).toContain('Listed line')
    expect(html).toMatch(/Version (<!-- -->)?2/)
    expect(html).toMatch(/Version (<!-- -->)?1/)
    // Version 1: a count, linking to the scheme list filtered to it; version 2: not used.
    expect(html).toMatch(
      new RegExp(
        `<a class="link" href="/admin/scheme-management\\?questionnaire=${v1.id}"[^>]*>Used by <!-- -->1<!-- --> <!-- -->scheme<span class="sr-only"> <!-- -->version <!-- -->1<!-- --> of <!-- -->Listed line</span></a> \\(1 open now\\)`,
      ),
    )
    expect(html).toContain('Not used by a scheme')
    expect(html).not.toContain(`/admin/scheme-management/${scheme.id}`)
    expect(html).not.toContain(scheme.name)
    const drafts = await (await get(`${LIST}?status=archived&q=Listed`)).text()
    expect(drafts).toContain('No questionnaire matches')
    // Bad query values fall back rather than fail.
    expect((await get(`${LIST}?status=bogus&sort=nope&after=%00garbage`)).status).toBe(200)
  })

  test('does not grow with the schemes: a count and one link, however many schemes use a version', async () => {
    const q = await createQuestionnaire({ title: 'Widely used', status: 'published' })
    const first = await createScheme({ questionnaireId: q.id, name: 'Widely 00' })
    const path = `${LIST}?q=${encodeURIComponent('Widely used')}`
    const before = await (await get(path)).text()
    expect(before).toContain('Used by <!-- -->1<!-- --> <!-- -->scheme<')
    for (let i = 1; i <= 30; i++)
      await createScheme({ questionnaireId: q.id, name: `Widely ${String(i).padStart(2, '0')}` })
    const after = await (await get(path)).text()
    expect(after).toContain('Used by <!-- -->31<!-- --> <!-- -->schemes<')
    expect(after).toContain('(31 open now)')
    expect(after).not.toContain('Widely 0')
    expect(after).not.toContain(`/admin/scheme-management/${first.id}`)
    // Only the digits of the counts (and the plural) differ.
    expect(Math.abs(after.length - before.length)).toBeLessThan(20)
    // The link leads to the scheme list filtered to this version: all 31, and only them.
    const href = `/admin/scheme-management?questionnaire=${q.id}`
    expect(after).toContain(`href="${href}"`)
    const list = await (await get(`${href}&sort=name-asc`)).text()
    expect(list).toContain('Widely 00')
    expect(list).toContain('Widely 19')
    expect(list).not.toContain('Widely 20')
    expect(list).toMatch(/<option value="[^"]+" selected="">Widely used<\/option>/)
  })

  test('pages by keyset', async () => {
    for (let i = 0; i < 22; i++) await createQuestionnaire({ title: `Paged ${String(i).padStart(2, '0')}` })
    const first = await (await get(`${LIST}?q=Paged`)).text()
    expect(first).toContain('Paged 00')
    expect(first).not.toContain('Paged 21')
    const next = first.match(/href="([^"]*after=[^"]*)"/)![1]!.replace(/&amp;/g, '&')
    const second = await (await get(next)).text()
    expect(second).toContain('Paged 21')
    expect(second).not.toContain('Paged 00')
  })
})

describe('create, duplicate, archive', () => {
  test('create refuses a blank, too long or control-character title with 400', async () => {
    for (const title of ['', '   ', 'x'.repeat(201), 'bad\u0000title', 'two\nlines']) {
      const r = await post(LIST, { intent: 'create', title })
      expect(r.status).toBe(400)
    }
    const r = await post(LIST, { intent: 'create', title: '' })
    expect(await r.text()).toContain('Enter the questionnaire’s title.')
  })

  test('an unknown intent or an unreadable body is a 400', async () => {
    expect((await post(LIST, { intent: 'explode' })).status).toBe(400)
    const r = await send(server, LIST, { cookie: admin, json: { intent: 'create' } })
    expect(r.status).toBe(400)
  })

  test('duplicate copies everything into a new draft line; a bad id is refused', async () => {
    const source = await createQuestionnaire({ title: 'Source', status: 'published' })
    const r = await post(LIST, { intent: 'duplicate', questionnaireId: source.id })
    expect(r.status).toBe(302)
    const copyId = idFrom(r)
    const [copy] = await db().select().from(questionnaires).where(eq(questionnaires.id, copyId))
    expect(copy).toMatchObject({ title: 'Copy of Source', status: 'draft', version: 1, lineageId: copyId })
    expect(await questionsIn(copyId)).toHaveLength(1)
    expect((await post(LIST, { intent: 'duplicate', questionnaireId: 'x' })).status).toBe(400)
  })

  test('archive is refused while an open scheme uses it, naming the scheme; allowed once it closes', async () => {
    const q = await createQuestionnaire({ title: 'In use' })
    const scheme = await createScheme({ questionnaireId: q.id, name: 'Open programme' })
    const page = await (await get(`${LIST}?archive=${q.id}`)).text()
    expect(page).toContain('“Open programme”')
    const r = await post(LIST, { intent: 'archive', questionnaireId: q.id })
    expect(r.status).toBe(400)
    expect(await r.text()).toContain('“Open programme”')
    // The same rule as "is this scheme open": a closed one no longer blocks.
    await db().execute(sql`UPDATE schemes SET status = 'closed', closed_at = now() WHERE id = ${scheme.id}`)
    expect((await post(LIST, { intent: 'archive', questionnaireId: q.id })).status).toBe(302)
    const [row] = await db().select().from(questionnaires).where(eq(questionnaires.id, q.id))
    expect(row!.status).toBe('archived')
    const audits = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityId, q.id), eq(auditLog.action, 'questionnaire.archive')))
    expect(audits).toHaveLength(1)
  })

  test('archive names the first three open schemes and counts the rest, on the list, the builder and the refusal', async () => {
    const q = await createQuestionnaire({ title: 'Much used' })
    for (const name of ['Delta', 'Alpha', 'Echo', 'Charlie', 'Bravo'])
      await createScheme({ questionnaireId: q.id, name: `${name} round` })
    const closed = await createScheme({ questionnaireId: q.id, name: 'Aardvark round' })
    await db().execute(sql`UPDATE schemes SET status = 'closed', closed_at = now() WHERE id = ${closed.id}`)
    const message =
      'The open schemes “Alpha round”, “Bravo round”, “Charlie round” and 2 more use this questionnaire: it can be archived once they close.'
    const list = await (await get(`${LIST}?archive=${q.id}`)).text()
    expect(list).toContain(message)
    expect(list).not.toContain('Delta round')
    const builder = await (await get(`${LIST}/${q.id}?confirm=archive`)).text()
    expect(builder).toContain(message)
    expect(builder).toMatch(/>Used by <!-- -->6<!-- --> <!-- -->schemes<\/a> \(5 open now\)/)
    const r = await post(LIST, { intent: 'archive', questionnaireId: q.id })
    expect(r.status).toBe(400)
    expect(await r.text()).toContain(message)
  })

  test('a scheme not yet open (upcoming) does not block archiving', async () => {
    const q = await createQuestionnaire({ title: 'Upcoming use' })
    await createScheme({
      questionnaireId: q.id,
      opensAt: new Date(Date.now() + DAY),
      closesAt: new Date(Date.now() + 10 * DAY),
    })
    expect((await post(LIST, { intent: 'archive', questionnaireId: q.id })).status).toBe(302)
  })
})

describe('the builder', () => {
  test('sections: add, rename, reorder, and delete (asking first when it holds questions)', async () => {
    const id = await newDraft()
    const a = await addSection(id, 'Alpha')
    const b = await addSection(id, 'Beta')
    expect((await post(`${LIST}/${id}`, { intent: 'add-section', title: 'Alpha' })).status).toBe(400)
    expect((await post(`${LIST}/${id}`, { intent: 'add-section', title: '' })).status).toBe(400)
    expect(
      (await post(`${LIST}/${id}`, { intent: 'rename-section', sectionId: a, title: 'Beta' })).status,
    ).toBe(400)
    expect(
      (await post(`${LIST}/${id}`, { intent: 'rename-section', sectionId: 'x', title: 'Q' })).status,
    ).toBe(400)
    expect(
      (await post(`${LIST}/${id}`, { intent: 'rename-section', sectionId: crypto.randomUUID(), title: 'Q' }))
        .status,
    ).toBe(400)
    const q = await addQuestion(id, a, 'scale')
    expect(
      (await post(`${LIST}/${id}`, { intent: 'rename-section', sectionId: a, title: 'Aleph' })).status,
    ).toBe(302)
    expect((await questionsIn(id))[0]!.section).toBe('Aleph')
    expect(
      (await post(`${LIST}/${id}`, { intent: 'move-section', sectionId: b, direction: 'up' })).status,
    ).toBe(302)
    expect((await sectionsOf(id)).map((s) => s.title)).toEqual(['Beta', 'Aleph'])
    expect(
      (await post(`${LIST}/${id}`, { intent: 'move-section', sectionId: b, direction: 'up' })).status,
    ).toBe(400)
    expect(
      (await post(`${LIST}/${id}`, { intent: 'move-section', sectionId: b, direction: 'left' })).status,
    ).toBe(400)
    // The confirmation page names the section; without the confirmation the delete is refused.
    const confirm = await (await get(`${LIST}/${id}?deleteSection=${a}`)).text()
    expect(confirm).toContain('Delete the section “Aleph”?')
    const refused = await post(`${LIST}/${id}`, { intent: 'delete-section', sectionId: a })
    expect(refused.status).toBe(400)
    expect(await refused.text()).toContain('confirm that they are deleted')
    expect(
      (await post(`${LIST}/${id}`, { intent: 'delete-section', sectionId: a, confirmed: 'on' })).status,
    ).toBe(302)
    expect(await questionsIn(id)).toHaveLength(0)
    expect(q).toBeTruthy()
    expect((await post(`${LIST}/${id}`, { intent: 'delete-section', sectionId: b })).status).toBe(302)
    expect(await sectionsOf(id)).toHaveLength(0)
  })

  test('questions: the colleague wording needs {{name}} and nothing else; text rules hold', async () => {
    const id = await newDraft()
    const s = await addSection(id, 'Only')
    const base = {
      intent: 'add-question',
      sectionId: s,
      kind: 'scale',
      text: 'I listen.',
      category: 'Listening',
    }
    const missing = await post(`${LIST}/${id}`, { ...base, raterText: 'They listen.' })
    expect(missing.status).toBe(400)
    expect(await missing.text()).toContain('must contain {{name}}')
    const unknown = await post(`${LIST}/${id}`, { ...base, raterText: '{{name}} listens to {{boss}}.' })
    expect(unknown.status).toBe(400)
    expect(await unknown.text()).toContain('unknown placeholder {{boss}}')
    expect((await post(`${LIST}/${id}`, { ...base, raterText: '{{name}}\u0000 listens.' })).status).toBe(400)
    expect(
      (await post(`${LIST}/${id}`, { ...base, kind: 'essay', raterText: '{{name}} listens.' })).status,
    ).toBe(400)
    expect(
      (await post(`${LIST}/${id}`, { ...base, category: '', raterText: '{{name}} listens.' })).status,
    ).toBe(400)
    expect(await questionsIn(id)).toHaveLength(0)
    // Sent twice: bad input, not a crash.
    const twice = new FormData()
    for (const [k, v] of Object.entries({ ...base, raterText: '{{name}} listens.' })) twice.append(k, v)
    twice.append('text', 'again')
    expect((await post(`${LIST}/${id}`, twice)).status).toBe(400)
  })

  test('update a question: scale bounds, labels, not applicable, required; bad bounds are 400', async () => {
    const id = await newDraft()
    const s = await addSection(id, 'S')
    await addQuestion(id, s, 'scale')
    const [q] = await questionsIn(id)
    const form = {
      intent: 'update-question',
      questionId: q!.id,
      kind: 'scale',
      text: 'I plan.',
      raterText: '{{ name }} plans.',
      category: 'Planning',
      min: '0',
      max: '4',
    }
    expect((await post(`${LIST}/${id}`, { ...form, max: '0' })).status).toBe(400)
    expect((await post(`${LIST}/${id}`, { ...form, max: '15' })).status).toBe(400)
    expect((await post(`${LIST}/${id}`, { ...form, min: 'abc' })).status).toBe(400)
    expect((await post(`${LIST}/${id}`, { ...form, min: '' })).status).toBe(400)
    expect((await post(`${LIST}/${id}`, form)).status).toBe(302)
    const [after] = await questionsIn(id)
    expect(after).toMatchObject({ text: 'I plan.', category: 'Planning', required: false })
    expect(after!.options).toMatchObject({ min: 0, max: 4, allowNa: false })
    // Labels: add, rename, reorder, remove; duplicates and bad indexes refused.
    const path = `${LIST}/${id}`
    expect((await post(path, { intent: 'add-option', questionId: q!.id, label: 'Never' })).status).toBe(400)
    expect((await post(path, { intent: 'remove-option', questionId: q!.id, index: '4' })).status).toBe(302)
    expect(
      (await post(path, { intent: 'rename-option', questionId: q!.id, index: '0', label: 'Not once' }))
        .status,
    ).toBe(302)
    expect(
      (await post(path, { intent: 'move-option', questionId: q!.id, index: '0', direction: 'down' })).status,
    ).toBe(302)
    expect(
      (await post(path, { intent: 'move-option', questionId: q!.id, index: '9', direction: 'down' })).status,
    ).toBe(400)
    expect(
      (await post(path, { intent: 'rename-option', questionId: q!.id, index: '-1', label: 'x' })).status,
    ).toBe(400)
    expect((await questionsIn(id))[0]!.options.labels).toEqual(['Rarely', 'Not once', 'Sometimes', 'Often'])
  })

  test('questions reorder within and across sections', async () => {
    const id = await newDraft()
    const a = await addSection(id, 'A')
    const b = await addSection(id, 'B')
    await addQuestion(id, a, 'scale', 'one')
    await addQuestion(id, a, 'text', 'two')
    await addQuestion(id, b, 'textarea', 'three')
    const byText = async () => Object.fromEntries((await questionsIn(id)).map((q) => [q.text, q]))
    const two = (await byText()).two!
    // Down past the end of A: first of B.
    expect(
      (await post(`${LIST}/${id}`, { intent: 'move-question', questionId: two.id, direction: 'down' }))
        .status,
    ).toBe(302)
    let list = await questionsIn(id)
    expect(list.map((q) => [q.text, q.section, q.position])).toEqual([
      ['one', 'A', 0],
      ['two', 'B', 1],
      ['three', 'B', 2],
    ])
    expect(list[1]!.sectionId).toBe(b)
    expect(
      (await post(`${LIST}/${id}`, { intent: 'move-question', questionId: two.id, direction: 'down' }))
        .status,
    ).toBe(302)
    list = await questionsIn(id)
    expect(list.map((q) => q.text)).toEqual(['one', 'three', 'two'])
    const last = await post(`${LIST}/${id}`, {
      intent: 'move-question',
      questionId: two.id,
      direction: 'down',
    })
    expect(last.status).toBe(400)
    expect((await post(`${LIST}/${id}`, { intent: 'delete-question', questionId: two.id })).status).toBe(302)
    expect((await questionsIn(id)).map((q) => [q.text, q.position])).toEqual([
      ['one', 0],
      ['three', 1],
    ])
  })

  test('publish lists what blocks it, then freezes the questionnaire', async () => {
    const id = await newDraft('Publishable')
    const r0 = await post(`${LIST}/${id}`, { intent: 'publish' })
    expect(r0.status).toBe(400)
    expect(await r0.text()).toContain('Add at least one section')
    const a = await addSection(id, 'A')
    await addSection(id, 'Empty')
    await addQuestion(id, a, 'single')
    const page = await (await get(`${LIST}/${id}`)).text()
    expect(page).toContain('(“Empty”) has no questions')
    expect(page).toContain('a choice question needs at least two choices')
    expect(page).toContain('Add at least one rating-scale question')
    const refused = await post(`${LIST}/${id}`, { intent: 'publish' })
    expect(refused.status).toBe(400)
    const text = await refused.text()
    expect(text).toContain('has no questions')
    expect(text).toContain('at least two choices')
    expect(text).toContain('rating-scale question')
    const sections = await sectionsOf(id)
    await post(`${LIST}/${id}`, { intent: 'delete-section', sectionId: sections[1]!.id })
    const [single] = await questionsIn(id)
    await post(`${LIST}/${id}`, { intent: 'add-option', questionId: single!.id, label: 'Yes' })
    await post(`${LIST}/${id}`, { intent: 'add-option', questionId: single!.id, label: 'No' })
    const scaleId = await addQuestion(id, a, 'scale')
    for (let i = 0; i < 4; i++)
      await post(`${LIST}/${id}`, { intent: 'remove-option', questionId: scaleId, index: '0' })
    const oneLabel = await post(`${LIST}/${id}`, { intent: 'publish' })
    expect(oneLabel.status).toBe(400)
    expect(await oneLabel.text()).toContain('a rating scale needs at least two labels')
    await post(`${LIST}/${id}`, { intent: 'add-option', questionId: scaleId, label: 'Top' })
    expect((await post(`${LIST}/${id}`, { intent: 'publish' })).status).toBe(302)
    // Frozen: every edit is refused.
    for (const form of <Array<Record<string, string>>>[
      { intent: 'details', title: 'Changed', intro: '' },
      { intent: 'add-section', title: 'Late' },
      { intent: 'rename-section', sectionId: a, title: 'Late' },
      { intent: 'move-question', questionId: scaleId, direction: 'up' },
      { intent: 'add-option', questionId: scaleId, label: 'Extra' },
      { intent: 'delete-question', questionId: scaleId },
    ]) {
      const r = await post(`${LIST}/${id}`, form)
      expect(r.status, form.intent!).toBe(400)
      expect(await r.text()).toContain('This questionnaire is published')
    }
    expect((await post(`${LIST}/${id}`, { intent: 'publish' })).status).toBe(400)
  })

  test('a published questionnaire no scheme uses may return to draft; a used one may not', async () => {
    const free = await createQuestionnaire({ status: 'published' })
    expect((await post(`${LIST}/${free.id}`, { intent: 'revert-to-draft' })).status).toBe(302)
    const used = await createQuestionnaire({ status: 'published' })
    await createScheme({ questionnaireId: used.id, name: 'Holds it' })
    const r = await post(`${LIST}/${used.id}`, { intent: 'revert-to-draft' })
    expect(r.status).toBe(400)
    expect(await r.text()).toContain('“Holds it”')
  })

  test('new version: only from the newest, never from a draft', async () => {
    const v1 = await createQuestionnaire({ status: 'published' })
    const r = await post(`${LIST}/${v1.id}`, { intent: 'new-version' })
    expect(r.status).toBe(302)
    const v2 = idFrom(r)
    expect((await post(`${LIST}/${v2}`, { intent: 'new-version' })).status).toBe(400)
    const again = await post(`${LIST}/${v1.id}`, { intent: 'new-version' })
    expect(again.status).toBe(400)
    expect(await again.text()).toContain('Version 2 is the newest')
  })

  test('the preview renders both wordings with the sample name, read-only', async () => {
    const q = await createQuestionnaire({ title: 'Previewed' })
    const self = await (await get(`${LIST}/${q.id}?preview=self`)).text()
    expect(self).toContain('I listen carefully to others.')
    expect(self).toContain('<fieldset disabled')
    const colleague = await (await get(`${LIST}/${q.id}?preview=colleague`)).text()
    expect(colleague).toContain('Alex Example listens carefully to others.')
  })
})

describe('export and import', () => {
  test('export downloads the documented format', async () => {
    const q = await createQuestionnaire({ title: 'Exported Thing' })
    const r = await get(`${LIST}/${q.id}/export.json`)
    expect(r.status).toBe(200)
    expect(r.headers.get('content-type')).toContain('application/json')
    expect(r.headers.get('content-disposition')).toContain('exported-thing-v1.json')
    const file = await r.json()
    expect(file).toMatchObject({ format: 'panorama-questionnaire', version: 1, title: 'Exported Thing' })
    expect(file.sections[0].questions[0]).toMatchObject({ kind: 'scale', competency: 'Communication' })
  })

  const upload = (content: string | Uint8Array, name = 'q.json') => {
    const form = new FormData()
    form.append('intent', 'import')
    form.append('file', new File([content as BlobPart], name, { type: 'application/json' }))
    return post(LIST, form)
  }

  test('import creates a draft from an exported file', async () => {
    const q = await createQuestionnaire({ title: 'Round trip' })
    const file = await (await get(`${LIST}/${q.id}/export.json`)).text()
    const r = await upload(file)
    expect(r.status).toBe(302)
    const [row] = await db()
      .select()
      .from(questionnaires)
      .where(eq(questionnaires.id, idFrom(r)))
    expect(row).toMatchObject({ title: 'Round trip', status: 'draft', version: 1 })
  })

  test('import refuses bad files with each problem named by its position, never a 500', async () => {
    const good = {
      format: 'panorama-questionnaire',
      version: 1,
      title: 'T',
      intro: '',
      sections: [
        { title: 'A', questions: [] },
        {
          title: 'B',
          questions: [
            { kind: 'text', text: 'I x.', raterText: 'They x.', competency: 'C', required: true },
            {
              kind: 'scale',
              text: 'I y.',
              raterText: '{{name}} y.',
              competency: 'C',
              scale: { min: 3, max: 1, labels: [] },
            },
            {
              kind: 'single',
              text: 'I z.',
              raterText: '{{name}} {{who}}.',
              competency: 'C',
              choices: ['a', 'a'],
            },
          ],
        },
      ],
    }
    const r = await upload(JSON.stringify(good))
    expect(r.status).toBe(400)
    const html = (await r.text()).replace(/&quot;/g, '"')
    expect(html).toContain('sections[1].questions[0].raterText: must contain {{name}}')
    expect(html).toContain('sections[1].questions[1].scale.max: must be above min')
    expect(html).toContain('sections[1].questions[2].raterText: has an unknown placeholder {{who}}')
    expect(html).toContain('sections[1].questions[2].choices[1]: repeats “a”')

    for (const [content, message] of [
      ['not json', 'The file is not JSON'],
      ['{"format":"other","version":1}', 'format: must be "panorama-questionnaire"'],
      ['{"format":"panorama-questionnaire","version":2,"title":"x","sections":[]}', 'version: must be 1'],
      ['{"format":"panorama-questionnaire","version":1,"sections":[]}', 'title: is missing'],
      [
        '{"format":"panorama-questionnaire","version":1,"title":"a\\u0000b","sections":[]}',
        'title: must be one line',
      ],
      ['[]', '(the file)'],
      ['null', '(the file)'],
      [
        '{"format":"panorama-questionnaire","version":1,"title":"x","sections":[],"extra":1}',
        'unknown field "extra"',
      ],
    ] as const) {
      const res = await upload(content)
      expect(res.status, content).toBe(400)
      expect((await res.text()).replace(/&quot;/g, '"'), content).toContain(message)
    }
    expect((await upload(new Uint8Array([0xff, 0xfe, 0x00]))).status).toBe(400)
    const big = await upload('x'.repeat(600 * 1024))
    expect(big.status).toBe(400)
    expect(await big.text()).toContain('at most 512 kB')
    const none = new FormData()
    none.append('intent', 'import')
    expect((await post(LIST, none)).status).toBe(400)
    const text = new FormData()
    text.append('intent', 'import')
    text.append('file', 'not a file')
    expect((await post(LIST, text)).status).toBe(400)
  })
})
