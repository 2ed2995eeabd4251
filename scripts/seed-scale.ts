/**
 * `npm run seed:scale`: the data set the design promises to stay fast on (DESIGN.md §7) — 100,000
 * employees in 50 companies, 1,000 schemes, ≈1,000,000 assignments (self and colleagues, about half
 * submitted), ≈10,000,000 answers, and the e-mails and audit rows that much activity leaves — plus
 * known accounts to sign in with. For `npm run bench` and for reading query plans on real volumes.
 *
 * Set-based: every bulk step is one INSERT … SELECT over generate_series, with ids and choices
 * derived from row numbers by hashing, so a run is reproducible. Ids are ordinary v4-shaped UUIDs
 * with a per-table tag and the row number inside (00000007-5ca1-4000-8000-00000000abcd): the
 * inserts append to their indexes instead of splitting random pages, and a step can tell whether
 * its rows exist. Each step is one statement (or one transaction), so a run that is stopped halfway
 * leaves whole steps; running again finds them and does only the missing ones.
 *
 * Postgres only (DATABASE_URL): the embedded PGlite is not meant for this volume.
 *   DATABASE_URL=postgres://…/bench_big npm run seed:scale [-- --scale 0.1]
 */
import { and, eq, inArray, isNull } from 'drizzle-orm'
import type pg from 'pg'
import { closeDatabase, getDb, openDatabase, runMigrations } from '../db/client'
import {
  actionCodes,
  assignments,
  questionnaireSections,
  questionnaires,
  questions,
  reportReleases,
  schemeMembers,
  users,
} from '../db/schema/index'
import type { QuestionSeed } from '../db/factories'
import { DEMO_QUESTIONS } from '../db/seed'
import { createActionCode } from '../app/modules/action-code/action-code.server'
import { actionLink } from '../app/modules/action-code/action-code.server'
import { hashPassword } from '../app/modules/auth/password.server'
import { releaseParticipant } from '../app/modules/report/release.server'

const PASSWORD = process.env.SEED_PASSWORD || 'panorama-demo'

// ---------------------------------------------------------------------------------------------
// Sizes

function scaleFactor(): number {
  const i = process.argv.indexOf('--scale')
  const raw = i > 0 ? process.argv[i + 1] : process.env.SCALE
  const f = raw === undefined ? 1 : Number(raw)
  if (!Number.isFinite(f) || f <= 0 || f > 10) {
    console.error('--scale takes a number above 0 and at most 10 (1 = 100,000 employees).')
    process.exit(2)
  }
  return f
}

const F = scaleFactor()
const COMPANIES = 50
const BRANDS = 10
/** Schemes per company: 1 draft, 5 closed, 14 open (1,000 in all). */
const SCHEMES_PER_COMPANY = 20
const SCHEMES = COMPANIES * SCHEMES_PER_COMPANY
/** Employees per company (2,000 → 100,000); at least 20 so the rater offsets stay distinct. */
const PER_COMPANY = Math.max(20, Math.round(2000 * F))
const EMPLOYEES = COMPANIES * PER_COMPANY
/** Colleagues from outside the client company (invited by e-mail, no account of their own). */
const EXTERNAL_PER_COMPANY = Math.max(10, Math.round(400 * F))
const EXTERNALS = COMPANIES * EXTERNAL_PER_COMPANY
/** Row-number bases inside the users tag: employees 1…, external colleagues, known accounts. */
const EXTERNAL_BASE = 10_000_000
const KNOWN_BASE = 20_000_000
/** Memberships are numbered 2·(employee−1)+slot+1; the known accounts' come after them. */
const KNOWN_MEMBERSHIP_BASE = 2 * EMPLOYEES
/** Assignment number = membership·16 + k (k = 0 self, 1…8 colleagues). */
const MAX_ASSIGNMENT = (KNOWN_MEMBERSHIP_BASE + 16) * 16

/** Per-table tags: the first group of every generated id. */
const TAG = {
  brand: 1,
  company: 2,
  user: 3,
  questionnaire: 4,
  question: 5,
  scheme: 6,
  assignment: 7,
  response: 8,
  answer: 9,
  outbox: 10,
  audit: 11,
  section: 12,
} as const

/** The same id the SQL function pg_temp.sid builds. */
function sid(tag: number, n: number): string {
  return `${tag.toString(16).padStart(8, '0')}-5ca1-4000-8000-${n.toString(16).padStart(12, '0')}`
}
const MAX_ID = (tag: number) => `${tag.toString(16).padStart(8, '0')}-5ca1-4000-8000-ffffffffffff`

// ---------------------------------------------------------------------------------------------
// Names and words

const FIRST = `Ada Alex Amara Ben Carla Chen Dana David Elena Emil Farah Felix Grace Hamza Hana Ines Isaac
Jonas Julia Kai Karin Leila Liam Lucia Malik Maria Mateo Mia Nadia Noah Olga Omar Paula Priya Rafael
Rosa Sam Sara Tariq Tess Tomas Uma Victor Wen Yara Yusuf Zoe Zofia`.split(/\s+/)
const LAST = `Adeyemi Andersen Bauer Becker Costa Dubois Eriksen Fischer Garcia Haddad Hansen Ivanova Jansen
Kaur Keller Kowalski Larsen Lopez Meyer Moreau Nakamura Novak Okafor Olsen Patel Petrov Quinn Rossi
Santos Schmidt Silva Singh Sorensen Tanaka Torres Varga Vogel Walsh Weber Yilmaz Young Zhang Ziegler`.split(
  /\s+/,
)
const BRAND_NAMES = [
  'Fjord Advisory',
  'Lumen Partners',
  'Meridian Consulting',
  'Kestrel People',
  'Harbour & Stone',
  'Atlas Leadership',
  'Beacon Talent',
  'Cedar Coaching',
  'Orbit Consulting',
  'Summit Advisory',
]
/** Departments and job titles (the colleague directory searches them, issue 18 §3): about one in ten each. */
const DEPARTMENTS =
  `Operations;Finance;Sales;Marketing;Engineering;People;Customer service;Legal;Procurement;Research`.split(
    ';',
  )
const JOB_TITLES =
  `Analyst;Coordinator;Specialist;Team lead;Manager;Associate;Consultant;Assistant;Engineer;Director`.split(
    ';',
  )
const COLOURS = ['#1d4ed8', '#0f766e', '#7c3aed', '#b45309', '#be123c', '#15803d', '#0369a1', '#4d7c0f']
const COMPANY_FIRST = `Contoso Globex Initech Umbrella Hooli Vandelay Stark Wayne Tyrell Soylent`.split(' ')
const COMPANY_SECOND = ['Logistics', 'Health', 'Energy', 'Retail', 'Finance']
const PROGRAMMES = ['Leadership 360', 'Manager 360', 'Team 360', 'Senior leaders 360', 'Graduate 360']
const SEASONS = ['Spring', 'Summer', 'Autumn', 'Winter']
const SHORT_COMMENTS = [
  'Keep running the weekly check-ins.',
  'Keep explaining the why behind decisions.',
  'Keep giving specific, timely feedback.',
  'Keep the customer in every discussion.',
  'Keep protecting focus time for the team.',
  'Keep sharing what you learn.',
  'Keep the calm in difficult meetings.',
  'Keep making space for quieter voices.',
  'Keep documenting decisions so well.',
  'Keep challenging assumptions kindly.',
]
const LONG_COMMENTS = [
  'Delegate more of the complex work: the team is ready for it and would grow from the stretch.',
  'Say no to more requests so that the important work gets your full attention.',
  'Bring people into decisions earlier; they often hear about them once they are final.',
  'Share the context behind priorities changing, especially when plans move mid-sprint.',
  'Slow down in discussions and check that everyone has had their say before moving on.',
  'Follow up on actions from meetings; some of them quietly disappear.',
  'Give more recognition in public when the team delivers something hard.',
  'Be more open about your own mistakes; it would make it easier for others to be open too.',
  'Spend more time with the other teams we depend on; some friction could be avoided early.',
  'Keep one-to-ones even in busy weeks; they are the first thing to go and the most missed.',
]

const sqlText = (s: string) => `'${s.replace(/'/g, "''")}'`
const sqlArray = (items: string[]) => `ARRAY[${items.map(sqlText).join(', ')}]`

// ---------------------------------------------------------------------------------------------
// Questionnaires: the demo's, and three more built from one bank of items.

const SCALE = { min: 1, max: 5, labels: ['Never', 'Rarely', 'Sometimes', 'Often', 'Always'], allowNa: true }
const BANK: Record<string, Array<[string, string]>> = {
  Communication: [
    ['I listen carefully before I respond.', '{{name}} listens carefully before responding.'],
    ['I explain decisions clearly.', '{{name}} explains decisions clearly.'],
    [
      'I keep people informed about what affects them.',
      '{{name}} keeps people informed about what affects them.',
    ],
    ['I adapt my message to my audience.', '{{name}} adapts their message to the audience.'],
  ],
  Collaboration: [
    ['I share information with colleagues freely.', '{{name}} shares information with colleagues freely.'],
    ['I ask for help when I need it.', '{{name}} asks for help when they need it.'],
    ['I give credit to others for their work.', '{{name}} gives credit to others for their work.'],
    ['I work well with people from other teams.', '{{name}} works well with people from other teams.'],
  ],
  Leadership: [
    ['I give people room to take ownership.', '{{name}} gives people room to take ownership.'],
    ['I set clear expectations.', '{{name}} sets clear expectations.'],
    ['I coach people to find their own solutions.', '{{name}} coaches people to find their own solutions.'],
    ['I make decisions when they are needed.', '{{name}} makes decisions when they are needed.'],
  ],
  Delivery: [
    ['I deliver what I promise, on time.', '{{name}} delivers what they promise, on time.'],
    ['I keep quality high under pressure.', '{{name}} keeps quality high under pressure.'],
    ['I prioritise the work that matters most.', '{{name}} prioritises the work that matters most.'],
    ['I raise problems early.', '{{name}} raises problems early.'],
  ],
  Growth: [
    ['I ask for feedback and act on it.', '{{name}} asks for feedback and acts on it.'],
    ['I learn from mistakes.', '{{name}} learns from mistakes.'],
    ['I stay curious about new ideas.', '{{name}} stays curious about new ideas.'],
    ['I help others develop their skills.', '{{name}} helps others develop their skills.'],
  ],
}

function bankQuestionnaire(categories: string[], perCategory: number, extraScale = 0): QuestionSeed[] {
  const list: QuestionSeed[] = []
  categories.forEach((category, c) => {
    const count = perCategory + (c < extraScale ? 1 : 0)
    for (const [text, raterText] of BANK[category]!.slice(0, count))
      list.push({ section: category, category, kind: 'scale', text, raterText, options: SCALE })
  })
  const last = categories[categories.length - 1]!
  list.push(
    {
      section: categories[1]!,
      category: categories[1]!,
      kind: 'single',
      text: 'When we disagree, I usually…',
      raterText: 'When we disagree, {{name}} usually…',
      options: {
        labels: ['Look for common ground', 'Hold my position', 'Defer to others', 'Avoid the topic'],
      },
    },
    {
      section: categories[2]!,
      category: categories[2]!,
      kind: 'multi',
      text: 'Which of these are my strengths?',
      raterText: 'Which of these are strengths of {{name}}?',
      required: false,
      options: { labels: ['Vision', 'Coaching', 'Decisiveness', 'Empathy', 'Delegation'] },
    },
    {
      section: last,
      category: last,
      kind: 'text',
      text: 'One thing I should keep doing:',
      raterText: 'One thing {{name}} should keep doing:',
      required: false,
    },
    {
      section: last,
      category: last,
      kind: 'textarea',
      text: 'What could I do differently to be more effective?',
      raterText: 'What could {{name}} do differently to be more effective?',
      required: false,
    },
  )
  // Sections in the order of their first question, as the builder would store them.
  const order = [...new Set(list.map((q) => q.section))]
  return order.flatMap((s) => list.filter((q) => q.section === s))
}

const ALL = Object.keys(BANK)
const QUESTIONNAIRES: Array<{ title: string; intro: string; questions: QuestionSeed[] }> = [
  {
    title: 'Leadership essentials 360',
    intro: 'Five areas of how we work together. Answer from what you have seen.',
    questions: DEMO_QUESTIONS,
  },
  {
    title: 'Team member 360',
    intro: 'How we communicate, collaborate, deliver and grow.',
    questions: bankQuestionnaire(['Communication', 'Collaboration', 'Delivery', 'Growth'], 3),
  },
  {
    title: 'Manager effectiveness 360',
    intro: 'The everyday habits of a people manager.',
    questions: bankQuestionnaire(ALL, 3, 1),
  },
  {
    title: 'Senior leader 360',
    intro: 'A thorough look at leading leaders.',
    questions: bankQuestionnaire(ALL, 4),
  },
]

// ---------------------------------------------------------------------------------------------
// SQL helpers (session-local functions: nothing is left behind in the database)

const HELPERS = `
CREATE OR REPLACE FUNCTION pg_temp.sid(tag int, n bigint) RETURNS uuid
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT (lpad(to_hex(tag), 8, '0') || '-5ca1-4000-8000-' || lpad(to_hex(n), 12, '0'))::uuid $$;
CREATE OR REPLACE FUNCTION pg_temp.num(id uuid) RETURNS bigint
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT ('x' || lpad(right(id::text, 12), 16, '0'))::bit(64)::bigint $$;
-- A reproducible choice in 0…m-1 for row n (salt: which choice).
CREATE OR REPLACE FUNCTION pg_temp.pick(n bigint, salt int, m int) RETURNS int
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT ((hashint8extended(n, salt) & 2147483647) % m)::int $$;
CREATE OR REPLACE FUNCTION pg_temp.first_name(u bigint) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT (${sqlArray(FIRST)})[1 + pg_temp.pick(u, 11, ${FIRST.length})] $$;
CREATE OR REPLACE FUNCTION pg_temp.last_name(u bigint) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT (${sqlArray(LAST)})[1 + pg_temp.pick(u, 12, ${LAST.length})] $$;
CREATE OR REPLACE FUNCTION pg_temp.person(u bigint) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT pg_temp.first_name(u) || ' ' || pg_temp.last_name(u) $$;
CREATE OR REPLACE FUNCTION pg_temp.department(u bigint) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT (${sqlArray(DEPARTMENTS)})[1 + pg_temp.pick(u, 24, ${DEPARTMENTS.length})] $$;
CREATE OR REPLACE FUNCTION pg_temp.job_title(u bigint) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT (${sqlArray(JOB_TITLES)})[1 + pg_temp.pick(u, 25, ${JOB_TITLES.length})] $$;
CREATE OR REPLACE FUNCTION pg_temp.company_name(c int) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT (${sqlArray(COMPANY_FIRST)})[1 + c % ${COMPANY_FIRST.length}] || ' '
    || (${sqlArray(COMPANY_SECOND)})[1 + (c / ${COMPANY_FIRST.length}) % ${COMPANY_SECOND.length}] $$;
CREATE OR REPLACE FUNCTION pg_temp.domain(c int) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT lower(replace(pg_temp.company_name(c), ' ', '-')) || '.example' $$;
CREATE OR REPLACE FUNCTION pg_temp.comment(n bigint, long boolean) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT CASE WHEN long
    THEN (${sqlArray(LONG_COMMENTS)})[1 + pg_temp.pick(n, 15, ${LONG_COMMENTS.length})]
    ELSE (${sqlArray(SHORT_COMMENTS)})[1 + pg_temp.pick(n, 15, ${SHORT_COMMENTS.length})] END $$;
`

/** Memberships: each employee in one scheme of their company, 60 % in a second one. */
const MEMBERSHIPS = `
  SELECT n, 2 * (n - 1) + slot + 1 AS m, (n - 1) / ${PER_COMPANY} AS c, (n - 1) % ${PER_COMPANY} AS j,
    ((n - 1) / ${PER_COMPANY}) * ${SCHEMES_PER_COMPANY}
      + (((n - 1) % ${PER_COMPANY}) + slot * 7) % ${SCHEMES_PER_COMPANY} + 1 AS s
  FROM generate_series(1, ${EMPLOYEES}) n, (VALUES (0), (1)) v(slot)
  WHERE slot = 0 OR pg_temp.pick(n, 1, 10) < 6
  OFFSET 0`

// ---------------------------------------------------------------------------------------------
// Steps

type Step = {
  name: string
  /** The table and the tag range whose rows show the step has run. */
  table: string
  tag: number
  from?: number
  to?: number
  /**
   * Bulk: run in one transaction with the table's secondary indexes dropped first and built again
   * at the end (the same definitions, read from the catalogue): building an index once from sorted
   * rows is several times cheaper than updating it row by row. A stopped run rolls it all back.
   */
  bulk?: boolean
  /** After the steps without a lane, the two lanes run side by side on two connections. */
  lane?: 'a' | 'b'
  run: (client: pg.PoolClient, note: Note) => Promise<number>
}

/** Progress of a step in parts (answer slices, e-mail kinds). */
type Note = (what: string, rows: number | null, since: number) => void

const exec = async (client: pg.PoolClient, text: string, values: unknown[] = []) =>
  (await client.query(text, values)).rowCount ?? 0

/** Several statements as one step (one transaction, one index rebuild when bulk). */
function combine(name: string, parts: Step[], options: Pick<Step, 'bulk' | 'lane'>): Step {
  return {
    name,
    table: parts[0]!.table,
    tag: parts[0]!.tag,
    ...options,
    run: async (client, note) => {
      let made = 0
      for (const part of parts) {
        const t = performance.now()
        const rows = await part.run(client, note)
        note(part.name, rows, t)
        made += rows
      }
      return made
    },
  }
}

function steps(passwordHash: string): Step[] {
  const employeeEmail = (n: string, c: string) =>
    `lower(pg_temp.first_name(${n}) || '.' || pg_temp.last_name(${n})) || '.' || ${n} || '@' || pg_temp.domain(${c})`
  return [
    {
      name: 'brands',
      table: 'brands',
      tag: TAG.brand,
      run: (client) =>
        exec(
          client,
          `INSERT INTO brands (id, name, primary_color, accent_color, sender_name, created_at, updated_at)
           SELECT pg_temp.sid(${TAG.brand}, b), (${sqlArray(BRAND_NAMES)})[b],
             (${sqlArray(COLOURS)})[1 + b % ${COLOURS.length}], (${sqlArray(COLOURS)})[1 + (b + 3) % ${COLOURS.length}],
             (${sqlArray(BRAND_NAMES)})[b], now() - make_interval(days => 800 - b), now() - make_interval(days => 800 - b)
           FROM generate_series(1, ${BRANDS}) b
           ON CONFLICT DO NOTHING`,
        ),
    },
    {
      name: 'companies',
      table: 'companies',
      tag: TAG.company,
      run: (client) =>
        exec(
          client,
          `INSERT INTO companies (id, name, brand_id, created_at, updated_at)
           SELECT pg_temp.sid(${TAG.company}, c + 1), pg_temp.company_name(c), pg_temp.sid(${TAG.brand}, 1 + c % ${BRANDS}),
             now() - make_interval(days => 700 - c * 5), now() - make_interval(days => 700 - c * 5)
           FROM generate_series(0, ${COMPANIES - 1}) c
           ON CONFLICT DO NOTHING`,
        ),
    },
    {
      name: 'questionnaires and questions',
      table: 'questionnaires',
      tag: TAG.questionnaire,
      run: async () => {
        let made = 0
        await getDb().transaction(async (tx) => {
          for (const [i, q] of QUESTIONNAIRES.entries()) {
            const id = sid(TAG.questionnaire, i + 1)
            await tx
              .insert(questionnaires)
              .values({ id, lineageId: id, title: q.title, intro: q.intro, status: 'published' })
              .onConflictDoNothing()
            const titles = [...new Set(q.questions.map((item) => item.section))]
            const sectionIds = new Map(titles.map((t, n) => [t, sid(TAG.section, (i + 1) * 100 + n)]))
            await tx
              .insert(questionnaireSections)
              .values(
                titles.map((title, n) => ({
                  id: sectionIds.get(title)!,
                  questionnaireId: id,
                  position: n,
                  title,
                })),
              )
              .onConflictDoNothing()
            await tx
              .insert(questions)
              .values(
                q.questions.map((item, position) => ({
                  id: sid(TAG.question, (i + 1) * 100 + position),
                  questionnaireId: id,
                  position,
                  sectionId: sectionIds.get(item.section)!,
                  section: item.section,
                  kind: item.kind,
                  text: item.text,
                  raterText: item.raterText,
                  category: item.category,
                  required: item.required ?? true,
                  options: item.options ?? {},
                })),
              )
              .onConflictDoNothing()
            made += 1 + q.questions.length
          }
        })
        return made
      },
    },
    {
      name: 'employees',
      bulk: true,
      table: 'users',
      tag: TAG.user,
      from: 1,
      to: EMPLOYEES,
      // 90 % activated (a password), 1 % disabled, a third with a phone number.
      run: (client) =>
        exec(
          client,
          `INSERT INTO users (id, email, email_verified_at, display_name, phone, password_hash, role, company_id,
             disabled_at, created_at, updated_at, department, job_title)
           SELECT pg_temp.sid(${TAG.user}, n), ${employeeEmail('n', 'c')},
             CASE WHEN active THEN created + interval '2 days' END,
             pg_temp.person(n),
             CASE WHEN pg_temp.pick(n, 21, 3) = 0 THEN '+44 20 7946 ' || lpad((n % 10000)::text, 4, '0') END,
             CASE WHEN active THEN $1 END, 'employee', pg_temp.sid(${TAG.company}, c + 1),
             CASE WHEN pg_temp.pick(n, 22, 100) = 0 THEN now() - interval '20 days' END, created, created,
             pg_temp.department(n), pg_temp.job_title(n)
           FROM (
             SELECT n, (n - 1) / ${PER_COMPANY} AS c, pg_temp.pick(n, 20, 10) > 0 AS active,
               now() - make_interval(days => 60 + pg_temp.pick(n, 23, 600)) AS created
             FROM generate_series(1, ${EMPLOYEES}) n
           ) e
           ON CONFLICT DO NOTHING`,
          [passwordHash],
        ),
    },
    {
      name: 'external colleagues',
      table: 'users',
      tag: TAG.user,
      from: EXTERNAL_BASE + 1,
      to: EXTERNAL_BASE + EXTERNALS,
      run: (client) =>
        exec(
          client,
          `INSERT INTO users (id, email, display_name, role, created_at, updated_at)
           SELECT pg_temp.sid(${TAG.user}, u),
             lower(pg_temp.first_name(u) || '.' || pg_temp.last_name(u)) || '.' || x || '@partner-' || c || '.example',
             pg_temp.person(u), 'colleague', now() - make_interval(days => 30 + pg_temp.pick(u, 23, 500)),
             now() - make_interval(days => 30 + pg_temp.pick(u, 23, 500))
           FROM (
             SELECT ${EXTERNAL_BASE} + x AS u, x, (x - 1) / ${EXTERNAL_PER_COMPANY} AS c
             FROM generate_series(1, ${EXTERNALS}) x
           ) e
           ON CONFLICT DO NOTHING`,
        ),
    },
    {
      name: 'schemes',
      table: 'schemes',
      tag: TAG.scheme,
      // Per company: the first a draft, the next five closed, the rest open (deadlines spread out).
      run: (client) =>
        exec(
          client,
          `INSERT INTO schemes (id, name, company_id, questionnaire_id, opens_at, closes_at, max_colleagues,
             min_raters, reminder_cadence_days, status, created_at, updated_at)
           SELECT pg_temp.sid(${TAG.scheme}, s),
             pg_temp.company_name(c) || ' ' || (${sqlArray(PROGRAMMES)})[1 + t % ${PROGRAMMES.length}] || ', '
               || (${sqlArray(SEASONS)})[1 + t % ${SEASONS.length}] || ' ' || (2026 - t / 8),
             pg_temp.sid(${TAG.company}, c + 1), pg_temp.sid(${TAG.questionnaire}, 1 + s % ${QUESTIONNAIRES.length}),
             opens, closes, 8, 3, 7, status::scheme_status, opens - interval '21 days', opens - interval '21 days'
           FROM (
             SELECT s, c, t, status,
               CASE status WHEN 'draft' THEN now() + interval '14 days'
                 WHEN 'closed' THEN now() - make_interval(days => 200 + t * 20)
                 ELSE now() - make_interval(days => 5 + t * 3) END AS opens,
               CASE status WHEN 'draft' THEN now() + interval '60 days'
                 WHEN 'closed' THEN now() - make_interval(days => 30 + t * 20)
                 ELSE now() + make_interval(days => 10 + t * 4) END AS closes
             FROM (
               SELECT s, (s - 1) / ${SCHEMES_PER_COMPANY} AS c, (s - 1) % ${SCHEMES_PER_COMPANY} AS t,
                 CASE WHEN (s - 1) % ${SCHEMES_PER_COMPANY} = 0 THEN 'draft'
                   WHEN (s - 1) % ${SCHEMES_PER_COMPANY} <= 5 THEN 'closed' ELSE 'open' END AS status
               FROM generate_series(1, ${SCHEMES}) s
             ) a
           ) b
           ON CONFLICT DO NOTHING`,
        ),
    },
    {
      name: 'scheme members',
      bulk: true,
      table: 'scheme_members',
      tag: TAG.scheme,
      run: (client) =>
        exec(
          client,
          `INSERT INTO scheme_members (scheme_id, employee_id, enrolled_at, invited_at)
           SELECT sc.id, pg_temp.sid(${TAG.user}, mem.n), sc.opens_at - interval '7 days',
             CASE WHEN sc.status <> 'draft' THEN sc.opens_at END
           FROM (${MEMBERSHIPS}) mem
           JOIN schemes sc ON sc.id = pg_temp.sid(${TAG.scheme}, mem.s)
           ON CONFLICT DO NOTHING`,
        ),
    },
    {
      name: 'known accounts',
      table: 'users',
      tag: TAG.user,
      from: KNOWN_BASE + 1,
      to: KNOWN_BASE + 99,
      run: () => createKnownAccounts(passwordHash),
    },
    {
      name: 'assignments',
      bulk: true,
      table: 'assignments',
      tag: TAG.assignment,
      to: KNOWN_MEMBERSHIP_BASE * 16,
      // Per membership a self-assessment and 0–8 colleagues (≈5.5 on average; none in a draft):
      // colleagues from the same company, one in ten from outside it; statuses by scheme state.
      run: (client) =>
        exec(
          client,
          `INSERT INTO assignments (id, scheme_id, questionnaire_id, subject_id, respondent_id, relationship,
             respondent_name, status, due_at, invited_at, submitted_at, reminders_sent, last_reminder_at, created_at)
           SELECT pg_temp.sid(${TAG.assignment}, a), scheme_id, questionnaire_id, pg_temp.sid(${TAG.user}, n),
             pg_temp.sid(${TAG.user}, respondent), relationship::relationship,
             CASE WHEN k > 0 THEN pg_temp.person(respondent) END,
             status::assignment_status, closes_at, invited,
             CASE WHEN status = 'submitted' THEN invited + (least(now(), closes_at) - invited) * (0.05 + pg_temp.pick(a, 7, 900) / 1000.0) END,
             reminders, CASE WHEN reminders > 0 THEN invited + make_interval(days => 7 * reminders) END,
             CASE WHEN k = 0 THEN opens_at - interval '7 days' ELSE invited END
           FROM (
             SELECT w.*,
               CASE WHEN status IN ('pending', 'in_progress') AND scheme_status <> 'draft'
                 THEN least(pg_temp.pick(a, 8, 3), greatest(0, extract(day FROM least(now(), closes_at) - invited)::int / 7))
                 ELSE 0 END AS reminders
             FROM (
               SELECT v.*,
                 CASE WHEN k = 0 THEN
                   CASE scheme_status WHEN 'draft' THEN 'pending'
                     WHEN 'closed' THEN CASE WHEN u < 80 THEN 'submitted' WHEN u < 90 THEN 'in_progress' ELSE 'pending' END
                     ELSE CASE WHEN u < 55 THEN 'submitted' WHEN u < 75 THEN 'in_progress' ELSE 'pending' END END
                 ELSE
                   CASE scheme_status
                     WHEN 'closed' THEN CASE WHEN u < 70 THEN 'submitted' WHEN u < 95 THEN 'pending' ELSE 'revoked' END
                     ELSE CASE WHEN u < 48 THEN 'submitted' WHEN u < 58 THEN 'in_progress' WHEN u < 95 THEN 'pending' ELSE 'revoked' END END
                 END AS status,
                 CASE WHEN k = 0 THEN 'self' WHEN k = 1 THEN 'manager'
                   WHEN pg_temp.pick(a, 5, 10) < 5 THEN 'peer' WHEN pg_temp.pick(a, 5, 10) < 8 THEN 'direct_report'
                   ELSE 'other' END AS relationship,
                 CASE WHEN k = 0 THEN n
                   WHEN pg_temp.pick(a, 3, 10) = 0
                     THEN ${EXTERNAL_BASE} + c * ${EXTERNAL_PER_COMPANY} + (j * 8 + k) % ${EXTERNAL_PER_COMPANY} + 1
                   ELSE c * ${PER_COMPANY} + (j + k * 37) % ${PER_COMPANY} + 1 END AS respondent,
                 CASE WHEN k = 0 OR scheme_status = 'draft' THEN opens_at
                   ELSE opens_at + (least(now(), closes_at) - opens_at) * (pg_temp.pick(a, 6, 1000) / 4000.0) END AS invited
               FROM (
                 SELECT mem.n, mem.c, mem.j, mem.m * 16 + k AS a, k, sc.id AS scheme_id,
                   sc.questionnaire_id, sc.status::text AS scheme_status, sc.opens_at, sc.closes_at,
                   pg_temp.pick(mem.m * 16 + k, 4, 100) AS u
                 FROM (${MEMBERSHIPS}) mem
                 JOIN schemes sc ON sc.id = pg_temp.sid(${TAG.scheme}, mem.s)
                 CROSS JOIN LATERAL generate_series(0,
                   CASE WHEN sc.status = 'draft' THEN 0
                     ELSE least(8, floor(9 * sqrt(pg_temp.pick(mem.m, 2, 10000) / 10000.0)))::int END) k
                 OFFSET 0
               ) v
               OFFSET 0
             ) w
             OFFSET 0
           ) x
           ON CONFLICT DO NOTHING`,
        ),
    },
    {
      name: 'known accounts: assignments',
      table: 'assignments',
      tag: TAG.assignment,
      from: (KNOWN_MEMBERSHIP_BASE + 1) * 16,
      to: MAX_ASSIGNMENT,
      run: () => createKnownAssignments(),
    },
    {
      name: 'responses',
      bulk: true,
      table: 'responses',
      tag: TAG.response,
      // Everything started has a response; submitted ones stop at their last section.
      run: (client) =>
        exec(
          client,
          `INSERT INTO responses (id, assignment_id, started_at, updated_at, submitted_at, last_section)
           SELECT pg_temp.sid(${TAG.response}, pg_temp.num(a.id)), a.id, a.invited_at + interval '1 hour',
             coalesce(a.submitted_at, a.invited_at + interval '2 hours'), a.submitted_at,
             CASE WHEN a.status = 'submitted' THEN qs.sections - 1 ELSE 0 END
           FROM assignments a
           JOIN (SELECT questionnaire_id, count(DISTINCT section)::int AS sections FROM questions GROUP BY 1) qs
             ON qs.questionnaire_id = a.questionnaire_id
           WHERE a.id BETWEEN '${sid(TAG.assignment, 0)}' AND '${MAX_ID(TAG.assignment)}'
             AND a.status IN ('submitted', 'in_progress')
           ON CONFLICT DO NOTHING`,
        ),
    },
    answersStep(),
    combine(
      'e-mails',
      [
        {
          name: 'e-mails: colleague invitations',
          table: 'email_outbox',
          tag: TAG.outbox,
          to: 49_999_999,
          run: (client) =>
            exec(
              client,
              `INSERT INTO email_outbox (id, recipient, sender_name, template_key, subject, html, text, status, attempts,
             next_attempt_at, last_error, sent_at, entity, entity_id, created_at, brand_id)
           SELECT pg_temp.sid(${TAG.outbox}, x.num), x.recipient, x.brand, 'colleague_invite', x.subject,
             '<p>Hello ' || x.colleague || ',</p><p>' || x.employee || ' is taking part in a 360° feedback programme run by '
               || x.brand || ' and has asked for your perspective.</p><p><a href="https://feedback.example/verification?mode=invite&amp;code=…">Give feedback</a></p>',
             'Hello ' || x.colleague || E',\\n\\n' || x.employee || ' is taking part in a 360° feedback programme run by '
               || x.brand || E' and has asked for your perspective.\\n\\nhttps://feedback.example/verification?mode=invite&code=…',
             x.status::outbox_status, CASE x.status WHEN 'sent' THEN 1 WHEN 'failed' THEN 8 ELSE 0 END,
             x.created + CASE x.status WHEN 'queued' THEN interval '5 minutes' ELSE interval '0' END,
             CASE WHEN x.status = 'failed' THEN '550 5.1.1 mailbox unavailable' END,
             CASE WHEN x.status = 'sent' THEN x.created + interval '20 seconds' END,
             'assignment', x.id, x.created, x.brand_id
           FROM (
             SELECT a.id, pg_temp.num(a.id) AS num, r.email AS recipient, coalesce(a.respondent_name, r.display_name) AS colleague,
               s.display_name AS employee, b.sender_name AS brand, b.id AS brand_id, s.display_name || ' would value your feedback' AS subject,
               a.invited_at AS created,
               CASE WHEN sc.status = 'open' AND pg_temp.pick(pg_temp.num(a.id), 30, 1000) < 20 THEN 'queued'
                 WHEN pg_temp.pick(pg_temp.num(a.id), 30, 1000) >= 985 THEN 'failed' ELSE 'sent' END AS status
             FROM assignments a
             JOIN users r ON r.id = a.respondent_id
             JOIN users s ON s.id = a.subject_id
             JOIN schemes sc ON sc.id = a.scheme_id
             JOIN companies co ON co.id = sc.company_id
             JOIN brands b ON b.id = co.brand_id
             WHERE a.id BETWEEN '${sid(TAG.assignment, 0)}' AND '${MAX_ID(TAG.assignment)}'
               AND a.relationship <> 'self'
           ) x
           ON CONFLICT DO NOTHING`,
            ),
        },
        {
          name: 'e-mails: account activations',
          table: 'email_outbox',
          tag: TAG.outbox,
          from: 50_000_000,
          to: 99_999_999,
          run: (client) =>
            exec(
              client,
              `INSERT INTO email_outbox (id, recipient, sender_name, template_key, subject, html, text, status, attempts,
             next_attempt_at, last_error, sent_at, entity, entity_id, created_at, brand_id)
           SELECT pg_temp.sid(${TAG.outbox}, 50000000 + x.num), x.email, x.brand, 'activate_account',
             'Your 360° feedback with ' || x.brand || ': activate your account',
             '<p>Hello ' || x.name || ',</p><p>' || x.brand || ' has invited you to take part in a 360° feedback programme.</p><p><a href="https://feedback.example/verification?mode=activate&amp;code=…">Activate your account</a></p>',
             'Hello ' || x.name || E',\\n\\n' || x.brand || E' has invited you to take part in a 360° feedback programme.\\n\\nhttps://feedback.example/verification?mode=activate&code=…',
             x.status::outbox_status, CASE x.status WHEN 'sent' THEN 1 WHEN 'failed' THEN 8 ELSE 0 END,
             x.created, CASE WHEN x.status = 'failed' THEN '550 5.1.1 mailbox unavailable' END,
             CASE WHEN x.status = 'sent' THEN x.created + interval '20 seconds' END, 'user', x.id, x.created, x.brand_id
           FROM (
             SELECT u.id, pg_temp.num(u.id) AS num, u.email, u.display_name AS name, b.sender_name AS brand, b.id AS brand_id,
               u.created_at AS created,
               CASE WHEN u.password_hash IS NOT NULL THEN 'sent'
                 WHEN pg_temp.pick(pg_temp.num(u.id), 31, 10) < 3 THEN 'failed'
                 WHEN pg_temp.pick(pg_temp.num(u.id), 31, 10) < 5 THEN 'queued' ELSE 'sent' END AS status
             FROM users u
             JOIN companies co ON co.id = u.company_id
             JOIN brands b ON b.id = co.brand_id
             WHERE u.id BETWEEN '${sid(TAG.user, 1)}' AND '${sid(TAG.user, EMPLOYEES)}'
           ) x
           ON CONFLICT DO NOTHING`,
            ),
        },
        {
          name: 'e-mails: reminders',
          table: 'email_outbox',
          tag: TAG.outbox,
          from: 100_000_000,
          run: (client) =>
            exec(
              client,
              `INSERT INTO email_outbox (id, recipient, template_key, subject, html, text, status, attempts,
             next_attempt_at, sent_at, entity, entity_id, created_at)
           SELECT pg_temp.sid(${TAG.outbox}, 100000000 + pg_temp.num(a.id) * 4 + i), r.email, 'reminder',
             'A friendly reminder: your feedback questionnaire is still open',
             '<p>Hello ' || r.display_name || ',</p><p>A feedback questionnaire is still waiting for you.</p>',
             'Hello ' || r.display_name || E',\\n\\nA feedback questionnaire is still waiting for you.',
             'sent', 1, a.invited_at + make_interval(days => 7 * i), a.invited_at + make_interval(days => 7 * i),
             'assignment', a.id, a.invited_at + make_interval(days => 7 * i)
           FROM assignments a
           JOIN users r ON r.id = a.respondent_id
           CROSS JOIN LATERAL generate_series(1, a.reminders_sent) i
           WHERE a.id BETWEEN '${sid(TAG.assignment, 0)}' AND '${MAX_ID(TAG.assignment)}'
             AND a.reminders_sent > 0
           ON CONFLICT DO NOTHING`,
            ),
        },
      ],
      { bulk: true, lane: 'b' },
    ),
    combine(
      'audit rows',
      [
        {
          name: 'audit: invitations',
          table: 'audit_log',
          tag: TAG.audit,
          to: 49_999_999,
          run: (client) =>
            exec(
              client,
              `INSERT INTO audit_log (id, actor_id, action, entity, entity_id, details, ip, at)
           SELECT pg_temp.sid(${TAG.audit}, pg_temp.num(a.id)), a.subject_id, 'invite.create', 'assignment', a.id::text,
             jsonb_build_object('employeeId', a.subject_id, 'schemeId', a.scheme_id, 'colleagueId', a.respondent_id,
               'email', r.email, 'relationship', a.relationship, 'onBehalf', false),
             '10.' || (pg_temp.num(a.id) % 250) || '.' || (pg_temp.num(a.id) / 250 % 250) || '.7', a.invited_at
           FROM assignments a
           JOIN users r ON r.id = a.respondent_id
           WHERE a.id BETWEEN '${sid(TAG.assignment, 0)}' AND '${MAX_ID(TAG.assignment)}'
             AND a.relationship <> 'self'
           ON CONFLICT DO NOTHING`,
            ),
        },
        {
          name: 'audit: submissions',
          table: 'audit_log',
          tag: TAG.audit,
          from: 50_000_000,
          to: 99_999_999,
          run: (client) =>
            exec(
              client,
              `INSERT INTO audit_log (id, actor_id, action, entity, entity_id, details, ip, at)
           SELECT pg_temp.sid(${TAG.audit}, 50000000 + pg_temp.num(a.id)), a.respondent_id, 'assignment.submit',
             'assignment', a.id::text,
             jsonb_build_object('responseId', pg_temp.sid(${TAG.response}, pg_temp.num(a.id)),
               'relationship', a.relationship, 'answers', qs.n),
             '10.' || (pg_temp.num(a.id) % 250) || '.' || (pg_temp.num(a.id) / 250 % 250) || '.9', a.submitted_at
           FROM assignments a
           JOIN (SELECT questionnaire_id, count(*)::int AS n FROM questions GROUP BY 1) qs
             ON qs.questionnaire_id = a.questionnaire_id
           WHERE a.id BETWEEN '${sid(TAG.assignment, 0)}' AND '${MAX_ID(TAG.assignment)}'
             AND a.status = 'submitted'
           ON CONFLICT DO NOTHING`,
            ),
        },
        {
          name: 'audit: set-up',
          table: 'audit_log',
          tag: TAG.audit,
          from: 100_000_000,
          run: (client) =>
            exec(
              client,
              `INSERT INTO audit_log (id, actor_id, action, entity, entity_id, details, ip, at)
           SELECT pg_temp.sid(${TAG.audit}, 100000000 + b), pg_temp.sid(${TAG.user}, ${KNOWN_BASE + 1}), 'brand.create',
             'brand', pg_temp.sid(${TAG.brand}, b)::text, jsonb_build_object('name', (${sqlArray(BRAND_NAMES)})[b]),
             '10.0.0.1', now() - make_interval(days => 800 - b)
           FROM generate_series(1, ${BRANDS}) b
           UNION ALL
           SELECT pg_temp.sid(${TAG.audit}, 100001000 + c), pg_temp.sid(${TAG.user}, ${KNOWN_BASE + 1}), 'company.create',
             'company', pg_temp.sid(${TAG.company}, c + 1)::text, jsonb_build_object('name', pg_temp.company_name(c)),
             '10.0.0.1', now() - make_interval(days => 700 - c * 5)
           FROM generate_series(0, ${COMPANIES - 1}) c
           ON CONFLICT DO NOTHING`,
            ),
        },
      ],
      { bulk: true, lane: 'b' },
    ),
  ]
}

/**
 * Answers, in ten slices of responses (one statement each, so a long step shows progress).
 * Submitted responses answer every question (the optional ones mostly); responses in progress
 * answer the first half.
 */
function answersStep(): Step {
  const slices = 10
  const size = Math.ceil((MAX_ASSIGNMENT + 1) / slices)
  return {
    name: 'answers',
    table: 'answers',
    tag: TAG.answer,
    bulk: true,
    lane: 'a',
    run: async (client, note) => {
      let made = 0
      for (let i = 0; i < slices; i++) {
        const lo = i * size
        const hi = Math.min(MAX_ASSIGNMENT, (i + 1) * size - 1)
        const t = performance.now()
        const rows = await exec(
          client,
          `INSERT INTO answers (id, response_id, question_id, numeric_value, text_value, choices, not_applicable, updated_at)
               SELECT pg_temp.sid(${TAG.answer}, an), response_id, question_id,
                 CASE WHEN kind = 'scale' AND NOT na
                   THEN (ARRAY[1, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 4, 5, 5, 5])[1 + pg_temp.pick(an, 10, 15)] END,
                 CASE WHEN kind IN ('text', 'textarea') THEN pg_temp.comment(an, kind = 'textarea') END,
                 CASE kind
                   WHEN 'single' THEN jsonb_build_array(labels ->> pg_temp.pick(an, 10, nl))
                   WHEN 'multi' THEN CASE WHEN pg_temp.pick(an, 13, 2) = 0
                     THEN jsonb_build_array(labels ->> pg_temp.pick(an, 10, nl))
                     ELSE jsonb_build_array(labels ->> pg_temp.pick(an, 10, nl),
                       labels ->> ((pg_temp.pick(an, 10, nl) + 1 + pg_temp.pick(an, 14, nl - 1)) % nl)) END
                 END,
                 na, updated_at
               FROM (
                 SELECT r.num * 32 + q.position AS an, r.id AS response_id, q.id AS question_id, q.kind::text AS kind,
                   q.options -> 'labels' AS labels, greatest(1, jsonb_array_length(coalesce(q.options -> 'labels', '[]'))) AS nl,
                   q.kind = 'scale' AND pg_temp.pick(r.num * 32 + q.position, 9, 1000) < 30 AS na,
                   pg_temp.pick(r.num * 32 + q.position, 9, 1000) AS u, r.updated_at, r.submitted, q.position, qs.n
                 FROM (
                   SELECT re.id, pg_temp.num(re.id) AS num, re.updated_at, re.submitted_at IS NOT NULL AS submitted,
                     a.questionnaire_id
                   FROM responses re
                   JOIN assignments a ON a.id = re.assignment_id
                   WHERE re.id BETWEEN '${sid(TAG.response, lo)}' AND '${sid(TAG.response, hi)}'
                   OFFSET 0
                 ) r
                 JOIN questions q ON q.questionnaire_id = r.questionnaire_id
                 JOIN (SELECT questionnaire_id, count(*)::int AS n FROM questions GROUP BY 1) qs
                   ON qs.questionnaire_id = r.questionnaire_id
                 OFFSET 0
               ) x
               WHERE (submitted OR position < n / 2)
                 AND CASE kind WHEN 'text' THEN u < 600 WHEN 'textarea' THEN u < 450 WHEN 'multi' THEN u < 850 ELSE true END
               ON CONFLICT DO NOTHING`,
        )
        note(`answers ${i + 1}/${slices}`, rows, t)
        made += rows
      }
      return made
    },
  }
}

// ---------------------------------------------------------------------------------------------
// Known accounts

const KNOWN = {
  admin: { n: KNOWN_BASE + 1, email: 'scale-admin@panorama.test', name: 'Skyler Admin', role: 'admin' },
  employee: {
    n: KNOWN_BASE + 2,
    email: 'scale-employee@panorama.test',
    name: 'Elliot Employee',
    role: 'employee',
    department: 'Operations',
    jobTitle: 'Operations lead',
  },
  newcomer: {
    n: KNOWN_BASE + 3,
    email: 'scale-newcomer@panorama.test',
    name: 'Nico Newcomer',
    role: 'employee',
    department: 'Operations',
    jobTitle: 'Operations analyst',
  },
  colleague: {
    n: KNOWN_BASE + 4,
    email: 'scale-colleague@panorama.test',
    name: 'Cameron Colleague',
    role: 'colleague',
  },
} as const

/** The first company's two latest-closing open schemes hold the known accounts. */
const KNOWN_SCHEME = sid(TAG.scheme, SCHEMES_PER_COMPANY)
const KNOWN_SECOND_SCHEME = sid(TAG.scheme, SCHEMES_PER_COMPANY - 1)
const knownAssignment = (membership: number, k: number) =>
  sid(TAG.assignment, (KNOWN_MEMBERSHIP_BASE + membership) * 16 + k)

async function createKnownAccounts(passwordHash: string) {
  const company = sid(TAG.company, 1)
  const rows = Object.values(KNOWN).map((k) => ({
    id: sid(TAG.user, k.n),
    email: k.email,
    displayName: k.name,
    role: k.role,
    companyId: k.role === 'employee' ? company : null,
    department: 'department' in k ? k.department : null,
    jobTitle: 'jobTitle' in k ? k.jobTitle : null,
    passwordHash: k.role === 'colleague' ? null : passwordHash,
    emailVerifiedAt: k.role === 'colleague' ? null : new Date(),
  }))
  await getDb().insert(users).values(rows).onConflictDoNothing()
  await getDb()
    .insert(schemeMembers)
    .values([
      { schemeId: KNOWN_SCHEME, employeeId: sid(TAG.user, KNOWN.employee.n) },
      { schemeId: KNOWN_SECOND_SCHEME, employeeId: sid(TAG.user, KNOWN.employee.n) },
      { schemeId: KNOWN_SCHEME, employeeId: sid(TAG.user, KNOWN.newcomer.n) },
    ])
    .onConflictDoNothing()
  return rows.length
}

/**
 * scale-employee: self-assessment submitted in one scheme with five colleagues answered (the report
 * shows colleague data) and scale-colleague still to answer; part-way through a second one.
 * scale-newcomer: enrolled, not started (the bench answers as them).
 */
async function createKnownAssignments() {
  const db = getDb()
  const [first] = await db.query.schemes.findMany({ where: (s, { eq }) => eq(s.id, KNOWN_SCHEME) })
  const [second] = await db.query.schemes.findMany({ where: (s, { eq }) => eq(s.id, KNOWN_SECOND_SCHEME) })
  if (!first || !second) throw new Error('The schemes step has not run')
  const employee = sid(TAG.user, KNOWN.employee.n)
  const day = 24 * 60 * 60 * 1000
  const invited = new Date(first.opensAt.getTime() + day)
  const submitted = new Date(Math.min(Date.now() - day, first.opensAt.getTime() + 5 * day))
  const base = {
    schemeId: first.id,
    questionnaireId: first.questionnaireId,
    subjectId: employee,
    dueAt: first.closesAt,
    invitedAt: invited,
    createdAt: invited,
  }
  const colleagues = [
    ['manager', 1],
    ['peer', 2],
    ['peer', 3],
    ['direct_report', 4],
    ['other', 5],
  ] as const
  const rows: Array<typeof assignments.$inferInsert> = [
    {
      ...base,
      id: knownAssignment(1, 0),
      respondentId: employee,
      relationship: 'self',
      status: 'submitted',
      submittedAt: submitted,
    },
    ...colleagues.map(([relationship, n], i) => ({
      ...base,
      id: knownAssignment(1, i + 1),
      respondentId: sid(TAG.user, n),
      relationship,
      respondentName: null,
      status: 'submitted' as const,
      submittedAt: submitted,
    })),
    {
      ...base,
      id: knownAssignment(2, 0),
      schemeId: second.id,
      questionnaireId: second.questionnaireId,
      dueAt: second.closesAt,
      respondentId: employee,
      relationship: 'self',
      status: 'in_progress',
    },
    {
      ...base,
      id: knownAssignment(3, 0),
      subjectId: sid(TAG.user, KNOWN.newcomer.n),
      respondentId: sid(TAG.user, KNOWN.newcomer.n),
      relationship: 'self',
      status: 'pending',
    },
  ]
  await db.insert(assignments).values(rows).onConflictDoNothing()
  return rows.length
}

/**
 * scale-employee's report is released (ADR 022: colleague figures come only from a release), as an
 * administrator would; scale-colleague is invited after it, so their link still works (as in
 * `npm run seed`). Once: a later run finds the release and leaves both as they are.
 */
async function releaseKnownReport() {
  const db = getDb()
  const employee = sid(TAG.user, KNOWN.employee.n)
  const [existing] = await db
    .select({ id: reportReleases.id })
    .from(reportReleases)
    .where(and(eq(reportReleases.schemeId, KNOWN_SCHEME), eq(reportReleases.subjectId, employee)))
    .limit(1)
  if (!existing) {
    const released = await releaseParticipant({ id: sid(TAG.user, KNOWN.admin.n) }, KNOWN_SCHEME, employee)
    if (!released.ok)
      throw new Error(`scale-employee's report could not be released: ${JSON.stringify(released)}`)
  }
  const [first] = await db.query.schemes.findMany({ where: (s, { eq }) => eq(s.id, KNOWN_SCHEME) })
  await db
    .insert(assignments)
    .values({
      id: knownAssignment(1, 6),
      schemeId: KNOWN_SCHEME,
      questionnaireId: first!.questionnaireId,
      subjectId: employee,
      respondentId: sid(TAG.user, KNOWN.colleague.n),
      relationship: 'peer',
      respondentName: KNOWN.colleague.name,
      status: 'pending',
      dueAt: first!.closesAt,
      invitedAt: new Date(),
    })
    .onConflictDoNothing()
}

/** Known accounts sign in with the demo password whatever happened to them since. */
async function resetKnownAccounts(passwordHash: string) {
  await getDb()
    .update(users)
    .set({ passwordHash, disabledAt: null })
    .where(
      inArray(users.id, [
        sid(TAG.user, KNOWN.admin.n),
        sid(TAG.user, KNOWN.employee.n),
        sid(TAG.user, KNOWN.newcomer.n),
      ]),
    )
}

/**
 * Departments and job titles for a database seeded before they were (issue 18 §3's directory
 * searches them): the employees' generated ones, the known employees' own. Nothing on a database
 * that has them; the number of rows changed otherwise.
 */
async function fillDepartments(client: pg.PoolClient) {
  let changed = await exec(
    client,
    `UPDATE users SET department = pg_temp.department(pg_temp.num(id)), job_title = pg_temp.job_title(pg_temp.num(id))
     WHERE id BETWEEN '${sid(TAG.user, 1)}' AND '${sid(TAG.user, EMPLOYEES)}' AND department IS NULL AND job_title IS NULL`,
  )
  for (const k of [KNOWN.employee, KNOWN.newcomer])
    changed += await exec(
      client,
      `UPDATE users SET department = $1, job_title = $2 WHERE id = $3 AND department IS NULL AND job_title IS NULL`,
      [k.department, k.jobTitle, sid(TAG.user, k.n)],
    )
  return changed
}

/** A fresh invite link for scale-colleague (older unused ones are voided), like `npm run seed`. */
async function colleagueInviteLink() {
  const assignmentId = knownAssignment(1, 6)
  return getDb().transaction(async (tx) => {
    await tx
      .update(actionCodes)
      .set({ usedAt: new Date() })
      .where(
        and(
          eq(actionCodes.kind, 'colleague_invite'),
          eq(actionCodes.assignmentId, assignmentId),
          isNull(actionCodes.usedAt),
        ),
      )
    const [scheme] = await tx.query.schemes.findMany({ where: (s, { eq }) => eq(s.id, KNOWN_SCHEME) })
    const { code } = await createActionCode(tx, {
      kind: 'colleague_invite',
      userId: sid(TAG.user, KNOWN.colleague.n),
      assignmentId,
      expiresAt: scheme!.closesAt,
    })
    return actionLink('colleague_invite', code)
  })
}

// ---------------------------------------------------------------------------------------------
// Run

/**
 * The generated rows refer only to rows generated before them, so the per-row foreign-key checks
 * (a locking read of the referenced row for each of 10 M answers) are skipped where the role may
 * (session_replication_role needs a superuser); otherwise they run, and the seed is slower.
 */
async function skipForeignKeyChecks(client: pg.PoolClient): Promise<string> {
  try {
    await client.query('SET session_replication_role = replica')
    return 'skipped (the rows are generated consistent)'
  } catch {
    return 'on (this role may not skip them: slower)'
  }
}

/**
 * Runs a bulk step inside one transaction with the table's secondary indexes dropped, then builds
 * them again from the definitions the catalogue gave (primary keys and constraint indexes stay).
 */
async function withIndexesRebuilt(client: pg.PoolClient, step: Step, note: Note) {
  await client.query('BEGIN')
  try {
    const { rows: indexes } = await client.query<{ name: string; def: string }>(
      `SELECT c.relname AS name, pg_get_indexdef(i.indexrelid) AS def
       FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
       WHERE i.indrelid = $1::regclass AND NOT i.indisprimary
         AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = i.indexrelid)`,
      [step.table],
    )
    for (const index of indexes) await client.query(`DROP INDEX "${index.name}"`)
    const made = await step.run(client, note)
    const t = performance.now()
    for (const index of indexes) await client.query(index.def)
    note(`${step.table}: ${indexes.length} indexes built`, null, t)
    await client.query('COMMIT')
    return made
  } catch (error) {
    await client.query('ROLLBACK')
    throw error
  }
}

/** The seed's report goes to stdout (console.log is kept out of the code base by the linter). */
const print = (line = '') => process.stdout.write(`${line}\n`)

const seconds = (since: number) => ((performance.now() - since) / 1000).toFixed(1)
const fmt = (n: number) => n.toLocaleString('en-GB')

async function main() {
  const url = process.env.DATABASE_URL
  if (!url) {
    console.error(
      'seed:scale needs Postgres: set DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/bench_big).\n' +
        'The embedded PGlite database is not meant for 10 million rows, so it is never used here.',
    )
    process.exit(2)
  }
  const started = performance.now()
  const handle = await openDatabase({ url, applicationName: 'panorama-seed-scale' })
  await runMigrations(handle)
  const clients: pg.PoolClient[] = []
  /** A connection set up for bulk work (settings and helper functions live in its session). */
  const connect = async () => {
    const client = await handle.pool!.connect()
    clients.push(client)
    // No per-statement timeout and no wait for the WAL flush at each commit. JIT is off because
    // generate_series makes the planner expect huge row counts, and compiling the plan then takes
    // longer than running it.
    await client.query(
      `SET statement_timeout = 0; SET synchronous_commit = off; SET work_mem = '256MB';
       SET maintenance_work_mem = '1GB'; SET jit = off`,
    )
    const checks = await skipForeignKeyChecks(client)
    await client.query(HELPERS)
    return { client, checks }
  }
  try {
    const { client, checks } = await connect()
    print(
      `seed:scale on ${new URL(url).pathname.slice(1)}: ${fmt(EMPLOYEES)} employees, ${COMPANIES} companies, ` +
        `${fmt(SCHEMES)} schemes (scale ${F}); foreign-key checks ${checks}`,
    )
    const passwordHash = await hashPassword(PASSWORD)
    let inserted = 0
    const found = async (step: Step, on: pg.PoolClient) => {
      const lo = `'${sid(step.tag, step.from ?? 0)}'`
      const hi = step.to === undefined ? `'${MAX_ID(step.tag)}'` : `'${sid(step.tag, step.to)}'`
      const key = step.table === 'scheme_members' ? 'scheme_id' : 'id'
      const { rows } = await on.query(
        `SELECT EXISTS (SELECT 1 FROM ${step.table} WHERE ${key} BETWEEN ${lo} AND ${hi}) AS found`,
      )
      return Boolean(rows[0].found)
    }
    const note: Note = (what, rows, since) =>
      print(
        `  ${what.padEnd(32)} ${rows === null ? ''.padStart(12) : fmt(rows).padStart(12)}${rows === null ? '      ' : ' rows '} ${seconds(since).padStart(6)} s`,
      )
    const run = async (step: Step, on: pg.PoolClient) => {
      if (await found(step, on)) {
        print(`  ${step.name.padEnd(32)} found`)
        return
      }
      const t = performance.now()
      const made = step.bulk ? await withIndexesRebuilt(on, step, note) : await step.run(on, note)
      inserted += made
      note(step.name, made, t)
    }
    const all = steps(passwordHash)
    for (const step of all.filter((s) => !s.lane)) await run(step, client)
    // The big tables that depend only on what exists by now, on two connections (two cores).
    const second = (await connect()).client
    const before = inserted
    const t = performance.now()
    await Promise.all(
      (['a', 'b'] as const).map(async (lane, i) => {
        for (const step of all.filter((s) => s.lane === lane)) await run(step, i === 0 ? client : second)
      }),
    )
    if (inserted > before) note('answers, e-mails, audit rows', null, t)
    await resetKnownAccounts(passwordHash)
    {
      const t = performance.now()
      const filled = await fillDepartments(client)
      if (filled) {
        inserted += filled
        note('departments and job titles', filled, t)
      }
    }
    await releaseKnownReport()
    const link = await colleagueInviteLink()

    {
      // The admin counts (ADR 010) are kept by triggers, which the bulk steps skip (replica role):
      // count again from the tables. Every run, so that a run stopped after its inserts is mended.
      const t = performance.now()
      await client.query('SELECT tally_recount()')
      print(`  ${'admin counts recounted'.padEnd(32)} ${''.padStart(12)}       ${seconds(t).padStart(6)} s`)
    }
    if (inserted > 0 || process.argv.includes('--vacuum')) {
      // Autovacuum may be off: without statistics the planner would guess on the biggest tables.
      const t = performance.now()
      await client.query('VACUUM ANALYZE')
      print(`  ${'VACUUM ANALYZE'.padEnd(32)} ${''.padStart(12)}       ${seconds(t).padStart(6)} s`)
    }

    const tables: Array<[string, string]> = [
      ['brands', 'brands'],
      ['companies', 'companies'],
      ['users', 'users'],
      ['  employees', "users WHERE role = 'employee'"],
      ['schemes', 'schemes'],
      ['scheme_members', 'scheme_members'],
      ['assignments', 'assignments'],
      ['  submitted', "assignments WHERE status = 'submitted'"],
      ['responses', 'responses'],
      ['answers', 'answers'],
      ['email_outbox', 'email_outbox'],
      ['audit_log', 'audit_log'],
    ]
    const counts = await client.query(
      tables
        .map(([label, from], i) => `SELECT ${i} AS i, '${label}' AS t, count(*) FROM ${from}`)
        .join(' UNION ALL ') + ' ORDER BY i',
    )
    const size = await client.query(`SELECT pg_size_pretty(pg_database_size(current_database())) AS size`)
    print(`\nIn the database now (${size.rows[0].size}):`)
    for (const row of counts.rows)
      print(`  ${String(row.t).padEnd(24)} ${fmt(Number(row.count)).padStart(12)}`)
    print(`\n${inserted ? `Inserted ${fmt(inserted)} rows` : 'Nothing to add'} in ${seconds(started)} s.`)
    print(`\nKnown accounts (password: ${PASSWORD}):`)
    print('  admin     scale-admin@panorama.test')
    print(
      '  employee  scale-employee@panorama.test   (report with five colleagues; a second scheme in progress)',
    )
    print('  employee  scale-newcomer@panorama.test   (enrolled, has not started)')
    print(`colleague invite (scale-colleague@panorama.test): ${link}`)
  } finally {
    for (const c of clients) c.release()
    await closeDatabase()
  }
}

await main().catch(async (error) => {
  console.error(error)
  await closeDatabase().catch(() => {})
  process.exit(1)
})
