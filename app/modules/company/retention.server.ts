import { sql } from 'drizzle-orm'
import { getDb, queryRows } from '#db/client'
import type { RetentionAnswerMode } from '#db/enums'
import { isUuid } from '#app/lib/ids'
import { ok, refuse, type Actor, type Outcome } from '#app/lib/outcome'
import { recordAudit } from '#app/modules/audit/audit.server'
import {
  previewRetention,
  RETENTION_ACCOUNTS_PER_PASS,
  type RetentionCounts,
  type RetentionPolicy,
} from '#app/modules/retention/retention.server'
import { RetentionPageQuerySchema, type CompanyRetentionInput } from './schemas'

/**
 * A company's retention page (issue 21 §3, ADR 058): its settings, what the next pass would remove
 * (the dry run, computed by the worker's own rules at `now`, only when asked: `?dry-run=1`), what
 * the last pass did, and the schemes on legal hold. One statement without the dry run, four with it.
 */

type CompanyRetentionRow = {
  id: string
  name: string
  answersMonths: number | null
  answersMode: RetentionAnswerMode
  accountsMonths: number | null
  auditMonths: number | null
  lastPassAt: Date | string | null
  lastPass: (RetentionCounts & { transactions?: number }) | string | null
  held: { id: string; name: string; at: string; reason: string | null }[] | string | null
}

export async function loadRetentionPage(
  companyId: string | undefined,
  searchParams: URLSearchParams,
  now: Date = new Date(),
) {
  if (!companyId || !isUuid(companyId)) return null
  const query = RetentionPageQuerySchema.parse(Object.fromEntries(searchParams))
  const [row] = await queryRows<CompanyRetentionRow>(
    getDb(),
    sql`SELECT c.id, c.name, c.retention_answers_months AS "answersMonths",
          c.retention_answers_mode AS "answersMode", c.retention_accounts_months AS "accountsMonths",
          c.retention_audit_months AS "auditMonths", c.retention_last_pass_at AS "lastPassAt",
          c.retention_last_pass AS "lastPass",
          (SELECT json_agg(json_build_object('id', s.id, 'name', s.name, 'at', s.legal_hold_at,
              'reason', s.legal_hold_reason) ORDER BY s.legal_hold_at, s.id)
            FROM schemes s WHERE s.company_id = c.id AND s.legal_hold_at IS NOT NULL) AS held
        FROM companies c WHERE c.id = ${companyId}::uuid`,
  )
  if (!row) return null
  const policy: RetentionPolicy = {
    companyId: row.id,
    answersMonths: row.answersMonths,
    answersMode: row.answersMode,
    accountsMonths: row.accountsMonths,
    auditMonths: row.auditMonths,
  }
  const preview = query['dry-run'] ? await previewRetention(policy, now) : null
  const parse = <T>(v: T | string | null): T | null => (typeof v === 'string' ? (JSON.parse(v) as T) : v)
  const lastPass = parse(row.lastPass)
  return {
    company: { id: row.id, name: row.name },
    settings: {
      answersMonths: row.answersMonths,
      answersMode: row.answersMode,
      accountsMonths: row.accountsMonths,
      auditMonths: row.auditMonths,
    },
    /** Whether any period is set: with none the pass leaves the company alone. */
    anySet: row.answersMonths !== null || row.accountsMonths !== null || row.auditMonths !== null,
    preview: preview
      ? {
          schemes: preview.schemes,
          answers: preview.answers,
          snapshots: preview.snapshots,
          accounts: preview.accounts,
          auditEntries: preview.auditEntries,
          dueSchemes: preview.dueSchemes.map((s) => ({ id: s.id, name: s.name, closedAt: s.closedAt })),
          accountsPerPass: RETENTION_ACCOUNTS_PER_PASS,
          at: now.toISOString(),
        }
      : null,
    lastPass: row.lastPassAt
      ? {
          at: new Date(row.lastPassAt).toISOString(),
          schemes: lastPass?.schemes ?? 0,
          answers: lastPass?.answers ?? 0,
          snapshots: lastPass?.snapshots ?? 0,
          accounts: lastPass?.accounts ?? 0,
          auditEntries: lastPass?.auditEntries ?? 0,
        }
      : null,
    held: (parse(row.held) ?? []).map((h) => ({ ...h, at: new Date(h.at).toISOString() })),
  }
}

/** Saves a company's retention settings; audited with what changed. */
export async function updateRetention(
  actor: Actor,
  companyId: string,
  input: CompanyRetentionInput,
): Promise<Outcome<{ name: string; changed: string[] }>> {
  return getDb().transaction(async (tx): Promise<Outcome<{ name: string; changed: string[] }>> => {
    const [current] = await queryRows<{
      name: string
      answersMonths: number | null
      answersMode: RetentionAnswerMode
      accountsMonths: number | null
      auditMonths: number | null
    }>(
      tx,
      sql`SELECT name, retention_answers_months AS "answersMonths", retention_answers_mode AS "answersMode",
            retention_accounts_months AS "accountsMonths", retention_audit_months AS "auditMonths"
          FROM companies WHERE id = ${companyId}::uuid FOR UPDATE`,
    )
    if (!current) return refuse('This company no longer exists.')
    const changes: Record<string, { from: unknown; to: unknown }> = {}
    for (const key of ['answersMonths', 'answersMode', 'accountsMonths', 'auditMonths'] as const)
      if (current[key] !== input[key]) changes[key] = { from: current[key], to: input[key] }
    if (!Object.keys(changes).length) return ok({ name: current.name, changed: [] })
    await tx.execute(
      sql`UPDATE companies SET retention_answers_months = ${input.answersMonths},
            retention_answers_mode = ${input.answersMode}, retention_accounts_months = ${input.accountsMonths},
            retention_audit_months = ${input.auditMonths}, updated_at = now()
          WHERE id = ${companyId}::uuid`,
    )
    await recordAudit(tx, actor, {
      action: 'company.retention',
      entity: 'company',
      entityId: companyId,
      details: { changes },
    })
    return ok({ name: current.name, changed: Object.keys(changes) })
  })
}
