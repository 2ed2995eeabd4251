import crypto from 'node:crypto'
import { sql, type SQL } from 'drizzle-orm'
import { getDb, queryRows, type Tx } from '#db/client'
import type { ErasureRaterAnswers } from '#db/enums'
import { isUuid } from '#app/lib/ids'
import { ok, refuse, refuseField, refuseNotFound, type Actor, type Outcome } from '#app/lib/outcome'
import { recordAudit } from '#app/modules/audit/audit.server'
import { storeReleasedFigures } from '#app/modules/report/released-figures.server'
import { threshold } from '#app/modules/report/threshold'

/**
 * Erasing a person (issue 21 §4, ADR 056): an administrator's irreversible act, in one transaction.
 * The account stays as a placeholder that names no one (so the anonymous answers kept inside
 * released reports still have a respondent, and foreign keys hold), everything that let it sign in
 * goes, their own self-assessments and reports go, and the answers they gave about others are
 * deleted or kept anonymous as each scheme's company says (companies.erasure_rater_answers).
 */

/** What the placeholder account is called on every page that still lists it. */
export const ERASED_NAME = 'Erased person'
/** What stands where an earlier record (an audit entry, a sent e-mail) held their phone number. */
export const ERASED_PHONE = 'erased'

export const ERASURE_MESSAGES = {
  wrongEmail:
    'The address you typed is not this person’s. Type their e-mail address exactly as shown to erase them.',
  alreadyErased: 'This person has already been erased. There is nothing left to erase.',
} as const

export type ErasureSummary = {
  sessionsEnded: number
  /** Reports about them (self-assessments and colleague answers about them) removed. */
  assignmentsRemoved: number
  /** Answers they gave about others: kept anonymous inside released reports, or deleted. */
  raterAnswersKept: number
  raterAnswersDeleted: number
  /** Other people's released reports that lost their colleague figures (`delete` only, ADR 056). */
  releasesWithdrawn: number
  /** Other people's released reports whose figures were computed again without them. */
  releasesRecomputed: number
}

/** `s` as a literal inside a Postgres regular expression (ARE). */
function regexLiteral(s: string) {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

/** A whole-word pattern where the value starts or ends with a word character. */
function wordPattern(s: string) {
  return `${/^\w/u.test(s) ? '\\m' : ''}${regexLiteral(s)}${/\w$/u.test(s) ? '\\M' : ''}`
}

function htmlEscaped(s: string) {
  return s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;')
}

/** An address, not the tail or head of a longer one ("bob-alice@x" is not "alice@x"). */
function addressPattern(s: string) {
  return `(?<![[:alnum:]._%+-])${regexLiteral(s)}(?![[:alnum:]_-]|\\.[[:alnum:]])`
}

/** One alternation of every way a value is written: as is, inside JSON text, HTML-escaped. */
function alternation(values: readonly string[], pattern: (s: string) => string): string | null {
  const forms = new Set<string>()
  for (const value of values) {
    if (!value.trim()) continue
    forms.add(pattern(value))
    forms.add(pattern(JSON.stringify(value).slice(1, -1)))
    forms.add(pattern(htmlEscaped(value)))
  }
  return forms.size ? `(${[...forms].join('|')})` : null
}

/** `lower(column)` is one of the addresses. */
function isOneOf(column: SQL, emails: readonly string[]) {
  return sql`lower(${column}) IN (${sql.join(
    emails.map((e) => sql`${e}`),
    sql`, `,
  )})`
}

export type Person = {
  id: string
  email: string
  display_name: string
  phone: string | null
  photo_file_id: string | null
  erased_at: string | null
}

async function lockPerson(tx: Tx, id: string): Promise<Person | null> {
  const [row] = await queryRows<Person>(
    tx,
    sql`SELECT id, email, display_name, phone, photo_file_id, erased_at FROM users
        WHERE id = ${id}::uuid AND role IN ('employee', 'colleague') FOR UPDATE`,
  )
  return row ?? null
}

const count = async (tx: Tx, statement: SQL) =>
  Number((await queryRows<{ n: number }>(tx, statement))[0]?.n ?? 0)

/**
 * Erases an employee or a colleague account. `typedEmail` is the confirmation: their address typed
 * by the administrator. Administrators are not erased here (404, like any id that is not a person
 * this page handles); a second erasure is refused in words.
 */
export async function erasePerson(
  actor: Actor,
  id: string,
  typedEmail: string,
): Promise<Outcome<ErasureSummary>> {
  if (!isUuid(id)) return refuseNotFound()
  return getDb().transaction(async (tx): Promise<Outcome<ErasureSummary>> => {
    const person = await lockPerson(tx, id)
    if (!person) return refuseNotFound()
    if (person.erased_at) return refuse(ERASURE_MESSAGES.alreadyErased)
    if (typedEmail.trim().toLowerCase() !== person.email)
      return refuseField('confirmEmail', ERASURE_MESSAGES.wrongEmail)
    return ok(await eraseLockedPerson(tx, actor, person))
  })
}

/**
 * Erases one person who is not erased yet, in the caller's transaction: the whole of ADR 056.
 * `erasePerson` (an administrator, after a confirmation) and retention (issue 21 §3, ADR 058: an
 * account never activated or disabled for the company's period, `actor` null with `by`) share it,
 * so "delete an account" means the same in both.
 */
export async function eraseLockedPerson(
  tx: Tx,
  actor: Actor | null,
  person: Person,
  auditDetails: Record<string, unknown> = {},
  /**
   * Where the e-mails and audit entries that name them are looked for: `everywhere` reads every
   * message and entry for their name and address (a sequential scan of each: an administrator's
   * rare act); `indexed` only those addressed to them or about their account, reports and answers,
   * and the entries they made — found through indexes, for retention erasing accounts in bulk
   * (ADR 058), where free text elsewhere that names them is left to the audit period.
   */
  scope: 'everywhere' | 'indexed' = 'everywhere',
): Promise<ErasureSummary> {
  {
    const id = person.id
    // The names, addresses and phone numbers they had: now, and any the audit trail remembers.
    const former = await queryRows<{ kind: 'name' | 'email' | 'phone'; value: string }>(
      tx,
      sql`SELECT DISTINCT x.kind, x.v AS value FROM audit_log a,
            LATERAL (VALUES ('name', a.details->>'name'), ('email', a.details->>'email'),
              ('phone', a.details->>'phone'),
              ('name', a.details#>>'{changes,name,from}'), ('name', a.details#>>'{changes,name,to}'),
              ('email', a.details#>>'{changes,email,from}'), ('email', a.details#>>'{changes,email,to}'),
              ('phone', a.details#>>'{changes,phone,from}'), ('phone', a.details#>>'{changes,phone,to}')) x(kind, v)
          WHERE a.entity = 'user' AND a.entity_id = ${id} AND x.v IS NOT NULL AND btrim(x.v) <> ''`,
    )
    const formerOf = (kind: 'name' | 'email' | 'phone') =>
      former.filter((f) => f.kind === kind).map((f) => f.value)
    const emails = [...new Set([person.email, ...formerOf('email').map((e) => e.trim().toLowerCase())])]
    const names = [person.display_name, ...formerOf('name')]
    const phones = [...(person.phone ? [person.phone] : []), ...formerOf('phone')]
    const placeholder = `erased-${crypto.randomUUID()}@invalid`
    const emailPattern = alternation(emails, addressPattern)!
    const replacements: Replacement[] = [
      [emailPattern, placeholder],
      [alternation(names, wordPattern), ERASED_NAME],
      [alternation(phones, wordPattern), ERASED_PHONE],
    ].filter((r): r is Replacement => r[0] !== null)
    const mentions = replacements.map((r) => r[0]).join('|')

    // 1. Their own reports: every assignment about them (self-assessments, colleague answers about
    //    them, invitations never answered), their releases and their memberships (lists of raters,
    //    plans, shares go with these by cascade).
    const aboutThem = await queryRows<{ id: string }>(
      tx,
      sql`SELECT id FROM assignments WHERE subject_id = ${id}::uuid`,
    )
    const aboutIds = aboutThem.map((a) => a.id)
    await tx.execute(sql`DELETE FROM report_releases WHERE subject_id = ${id}::uuid`)
    await tx.execute(sql`DELETE FROM assignments WHERE subject_id = ${id}::uuid`)
    await tx.execute(sql`DELETE FROM scheme_members WHERE employee_id = ${id}::uuid`)

    // 2. The answers they gave about others, each as its scheme's company decides.
    const given = await queryRows<{
      assignment_id: string
      response_id: string | null
      mode: ErasureRaterAnswers
      released: boolean
    }>(
      tx,
      sql`SELECT a.id AS assignment_id, r.id AS response_id, c.erasure_rater_answers AS mode,
            (r.id IS NOT NULL AND EXISTS (
              SELECT 1 FROM report_release_responses x WHERE x.source_response_id = r.id)) AS released
          FROM assignments a
          JOIN schemes s ON s.id = a.scheme_id
          JOIN companies c ON c.id = s.company_id
          LEFT JOIN responses r ON r.assignment_id = a.id
          WHERE a.respondent_id = ${id}::uuid AND a.relationship <> 'self'`,
    )
    const kept = given.filter((g) => g.mode === 'keep_anonymous' && g.released)
    const dropped = given.filter((g) => !(g.mode === 'keep_anonymous' && g.released))
    const droppedIds = dropped.map((g) => g.assignment_id)
    const withdrawnCopies = dropped.filter((g) => g.released).map((g) => g.response_id!)
    if (kept.length)
      // Kept: tied to the placeholder account, without the name the subject gave them or their
      // words asking for a reopen.
      await tx.execute(
        sql`UPDATE assignments SET respondent_name = NULL
            WHERE id = ANY(${`{${kept.map((g) => g.assignment_id).join(',')}}`}::uuid[])`,
      )
    if (kept.length)
      await tx.execute(
        sql`UPDATE responses SET reopen_request_note = NULL, reopen_requested_at = NULL
            WHERE assignment_id = ANY(${`{${kept.map((g) => g.assignment_id).join(',')}}`}::uuid[])`,
      )
    const releaseChanges = await withdrawCopies(tx, withdrawnCopies)
    if (droppedIds.length)
      await tx.execute(sql`DELETE FROM assignments WHERE id = ANY(${`{${droppedIds.join(',')}}`}::uuid[])`)

    // 3. Everything that let the account act: sessions, second-factor state, provider links,
    //    one-time codes, rate-limit counters keyed by its address.
    const sessionsEnded = await count(
      tx,
      sql`WITH gone AS (DELETE FROM sessions WHERE user_id = ${id}::uuid RETURNING 1) SELECT count(*)::int AS n FROM gone`,
    )
    await tx.execute(sql`DELETE FROM second_factor_challenges WHERE user_id = ${id}::uuid`)
    await tx.execute(sql`DELETE FROM totp_credentials WHERE user_id = ${id}::uuid`)
    await tx.execute(sql`DELETE FROM recovery_codes WHERE user_id = ${id}::uuid`)
    await tx.execute(sql`DELETE FROM user_identities WHERE user_id = ${id}::uuid`)
    await tx.execute(
      sql`DELETE FROM action_codes WHERE user_id = ${id}::uuid OR ${isOneOf(sql`email`, emails)}`,
    )
    // Keys end with what they count: `forgot:account:<address>`, `activation-resend:employee:<id>`.
    await tx.execute(
      sql`DELETE FROM rate_limits WHERE ${isOneOf(sql`substring(key from '[^:]*$')`, [...emails, id])}`,
    )

    // 4. Where others' records name them: others' lists of raters, managers' report shares, the
    //    reporting lines, import rows.
    await tx.execute(sql`DELETE FROM nominees WHERE ${isOneOf(sql`email`, emails)}`)
    await tx.execute(sql`DELETE FROM report_shares WHERE manager_id = ${id}::uuid`)
    await tx.execute(sql`UPDATE users SET manager_id = NULL WHERE manager_id = ${id}::uuid`)
    await tx.execute(sql`DELETE FROM employee_import_rows WHERE ${isOneOf(sql`btrim(email)`, emails)}`)
    await tx.execute(
      sql`UPDATE employee_import_rows SET manager_email = '' WHERE ${isOneOf(sql`btrim(manager_email)`, emails)}`,
    )

    // 5. The account itself: a placeholder that names no one and cannot sign in.
    await tx.execute(
      sql`UPDATE users SET email = ${placeholder}, display_name = ${ERASED_NAME}, phone = NULL,
            photo_file_id = NULL, password_hash = NULL, email_verified_at = NULL, language = NULL,
            manager_id = NULL, department = NULL, job_title = NULL,
            disabled_at = coalesce(disabled_at, now()), erased_at = now(), updated_at = now()
          WHERE id = ${id}::uuid`,
    )
    await tx.execute(
      sql`DELETE FROM files WHERE (id = ${person.photo_file_id}::uuid OR owner_id = ${id}::uuid)
            AND NOT EXISTS (SELECT 1 FROM brands b WHERE b.logo_file_id = files.id)
            AND NOT EXISTS (SELECT 1 FROM users u WHERE u.photo_file_id = files.id)`,
    )

    // 6. E-mail: what is still queued to them or about their reports is dropped; what was sent is
    //    kept for the outbox view, addressed to the placeholder, their name and address replaced.
    await tx.execute(
      sql`DELETE FROM email_outbox WHERE status = 'queued' AND (${scope === 'everywhere' ? isOneOf(sql`recipient`, emails) : sql`recipient = ANY(${`{${emails.map((e) => JSON.stringify(e)).join(',')}}`}::text[])`}
            OR (entity = 'user' AND entity_id = ${id}::uuid)
            ${aboutIds.length ? sql`OR (entity = 'assignment' AND entity_id = ANY(${`{${aboutIds.join(',')}}`}::uuid[]))` : sql``}
            ${droppedIds.length ? sql`OR (entity = 'assignment' AND entity_id = ANY(${`{${droppedIds.join(',')}}`}::uuid[]))` : sql``})`,
    )
    const theirAssignments = [...aboutIds, ...droppedIds]
    const messages =
      scope === 'everywhere'
        ? sql`recipient ~* ${mentions} OR subject ~* ${mentions} OR html ~* ${mentions} OR text ~* ${mentions}`
        : sql`recipient = ANY(${`{${emails.map((e) => JSON.stringify(e)).join(',')}}`}::text[])
            OR (entity = 'user' AND entity_id = ${id}::uuid)
            ${theirAssignments.length ? sql`OR (entity = 'assignment' AND entity_id = ANY(${`{${theirAssignments.join(',')}}`}::uuid[]))` : sql``}`
    await tx.execute(
      sql`UPDATE email_outbox SET
            recipient = CASE WHEN recipient ~* ${emailPattern} THEN ${placeholder} ELSE recipient END,
            subject = ${pseudonymised(sql`subject`, replacements)},
            html = ${pseudonymised(sql`html`, replacements)},
            text = ${pseudonymised(sql`text`, replacements)}
          WHERE ${messages}`,
    )

    // 7. The audit trail keeps what happened, not who it happened to: earlier entries' details
    //    that name them are pseudonymised, and the addresses they acted from forgotten.
    const entries =
      scope === 'everywhere'
        ? sql`details::text ~* ${mentions}`
        : sql`(entity = 'user' AND entity_id = ${id}) OR actor_id = ${id}::uuid
            ${theirAssignments.length ? sql`OR (entity = 'assignment' AND entity_id = ANY(${`{${theirAssignments.join(',')}}`}::text[]))` : sql``}`
    await tx.execute(
      sql`UPDATE audit_log SET details = (${pseudonymised(sql`details::text`, replacements)})::jsonb
          WHERE ${entries}`,
    )
    await tx.execute(sql`UPDATE audit_log SET ip = NULL WHERE actor_id = ${id}::uuid`)

    const summary: ErasureSummary = {
      sessionsEnded,
      assignmentsRemoved: aboutIds.length,
      raterAnswersKept: kept.length,
      raterAnswersDeleted: dropped.length,
      ...releaseChanges,
    }
    const event = {
      action: 'user.erased',
      entity: 'user',
      entityId: id,
      details: { ...summary, ...auditDetails },
    }
    if (actor) await recordAudit(tx, actor, event)
    else await recordAudit(tx, { ...event, actorId: null })
    return summary
  }
}

/** The person `id` (an employee or a colleague, not erased yet), locked for the caller's transaction. */
export async function lockPersonToErase(tx: Tx, id: string): Promise<Person | null> {
  const person = await lockPerson(tx, id)
  return person && !person.erased_at ? person : null
}

/** A pattern and what replaces what it matches. */
type Replacement = [pattern: string, replacement: string]

/** `column` with every replacement applied, case-insensitively, everywhere it matches. */
function pseudonymised(column: SQL, replacements: readonly Replacement[]): SQL {
  return replacements.reduce<SQL>(
    (value, [pattern, replacement]) => sql`regexp_replace(${value}, ${pattern}, ${replacement}, 'gi')`,
    column,
  )
}

/**
 * `delete` (ADR 056): the released copies of their responses leave the snapshots. A release shown
 * to its employee may then keep its colleague figures only if the rule between releases (ADR 025)
 * would have let it be released like that: it still reaches its threshold, and it differs from
 * what the employee read by at least the threshold of responses. Otherwise the employee could
 * subtract the figures before and after and read the erased person's answers, so the release keeps
 * the self-assessment alone, as a release below its threshold does. Norms and group reports read
 * the releases' stored figures, so they follow.
 */
async function withdrawCopies(
  tx: Tx,
  responseIds: readonly string[],
): Promise<{ releasesWithdrawn: number; releasesRecomputed: number }> {
  if (!responseIds.length) return { releasesWithdrawn: 0, releasesRecomputed: 0 }
  const affected = await queryRows<{
    release_id: string
    removed: number
    remaining: number
    min_raters: number
    colleagues_shown: boolean
    self_response_id: string | null
  }>(
    tx,
    sql`WITH gone AS (
          DELETE FROM report_release_responses
          WHERE source_response_id = ANY(${`{${responseIds.join(',')}}`}::uuid[])
          RETURNING release_id
        ), per_release AS (SELECT release_id, count(*)::int AS removed FROM gone GROUP BY release_id)
        SELECT p.release_id, p.removed,
          ((SELECT count(*) FROM report_release_responses x WHERE x.release_id = p.release_id) - p.removed)::int AS remaining,
          s.min_raters, rr.colleagues_shown,
          (SELECT r.id FROM assignments a JOIN responses r ON r.assignment_id = a.id
            WHERE a.scheme_id = rr.scheme_id AND a.subject_id = rr.subject_id AND a.relationship = 'self') AS self_response_id
        FROM per_release p
        JOIN report_releases rr ON rr.id = p.release_id
        JOIN schemes s ON s.id = rr.scheme_id`,
  )
  // The statement above counted the copies before its own DELETE was visible; `remaining` is exact.
  const keep = affected.filter(
    (r) =>
      r.colleagues_shown &&
      r.self_response_id &&
      r.remaining >= threshold(r.min_raters) &&
      r.removed >= threshold(r.min_raters),
  )
  const withdraw = affected.filter((r) => !keep.includes(r))
  if (withdraw.length)
    await tx.execute(
      sql`UPDATE report_releases SET colleagues_shown = false, groups_shown = false, colleague_figures = NULL
          WHERE id = ANY(${`{${withdraw.map((r) => r.release_id).join(',')}}`}::uuid[])`,
    )
  if (keep.length) {
    await tx.execute(
      sql`UPDATE report_releases SET colleague_figures = NULL
          WHERE id = ANY(${`{${keep.map((r) => r.release_id).join(',')}}`}::uuid[])`,
    )
    await storeReleasedFigures(
      tx,
      keep.map((r) => ({
        releaseId: r.release_id,
        selfResponseId: r.self_response_id!,
        minRaters: r.min_raters,
      })),
    )
  }
  return {
    releasesWithdrawn: withdraw.filter((r) => r.colleagues_shown).length,
    releasesRecomputed: keep.length,
  }
}
