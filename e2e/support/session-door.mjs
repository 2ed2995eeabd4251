// Test-only: loaded into the browser suite's server process with `node --import` (never by the app).
// It also makes the nomination spec's fresh world (`/nomination-world?run=…`, below).
// Specs sign in by having a session row made for the user and setting its cookie on the browser
// context (epic-stack's `tests/playwright-utils.ts` pattern), not through the form. The row has to be
// written inside the server process: the embedded database allows one process per data folder, so
// the Playwright process cannot write to it itself. The door listens on a free port of 127.0.0.1 and
// writes the port to E2E_SESSION_DOOR_FILE.
import crypto from 'node:crypto'
import fs from 'node:fs'
import http from 'node:http'
import { encodeBase32LowerCaseNoPadding } from '@oslojs/encoding'

const DB_KEY = Symbol.for('panorama.db') // db/client keeps the process's one handle there
const DAY = 24 * 60 * 60 * 1000

/** One half of a session token, as app/modules/auth/session.server.ts makes it. */
const randomPart = () => encodeBase32LowerCaseNoPadding(crypto.randomBytes(20))

async function query(text, params) {
  const handle = globalThis[DB_KEY]
  if (!handle) throw new Error('the database is not open yet')
  const result = handle.pglite
    ? await handle.pglite.query(text, params)
    : await handle.pool.query(text, params)
  return result.rows
}

/** A session for the user with this address, made as createSession makes one: returns the token. */
async function createSessionFor(email) {
  const [user] = await query('SELECT id FROM users WHERE lower(email) = lower($1)', [email])
  if (!user) return null
  const id = randomPart()
  const secret = randomPart()
  const secretHash = crypto.createHash('sha256').update(secret, 'utf8').digest('hex')
  const now = new Date()
  await query(
    `INSERT INTO sessions (id, secret_hash, user_id, created_at, expires_at, last_seen_at, ip, user_agent)
     VALUES ($1, $2, $3, $4, $5, $4, '127.0.0.1', 'playwright')`,
    [id, secretHash, user.id, now, new Date(now.getTime() + 30 * DAY)],
  )
  return `${id}.${secret}`
}

/**
 * A fresh world for the nomination spec (e2e/nominations.spec.ts), written here for the same reason
 * as the sessions: a company of the demo brand, a manager and an employee reporting to them, and an
 * open scheme on the demo questionnaire whose lists are approved by the manager (peers ≥ 3,
 * manager ≥ 1), with the employee enrolled. Nothing of the demo seed is changed.
 */
async function nominationWorld(run) {
  if (!/^[a-z0-9]{1,20}$/.test(run)) throw new Error('run must be a short [a-z0-9] word')
  const [acme] = await query(`SELECT brand_id FROM companies WHERE name = 'Acme Ltd'`)
  const [questionnaire] = await query(
    `SELECT id FROM questionnaires WHERE title = 'Leadership 360' AND status = 'published' ORDER BY created_at LIMIT 1`,
  )
  if (!acme || !questionnaire) throw new Error('the demo seed is not there')
  const [company] = await query(`INSERT INTO companies (name, brand_id) VALUES ($1, $2) RETURNING id`, [
    `Nomination Works ${run}`,
    acme.brand_id,
  ])
  const person = async (name, email, managerId) =>
    (
      await query(
        `INSERT INTO users (email, email_verified_at, display_name, role, company_id, manager_id, job_title)
         VALUES ($1, now(), $2, 'employee', $3, $4, $5) RETURNING id`,
        [email, name, company.id, managerId, managerId ? 'Analyst' : 'Team lead'],
      )
    )[0]
  const manager = { name: 'Mira Manager', email: `mira.${run}@example.test` }
  const employee = { name: 'Nico Nominee', email: `nico.${run}@example.test` }
  const managerRow = await person(manager.name, manager.email, null)
  const employeeRow = await person(employee.name, employee.email, managerRow.id)
  // A colleague in the same company, found through the directory's type-ahead.
  await person('Ada Peer', `ada.${run}@example.test`, managerRow.id)
  const now = Date.now()
  const [scheme] = await query(
    `INSERT INTO schemes (name, company_id, questionnaire_id, opens_at, closes_at, time_zone, status,
       min_raters, min_manager, min_peer, nomination_chooser, nomination_approval)
     VALUES ($1, $2, $3, $4, $5, 'Europe/London', 'open', 3, 1, 3, 'employee', 'manager') RETURNING id, closes_at`,
    [
      `Nominated 360 ${run}`,
      company.id,
      questionnaire.id,
      new Date(now - 60 * 60 * 1000),
      new Date(now + 30 * DAY),
    ],
  )
  await query(`INSERT INTO scheme_members (scheme_id, employee_id) VALUES ($1, $2)`, [
    scheme.id,
    employeeRow.id,
  ])
  await query(
    `INSERT INTO assignments (scheme_id, questionnaire_id, subject_id, respondent_id, relationship, due_at)
     VALUES ($1, $2, $3, $3, 'self', $4)`,
    [scheme.id, questionnaire.id, employeeRow.id, scheme.closes_at],
  )
  return { schemeId: scheme.id, employeeId: employeeRow.id, manager, employee }
}

/**
 * A German-speaking world for e2e/answering-german.spec.ts (issue 20 §3): a brand whose default
 * language is German, a company of it whose staff sign in through their organisation's provider (the
 * spec sets the provider up, for the company's own domain), an employee with no language of their own
 * (so the brand's German applies), and an open programme on the demo questionnaire offering English
 * and German, with the employee's self-assessment. Nothing of the demo seed is changed.
 */
async function germanWorld(run) {
  if (!/^[a-z0-9]{1,20}$/.test(run)) throw new Error('run must be a short [a-z0-9] word')
  const [questionnaire] = await query(
    `SELECT id FROM questionnaires WHERE title = 'Leadership 360' AND status = 'published' ORDER BY created_at LIMIT 1`,
  )
  if (!questionnaire) throw new Error('the demo seed is not there')
  const [brand] = await query(`INSERT INTO brands (name, default_language) VALUES ($1, 'de') RETURNING id`, [
    `Nordlicht ${run}`,
  ])
  const companyName = `Nordlicht GmbH ${run}`
  const [company] = await query(`INSERT INTO companies (name, brand_id) VALUES ($1, $2) RETURNING id`, [
    companyName,
    brand.id,
  ])
  const domain = `nordlicht-${run}.test`
  const employee = { name: 'Greta Gruber', email: `greta@${domain}` }
  const [user] = await query(
    `INSERT INTO users (email, email_verified_at, display_name, role, company_id, job_title)
     VALUES ($1, now(), $2, 'employee', $3, 'Teamleiterin') RETURNING id`,
    [employee.email, employee.name, company.id],
  )
  const now = Date.now()
  const [scheme] = await query(
    `INSERT INTO schemes (name, company_id, questionnaire_id, opens_at, closes_at, time_zone, status, languages)
     VALUES ($1, $2, $3, $4, $5, 'Europe/Berlin', 'open', ARRAY['en', 'de']::text[]) RETURNING id, closes_at`,
    [
      `Führungsprogramm ${run}`,
      company.id,
      questionnaire.id,
      new Date(now - 60 * 60 * 1000),
      new Date(now + 30 * DAY),
    ],
  )
  await query(`INSERT INTO scheme_members (scheme_id, employee_id) VALUES ($1, $2)`, [scheme.id, user.id])
  const [assignment] = await query(
    `INSERT INTO assignments (scheme_id, questionnaire_id, subject_id, respondent_id, relationship, due_at)
     VALUES ($1, $2, $3, $3, 'self', $4) RETURNING id`,
    [scheme.id, questionnaire.id, user.id, scheme.closes_at],
  )
  return { companyName, domain, employee, questionnaireId: questionnaire.id, assignmentId: assignment.id }
}

/**
 * An admin of their own for the second-factor spec (e2e/admin-second-factor.spec.ts), signing in with
 * the seed's password: that journey types the password, and sets up an authenticator, which the
 * demo's admin must never get (other specs and the demo sign in as them).
 */
async function adminWithPassword(run) {
  if (!/^[a-z0-9]{1,20}$/.test(run)) throw new Error('run must be a short [a-z0-9] word')
  const { hash } = await import('@node-rs/argon2')
  const email = `admin.${run}@example.test`
  await query(
    `INSERT INTO users (email, email_verified_at, display_name, role, password_hash)
     VALUES ($1, now(), $2, 'admin', $3)`,
    [email, `Tess Two-Factor ${run}`, await hash(process.env.SEED_PASSWORD || 'panorama-demo')],
  )
  return { email }
}

const door = http.createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://door')
  if (url.pathname === '/admin-with-password') {
    adminWithPassword(url.searchParams.get('run') ?? '').then(
      (admin) => {
        res.setHeader('Content-Type', 'application/json')
        res.end(JSON.stringify(admin))
      },
      (error) => {
        res.statusCode = 500
        res.end(String(error?.stack ?? error))
      },
    )
    return
  }
  if (url.pathname === '/nomination-world' || url.pathname === '/german-world') {
    const make = url.pathname === '/german-world' ? germanWorld : nominationWorld
    make(url.searchParams.get('run') ?? '').then(
      (world) => {
        res.setHeader('Content-Type', 'application/json')
        res.end(JSON.stringify(world))
      },
      (error) => {
        res.statusCode = 500
        res.end(String(error?.stack ?? error))
      },
    )
    return
  }
  const email = url.searchParams.get('email') ?? ''
  createSessionFor(email).then(
    (token) => {
      res.statusCode = token ? 200 : 404
      res.setHeader('Content-Type', 'application/json')
      res.end(JSON.stringify(token ? { token } : { error: `no user ${email}` }))
    },
    (error) => {
      res.statusCode = 500
      res.end(String(error?.stack ?? error))
    },
  )
})
door.listen(0, '127.0.0.1', () => {
  if (process.env.E2E_SESSION_DOOR_FILE)
    fs.writeFileSync(process.env.E2E_SESSION_DOOR_FILE, String(door.address().port))
})
// The door alone must not keep the server alive after SIGTERM.
door.unref()
