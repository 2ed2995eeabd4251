import { sql } from 'drizzle-orm'
import { queryRows, type Tx } from '#db/client'
import { getEnv } from '#app/config/env.server'
import { formatDate } from '#app/lib/dates'
import { ACTION_CODE_TTL_MS, createActionCodes } from '#app/modules/action-code/action-code.server'
import { actionLink } from '#app/modules/action-code/action-code.server'
import { enqueueEmails, type EnqueueInput } from '#app/modules/email/outbox.server'

/**
 * The e-mail each employee gets when their programme starts (DESIGN.md §7, launch): an activation
 * link when they have no password yet, else "your programme is open" with a link to /user. Exactly
 * one per employee and scheme: `scheme_members.invited_at` records that it was queued, and the
 * UPDATE that sets it is what picks the recipients, so two launches (or a launch and an enrolment)
 * can never both e-mail someone. Written in the caller's transaction; held in the outbox until
 * `opens_at` when that is still ahead.
 */

/** The two templates a programme's start sends, and only these are held, moved or withdrawn here. */
export const PROGRAMME_TEMPLATES = ['activate_account', 'programme_open'] as const
const templateList = sql.raw(PROGRAMME_TEMPLATES.map((t) => `'${t}'`).join(', '))

/** The outbox rows of a scheme's programme e-mails (the `entity` they are filed under). */
export const PROGRAMME_ENTITY = 'scheme'

export type ProgrammeMailResult = { activation: number; programmeOpen: number; heldUntil: Date | null }

type Recipient = { id: string; email: string; displayName: string; needsActivation: boolean }

/** When an activation code sent at `sendAt` stops working. */
const activationExpiry = (sendAt: Date) => new Date(sendAt.getTime() + ACTION_CODE_TTL_MS.activate_account)

/**
 * Queues the programme e-mail of every member of the scheme who has not had one (everyone at
 * launch; afterwards, whoever was enrolled since). Disabled accounts are skipped and keep waiting.
 */
export async function sendProgrammeEmails(
  tx: Tx,
  schemeId: string,
  now = new Date(),
): Promise<ProgrammeMailResult> {
  const [scheme] = await queryRows<{
    name: string
    opensAt: Date | string
    closesAt: Date | string
    timeZone: string
    brandId: string
  }>(
    tx,
    sql`SELECT s.name, s.opens_at AS "opensAt", s.closes_at AS "closesAt", s.time_zone AS "timeZone",
        c.brand_id AS "brandId"
      FROM schemes s JOIN companies c ON c.id = s.company_id
      WHERE s.id = ${schemeId}`,
  )
  if (!scheme) return { activation: 0, programmeOpen: 0, heldUntil: null }
  const recipients = await queryRows<Recipient>(
    tx,
    sql`UPDATE scheme_members m SET invited_at = ${now.toISOString()}::timestamptz
      FROM users u
      WHERE m.scheme_id = ${schemeId} AND m.invited_at IS NULL
        AND u.id = m.employee_id AND u.disabled_at IS NULL
      RETURNING u.id, u.email, u.display_name AS "displayName", (u.password_hash IS NULL) AS "needsActivation"`,
  )
  const opensAt = new Date(scheme.opensAt)
  const held = opensAt.getTime() > now.getTime() ? opensAt : null
  if (!recipients.length) return { activation: 0, programmeOpen: 0, heldUntil: held }

  const sendAt = held ?? now
  const newcomers = recipients.filter((r) => r.needsActivation)
  const expiresAt = activationExpiry(sendAt)
  // The code lives from when the e-mail goes out, not from the launch: a link held for a fortnight
  // would otherwise arrive dead.
  const codes = await createActionCodes(
    tx,
    'activate_account',
    newcomers.map((r) => ({ userId: r.id, expiresAt })),
  )
  const codeOf = new Map(newcomers.map((r, i) => [r.id, codes[i]!]))
  const appUrl = getEnv().APP_URL
  const dueDate = formatDate(new Date(scheme.closesAt), scheme.timeZone)
  const messages: EnqueueInput[] = recipients.map((r) => {
    const name = r.displayName || r.email
    const code = codeOf.get(r.id)
    return {
      to: r.email,
      template: code ? 'activate_account' : 'programme_open',
      brandId: scheme.brandId,
      values: {
        link: code ? actionLink('activate_account', code) : new URL('/user', appUrl).toString(),
        recipientName: name,
        employeeName: name,
        schemeName: scheme.name,
        dueDate,
      },
      // Written in each reader's language (ADR 053).
      dates: { dueDate: { at: new Date(scheme.closesAt), timeZone: scheme.timeZone } },
      entity: PROGRAMME_ENTITY,
      entityId: schemeId,
      linkExpiresAt: code ? expiresAt : null,
      nextAttemptAt: held ?? undefined,
    }
  })
  await enqueueEmails(tx, messages)
  return {
    activation: newcomers.length,
    programmeOpen: recipients.length - newcomers.length,
    heldUntil: held,
  }
}

/**
 * The scheme's opening moved while its e-mails wait: they follow it, and the activation codes in
 * them live from the new sending time (never shortened).
 */
export async function rescheduleProgrammeEmails(tx: Tx, schemeId: string, opensAt: Date, now = new Date()) {
  const sendAt = opensAt.getTime() > now.getTime() ? opensAt : now
  const expiresAt = activationExpiry(sendAt).toISOString()
  await tx.execute(
    sql`UPDATE email_outbox SET next_attempt_at = ${sendAt.toISOString()}::timestamptz,
        link_expires_at = CASE WHEN link_expires_at IS NULL THEN NULL
          ELSE greatest(link_expires_at, ${expiresAt}::timestamptz) END
      WHERE entity = ${PROGRAMME_ENTITY} AND entity_id = ${schemeId} AND status = 'queued'
        AND template_key IN (${templateList})`,
  )
  await tx.execute(
    sql`UPDATE action_codes SET expires_at = ${expiresAt}::timestamptz
      WHERE kind = 'activate_account' AND used_at IS NULL AND expires_at < ${expiresAt}::timestamptz
        AND user_id IN (SELECT employee_id FROM scheme_members WHERE scheme_id = ${schemeId})`,
  )
}

/**
 * Withdraws programme e-mails not sent yet (all of the scheme's, or one recipient's): the scheme
 * closed before it opened, or an enrolment was removed. Their members count as not e-mailed again,
 * so a reopened scheme (or a new enrolment) sends afresh. Answers how many were withdrawn.
 */
export async function withdrawProgrammeEmails(
  tx: Tx,
  schemeId: string,
  reason: string,
  employee?: { id: string; email: string },
): Promise<number> {
  // One statement: the messages withdrawn, and their recipients' memberships marked not e-mailed.
  const reset = await queryRows<{ employeeId: string }>(
    tx,
    sql`WITH withdrawn AS (
        UPDATE email_outbox SET status = 'failed', html = '', text = '', body_erased_at = now(),
          last_error = ${reason}, locked_until = NULL, locked_by = NULL
        WHERE entity = ${PROGRAMME_ENTITY} AND entity_id = ${schemeId} AND status = 'queued'
          AND template_key IN (${templateList})
          ${employee ? sql`AND recipient = ${employee.email}` : sql``}
        RETURNING recipient
      )
      UPDATE scheme_members m SET invited_at = NULL FROM users u
      WHERE m.scheme_id = ${schemeId} AND u.id = m.employee_id
        AND u.email IN (SELECT recipient FROM withdrawn)
      RETURNING m.employee_id AS "employeeId"`,
  )
  return reset.length
}
