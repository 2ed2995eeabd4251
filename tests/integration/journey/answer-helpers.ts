import pg from 'pg'
import { eq, sql } from 'drizzle-orm'
import { UNSAFE_decodeViaTurboStream as decodeViaTurboStream } from 'react-router'
import { getDb, getHandle } from '#db/client'
import { actionCodes, answers, assignments, auditLog, responses, users } from '#db/schema/index'
import { createActionCode } from '#app/modules/action-code/action-code.server'
import {
  createBrand,
  createCompany,
  createQuestionnaire,
  createRaterAssignment,
  createScheme,
  createUser,
  enrolEmployee,
  questionsOf,
  type QuestionSeed,
} from '#db/factories'
import { EVENTS_CHANNEL, type PanoramaEvent } from '#app/modules/realtime/events.server'
import { sessionCookieFor } from '#tests/support/app'
import { decodeEntities, textOf } from '#tests/integration/auth/helpers'

/**
 * Shared by the answering tests: a questionnaire with every kind of question over three sections,
 * a fresh scheme per world (so one test's rows never meet another's), and readers for what a page
 * shows and what a save wrote.
 */

const SCALE = { min: 1, max: 5, labels: ['Never', 'Rarely', 'Sometimes', 'Often', 'Always'], allowNa: true }

export const KIND_QUESTIONS: QuestionSeed[] = [
  // Section 1: Alpha
  {
    section: 'Alpha',
    kind: 'scale',
    category: 'Listening',
    text: 'I listen before I answer.',
    raterText: '{{name}} listens before answering.',
    options: SCALE,
  },
  {
    section: 'Alpha',
    kind: 'scale',
    category: 'Listening',
    text: 'I follow up on what I hear.',
    raterText: '{{name}} follows up on what they hear.',
    // No "Not applicable" here, and no labels: a bare 1…4 scale.
    options: { min: 1, max: 4 },
  },
  {
    section: 'Alpha',
    kind: 'single',
    category: 'Style',
    text: 'In a conflict I usually…',
    raterText: 'In a conflict {{name}} usually…',
    options: { labels: ['Look for common ground', 'Hold my position', 'Defer to others'] },
  },
  // Section 2: Beta
  {
    section: 'Beta',
    kind: 'multi',
    category: 'Style',
    text: 'Which are my strengths?',
    raterText: 'Which are strengths of {{name}}?',
    required: false,
    options: { labels: ['Vision', 'Coaching', 'Empathy'] },
  },
  {
    section: 'Beta',
    kind: 'text',
    category: 'Growth',
    text: 'One thing I should keep doing:',
    raterText: 'One thing {{name}} should keep doing:',
    required: false,
  },
  // Section 3: Gamma
  {
    section: 'Gamma',
    kind: 'textarea',
    category: 'Growth',
    text: 'What could I do differently?',
    raterText: 'What could {{name}} do differently?',
  },
  {
    section: 'Gamma',
    kind: 'scale',
    category: 'Delivery',
    text: 'I deliver on time.',
    raterText: '{{name}} delivers on time.',
    options: SCALE,
  },
]

export type World = Awaited<ReturnType<typeof createWorld>>

/**
 * An employee enrolled in an open scheme on the kinds questionnaire, with one colleague invited
 * (rater assignment + a live invite code), plus signed-in cookies for both.
 */
export async function createWorld(
  options: {
    subjectName?: string
    scheme?: {
      status?: 'draft' | 'open' | 'closed'
      opensAt?: Date
      closesAt?: Date
      minRaters?: number
      maxColleagues?: number
    }
    brand?: Parameters<typeof createBrand>[0]
  } = {},
) {
  const brand = await createBrand(options.brand ?? {})
  const company = await createCompany({ brandId: brand.id })
  const questionnaire = await createQuestionnaire({
    title: 'Kinds 360',
    intro: 'Three short sections about how we work.',
    questions: KIND_QUESTIONS,
  })
  const scheme = await createScheme({
    companyId: company.id,
    questionnaireId: questionnaire.id,
    name: 'Kinds programme',
    ...options.scheme,
  })
  const employee = await createUser({
    role: 'employee',
    companyId: company.id,
    displayName: options.subjectName ?? 'Erin Example',
  })
  const self = (await enrolEmployee(scheme, employee.id))!
  const colleague = await createUser({ role: 'colleague', displayName: 'Casey Rater' })
  const rater = await createRaterAssignment({
    scheme,
    subjectId: employee.id,
    respondentId: colleague.id,
    respondentName: 'Casey Rater',
  })
  const { code } = await createActionCode(getDb(), {
    kind: 'colleague_invite',
    userId: colleague.id,
    assignmentId: rater.id,
    expiresAt: scheme.closesAt,
  })
  const q = await questionsOf(questionnaire.id)
  return {
    brand,
    company,
    questionnaire,
    scheme,
    employee,
    colleague,
    self,
    rater,
    inviteCode: code,
    /** Questions in position order: q[0]…q[6]. */
    q,
    employeeCookie: await sessionCookieFor(employee.id),
    colleagueCookie: await sessionCookieFor(colleague.id),
  }
}

export const field = (questionId: string) => `q-${questionId}`

/** A form body from pairs, repeating a name for several values (checkboxes). */
export function form(pairs: Array<[string, string]>): FormData {
  const data = new FormData()
  for (const [k, v] of pairs) data.append(k, v)
  return data
}

/** Valid answers for a whole section of the kinds questionnaire. */
export function sectionAnswers(w: World, section: 1 | 2 | 3): Array<[string, string]> {
  const { q } = w
  if (section === 1)
    return [
      [field(q[0]!.id), '4'],
      [field(q[1]!.id), '2'],
      [field(q[2]!.id), 'Hold my position'],
    ]
  if (section === 2)
    return [
      [field(q[3]!.id), 'Vision'],
      [field(q[3]!.id), 'Empathy'],
      [field(q[4]!.id), 'Keep asking questions.'],
    ]
  return [
    [field(q[5]!.id), 'Delegate more.\r\nSay no sooner.'],
    [field(q[6]!.id), 'na'],
  ]
}

export async function responseOf(assignmentId: string) {
  const [row] = await getDb().select().from(responses).where(eq(responses.assignmentId, assignmentId))
  return row
}

export async function assignmentRow(id: string) {
  const [row] = await getDb().select().from(assignments).where(eq(assignments.id, id))
  return row!
}

export async function answersOf(assignmentId: string) {
  const rows = await getDb()
    .select({
      questionId: answers.questionId,
      numericValue: answers.numericValue,
      textValue: answers.textValue,
      choices: answers.choices,
      notApplicable: answers.notApplicable,
      updatedAt: answers.updatedAt,
    })
    .from(answers)
    .innerJoin(responses, eq(responses.id, answers.responseId))
    .where(eq(responses.assignmentId, assignmentId))
  return new Map(rows.map((r) => [r.questionId, r]))
}

/** Everything a save could have written for an assignment, to compare before and after. */
export async function snapshot(assignmentId: string) {
  const [a, r, list, audits, codes] = await Promise.all([
    assignmentRow(assignmentId),
    responseOf(assignmentId),
    answersOf(assignmentId),
    getDb()
      .select({ n: sql<number>`count(*)::int` })
      .from(auditLog)
      .where(eq(auditLog.entityId, assignmentId)),
    getDb()
      .select({ usedAt: actionCodes.usedAt })
      .from(actionCodes)
      .where(eq(actionCodes.assignmentId, assignmentId)),
  ])
  return JSON.stringify({
    assignment: a,
    response: r ?? null,
    answers: [...list.entries()].sort(([x], [y]) => x.localeCompare(y)),
    audits: audits[0]!.n,
    codes,
  })
}

export async function setDisplayName(userId: string, displayName: string) {
  await getDb().update(users).set({ displayName }).where(eq(users.id, userId))
}

/** The texts of the error list beside a question (`<ul id="q-<id>-error">`). */
export function questionErrors(html: string, questionId: string): string[] {
  const match = new RegExp(`<ul id="q-${questionId}-error"[^>]*>([\\s\\S]*?)</ul>`).exec(html)
  if (!match) return []
  return [...match[1]!.matchAll(/<li>([\s\S]*?)<\/li>/g)].map((m) => textOf(m[1]!))
}

/** The values of the checked inputs of a question's field, as the page renders them. */
export function checkedValues(html: string, questionId: string): string[] {
  const inputs = [...html.matchAll(/<input\b[^>]*>/g)].map((m) => m[0])
  return inputs
    .filter((tag) => tag.includes(`name="${field(questionId)}"`) && /\schecked(=""|\s|>|\/)/.test(tag))
    .map((tag) => decodeEntities(/value="([^"]*)"/.exec(tag)![1]!))
}

/** The value a text input or textarea of a question starts with. */
export function textValue(html: string, questionId: string): string | null {
  const input = new RegExp(`<input\\b[^>]*name="${field(questionId)}"[^>]*>`).exec(html)
  if (input) {
    const value = /value="([^"]*)"/.exec(input[0])
    return value ? decodeEntities(value[1]!) : ''
  }
  const area = new RegExp(`<textarea\\b[^>]*name="${field(questionId)}"[^>]*>([\\s\\S]*?)</textarea>`).exec(
    html,
  )
  return area ? decodeEntities(area[1]!) : null
}

/** Decodes a single-fetch (`.data`) answer, as the browser's fetcher would. */
export async function decodeData(response: Response): Promise<unknown> {
  const decoded = await decodeViaTurboStream(response.body!, globalThis)
  await decoded.done
  return decoded.value
}

/**
 * Listens on the events channel as the live /user page does, collecting what is published.
 * `flush()` proves that nothing more is on its way from what has committed so far: it publishes a
 * marker and waits for it (notifications arrive in commit order), instead of sleeping and hoping.
 */
export async function listenForEvents() {
  const events: PanoramaEvent[] = []
  const markers = new Map<string, () => void>()
  const receive = (payload: string) => {
    const marked = markers.get(payload)
    if (marked) return marked()
    events.push(JSON.parse(payload) as PanoramaEvent)
  }
  const handle = getHandle()
  let notify: (payload: string) => Promise<unknown>
  let stop: () => Promise<unknown>
  if (handle.kind === 'pglite') {
    const unsubscribe = await handle.pglite!.listen(EVENTS_CHANNEL, receive)
    notify = (payload) => handle.pglite!.query('SELECT pg_notify($1, $2)', [EVENTS_CHANNEL, payload])
    stop = () => unsubscribe()
  } else {
    const client = new pg.Client({ connectionString: process.env.DATABASE_URL })
    await client.connect()
    client.on('notification', (message) => {
      if (message.channel === EVENTS_CHANNEL && message.payload) receive(message.payload)
    })
    await client.query(`LISTEN ${EVENTS_CHANNEL}`)
    notify = (payload) => client.query('SELECT pg_notify($1, $2)', [EVENTS_CHANNEL, payload])
    stop = () => client.end()
  }
  const flush = async () => {
    const marker = JSON.stringify({ flush: crypto.randomUUID() })
    const arrived = new Promise<void>((resolve) => markers.set(marker, resolve))
    await notify(marker)
    await arrived
    markers.delete(marker)
  }
  return { events, flush, stop }
}

/** Notifications travel through the database asynchronously: wait a little for them. */
export async function eventually<T>(read: () => T, check: (value: T) => boolean, timeoutMs = 3_000) {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = read()
    if (check(value) || Date.now() > deadline) return value
    await new Promise((r) => setTimeout(r, 25))
  }
}
