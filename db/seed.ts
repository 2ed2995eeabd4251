/**
 * `npm run seed`: a demo data set, safe to run again (it finds what exists by its natural key and
 * creates only what is missing). Applies migrations first, so it works on a fresh ./.data before
 * the server ever started; refuses to touch a PGlite folder a running server holds.
 */
import type { Role } from './enums'
import { and, eq, inArray, isNull, sql } from 'drizzle-orm'
import { closeDatabase, DatabaseLockedError, getDb, openDatabase, runMigrations } from './client'
import { getEnv } from '../app/config/env.server'
import { endOfDay, formatDateTime } from '../app/lib/dates'
import { createActionCode } from '../app/modules/action-code/action-code.server'
import { actionLink } from '../app/modules/action-code/action-code.server'
import { releaseOnClose, releaseParticipant } from '../app/modules/report/release.server'
import { addFocusArea, loadPlanContext, savePlan, shareReport } from '../app/modules/plan/plan.server'
import {
  addNominee,
  approveList,
  sendBackList,
  submitList,
} from '../app/modules/nomination/nomination.server'
import { hashPassword } from '../app/modules/auth/password.server'
import { TEMPLATE_KEYS } from '../app/modules/email/templates'
import { GERMAN_TEMPLATES } from '../app/modules/email/templates-de'
import {
  actionCodes,
  assignments,
  brands,
  companies,
  emailTemplates,
  questionnaires,
  questionnaireSections,
  questions,
  responses,
  schemeMembers,
  schemes,
  users,
  reportReleases,
} from './schema/index'
import {
  createBrand,
  createCompany,
  createQuestionnaire,
  createRaterAssignment,
  createScheme,
  createUser,
  createResponse,
  enrolEmployee,
  questionsOf,
  type AnswerSeed,
  type QuestionSeed,
} from './factories'

const PASSWORD = process.env.SEED_PASSWORD || 'panorama-demo'
const DAY = 24 * 60 * 60 * 1000

/** The demo programme runs on UK time: its deadline is the end of a day there (23:59), not an odd UTC minute. */
export const DEMO_TIME_ZONE = 'Europe/London'

/**
 * The demo consultancy's contact links: realistic, so the demo shows what a configured brand looks
 * like (the deployment itself has no placeholder defaults).
 */
export const DEMO_BRAND = {
  name: 'Northwind Consulting',
  primaryColor: '#1e3a8a',
  accentColor: '#0f766e',
  senderName: 'Northwind Consulting',
  callbackUrl: 'https://www.northwind-consulting.co.uk/request-a-callback',
  contactEmail: 'feedback@northwind-consulting.co.uk',
  profileUrl: 'https://www.linkedin.com/company/northwind-consulting',
}

/** Read by self and colleagues alike: nothing in it assumes whose eyes the answers come from. */
export const DEMO_INTRO =
  'This questionnaire looks at five areas of how we work together. There are no right or wrong answers: think of recent, concrete situations, and choose "Not applicable" where a question does not fit.'
/** The wording of earlier seeds ("what you have seen" reads oddly in a self-assessment): replaced on a re-run. */
const OLD_INTRO =
  'This questionnaire looks at five areas of how we work together. There are no right or wrong answers: answer from what you have seen, and choose "Not applicable" where you cannot judge.'

const SCALE = { min: 1, max: 5, labels: ['Never', 'Rarely', 'Sometimes', 'Often', 'Always'], allowNa: true }

export const DEMO_QUESTIONS: QuestionSeed[] = [
  {
    section: 'Communication',
    category: 'Communication',
    kind: 'scale',
    text: 'I listen carefully before I respond.',
    raterText: '{{name}} listens carefully before responding.',
    options: SCALE,
  },
  {
    section: 'Communication',
    category: 'Communication',
    kind: 'scale',
    text: 'I explain decisions clearly.',
    raterText: '{{name}} explains decisions clearly.',
    options: SCALE,
  },
  {
    section: 'Collaboration',
    category: 'Collaboration',
    kind: 'scale',
    text: 'I share information with colleagues freely.',
    raterText: '{{name}} shares information with colleagues freely.',
    options: SCALE,
  },
  {
    section: 'Collaboration',
    category: 'Collaboration',
    kind: 'single',
    text: 'When we disagree, I usually…',
    raterText: 'When we disagree, {{name}} usually…',
    options: { labels: ['Look for common ground', 'Hold my position', 'Defer to others', 'Avoid the topic'] },
  },
  {
    section: 'Leadership',
    category: 'Leadership',
    kind: 'scale',
    text: 'I give people room to take ownership.',
    raterText: '{{name}} gives people room to take ownership.',
    options: SCALE,
  },
  {
    section: 'Leadership',
    category: 'Leadership',
    kind: 'multi',
    text: 'Which of these are my strengths?',
    raterText: 'Which of these are strengths of {{name}}?',
    required: false,
    options: { labels: ['Vision', 'Coaching', 'Decisiveness', 'Empathy', 'Delegation'] },
  },
  {
    section: 'Delivery',
    category: 'Delivery',
    kind: 'scale',
    text: 'I deliver what I promise, on time.',
    raterText: '{{name}} delivers what they promise, on time.',
    options: SCALE,
  },
  {
    section: 'Delivery',
    category: 'Delivery',
    kind: 'scale',
    text: 'I keep quality high under pressure.',
    raterText: '{{name}} keeps quality high under pressure.',
    options: SCALE,
  },
  {
    section: 'Growth',
    category: 'Growth',
    kind: 'scale',
    text: 'I ask for feedback and act on it.',
    raterText: '{{name}} asks for feedback and acts on it.',
    options: SCALE,
  },
  {
    section: 'Growth',
    category: 'Growth',
    kind: 'text',
    text: 'One thing I should keep doing:',
    raterText: 'One thing {{name}} should keep doing:',
    required: false,
  },
  {
    section: 'Growth',
    category: 'Growth',
    kind: 'textarea',
    text: 'What could I do differently to be more effective?',
    raterText: 'What could {{name}} do differently to be more effective?',
    required: false,
  },
]

/**
 * The demo questionnaire in German (issue 20 §3, ADR 051): the title and introduction, each section
 * by its English title, each question by its self wording (its two wordings and its labels). The
 * choice labels read for self and colleague alike, as in English.
 */
const GERMAN_SCALE = ['Nie', 'Selten', 'Manchmal', 'Oft', 'Immer']
export const DEMO_GERMAN = {
  title: 'Führung 360',
  intro:
    'Dieser Fragebogen betrachtet fünf Bereiche unserer Zusammenarbeit. Es gibt keine richtigen oder falschen Antworten: Denken Sie an konkrete Situationen aus letzter Zeit und wählen Sie „Nicht zutreffend“, wenn eine Frage nicht passt.',
  sections: {
    Communication: 'Kommunikation',
    Collaboration: 'Zusammenarbeit',
    Leadership: 'Führung',
    Delivery: 'Ergebnisse',
    Growth: 'Entwicklung',
  } as Record<string, string>,
  questions: {
    'I listen carefully before I respond.': {
      text: 'Ich höre aufmerksam zu, bevor ich antworte.',
      raterText: '{{name}} hört erst aufmerksam zu und antwortet dann.',
      labels: GERMAN_SCALE,
    },
    'I explain decisions clearly.': {
      text: 'Ich erkläre Entscheidungen verständlich.',
      raterText: '{{name}} erklärt Entscheidungen verständlich.',
      labels: GERMAN_SCALE,
    },
    'I share information with colleagues freely.': {
      text: 'Ich teile Informationen offen mit Kolleginnen und Kollegen.',
      raterText: '{{name}} teilt Informationen offen mit Kolleginnen und Kollegen.',
      labels: GERMAN_SCALE,
    },
    'When we disagree, I usually…': {
      text: 'Bei Meinungsverschiedenheiten neige ich dazu, …',
      raterText: 'Bei Meinungsverschiedenheiten neigt {{name}} dazu, …',
      labels: [
        'Gemeinsamkeiten zu suchen',
        'auf dem eigenen Standpunkt zu beharren',
        'sich den anderen anzuschließen',
        'dem Thema auszuweichen',
      ],
    },
    'I give people room to take ownership.': {
      text: 'Ich lasse anderen Raum, Verantwortung zu übernehmen.',
      raterText: '{{name}} lässt anderen Raum, Verantwortung zu übernehmen.',
      labels: GERMAN_SCALE,
    },
    'Which of these are my strengths?': {
      text: 'Welche dieser Eigenschaften sind meine Stärken?',
      raterText: 'Welche dieser Eigenschaften sind Stärken von {{name}}?',
      labels: ['Weitblick', 'Coaching', 'Entschlusskraft', 'Empathie', 'Delegieren'],
    },
    'I deliver what I promise, on time.': {
      text: 'Ich halte meine Zusagen ein, und zwar pünktlich.',
      raterText: '{{name}} hält Zusagen ein, und zwar pünktlich.',
      labels: GERMAN_SCALE,
    },
    'I keep quality high under pressure.': {
      text: 'Auch unter Druck achte ich auf hohe Qualität.',
      raterText: 'Auch unter Druck achtet {{name}} auf hohe Qualität.',
      labels: GERMAN_SCALE,
    },
    'I ask for feedback and act on it.': {
      text: 'Ich bitte um Feedback und setze es um.',
      raterText: '{{name}} bittet um Feedback und setzt es um.',
      labels: GERMAN_SCALE,
    },
    'One thing I should keep doing:': {
      text: 'Eine Sache, die ich beibehalten sollte:',
      raterText: 'Eine Sache, die {{name}} beibehalten sollte:',
    },
    'What could I do differently to be more effective?': {
      text: 'Was könnte ich anders machen, um wirksamer zu sein?',
      raterText: 'Was könnte {{name}} anders machen, um wirksamer zu sein?',
    },
  } as Record<string, { text: string; raterText: string; labels?: string[] }>,
}

/**
 * Gives the demo questionnaire its German version where it has none yet (a fresh seed, or one seeded
 * before translations existed): true when anything was written. A German translation an admin has
 * since edited is left as it is.
 */
async function seedGerman(questionnaireId: string): Promise<boolean> {
  const db = getDb()
  const [row] = await db
    .select({ translations: questionnaires.translations })
    .from(questionnaires)
    .where(eq(questionnaires.id, questionnaireId))
  if (row?.translations.de) return false
  await db.transaction(async (tx) => {
    await tx
      .update(questionnaires)
      .set({
        translations: { ...row?.translations, de: { title: DEMO_GERMAN.title, intro: DEMO_GERMAN.intro } },
      })
      .where(eq(questionnaires.id, questionnaireId))
    const sections = await tx
      .select({
        id: questionnaireSections.id,
        title: questionnaireSections.title,
        translations: questionnaireSections.translations,
      })
      .from(questionnaireSections)
      .where(eq(questionnaireSections.questionnaireId, questionnaireId))
    for (const section of sections) {
      const title = DEMO_GERMAN.sections[section.title]
      if (title)
        await tx
          .update(questionnaireSections)
          .set({ translations: { ...section.translations, de: { title } } })
          .where(eq(questionnaireSections.id, section.id))
    }
    const rows = await tx
      .select({ id: questions.id, text: questions.text, translations: questions.translations })
      .from(questions)
      .where(eq(questions.questionnaireId, questionnaireId))
    for (const q of rows) {
      const german = DEMO_GERMAN.questions[q.text]
      if (german)
        await tx
          .update(questions)
          .set({ translations: { ...q.translations, de: german } })
          .where(eq(questions.id, q.id))
    }
  })
  return true
}

/**
 * The install default's German version of every e-mail (issue 20 §3, ADR 053), where it has none
 * yet: an admin's own German wording is kept. Answers how many were written.
 */
async function seedGermanEmails(): Promise<number> {
  const rows = await getDb()
    .insert(emailTemplates)
    .values(
      TEMPLATE_KEYS.map((key) => ({
        key,
        brandId: null,
        language: 'de',
        subject: GERMAN_TEMPLATES[key].subject,
        body: GERMAN_TEMPLATES[key].body,
      })),
    )
    .onConflictDoNothing()
    .returning({ id: emailTemplates.id })
  return rows.length
}

/** The demo's German speakers (ADR 053): two of Erin's colleagues, who get their e-mails in German. */
export const DEMO_GERMAN_SPEAKERS = ['sky.peer@panorama.test', 'drew.other@panorama.test'] as const

async function findOrCreateUser(email: string, role: Role, displayName: string, companyId: string | null) {
  const db = getDb()
  const [existing] = await db.select().from(users).where(eq(users.email, email)).limit(1)
  if (existing) {
    if (role !== 'colleague') {
      await db
        .update(users)
        .set({ passwordHash: await hashPassword(PASSWORD), disabledAt: null })
        .where(eq(users.id, existing.id))
    }
    return { user: existing, created: false }
  }
  const user = await createUser({
    email,
    role,
    displayName,
    companyId,
    password: role === 'colleague' ? null : PASSWORD,
  })
  return { user, created: true }
}

export async function seed() {
  const db = getDb()
  const made: string[] = []

  const [brandRow] = await db.select().from(brands).where(eq(brands.name, DEMO_BRAND.name)).limit(1)
  const brand = brandRow ?? (await createBrand(DEMO_BRAND))
  if (!brandRow) made.push(`brand: ${brand.name}`)
  else if (!brandRow.callbackUrl && !brandRow.contactEmail && !brandRow.profileUrl) {
    // A brand from an older seed, without contact links: give it the demo's.
    const { callbackUrl, contactEmail, profileUrl } = DEMO_BRAND
    await db.update(brands).set({ callbackUrl, contactEmail, profileUrl }).where(eq(brands.id, brand.id))
    made.push(`brand contact links: ${brand.name}`)
  }

  const [companyRow] = await db.select().from(companies).where(eq(companies.name, 'Acme Ltd')).limit(1)
  const company = companyRow ?? (await createCompany({ name: 'Acme Ltd', brandId: brand.id }))
  if (!companyRow) made.push(`company: ${company.name}`)

  const admin = await findOrCreateUser('admin@panorama.test', 'admin', 'Alex Admin', null)
  const employee = await findOrCreateUser('employee@panorama.test', 'employee', 'Erin Employee', company.id)
  const colleague = await findOrCreateUser('colleague@panorama.test', 'colleague', 'Casey Colleague', null)
  for (const [label, r] of [
    ['admin', admin],
    ['employee', employee],
    ['colleague', colleague],
  ] as const) {
    if (r.created) made.push(`${label}: ${r.user.email}`)
  }

  const [questionnaireRow] = await db
    .select()
    .from(questionnaires)
    .where(eq(questionnaires.title, 'Leadership 360'))
    .limit(1)
  const questionnaire =
    questionnaireRow ??
    (await createQuestionnaire({
      title: 'Leadership 360',
      intro: DEMO_INTRO,
      status: 'published',
      questions: DEMO_QUESTIONS,
    }))
  if (!questionnaireRow)
    made.push(`questionnaire: ${questionnaire.title} (${DEMO_QUESTIONS.length} questions, 5 categories)`)
  else if (questionnaireRow.intro === OLD_INTRO) {
    await db.update(questionnaires).set({ intro: DEMO_INTRO }).where(eq(questionnaires.id, questionnaire.id))
    made.push(`questionnaire introduction reworded: ${questionnaire.title}`)
  }
  if (await seedGerman(questionnaire.id)) made.push(`questionnaire in German: ${DEMO_GERMAN.title}`)

  const [schemeRow] = await db
    .select()
    .from(schemes)
    .where(eq(schemes.name, 'Acme leadership programme'))
    .limit(1)
  let scheme =
    schemeRow ??
    (await createScheme({
      name: 'Acme leadership programme',
      companyId: company.id,
      questionnaireId: questionnaire.id,
      opensAt: new Date(Date.now() - DAY),
      closesAt: endOfDay(new Date(Date.now() + 60 * DAY), DEMO_TIME_ZONE),
      timeZone: DEMO_TIME_ZONE,
      status: 'open',
      minRaters: 3,
      // Raters answer in English or German (ADR 051).
      languages: ['en', 'de'],
    }))
  if (!schemeRow)
    made.push(`scheme: ${scheme.name} (open until ${formatDateTime(scheme.closesAt, DEMO_TIME_ZONE)})`)
  else if (schemeRow.timeZone === 'UTC') {
    // From an older seed: closing at whatever minute it was seeded. End it at the close of that day, UK time.
    const closesAt = endOfDay(schemeRow.closesAt, DEMO_TIME_ZONE)
    scheme = (
      await db
        .update(schemes)
        .set({ timeZone: DEMO_TIME_ZONE, closesAt })
        .where(eq(schemes.id, schemeRow.id))
        .returning()
    )[0]!
    await db.update(assignments).set({ dueAt: closesAt }).where(eq(assignments.schemeId, scheme.id))
    made.push(`scheme deadline: ${scheme.name} now ends ${formatDateTime(closesAt, DEMO_TIME_ZONE)}`)
  }
  if (!scheme.languages.includes('de')) {
    // Seeded before questionnaires had languages: the demo programme offers German too.
    scheme = (
      await db
        .update(schemes)
        .set({ languages: ['en', 'de'] })
        .where(eq(schemes.id, scheme.id))
        .returning()
    )[0]!
    made.push(`scheme languages: ${scheme.name} in English and German`)
  }

  const self = await enrolEmployee(scheme, employee.user.id)
  if (self) made.push(`enrolled: ${employee.user.email}`)

  // A finished round for the demo employee (self + four colleagues: the report shows charts), a
  // second employee still below the anonymity threshold, and a newcomer who has not started.
  const qs = await questionsOf(questionnaire.id)
  const submitIfNew = async (assignmentId: string, seedNo: number, withComments = true) => {
    const [existing] = await db
      .select({ id: responses.id })
      .from(responses)
      .where(eq(responses.assignmentId, assignmentId))
      .limit(1)
    if (existing) return false
    const answers = demoAnswers(qs, seedNo).filter((a) => withComments || a.textValue === undefined)
    await createResponse({ assignmentId, answers, submitted: true })
    return true
  }
  const selfRow = self ?? (await findSelf(scheme.id, employee.user.id))
  if (selfRow && (await submitIfNew(selfRow.id, 0)))
    made.push(`self-assessment submitted: ${employee.user.email}`)

  const RATERS = [
    ['morgan.manager@panorama.test', 'Morgan Manager', 'manager'],
    ['pat.peer@panorama.test', 'Pat Peer', 'peer'],
    ['riley.report@panorama.test', 'Riley Report', 'direct_report'],
    ['quinn.peer@panorama.test', 'Quinn Peer', 'peer'],
    // Two more (seeds 6 and 14), so that peers stand alone beside "Other colleagues"; the scores
    // they all give Erin are written out in DEMO_SCALE_SCORES.
    ['sky.peer@panorama.test', 'Sky Peer', 'peer'],
    ['drew.other@panorama.test', 'Drew Other', 'other'],
  ] as const
  const RATER_SEEDS = [1, 2, 3, 4, 6, 14]
  for (const [i, [email, name, relationship]] of RATERS.entries()) {
    const rater = await findOrCreateUser(email, 'colleague', name, null)
    const assignment = await findOrCreateRater(scheme, employee.user.id, rater.user.id, relationship, name)
    // Drew leaves the written questions blank: the comment pool has no seventh answer to give.
    if (await submitIfNew(assignment.id, RATER_SEEDS[i]!, i < 5))
      made.push(`colleague response submitted: ${email}`)
  }

  const germanEmails = await seedGermanEmails()
  if (germanEmails) made.push(`e-mail templates in German: ${germanEmails}`)
  const germanSpeakers = await db
    .update(users)
    .set({ language: 'de' })
    .where(and(inArray(users.email, [...DEMO_GERMAN_SPEAKERS]), isNull(users.language)))
    .returning({ email: users.email })
  for (const { email } of germanSpeakers) made.push(`language: ${email} reads German`)

  // Erin's report is released (ADR 022), as an administrator would for a debrief. Her pending
  // colleagues below are invited after it, so their links still work for a walk-through of
  // answering; what they submit does not change the released report (a new release would).
  if (!(await hasRelease(scheme.id, employee.user.id))) {
    const released = await releaseParticipant({ id: admin.user.id }, scheme.id, employee.user.id)
    if (released.ok)
      made.push(`report released: ${employee.user.email} (${released.value.raters} colleagues)`)
  }

  // Last year's round (issue 19 §5): Erin's report shows the change since then.
  await seedPreviousCycle({ made, scheme, company, questionnaireId: questionnaire.id, employee, admin, qs })

  const [raterRow] = await db
    .select()
    .from(assignments)
    .where(and(eq(assignments.schemeId, scheme.id), eq(assignments.respondentId, colleague.user.id)))
    .limit(1)
  const rater =
    raterRow ??
    (await createRaterAssignment({
      scheme,
      subjectId: employee.user.id,
      respondentId: colleague.user.id,
      relationship: 'peer',
      respondentName: 'Casey Colleague',
    }))
  if (!raterRow) made.push(`rater assignment: ${colleague.user.email} on ${employee.user.email}`)

  // A fresh invite link each run (older unused ones are voided), valid until the scheme closes.
  const inviteLink = await freshInviteLink(rater.id, colleague.user.id, scheme.closesAt)

  // A second pending colleague on Erin, so a walk-through of answering (and the browser suite)
  // does not use up Casey's link.
  const answerer = await findOrCreateUser('alex.answerer@panorama.test', 'colleague', 'Alex Answerer', null)
  const answererAssignment = await findOrCreateRater(
    scheme,
    employee.user.id,
    answerer.user.id,
    'other',
    'Alex Answerer',
  )
  const answeringLink = await freshInviteLink(answererAssignment.id, answerer.user.id, scheme.closesAt)

  const second = await findOrCreateUser('employee2@panorama.test', 'employee', 'Sam Second', company.id)
  if (second.created) made.push(`employee: ${second.user.email}`)
  const secondSelf =
    (await enrolEmployee(scheme, second.user.id)) ?? (await findSelf(scheme.id, second.user.id))
  if (secondSelf && (await submitIfNew(secondSelf.id, 5)))
    made.push(`self-assessment submitted: ${second.user.email}`)
  const lone = await findOrCreateUser('jordan.peer@panorama.test', 'colleague', 'Jordan Peer', null)
  const loneAssignment = await findOrCreateRater(scheme, second.user.id, lone.user.id, 'peer', 'Jordan Peer')
  if (await submitIfNew(loneAssignment.id, 6))
    made.push(`colleague response submitted: ${lone.user.email} (below the threshold)`)

  // Wren: enough colleague answers, waiting for the release (the scheme releases on close).
  const third = await findOrCreateUser('employee3@panorama.test', 'employee', 'Wren Waiting', company.id)
  if (third.created) made.push(`employee: ${third.user.email}`)
  const thirdSelf = (await enrolEmployee(scheme, third.user.id)) ?? (await findSelf(scheme.id, third.user.id))
  if (thirdSelf && (await submitIfNew(thirdSelf.id, 0)))
    made.push(`self-assessment submitted: ${third.user.email}`)
  // The same six colleagues as Erin, answering alike: released, Wren's report shows what Erin's does.
  for (const [i, [email, name, relationship]] of RATERS.entries()) {
    const rater = await findOrCreateUser(email, 'colleague', name, null)
    const assignment = await findOrCreateRater(scheme, third.user.id, rater.user.id, relationship, name)
    if (await submitIfNew(assignment.id, RATER_SEEDS[i]!, i < 5))
      made.push(`colleague response submitted: ${email} (on ${third.user.email})`)
  }

  const newcomer = await findOrCreateUser(
    'new.employee@panorama.test',
    'employee',
    'Noah Newcomer',
    company.id,
  )
  if (newcomer.created) made.push(`employee: ${newcomer.user.email} (not started)`)
  await enrolEmployee(scheme, newcomer.user.id)

  // A small reporting line (issue 18 §1): Erin leads Acme's operations team, and reports to Dana
  // (issue 19 §2: the manager she shares her report with).
  const dana = await findOrCreateUser(DEMO_MANAGER_EMAIL, 'employee', 'Dana Director', company.id)
  if (dana.created) made.push(`employee: ${DEMO_MANAGER_EMAIL} (Erin's manager)`)
  const team: [typeof employee, string, string][] = [
    [dana, 'Head of operations', 'Operations'],
    [employee, 'Operations lead', 'Operations'],
    [second, 'Operations analyst', 'Operations'],
    [third, 'Project coordinator', 'Operations'],
    [newcomer, 'Operations analyst', 'Operations'],
  ]
  for (const [member, jobTitle, department] of team) {
    const managerId = member === dana ? null : member === employee ? dana.user.id : employee.user.id
    const changed = await db
      .update(users)
      .set({ jobTitle, department, managerId })
      .where(
        and(
          eq(users.id, member.user.id),
          sql`(${users.jobTitle}, ${users.department}, ${users.managerId}) IS DISTINCT FROM (${jobTitle}, ${department}, ${managerId}::uuid)`,
        ),
      )
      .returning({ id: users.id })
    if (changed.length) made.push(`reporting line: ${member.user.email} (${jobTitle})`)
  }

  made.push(...(await seedPlanAndShare({ employee: employee.user, schemeId: scheme.id })))

  made.push(
    ...(await seedNominations({
      companyId: company.id,
      questionnaireId: questionnaire.id,
      manager: employee.user,
      reports: { waiting: second.user, sentBack: third.user, approved: newcomer.user },
    })),
  )

  // Last year's cohort first, then this year's, which follows it (its group report shows the change).
  const cohortInput = { companyId: company.id, questionnaireId: questionnaire.id }
  const lastYear = await seedCohort({ ...cohortInput, name: DEMO_PREVIOUS_COHORT_SCHEME, cycle: 0 })
  const thisYear = await seedCohort({ ...cohortInput, name: DEMO_COHORT_SCHEME, cycle: 1 })
  made.push(...lastYear.made, ...thisYear.made)
  if (thisYear.scheme.followsSchemeId !== lastYear.scheme.id) {
    await getDb()
      .update(schemes)
      .set({ followsSchemeId: lastYear.scheme.id })
      .where(eq(schemes.id, thisYear.scheme.id))
    made.push(`${DEMO_COHORT_SCHEME} follows ${DEMO_PREVIOUS_COHORT_SCHEME}`)
  }

  return { made, inviteLink, answeringLink, password: PASSWORD }
}

/** Acme's closed cohort (issue 19 §4): enough released reports for a group report and a heatmap. */
export const DEMO_COHORT_SCHEME = 'Acme management cohort 2026'
/** The same cohort's first cycle, a year earlier (issue 19 §5): the 2026 cohort follows it. */
export const DEMO_PREVIOUS_COHORT_SCHEME = 'Acme management cohort 2025'

/** The cohort's participants; the last has only two colleagues (a report of the self-assessment alone). */
const COHORT = [
  'Ada Archer',
  'Ben Brooks',
  'Cleo Carter',
  'Dev Desai',
  'Ema Evans',
  'Finn Foster',
  'Gia Grant',
  'Hugo Hale',
  'Iris Irving',
] as const

/** Who rates each cohort participant: a manager, three peers, two direct reports, one other. */
const COHORT_RATERS = ['manager', 'peer', 'peer', 'peer', 'direct_report', 'direct_report', 'other'] as const

/**
 * Deterministic, varied scores: each question has its own level across the cohort (so strengths and
 * development needs stand out), each participant and rater a small offset, the managers a little
 * harder on every other question; most participants rate
 * themselves two points up on every fourth question, where colleagues score lowest (a blind spot
 * the group shares). A year earlier (cycle 0) colleagues scored every third question a point lower
 * and the third of every four a point higher, so the cohort's change reads both ways and "about the same".
 */
function cohortAnswers(
  qs: Awaited<ReturnType<typeof questionsOf>>,
  participant: number,
  rater: number | 'self',
  cycle: 0 | 1,
): AnswerSeed[] {
  return qs.map((q, i) => {
    const labels = q.options.labels ?? []
    if (q.kind === 'single' || q.kind === 'multi') return { questionId: q.id, choices: labels.slice(0, 1) }
    if (q.kind !== 'scale') return { questionId: q.id, textValue: '' }
    const min = q.options.min ?? 1
    const max = q.options.max ?? 5
    const level = 2 + ((i * 7) % 4) + (((participant + i) % 3) - 1)
    const value =
      rater === 'self'
        ? level + (i % 4 === 0 && participant % 3 !== 2 ? 2 : 0)
        : level +
          ((participant + rater) % 2) -
          (rater === 0 && i % 2 === 1 ? 1 : 0) +
          (cycle === 0 ? (i % 3 === 0 ? -1 : i % 4 === 2 ? 1 : 0) : 0)
    return { questionId: q.id, numericValue: Math.min(max, Math.max(min, value)) }
  })
}

/**
 * A closed scheme of Acme's with nine participants and their colleagues, released as the clock
 * would at its close (one moment, ADR 022): the demo's group report and heatmap. It shows the
 * manager group on its own (its managers were told), so the cohort has a manager column. Cycle 0 is
 * the same cohort a year earlier. Only what is missing is made, so a re-run changes nothing.
 */
async function seedCohort(input: {
  companyId: string
  questionnaireId: string
  name: string
  cycle: 0 | 1
}): Promise<{ made: string[]; scheme: typeof schemes.$inferSelect }> {
  const db = getDb()
  const made: string[] = []
  const [existing] = await db.select().from(schemes).where(eq(schemes.name, input.name)).limit(1)
  const now = Date.now() - (input.cycle === 0 ? 365 * DAY : 0)
  const scheme =
    existing ??
    (await createScheme({
      name: input.name,
      companyId: input.companyId,
      questionnaireId: input.questionnaireId,
      opensAt: new Date(now - 60 * DAY),
      closesAt: endOfDay(new Date(now - 14 * DAY), DEMO_TIME_ZONE),
      timeZone: DEMO_TIME_ZONE,
      status: 'closed',
      minRaters: 3,
      showManagerBelowThreshold: true,
    }))
  if (!existing) made.push(`scheme: ${scheme.name} (closed, ${COHORT.length} participants released)`)
  const qs = await questionsOf(input.questionnaireId)
  const raters = await Promise.all(
    COHORT_RATERS.map((_, r) =>
      findOrCreateUser(`cohort.rater${r + 1}@panorama.test`, 'colleague', `Cohort Rater ${r + 1}`, null),
    ),
  )
  for (const [p, name] of COHORT.entries()) {
    const email = `${name.split(' ')[0]!.toLowerCase()}.cohort@panorama.test`
    const person = await findOrCreateUser(email, 'employee', name, input.companyId)
    const self = (await enrolEmployee(scheme, person.user.id)) ?? (await findSelf(scheme.id, person.user.id))
    if (!self || (await hasResponse(self.id))) continue
    await createResponse({
      assignmentId: self.id,
      answers: cohortAnswers(qs, p, 'self', input.cycle),
      submitted: true,
    })
    const count = p === COHORT.length - 1 ? 2 : COHORT_RATERS.length
    for (let r = 0; r < count; r++) {
      const assignment = await findOrCreateRater(
        scheme,
        person.user.id,
        raters[r]!.user.id,
        COHORT_RATERS[r]!,
        `Cohort Rater ${r + 1}`,
      )
      await createResponse({
        assignmentId: assignment.id,
        answers: cohortAnswers(qs, p, r, input.cycle),
        submitted: true,
      })
    }
    made.push(`cohort participant: ${email} in ${scheme.name} (${count} colleagues)`)
  }
  const released = await releaseOnClose(scheme.closesAt, { schemeId: scheme.id })
  if (released.length) made.push(`reports released: ${scheme.name} (${released.length})`)
  return { made, scheme }
}

async function hasResponse(assignmentId: string) {
  const [row] = await getDb()
    .select({ id: responses.id })
    .from(responses)
    .where(eq(responses.assignmentId, assignmentId))
    .limit(1)
  return Boolean(row)
}

/** Erin's manager, who reads the report Erin shared with her (issue 19 §2, ADR 043). */
export const DEMO_MANAGER_EMAIL = 'manager@panorama.test'

/**
 * Erin's development plan and its share (issue 19 §1–2, ADR 043): Dana Director manages Erin; Erin
 * chose two focus areas from her released report (a competency to develop, a question whose
 * strength to use), wrote actions, support and check-in dates, and shared the report with the plan
 * with Dana, through the same functions the pages call (consent audited, Dana e-mailed).
 */
async function seedPlanAndShare(input: { employee: SeedUser; schemeId: string }) {
  const db = getDb()
  const made: string[] = []
  const [self] = await db
    .select({ rid: responses.id })
    .from(responses)
    .innerJoin(assignments, eq(assignments.id, responses.assignmentId))
    .where(
      and(
        eq(assignments.schemeId, input.schemeId),
        eq(assignments.subjectId, input.employee.id),
        eq(assignments.relationship, 'self'),
      ),
    )
    .limit(1)
  if (!self) return made
  const actor = { id: input.employee.id, ip: null }
  const context = await loadPlanContext(self.rid, input.employee.id)
  if (context?.ready && !context.areas.length) {
    const [listening] = await db
      .select({ id: questions.id })
      .from(questions)
      .innerJoin(assignments, eq(assignments.questionnaireId, questions.questionnaireId))
      .where(
        and(
          eq(assignments.subjectId, input.employee.id),
          eq(assignments.schemeId, input.schemeId),
          eq(questions.text, DEMO_QUESTIONS[0]!.text),
        ),
      )
      .limit(1)
    await addFocusArea(actor, self.rid, { focus: 'category:Delivery', stance: 'develop' })
    if (listening)
      await addFocusArea(actor, self.rid, { focus: `question:${listening.id}`, stance: 'strength' })
    const areas = (await loadPlanContext(self.rid, input.employee.id))!.areas
    const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10)
    const words = [
      {
        actions:
          'Agree a delivery date with the team at each planning meeting, and flag slips the day I see them.',
        support: 'Dana: a monthly look at the roadmap together.',
        targetDate: inDays(30),
      },
      {
        actions: 'Run the weekly operations review as a listening session: questions first, my view last.',
        support: 'Peers: tell me when I jump in too soon.',
        targetDate: inDays(60),
      },
    ]
    await savePlan(
      actor,
      self.rid,
      areas.map((a, i) => ({ id: a.id, stance: a.stance, ...words[i]! })),
    )
    made.push(`development plan: ${input.employee.email} (${areas.length} focus areas)`)
  }
  if (context?.ready && !context.share) {
    const shared = await shareReport(actor, self.rid, { includePlan: true })
    if (shared.ok)
      made.push(`report shared: ${input.employee.email} with ${DEMO_MANAGER_EMAIL}, with the plan`)
  }
  return made
}

/** The programme whose lists of raters Erin approves (issue 18 §3, ADR 042). */
export const DEMO_NOMINATION_SCHEME = 'Acme operations 360 (lists approved by managers)'

/** Erin's words when she sent Wren's list back. */
export const DEMO_SEND_BACK_COMMENT =
  'Thanks, Wren. Please add a third peer — someone from the warehouse team you worked with on the move — so that peers can be shown as a group in your report.'

type SeedUser = { id: string; email: string; displayName: string }

/**
 * A programme that approves lists (nomination_approval 'manager'): Erin's three reports each have a
 * list in another state — Sam's waits for Erin (her home shows "Nominations waiting for you"),
 * Erin sent Wren's back with a comment, and she approved Noah's, which invited everyone on it. The
 * lists are built, sent and decided through the domain functions (the same rules, audit entries,
 * invitations and outbox e-mails as the pages), only where a list has not been begun, so a re-run
 * (or a demo that moved a list on) changes nothing. It closes after the leadership programme, so
 * that programme stays first on its people's pages.
 */
async function seedNominations(input: {
  companyId: string
  questionnaireId: string
  manager: SeedUser
  reports: { waiting: SeedUser; sentBack: SeedUser; approved: SeedUser }
}): Promise<string[]> {
  const db = getDb()
  const made: string[] = []
  const { manager, reports } = input
  const [existing] = await db.select().from(schemes).where(eq(schemes.name, DEMO_NOMINATION_SCHEME)).limit(1)
  const now = Date.now()
  const scheme =
    existing ??
    (await createScheme({
      name: DEMO_NOMINATION_SCHEME,
      companyId: input.companyId,
      questionnaireId: input.questionnaireId,
      opensAt: new Date(now - 7 * DAY),
      closesAt: endOfDay(new Date(now + 70 * DAY), DEMO_TIME_ZONE),
      nominationsCloseAt: endOfDay(new Date(now + 21 * DAY), DEMO_TIME_ZONE),
      timeZone: DEMO_TIME_ZONE,
      status: 'open',
      minRaters: 3,
      nominationChooser: 'employee',
      nominationApproval: 'manager',
      minManager: 1,
      minPeer: 3,
      minDirectReport: 0,
      minOther: 0,
    }))
  if (!existing) made.push(`scheme: ${scheme.name} (lists of raters approved by the manager)`)

  const managerActor = { id: manager.id, role: 'employee' as const, ip: null }
  const erin = { name: manager.displayName, email: manager.email, relationship: 'manager' }
  const LISTS = [
    {
      who: reports.waiting,
      state: 'submitted',
      daysAgo: { submitted: 1 },
      people: [
        erin,
        { name: 'Tara Teague', email: 'tara.teague@panorama.test', relationship: 'peer' },
        { name: 'Omar Okafor', email: 'omar.okafor@panorama.test', relationship: 'peer' },
        { name: 'Lena Lindqvist', email: 'lena.lindqvist@panorama.test', relationship: 'peer' },
        { name: 'Felix Ford', email: 'felix.ford@panorama.test', relationship: 'other' },
      ],
    },
    {
      who: reports.sentBack,
      state: 'sent_back',
      daysAgo: { submitted: 3, decided: 2 },
      people: [
        erin,
        { name: 'Priya Patel', email: 'priya.patel@panorama.test', relationship: 'peer' },
        { name: 'Hugo Hale', email: 'hugo.hale@panorama.test', relationship: 'peer' },
      ],
    },
    {
      who: reports.approved,
      state: 'approved',
      daysAgo: { submitted: 5, decided: 4 },
      // Noah's manager before he moved to Erin's team: Erin herself answers no questionnaire here,
      // so her own pages on the demo questionnaire stay about her self-assessment alone.
      people: [
        { name: 'Gil Grant', email: 'gil.grant@panorama.test', relationship: 'manager' },
        { name: 'Maya Moss', email: 'maya.moss@panorama.test', relationship: 'peer' },
        { name: 'Ivo Ionescu', email: 'ivo.ionescu@panorama.test', relationship: 'peer' },
        { name: 'Zoe Zhang', email: 'zoe.zhang@panorama.test', relationship: 'peer' },
      ],
    },
  ] as const

  const fail = (what: string, outcome: { ok: false; formErrors?: string[]; fieldErrors?: unknown }) => {
    throw new Error(
      `seed: ${what} failed: ${JSON.stringify(outcome.formErrors ?? outcome.fieldErrors ?? outcome)}`,
    )
  }
  for (const list of LISTS) {
    const self = await enrolEmployee(scheme, list.who.id)
    if (self) made.push(`enrolled: ${list.who.email} in ${scheme.name}`)
    const [member] = await db
      .select({ status: schemeMembers.nominationStatus })
      .from(schemeMembers)
      .where(and(eq(schemeMembers.schemeId, scheme.id), eq(schemeMembers.employeeId, list.who.id)))
    // Begun already (by an earlier run or in the demo): left as it is.
    if (member?.status) continue
    const ref = { employeeId: list.who.id, schemeId: scheme.id }
    const actor = { id: list.who.id, role: 'employee' as const, ip: null }
    for (const person of list.people) {
      const added = await addNominee(actor, { ...ref, ...person })
      if (!added.ok) fail(`adding ${person.email} to ${list.who.email}'s list`, added)
    }
    const sent = await submitList(actor, ref)
    if (!sent.ok) fail(`sending ${list.who.email}'s list`, sent)
    if (list.state === 'sent_back') {
      const back = await sendBackList(managerActor, { ...ref, comment: DEMO_SEND_BACK_COMMENT })
      if (!back.ok) fail(`sending ${list.who.email}'s list back`, back)
    } else if (list.state === 'approved') {
      const approved = await approveList(managerActor, ref)
      if (!approved.ok) fail(`approving ${list.who.email}'s list`, approved)
    }
    // Sent (and decided) some days ago, as a demo would find them.
    const decided = 'decided' in list.daysAgo ? new Date(now - list.daysAgo.decided * DAY) : null
    await db
      .update(schemeMembers)
      .set({
        nominationSubmittedAt: new Date(now - list.daysAgo.submitted * DAY),
        ...(decided ? { nominationDecidedAt: decided } : {}),
      })
      .where(and(eq(schemeMembers.schemeId, scheme.id), eq(schemeMembers.employeeId, list.who.id)))
    made.push(
      `list of raters ${list.state.replace('_', ' ')}: ${list.who.email} (${list.people.length} people)`,
    )
  }
  return made
}

/** A new invite link for a rater assignment (older unused ones are voided), valid until the scheme closes. */
async function freshInviteLink(assignmentId: string, colleagueId: string, closesAt: Date) {
  return getDb().transaction(async (tx) => {
    await tx
      .update(actionCodes)
      .set({ usedAt: new Date() })
      .where(
        and(
          eq(actionCodes.kind, 'colleague_invite'),
          inArray(actionCodes.assignmentId, [assignmentId]),
          isNull(actionCodes.usedAt),
        ),
      )
    const { code } = await createActionCode(tx, {
      kind: 'colleague_invite',
      userId: colleagueId,
      assignmentId,
      expiresAt: closesAt,
    })
    return actionLink('colleague_invite', code)
  })
}

async function findSelf(schemeId: string, employeeId: string) {
  const [row] = await getDb()
    .select()
    .from(assignments)
    .where(
      and(
        eq(assignments.schemeId, schemeId),
        eq(assignments.subjectId, employeeId),
        eq(assignments.relationship, 'self'),
      ),
    )
    .limit(1)
  return row
}

async function hasRelease(schemeId: string, subjectId: string) {
  const [row] = await getDb()
    .select({ id: reportReleases.id })
    .from(reportReleases)
    .where(and(eq(reportReleases.schemeId, schemeId), eq(reportReleases.subjectId, subjectId)))
    .limit(1)
  return Boolean(row)
}

/** The demo's previous cycle: a year earlier, closed, its name. */
export const DEMO_PREVIOUS_SCHEME = 'Acme leadership review, last year'

/**
 * A first cycle a year before the demo programme, which follows it (ADR 044): Erin's self-assessment
 * and four colleagues' answers (some of the same people, answering otherwise), released, so her
 * report shows the previous cycle beside this one, with changes both ways and "about the same".
 */
async function seedPreviousCycle(input: {
  made: string[]
  scheme: typeof schemes.$inferSelect
  company: { id: string }
  questionnaireId: string
  employee: { user: { id: string; email: string } }
  admin: { user: { id: string } }
  qs: Awaited<ReturnType<typeof questionsOf>>
}) {
  const db = getDb()
  const { made, scheme, employee } = input
  const [existing] = await db.select().from(schemes).where(eq(schemes.name, DEMO_PREVIOUS_SCHEME)).limit(1)
  const opensAt = new Date(scheme.opensAt.getTime() - 365 * DAY)
  const previous =
    existing ??
    (await createScheme({
      name: DEMO_PREVIOUS_SCHEME,
      companyId: input.company.id,
      questionnaireId: input.questionnaireId,
      opensAt,
      closesAt: endOfDay(new Date(opensAt.getTime() + 30 * DAY), DEMO_TIME_ZONE),
      timeZone: DEMO_TIME_ZONE,
      status: 'closed',
      closedAt: new Date(opensAt.getTime() + 30 * DAY),
      reportRelease: 'by_admin',
      minRaters: 3,
    }))
  if (!existing) made.push(`scheme: ${previous.name} (closed; the demo programme follows it)`)
  const self =
    (await enrolEmployee(previous, employee.user.id)) ?? (await findSelf(previous.id, employee.user.id))
  const submit = async (assignmentId: string, seedNo: number) => {
    const [done] = await db
      .select({ id: responses.id })
      .from(responses)
      .where(eq(responses.assignmentId, assignmentId))
      .limit(1)
    if (done) return
    await createResponse({ assignmentId, answers: previousAnswers(input.qs, seedNo), submitted: true })
  }
  if (self) await submit(self.id, 5)
  const RATERS = [
    ['morgan.manager@panorama.test', 'Morgan Manager', 'manager'],
    ['pat.peer@panorama.test', 'Pat Peer', 'peer'],
    ['quinn.peer@panorama.test', 'Quinn Peer', 'peer'],
    ['riley.report@panorama.test', 'Riley Report', 'direct_report'],
  ] as const
  for (const [i, [email, name, relationship]] of RATERS.entries()) {
    const rater = await findOrCreateUser(email, 'colleague', name, null)
    const assignment = await findOrCreateRater(previous, employee.user.id, rater.user.id, relationship, name)
    await submit(assignment.id, 21 + i)
  }
  if (!(await hasRelease(previous.id, employee.user.id))) {
    const released = await releaseParticipant({ id: input.admin.user.id }, previous.id, employee.user.id)
    if (released.ok) made.push(`report released: ${employee.user.email} in ${previous.name}`)
  }
  if (scheme.followsSchemeId !== previous.id) {
    await db.update(schemes).set({ followsSchemeId: previous.id }).where(eq(schemes.id, scheme.id))
    made.push(`${scheme.name} follows ${previous.name}`)
  }
}

/** Last year's answers: the demo's, a little lower on most questions, so the change reads both ways. */
function previousAnswers(qs: Awaited<ReturnType<typeof questionsOf>>, seedNo: number): AnswerSeed[] {
  return demoAnswers(qs, seedNo).map((a, i) =>
    a.numericValue === undefined || a.numericValue === null
      ? a
      : {
          ...a,
          numericValue: Math.max(
            1,
            Math.min(5, a.numericValue - (i % 3 === 0 ? 1 : 0) + (i % 5 === 4 ? 1 : 0)),
          ),
        },
  )
}

async function findOrCreateRater(
  scheme: { id: string; questionnaireId: string; closesAt: Date },
  subjectId: string,
  respondentId: string,
  relationship: 'manager' | 'peer' | 'direct_report' | 'other',
  respondentName: string,
) {
  const [existing] = await getDb()
    .select()
    .from(assignments)
    .where(
      and(
        eq(assignments.schemeId, scheme.id),
        eq(assignments.subjectId, subjectId),
        eq(assignments.respondentId, respondentId),
      ),
    )
    .limit(1)
  return (
    existing ??
    (await createRaterAssignment({ scheme, subjectId, respondentId, relationship, respondentName }))
  )
}

/**
 * Free-text answers, one pool per written question so that no comment appears under two questions,
 * and each one answers the question it is under. Index 0 of each pool is the employee's own view.
 */
export const DEMO_COMMENTS: Record<'text' | 'textarea', readonly string[]> = {
  // "One thing {{name}} should keep doing:"
  text: [
    'Preparing properly for our team meetings.',
    'Running the clearest stand-ups in the team.',
    'Explaining the reasoning behind a decision, not just the decision.',
    'Making time for one-to-ones, even in the busiest weeks.',
    'Giving specific, generous credit when something goes well.',
    'Keeping the customer in view in every discussion.',
    'Asking the quieter people in the room what they think.',
  ],
  // "What could {{name}} do differently to be more effective?"
  textarea: [
    'Delegate more and step back from the detail, so that I have time to plan ahead.',
    'Hand over more of the hard problems: the team is ready for them, and it would free time for planning.',
    'Let discussions run a little longer before deciding; sometimes we move on before everyone has had their say.',
    'Share the plan earlier, even as a draft, so that we can raise risks while there is still time.',
    'Block out time for the bigger pieces of work instead of being available to everyone all day.',
    'Write down what was decided in meetings, so that people who missed them can follow.',
    'Ask for help sooner when a deadline is at risk.',
  ],
}

/** Plausible, varied answers: deterministic per respondent so the demo report is stable. */
/**
 * Erin's scores, scale question by scale question, written out so her report reads like a real one
 * (issue 19 §3, ADR 047): three questions clearly rated highest (4.0, 3.8, 3.7), two lowest (2.5,
 * 2.0), and between them one blind spot (colleagues 3.5, self 5) and one hidden strength
 * (colleagues 3.5, self 2). Keyed by seed: 0 is the self-assessment, the rest her six colleagues
 * (Riley, seed 3, answers "not applicable" to the fourth, so that one averages five scores).
 */
const DEMO_SCALE_SCORES: Record<number, number[]> = {
  0: [4, 3, 4, 2, 5, 2, 4],
  1: [5, 4, 4, 2, 3, 4, 2],
  2: [4, 4, 3, 2, 4, 3, 3],
  3: [4, 3, 4, 0, 3, 4, 2],
  4: [3, 4, 4, 3, 4, 3, 3],
  6: [4, 4, 3, 1, 3, 4, 3],
  14: [4, 4, 4, 2, 4, 3, 2],
}

function demoAnswers(qs: Awaited<ReturnType<typeof questionsOf>>, seedNo: number): AnswerSeed[] {
  let scaleIndex = -1
  return qs.map((q, i) => {
    const labels = q.options.labels ?? []
    const pick = (seedNo * 7 + i * 3) % Math.max(labels.length, 1)
    switch (q.kind) {
      case 'scale': {
        scaleIndex += 1
        const min = q.options.min ?? 1
        const max = q.options.max ?? 5
        if (seedNo === 3 && i === 4) return { questionId: q.id, notApplicable: true }
        const written = DEMO_SCALE_SCORES[seedNo]?.[scaleIndex]
        return {
          questionId: q.id,
          numericValue: Math.min(max, Math.max(min, written ?? 2 + ((seedNo * 5 + i * 2) % 4))),
        }
      }
      case 'single':
        return { questionId: q.id, choices: [labels[pick]!] }
      case 'multi':
        return { questionId: q.id, choices: [labels[pick]!, labels[(pick + 2) % labels.length]!] }
      default: {
        const pool = DEMO_COMMENTS[q.kind === 'textarea' ? 'textarea' : 'text']
        // Self-assessments (seeds 0 and 5) take the first-person answer; colleagues one each of the rest.
        const index = seedNo % 5 === 0 ? 0 : 1 + ((seedNo - 1) % (pool.length - 1))
        return { questionId: q.id, textValue: pool[index]! }
      }
    }
  })
}

/**
 * What `npm run seed` prints. Every address is built from APP_URL (else http://localhost:$PORT),
 * exactly as the server builds its own, so with `PORT=4000 npm run seed` the links lead to port 4000.
 */
export function seedSummary(result: Awaited<ReturnType<typeof seed>>): string[] {
  const { made, inviteLink, answeringLink, password } = result
  const appUrl = getEnv().APP_URL
  return [
    made.length ? `Created:\n${made.map((m) => `  - ${m}`).join('\n')}` : 'Demo data already present.',
    '',
    `Portal: ${appUrl} (sign in at ${appUrl}/sign-in)`,
    `Demo accounts (password: ${password}):`,
    '  admin     admin@panorama.test',
    '  employee  employee@panorama.test   (report released: groups, blind spots, hidden strengths;',
    `                                       manages Sam, Wren and Noah: Sam's list of raters in`,
    `                                       "${DEMO_NOMINATION_SCHEME}" waits for her approval;`,
    '                                       a development plan, shared with her manager Dana;',
    `                                       last year's report beside this one: "${DEMO_PREVIOUS_SCHEME}")`,
    `  employee  ${DEMO_MANAGER_EMAIL}    (Dana, Erin's manager: "Shared with you" on her home)`,
    '  employee  employee3@panorama.test  (six colleagues answered, waiting for the release)',
    '  employee  employee2@panorama.test  (below the anonymity threshold)',
    '  employee  new.employee@panorama.test (has not started)',
    `  cohort    "${DEMO_COHORT_SCHEME}": nine released reports, its group report (with the change since "${DEMO_PREVIOUS_COHORT_SCHEME}") and heatmap`,
    `colleague invite: ${inviteLink}`,
    `answering invite: ${answeringLink}`,
  ]
}

// Run as a script (npm run seed), not when imported by tests.
if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!)) {
  try {
    const url = process.env.DATABASE_URL || undefined
    const handle = await openDatabase({ url, pgliteDir: process.env.PGLITE_DIR ?? './.data/pglite' })
    await runMigrations(handle)
    console.log(seedSummary(await seed()).join('\n'))
    await closeDatabase()
  } catch (error) {
    console.error(error instanceof DatabaseLockedError ? error.message : error)
    await closeDatabase().catch(() => {})
    process.exit(1)
  }
}
