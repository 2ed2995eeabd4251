import { and, eq, sql } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { auditLog, responses } from '#db/schema/index'
import { useTestDatabase } from '#tests/support/database'
import { cookiesFrom, location, send, sessionCookieFor, useTestServer } from '#tests/support/app'
import { alertTexts, textOf, titleOf } from '#tests/integration/auth/helpers'
import {
  answersOf,
  assignmentRow,
  checkedValues,
  createWorld,
  decodeData,
  eventually,
  field,
  form,
  listenForEvents,
  questionErrors,
  responseOf,
  sectionAnswers,
  setDisplayName,
  snapshot,
  textValue,
  type World,
} from './answer-helpers'

/**
 * /assignment/:id through the real HTTP stack (the production build): the stepped form, saving a
 * section with every intent, each question kind's rules, the required check on submit, idempotent
 * submission, resuming on another device, the read-only view after submitting, and autosave.
 */
const db = useTestDatabase()
const server = useTestServer()

const page = (w: World, id: string, cookie: string, search = '') =>
  send(server, `/assignment/${id}${search}`, { cookie })
/** Posts as the page's form does: to the section's own URL. */
const post = (id: string, cookie: string, pairs: Array<[string, string]>) => {
  const section = pairs.find(([k]) => k === 'section')?.[1]
  const search = section ? `?section=${encodeURIComponent(section)}` : ''
  return send(server, `/assignment/${id}${search}`, { cookie, form: form(pairs) })
}
/** The page's own text, without the gaps that tags leave before punctuation. */
const main = (html: string) => textOf(/<main[\s\S]*<\/main>/.exec(html)![0]).replace(/\s+([.,:;!?])/g, '$1')

/** The <input> of a field with a value, whatever the attribute order. */
function input(html: string, name: string, value: string) {
  return [...html.matchAll(/<input\b[^>]*>/g)]
    .map((m) => m[0])
    .find((tag) => tag.includes(`name="${name}"`) && tag.includes(`value="${value}"`))
}

function hasToast(response: Response) {
  return response.headers.getSetCookie().some((c) => c.startsWith('__toast=') && !/max-age=0/i.test(c))
}

describe('the answering page', () => {
  test('shows the first section as a step with a progress bar, every kind, and required marks', async () => {
    const w = await createWorld()
    const response = await page(w, w.self.id, w.employeeCookie)
    expect(response.status).toBe(200)
    const html = await response.text()
    expect(titleOf(html)).toBe('Alpha (section 1 of 3) · Kinds 360 · Panorama')
    const text = main(html)
    expect(text).toContain('Section 1 of 3')
    // The bar counts answers (issue 7 item 17), not the section's position: none of 7 answered yet.
    expect(html).toMatch(
      /role="progressbar"[^>]*aria-valuemin="0"[^>]*aria-valuemax="7"[^>]*aria-valuenow="0"/,
    )
    expect(text).toContain('0 of 7 questions answered · 5 of 5 required still to answer')
    expect(text).toContain('Your self-assessment: the questions are about you.')
    // Self wording, only this section's questions.
    expect(text).toContain('I listen before I answer.')
    expect(text).toContain('In a conflict I usually…')
    expect(text).not.toContain('Which are my strengths?')
    // The scale with its labels and "Not applicable"; the bare scale without it.
    for (const v of ['1', '2', '3', '4', '5', 'na'])
      expect(input(html, field(w.q[0]!.id), v)).toContain('type="radio"')
    expect(text).toContain('Often')
    expect(input(html, field(w.q[1]!.id), 'na')).toBeUndefined()
    expect(input(html, field(w.q[1]!.id), '4')).toContain('type="radio"')
    expect(input(html, field(w.q[1]!.id), '5')).toBeUndefined()
    expect(input(html, field(w.q[2]!.id), 'Hold my position')).toContain('type="radio"')
    expect(text.match(/Required/g)!.length).toBeGreaterThanOrEqual(3)
    expect(html).toMatch(/role="radiogroup" aria-required="true"/)
    // Steps: a button per section, the current one marked.
    expect(html).toMatch(/value="goto-1" aria-current="step"/)
    expect(html).toContain('value="goto-3"')
    expect(html).toContain('value="next"')
    expect(html).toContain('value="finish-later"')
    expect(html).not.toContain('value="submit"')
  })

  test('the last section has multi, text and textarea fields and the submit button', async () => {
    const w = await createWorld()
    const two = await (await page(w, w.self.id, w.employeeCookie, '?section=2')).text()
    expect(input(two, field(w.q[3]!.id), 'Vision')).toContain('type="checkbox"')
    const textInput = new RegExp(`<input[^>]*name="${field(w.q[4]!.id)}"[^>]*>`).exec(two)![0]
    expect(textInput).toContain('type="text"')
    // No maxlength (a browser would cut a pasted answer silently): a counter instead (issue 7 item 17).
    expect(textInput).not.toMatch(/maxlength/i)
    expect(main(two)).toContain('Up to 500 characters. 0 of 500')
    expect(textInput).toContain('aria-describedby="q-')
    expect(main(two)).toContain('Section 2 of 3')
    const three = await (await page(w, w.self.id, w.employeeCookie, '?section=3')).text()
    const area = new RegExp(`<textarea[^>]*name="${field(w.q[5]!.id)}"[^>]*>`).exec(three)![0]
    expect(area).not.toMatch(/maxlength/i)
    expect(main(three)).toContain('Up to 5,000 characters. 0 of 5,000')
    expect(area).toContain('aria-required="true"')
    // "Submit answers" asks first (issue 15, B11): its button posts `review`, not `submit`.
    expect(three).toMatch(/value="review"[^>]*>Submit answers</)
    expect(three).not.toContain('value="submit"')
    expect(three).toContain('value="previous"')
    expect(main(three)).toContain('Ready to submit?')
  })

  test('a colleague reads the rater wording with the employee’s name, escaped by React', async () => {
    const w = await createWorld({ subjectName: 'Erin <b>Bold</b> & Co' })
    const html = await (await page(w, w.rater.id, w.colleagueCookie)).text()
    expect(html).not.toContain('<b>Bold</b>')
    expect(html).toContain('Erin &lt;b&gt;Bold&lt;/b&gt; &amp; Co listens before answering.')
    expect(main(html)).toContain('In a conflict Erin <b>Bold</b> & Co usually…')
    expect(main(html)).toContain('Your feedback for Erin <b>Bold</b> & Co')
  })

  test('a section number out of range or not a number falls back to where the respondent stopped', async () => {
    const w = await createWorld()
    await post(w.self.id, w.employeeCookie, [
      ['intent', 'goto-3'],
      ['section', '1'],
    ])
    for (const search of ['?section=0', '?section=99', '?section=abc', '?section=-1', '']) {
      const html = await (await page(w, w.self.id, w.employeeCookie, search)).text()
      expect(main(html), search).toContain('Section 3 of 3')
    }
  })
})

describe('saving a section', () => {
  test('the first save creates the response, starts the assignment and tells the subject’s page', async () => {
    const w = await createWorld()
    const listener = await listenForEvents()
    try {
      const response = await post(w.self.id, w.employeeCookie, [
        ['intent', 'next'],
        ['section', '1'],
        ...sectionAnswers(w, 1),
      ])
      expect(response.status).toBe(302)
      expect(location(response)).toBe(`/assignment/${w.self.id}?section=2`)
      expect(hasToast(response)).toBe(false)
      const r = (await responseOf(w.self.id))!
      expect(r.lastSection).toBe(1)
      expect(r.submittedAt).toBeNull()
      expect((await assignmentRow(w.self.id)).status).toBe('in_progress')
      const stored = await answersOf(w.self.id)
      expect(stored.get(w.q[0]!.id)).toMatchObject({ numericValue: 4, notApplicable: false, textValue: null })
      expect(stored.get(w.q[1]!.id)).toMatchObject({ numericValue: 2 })
      expect(stored.get(w.q[2]!.id)).toMatchObject({ choices: ['Hold my position'], numericValue: null })
      const events = await eventually(
        () => listener.events.filter((e) => e.assignmentId === w.self.id),
        (list) => list.length >= 1,
      )
      expect(events).toEqual([
        {
          type: 'assignment.updated',
          subjectId: w.employee.id,
          // The respondent's own /user page listens too (issue 7 item 15).
          respondentId: w.employee.id,
          assignmentId: w.self.id,
          status: 'in_progress',
        },
      ])

      // Later saves upsert: one row per question, no second "started" event.
      await post(w.self.id, w.employeeCookie, [
        ['intent', 'save'],
        ['section', '1'],
        [field(w.q[0]!.id), '5'],
        [field(w.q[1]!.id), '2'],
        [field(w.q[2]!.id), 'Defer to others'],
      ])
      const again = await answersOf(w.self.id)
      expect(again.size).toBe(3)
      expect(again.get(w.q[0]!.id)!.numericValue).toBe(5)
      expect(again.get(w.q[2]!.id)!.choices).toEqual(['Defer to others'])
      await listener.flush()
      expect(listener.events.filter((e) => e.assignmentId === w.self.id)).toHaveLength(1)
      const rows = await db().select().from(responses).where(eq(responses.assignmentId, w.self.id))
      expect(rows).toHaveLength(1)
    } finally {
      await listener.stop()
    }
  })

  test('stores every kind as its column: N/A, several choices in the questionnaire’s order, trimmed text', async () => {
    const w = await createWorld()
    await post(w.self.id, w.employeeCookie, [
      ['intent', 'save'],
      ['section', '2'],
      [field(w.q[3]!.id), 'Empathy'],
      [field(w.q[3]!.id), 'Vision'],
      [field(w.q[3]!.id), 'Empathy'],
      [field(w.q[4]!.id), '   Keep asking.  '],
    ])
    await post(w.self.id, w.employeeCookie, [['intent', 'save'], ['section', '3'], ...sectionAnswers(w, 3)])
    const stored = await answersOf(w.self.id)
    expect(stored.get(w.q[3]!.id)!.choices).toEqual(['Vision', 'Empathy'])
    expect(stored.get(w.q[4]!.id)!.textValue).toBe('Keep asking.')
    // CR LF from the browser is stored as one line break.
    expect(stored.get(w.q[5]!.id)!.textValue).toBe('Delegate more.\nSay no sooner.')
    expect(stored.get(w.q[6]!.id)).toMatchObject({ notApplicable: true, numericValue: null })
  })

  test('clearing an answer removes it; fields of other sections in the same post are ignored', async () => {
    const w = await createWorld()
    await post(w.self.id, w.employeeCookie, [['intent', 'save'], ['section', '2'], ...sectionAnswers(w, 2)])
    expect((await answersOf(w.self.id)).size).toBe(2)
    const response = await post(w.self.id, w.employeeCookie, [
      ['intent', 'save'],
      ['section', '2'],
      [field(w.q[4]!.id), '   '],
      // Not in section 2: must not be written.
      [field(w.q[0]!.id), '3'],
    ])
    expect(response.status).toBe(302)
    const stored = await answersOf(w.self.id)
    expect([...stored.keys()]).toEqual([])
  })

  test('saving part of a section always works; “next” moves on and says what is still open', async () => {
    const w = await createWorld()
    const saved = await post(w.self.id, w.employeeCookie, [
      ['intent', 'save'],
      ['section', '1'],
      [field(w.q[0]!.id), '3'],
    ])
    expect(saved.status).toBe(302)
    expect(location(saved)).toBe(`/assignment/${w.self.id}?section=1`)
    expect(hasToast(saved)).toBe(true)
    const next = await post(w.self.id, w.employeeCookie, [
      ['intent', 'next'],
      ['section', '1'],
      [field(w.q[0]!.id), '3'],
    ])
    expect(location(next)).toBe(`/assignment/${w.self.id}?section=2`)
    expect(hasToast(next)).toBe(true)
    const shown = await send(server, location(next)!, { cookie: cookiesFrom(next, w.employeeCookie) })
    expect(textOf(await shown.text())).toContain(
      '2 required questions in “Alpha” are unanswered. You can come back to them before you submit.',
    )
    expect((await answersOf(w.self.id)).get(w.q[0]!.id)!.numericValue).toBe(3)
  })

  test('previous and goto-N save and move; the target is remembered as the last section', async () => {
    const w = await createWorld()
    const back = await post(w.self.id, w.employeeCookie, [
      ['intent', 'previous'],
      ['section', '3'],
      ...sectionAnswers(w, 3),
    ])
    expect(location(back)).toBe(`/assignment/${w.self.id}?section=2`)
    expect((await responseOf(w.self.id))!.lastSection).toBe(1)
    expect((await answersOf(w.self.id)).size).toBe(2)
    const jump = await post(w.self.id, w.employeeCookie, [
      ['intent', 'goto-1'],
      ['section', '2'],
    ])
    expect(location(jump)).toBe(`/assignment/${w.self.id}?section=1`)
    expect((await responseOf(w.self.id))!.lastSection).toBe(0)
    // A jump past the end lands on the last section; "previous" on the first stays there.
    expect(
      location(
        await post(w.self.id, w.employeeCookie, [
          ['intent', 'goto-99'],
          ['section', '1'],
        ]),
      ),
    ).toBe(`/assignment/${w.self.id}?section=3`)
    expect(
      location(
        await post(w.self.id, w.employeeCookie, [
          ['intent', 'previous'],
          ['section', '1'],
        ]),
      ),
    ).toBe(`/assignment/${w.self.id}?section=1`)
  })

  test('“save and finish later”: the employee goes home with a toast, a colleague to a note', async () => {
    const w = await createWorld()
    const employee = await post(w.self.id, w.employeeCookie, [
      ['intent', 'finish-later'],
      ['section', '2'],
      ...sectionAnswers(w, 2),
    ])
    expect(employee.status).toBe(302)
    expect(location(employee)).toBe('/user')
    expect(hasToast(employee)).toBe(true)
    expect((await responseOf(w.self.id))!.lastSection).toBe(1)
    expect((await answersOf(w.self.id)).size).toBe(2)

    const colleague = await post(w.rater.id, w.colleagueCookie, [
      ['intent', 'finish-later'],
      ['section', '1'],
      ...sectionAnswers(w, 1),
    ])
    expect(location(colleague)).toBe(`/user/thank-you?later=1&assignment=${w.rater.id}`)
    const note = await send(server, location(colleague)!, { cookie: w.colleagueCookie })
    expect(note.status).toBe(200)
    const html = await note.text()
    expect(titleOf(html)).toBe('Answers saved · Panorama')
    expect(main(html)).toContain('with the link in your invitation e-mail and continue where you stopped')
    expect(html).toContain(`href="/assignment/${w.rater.id}"`)
  })
})

describe('each kind’s rules: a wrong answer is refused beside its question and nothing is written', () => {
  const cases: Array<[string, (w: World) => Array<[string, string]>, number, string, number]> = [
    ['a scale value above the range', (w) => [[field(w.q[0]!.id), '6']], 0, 'Choose a value from 1 to 5.', 1],
    ['a scale value below the range', (w) => [[field(w.q[0]!.id), '0']], 0, 'Choose a value from 1 to 5.', 1],
    [
      'a bare scale value out of its range',
      (w) => [[field(w.q[1]!.id), '5']],
      1,
      'Choose a value from 1 to 4.',
      1,
    ],
    [
      'N/A where it is not allowed',
      (w) => [[field(w.q[1]!.id), 'na']],
      1,
      '“Not applicable” is not an option here. Choose a value from 1 to 4.',
      1,
    ],
    ['a fraction', (w) => [[field(w.q[0]!.id), '2.5']], 0, 'Choose a whole number from 1 to 5.', 1],
    ['a word on a scale', (w) => [[field(w.q[0]!.id), 'often']], 0, 'Choose a whole number from 1 to 5.', 1],
    [
      'two values for a scale',
      (w) => [
        [field(w.q[0]!.id), '2'],
        [field(w.q[0]!.id), '3'],
      ],
      0,
      'Choose one value from 1 to 5.',
      1,
    ],
    [
      'an unknown single choice',
      (w) => [[field(w.q[2]!.id), 'Shout']],
      2,
      'Choose one of the options listed.',
      1,
    ],
    [
      'two single choices',
      (w) => [
        [field(w.q[2]!.id), 'Hold my position'],
        [field(w.q[2]!.id), 'Defer to others'],
      ],
      2,
      'Choose only one of the options.',
      1,
    ],
    [
      'an unknown multiple choice',
      (w) => [
        [field(w.q[3]!.id), 'Vision'],
        [field(w.q[3]!.id), 'Telepathy'],
      ],
      3,
      'Choose only from the options listed.',
      2,
    ],
    [
      'a short text over 500 characters',
      (w) => [[field(w.q[4]!.id), 'x'.repeat(501)]],
      4,
      'Keep your answer to 500 characters or fewer (it has 501).',
      2,
    ],
    [
      'a long text over 5,000 characters',
      (w) => [[field(w.q[5]!.id), 'y'.repeat(5001)]],
      5,
      'Keep your answer to 5,000 characters or fewer (it has 5,001).',
      3,
    ],
  ]

  test.each(cases)('%s', async (_label, answers, index, message, section) => {
    const w = await createWorld()
    // A valid answer beside the wrong one is not saved either: the post is refused as a whole.
    const valid: Array<[string, string]> =
      section === 1 ? [] : section === 2 ? [[field(w.q[4]!.id), 'fine']] : [[field(w.q[6]!.id), '3']]
    const before = await snapshot(w.self.id)
    for (const intent of ['save', 'next', 'submit', 'finish-later']) {
      const response = await post(w.self.id, w.employeeCookie, [
        ['intent', intent],
        ['section', String(section)],
        ...(index === 4 ? [] : valid),
        ...answers(w),
      ])
      expect(response.status, intent).toBe(400)
      const html = await response.text()
      expect(questionErrors(html, w.q[index]!.id), intent).toEqual([message])
      expect(html).toMatch(
        new RegExp(
          `aria-invalid="true"[^>]*aria-describedby="q-${w.q[index]!.id}-error"|aria-describedby="[^"]*q-${w.q[index]!.id}-error"`,
        ),
      )
      expect(alertTexts(html).join(' ')).toContain('before it can be saved')
    }
    expect(await snapshot(w.self.id)).toBe(before)
    expect(await responseOf(w.self.id)).toBeUndefined()
  })

  test('a refused post puts the typed answers back into the form (no JavaScript needed)', async () => {
    const w = await createWorld()
    const response = await post(w.self.id, w.employeeCookie, [
      ['intent', 'save'],
      ['section', '2'],
      [field(w.q[3]!.id), 'Coaching'],
      [field(w.q[4]!.id), 'z'.repeat(501)],
    ])
    expect(response.status).toBe(400)
    const html = await response.text()
    expect(checkedValues(html, w.q[3]!.id)).toEqual(['Coaching'])
    expect(textValue(html, w.q[4]!.id)).toBe('z'.repeat(501))
  })

  test('however long the refused answer, all of it comes back with its count: nothing is cut', async () => {
    const w = await createWorld()
    const long = 'word '.repeat(2_400).trim()
    const response = await post(w.self.id, w.employeeCookie, [
      ['intent', 'save'],
      ['section', '3'],
      [field(w.q[5]!.id), long],
    ])
    expect(response.status).toBe(400)
    const html = await response.text()
    expect(questionErrors(html, w.q[5]!.id)).toEqual([
      `Keep your answer to 5,000 characters or fewer (it has ${long.length.toLocaleString('en-GB')}).`,
    ])
    expect(textValue(html, w.q[5]!.id)).toBe(long)
    expect(main(html)).toContain(
      `${long.length.toLocaleString('en-GB')} of 5,000: ${(long.length - 5000).toLocaleString('en-GB')} too many`,
    )
  })

  test('500 characters with line breaks counted as one each are accepted', async () => {
    const w = await createWorld()
    const text = `${'a'.repeat(249)}\r\n${'b'.repeat(250)}`
    const response = await post(w.self.id, w.employeeCookie, [
      ['intent', 'save'],
      ['section', '2'],
      [field(w.q[4]!.id), text],
    ])
    expect(response.status).toBe(302)
    expect((await answersOf(w.self.id)).get(w.q[4]!.id)!.textValue).toHaveLength(500)
  })
})

describe('unreadable posts are 400s, never 500s, and write nothing', () => {
  test.each([
    ['an empty form', [] as Array<[string, string]>],
    ['no intent', [['section', '1']]],
    [
      'an unknown intent',
      [
        ['intent', 'delete'],
        ['section', '1'],
      ],
    ],
    [
      'a malformed goto',
      [
        ['intent', 'goto-x'],
        ['section', '1'],
      ],
    ],
    ['no section', [['intent', 'save']]],
    [
      'section 0',
      [
        ['intent', 'save'],
        ['section', '0'],
      ],
    ],
    [
      'a section past the end',
      [
        ['intent', 'save'],
        ['section', '4'],
      ],
    ],
    [
      'a section that is not a number',
      [
        ['intent', 'save'],
        ['section', 'one'],
      ],
    ],
  ] as Array<[string, Array<[string, string]>]>)('%s', async (_label, pairs) => {
    const w = await createWorld()
    const before = await snapshot(w.self.id)
    const response = await post(w.self.id, w.employeeCookie, pairs)
    expect(response.status).toBe(400)
    const alerts = alertTexts(await response.text()).join(' ')
    expect(alerts).toMatch(/could not be read|section that does not exist|does not say which section/)
    expect(await snapshot(w.self.id)).toBe(before)
  })

  test('a JSON body and a file in place of an answer', async () => {
    const w = await createWorld()
    const before = await snapshot(w.self.id)
    const json = await send(server, `/assignment/${w.self.id}`, {
      cookie: w.employeeCookie,
      json: { intent: 'save', section: 1 },
    })
    expect(json.status).toBe(400)
    const withFile = form([
      ['intent', 'save'],
      ['section', '1'],
    ])
    withFile.append(field(w.q[0]!.id), new File(['3'], 'three.txt', { type: 'text/plain' }))
    const file = await send(server, `/assignment/${w.self.id}`, { cookie: w.employeeCookie, form: withFile })
    expect(file.status).toBe(400)
    expect(questionErrors(await file.text(), w.q[0]!.id)).toEqual([
      'This answer could not be read. Choose or type it again.',
    ])
    expect(await snapshot(w.self.id)).toBe(before)
  })
})

describe('submitting', () => {
  async function answerAll(w: World, id: string, cookie: string) {
    for (const section of [1, 2, 3] as const)
      expect(
        (
          await post(id, cookie, [
            ['intent', 'save'],
            ['section', String(section)],
            ...sectionAnswers(w, section),
          ])
        ).status,
      ).toBe(302)
  }

  test('refuses while a required answer is missing, says which, links to the section, and keeps what was saved', async () => {
    const w = await createWorld()
    await post(w.self.id, w.employeeCookie, [
      ['intent', 'save'],
      ['section', '1'],
      [field(w.q[0]!.id), '4'],
    ])
    const response = await post(w.self.id, w.employeeCookie, [
      ['intent', 'submit'],
      ['section', '3'],
      [field(w.q[6]!.id), '2'],
    ])
    // 200, not 400: the section is saved (issue 7, item 23: a 4xx writes nothing).
    expect(response.status).toBe(200)
    const html = await response.text()
    const alerts = alertTexts(html).join(' ')
    expect(alerts).toContain('Not submitted yet. 3 required questions are still unanswered.')
    expect(alerts).toContain('Section 1: Alpha — 2 required questions')
    expect(alerts).toContain('Section 3: Gamma — 1 required question')
    expect(alerts).not.toContain('Beta')
    expect(html).toContain(`href="/assignment/${w.self.id}?section=1&amp;missing=1"`)
    // Beside the question of this section that is missing.
    expect(questionErrors(html, w.q[5]!.id)).toEqual(['Answer this question before you submit.'])
    expect(questionErrors(html, w.q[6]!.id)).toEqual([])
    // What was posted is saved; nothing is submitted.
    expect((await answersOf(w.self.id)).get(w.q[6]!.id)!.numericValue).toBe(2)
    expect((await assignmentRow(w.self.id)).status).toBe('in_progress')
    expect((await responseOf(w.self.id))!.submittedAt).toBeNull()

    // The link shows the missing ones beside their questions.
    const linked = await (await page(w, w.self.id, w.employeeCookie, '?section=1&missing=1')).text()
    expect(questionErrors(linked, w.q[1]!.id)).toEqual(['Answer this question before you submit.'])
    expect(questionErrors(linked, w.q[2]!.id)).toEqual(['Answer this question before you submit.'])
    expect(questionErrors(linked, w.q[0]!.id)).toEqual([])
  })

  test('“Submit answers” asks first: the section is saved, nothing submitted, and the step says what submitting means (no JavaScript)', async () => {
    const w = await createWorld()
    await post(w.self.id, w.employeeCookie, [['intent', 'save'], ['section', '1'], ...sectionAnswers(w, 1)])
    // Section 2 holds the two optional questions; they stay open.
    const review = await post(w.self.id, w.employeeCookie, [
      ['intent', 'review'],
      ['section', '3'],
      ...sectionAnswers(w, 3),
    ])
    expect(review.status).toBe(302)
    expect(location(review)).toBe(`/assignment/${w.self.id}?section=3&confirm=submit`)
    // Without JavaScript the browser scrolls to the step, at the end of the section.
    expect(review.headers.get('Location')).toMatch(/#confirm-submit$/)
    expect((await answersOf(w.self.id)).get(w.q[6]!.id)!.notApplicable).toBe(true)
    expect((await assignmentRow(w.self.id)).status).toBe('in_progress')
    expect((await responseOf(w.self.id))!.submittedAt).toBeNull()

    const html = await (await page(w, w.self.id, w.employeeCookie, '?section=3&confirm=submit')).text()
    const text = main(html)
    expect(text).toContain(
      'Ready to submit? Once you submit, your answers cannot be changed. 2 optional questions are unanswered; you can still answer them first.',
    )
    expect(text).toContain('Section 2: Beta — 2 optional questions')
    expect(html).toContain(`href="/assignment/${w.self.id}?section=2"`)
    // The button that submits belongs to the answer form, so it posts the section as it is on screen;
    // "Not yet" goes back to the section; the first press's button is gone.
    const answerForm = /<form[^>]*id="answer-form"[\s\S]*?<\/form>/.exec(html)![0]
    expect(answerForm).toMatch(/value="submit"[^>]*>Yes, submit my answers</)
    expect(answerForm).toMatch(new RegExp(`href="/assignment/${w.self.id}\\?section=3"[^>]*>Not yet<`))
    expect(html).not.toContain('value="review"')
    // The sections' answers are still there to change.
    expect(input(html, field(w.q[6]!.id), 'na')).toContain('checked')

    const submitted = await post(w.self.id, w.employeeCookie, [
      ['intent', 'submit'],
      ['section', '3'],
      ...sectionAnswers(w, 3),
    ])
    expect(location(submitted)).toBe(`/user/thank-you?assignment=${w.self.id}`)
    expect((await assignmentRow(w.self.id)).status).toBe('submitted')
  })

  test('the step is not offered while a required answer is missing: the review is refused as a submit is', async () => {
    const w = await createWorld()
    const review = await post(w.self.id, w.employeeCookie, [
      ['intent', 'review'],
      ['section', '3'],
      ...sectionAnswers(w, 3),
    ])
    expect(review.status).toBe(200)
    const alerts = alertTexts(await review.text()).join(' ')
    expect(alerts).toContain('Not submitted yet. 3 required questions are still unanswered.')
    expect(alerts).toContain('Section 1: Alpha — 3 required questions')
    expect((await answersOf(w.self.id)).get(w.q[5]!.id)!.textValue).toBe('Delegate more.\nSay no sooner.')
    expect((await responseOf(w.self.id))!.submittedAt).toBeNull()

    // Its address opened by hand: the summary of what is missing and the first press again.
    const html = await (await page(w, w.self.id, w.employeeCookie, '?section=3&confirm=submit')).text()
    expect(main(html)).toMatch(/Required questions still unanswered: Alpha \( ?3 ?\)/)
    expect(html).toContain('value="review"')
    expect(html).not.toContain('value="submit"')
  })

  test('everything answered: the step says so; on any section but the last the address asks nothing', async () => {
    const w = await createWorld()
    await answerAll(w, w.self.id, w.employeeCookie)
    const last = main(await (await page(w, w.self.id, w.employeeCookie, '?section=3&confirm=submit')).text())
    expect(last).toContain(
      'Ready to submit? Once you submit, your answers cannot be changed. Every question is answered.',
    )
    expect(last).not.toContain('optional question')
    const first = await (await page(w, w.self.id, w.employeeCookie, '?section=1&confirm=submit')).text()
    expect(first).not.toContain('value="submit"')
    expect(first).toContain('value="next"')
  })

  test('a complete response is submitted once: statuses, same instant, audit, event, thank-you', async () => {
    const w = await createWorld()
    await answerAll(w, w.self.id, w.employeeCookie)
    const listener = await listenForEvents()
    try {
      const response = await post(w.self.id, w.employeeCookie, [
        ['intent', 'submit'],
        ['section', '3'],
        ...sectionAnswers(w, 3),
      ])
      expect(response.status).toBe(302)
      expect(location(response)).toBe(`/user/thank-you?assignment=${w.self.id}`)
      const a = await assignmentRow(w.self.id)
      const r = (await responseOf(w.self.id))!
      expect(a.status).toBe('submitted')
      expect(a.submittedAt).toBeInstanceOf(Date)
      expect(r.submittedAt!.getTime()).toBe(a.submittedAt!.getTime())
      const audits = await db()
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.entityId, w.self.id), eq(auditLog.action, 'assignment.submit')))
      expect(audits).toHaveLength(1)
      expect(audits[0]!.actorId).toBe(w.employee.id)
      const events = await eventually(
        () => listener.events.filter((e) => e.assignmentId === w.self.id),
        (list) => list.length >= 1,
      )
      expect(events).toEqual([
        {
          type: 'assignment.updated',
          subjectId: w.employee.id,
          respondentId: w.employee.id,
          assignmentId: w.self.id,
          status: 'submitted',
        },
      ])
    } finally {
      await listener.stop()
    }
  })

  test('two concurrent submits make one submitted response with one submitted_at', async () => {
    const w = await createWorld()
    await answerAll(w, w.rater.id, w.colleagueCookie)
    const body: Array<[string, string]> = [['intent', 'submit'], ['section', '3'], ...sectionAnswers(w, 3)]
    const results = await Promise.all([1, 2, 3].map(() => post(w.rater.id, w.colleagueCookie, body)))
    for (const r of results) {
      expect(r.status).toBe(302)
      expect(location(r)).toBe(`/user/thank-you?assignment=${w.rater.id}`)
    }
    const rows = await db().select().from(responses).where(eq(responses.assignmentId, w.rater.id))
    expect(rows).toHaveLength(1)
    const a = await assignmentRow(w.rater.id)
    expect(rows[0]!.submittedAt!.getTime()).toBe(a.submittedAt!.getTime())
    const [{ n }] = (await db()
      .select({ n: sql<number>`count(*)::int` })
      .from(auditLog)
      .where(and(eq(auditLog.entityId, w.rater.id), eq(auditLog.action, 'assignment.submit')))) as [
      { n: number },
    ]
    expect(n).toBe(1)

    // A replay later (the back button, a resent form) changes nothing and lands on the thank-you page.
    const before = await snapshot(w.rater.id)
    const replay = await post(w.rater.id, w.colleagueCookie, body)
    expect(location(replay)).toBe(`/user/thank-you?assignment=${w.rater.id}`)
    expect(await snapshot(w.rater.id)).toBe(before)
  })

  test('a submitted response is read-only: the page shows the answers, later saves are refused', async () => {
    const w = await createWorld()
    await answerAll(w, w.self.id, w.employeeCookie)
    await post(w.self.id, w.employeeCookie, [['intent', 'submit'], ['section', '3'], ...sectionAnswers(w, 3)])
    const html = await (await page(w, w.self.id, w.employeeCookie)).text()
    expect(titleOf(html)).toBe('Your answers · Kinds 360 · Panorama')
    const text = main(html)
    expect(text).toContain('You submitted these answers, so they can no longer be changed.')
    expect(text).toContain('I listen before I answer. 4 – Often')
    expect(text).toContain('In a conflict I usually… Hold my position')
    expect(text).toContain('Which are my strengths? Vision, Empathy')
    expect(text).toContain('I deliver on time. Not applicable')
    expect(html).not.toContain('name="intent"')
    expect(html).not.toMatch(/<form[^>]*method="post"[^>]*id="answer-form"/)

    const before = await snapshot(w.self.id)
    for (const intent of ['save', 'next', 'finish-later', 'goto-1']) {
      const response = await post(w.self.id, w.employeeCookie, [
        ['intent', intent],
        ['section', '1'],
        [field(w.q[0]!.id), '1'],
      ])
      expect(response.status).toBe(409)
      expect(alertTexts(await response.text()).join(' ')).toContain(
        'These answers were submitted and can no longer be changed.',
      )
    }
    const auto = await send(server, `/assignment/${w.self.id}.data`, {
      cookie: w.employeeCookie,
      form: form([
        ['intent', 'autosave'],
        ['section', '1'],
        [field(w.q[0]!.id), '1'],
      ]),
    })
    expect(auto.status).toBe(409)
    expect(await decodeData(auto)).toMatchObject({ data: { kind: 'refused', reason: 'submitted' } })
    expect(await snapshot(w.self.id)).toBe(before)
  })
})

describe('resuming', () => {
  test('another device (a new session) opens at the last section with the saved answers', async () => {
    const w = await createWorld()
    await post(w.self.id, w.employeeCookie, [['intent', 'next'], ['section', '1'], ...sectionAnswers(w, 1)])
    await post(w.self.id, w.employeeCookie, [['intent', 'save'], ['section', '2'], ...sectionAnswers(w, 2)])
    const otherDevice = await sessionCookieFor(w.employee.id)
    const html = await (await page(w, w.self.id, otherDevice)).text()
    expect(main(html)).toContain('Section 2 of 3')
    // The step is marked current; the bar counts the five answers saved (issue 7 item 17).
    expect(html).toMatch(/value="goto-2" aria-current="step"/)
    expect(html).toMatch(/aria-valuenow="5"/)
    expect(checkedValues(html, w.q[3]!.id)).toEqual(['Vision', 'Empathy'])
    expect(textValue(html, w.q[4]!.id)).toBe('Keep asking questions.')
    const first = await (await page(w, w.self.id, otherDevice, '?section=1')).text()
    expect(checkedValues(first, w.q[0]!.id)).toEqual(['4'])
    expect(checkedValues(first, w.q[1]!.id)).toEqual(['2'])
    expect(checkedValues(first, w.q[2]!.id)).toEqual(['Hold my position'])
    // Steps that are complete say so.
    expect(first).toContain('(complete)')
  })
})

describe('autosave', () => {
  test('answers the fetcher with data (no redirect), saves, and keeps the section', async () => {
    const w = await createWorld()
    const response = await send(server, `/assignment/${w.self.id}.data`, {
      cookie: w.employeeCookie,
      form: form([
        ['intent', 'autosave'],
        ['section', '2'],
        [field(w.q[4]!.id), 'Typed so far'],
      ]),
    })
    expect(response.status).toBe(200)
    expect(response.headers.get('Location')).toBeNull()
    const decoded = (await decodeData(response)) as { data: { kind: string; savedAt: string } }
    expect(decoded.data.kind).toBe('saved')
    expect(new Date(decoded.data.savedAt).getTime()).toBeGreaterThan(Date.now() - 60_000)
    expect((await answersOf(w.self.id)).get(w.q[4]!.id)!.textValue).toBe('Typed so far')
    expect((await responseOf(w.self.id))!.lastSection).toBe(1)
    expect((await assignmentRow(w.self.id)).status).toBe('in_progress')
  })

  test('tells the page the answered and required counts as just saved (it does not reload)', async () => {
    const w = await createWorld()
    const save = async (section: string, pairs: Array<[string, string]>) => {
      const response = await send(server, `/assignment/${w.self.id}.data`, {
        cookie: w.employeeCookie,
        form: form([['intent', 'autosave'], ['section', section], ...pairs]),
      })
      expect(response.status).toBe(200)
      return ((await decodeData(response)) as { data: { progress: unknown } }).data.progress
    }
    expect(await save('1', [[field(w.q[0]!.id), '4']])).toMatchObject({
      totals: { questions: 7, answered: 1, required: 5, requiredAnswered: 1, missingRequired: 4 },
      sections: [
        { number: 1, title: 'Alpha', questionCount: 3, answered: 1, required: 3, missingRequired: 2 },
        { number: 2, title: 'Beta', answered: 0, required: 0, missingRequired: 0 },
        { number: 3, title: 'Gamma', answered: 0, required: 2, missingRequired: 2 },
      ],
    })
    // The last section's required answers, saved: "still unanswered" no longer names it.
    const after = (await save('3', [
      [field(w.q[5]!.id), 'Plan the week on Mondays.'],
      [field(w.q[6]!.id), '3'],
    ])) as { sections: Array<{ missingRequired: number }>; totals: { answered: number } }
    expect(after.totals.answered).toBe(3)
    expect(after.sections.map((s) => s.missingRequired)).toEqual([2, 0, 0])
    // Clearing an answer counts too.
    const cleared = (await save('3', [
      [field(w.q[5]!.id), ''],
      [field(w.q[6]!.id), '3'],
    ])) as { sections: Array<{ missingRequired: number }> }
    expect(cleared.sections.map((s) => s.missingRequired)).toEqual([2, 0, 1])
  })

  test('a wrong answer comes back as field errors with a 400, and nothing is saved', async () => {
    const w = await createWorld()
    const response = await send(server, `/assignment/${w.self.id}.data`, {
      cookie: w.employeeCookie,
      form: form([
        ['intent', 'autosave'],
        ['section', '1'],
        [field(w.q[0]!.id), '7'],
        [field(w.q[1]!.id), '2'],
      ]),
    })
    expect(response.status).toBe(400)
    expect(await decodeData(response)).toMatchObject({
      data: {
        kind: 'refused',
        reason: 'invalid',
        fieldErrors: { [w.q[0]!.id]: ['Choose a value from 1 to 5.'] },
      },
    })
    expect(await responseOf(w.self.id)).toBeUndefined()
  })

  test('the page’s status line starts from the no-JavaScript promise, as a polite live region', async () => {
    const w = await createWorld()
    const html = await (await page(w, w.self.id, w.employeeCookie)).text()
    expect(html).toMatch(
      /<p role="status" aria-live="polite"[^>]*>Your answers are saved each time you change section.<\/p>/,
    )
  })
})

test('renames show at once: the rater wording follows the subject’s current name', async () => {
  const w = await createWorld()
  await setDisplayName(w.employee.id, 'Erin Renamed')
  const html = await (await page(w, w.rater.id, w.colleagueCookie)).text()
  expect(main(html)).toContain('Erin Renamed listens before answering.')
})
