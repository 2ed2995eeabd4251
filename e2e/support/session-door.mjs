// Test-only: loaded into the browser suite's server process with `node --import` (never by the app).
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

const door = http.createServer((req, res) => {
  const email = new URL(req.url ?? '/', 'http://door').searchParams.get('email') ?? ''
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
