import { sql } from 'drizzle-orm'
import { queryRows, type Tx } from '#db/client'

/**
 * A scheme that follows an earlier one (issue 19 §5, ADR 044): the second cycle of the same
 * programme. The followed scheme must be another scheme of the same company, whose questionnaire is
 * a version of the same line (so questions match by key), and open before this one (so following
 * never runs in a circle). Checked whenever a scheme is saved with one, in the save's transaction.
 */

export const FOLLOWS_MESSAGES = {
  itself: 'A scheme cannot follow itself. Choose an earlier scheme, or none.',
  gone: 'That scheme no longer exists. Choose another one, or none.',
  otherCompany: (name: string) =>
    `“${name}” is for another company: a scheme can follow only an earlier scheme of the same company.`,
  otherLine: (name: string) =>
    `“${name}” uses another questionnaire: a scheme can follow only one whose questionnaire is a version of this scheme’s, so that its questions can be compared.`,
  notEarlier: (name: string) =>
    `“${name}” does not open before this scheme: a scheme can follow only an earlier one.`,
} as const

export type FollowsCandidate = {
  /** The scheme being saved; null when it is being created. */
  schemeId: string | null
  companyId: string
  questionnaireId: string
  opensAt: Date
  followsSchemeId: string
}

/** Why this scheme cannot follow that one, or null when it can (one statement). */
export async function followsProblem(tx: Tx, input: FollowsCandidate): Promise<string | null> {
  if (input.schemeId && input.schemeId === input.followsSchemeId) return FOLLOWS_MESSAGES.itself
  const [row] = await queryRows<{
    name: string
    company_id: string
    opens_at: Date | string
    lineage_id: string
    own_lineage_id: string | null
  }>(
    tx,
    sql`SELECT s.name, s.company_id, s.opens_at, q.lineage_id,
        (SELECT o.lineage_id FROM questionnaires o WHERE o.id = ${input.questionnaireId}) AS own_lineage_id
      FROM schemes s JOIN questionnaires q ON q.id = s.questionnaire_id
      WHERE s.id = ${input.followsSchemeId}
      FOR SHARE OF s`,
  )
  if (!row) return FOLLOWS_MESSAGES.gone
  if (row.company_id !== input.companyId) return FOLLOWS_MESSAGES.otherCompany(row.name)
  if (row.own_lineage_id !== row.lineage_id) return FOLLOWS_MESSAGES.otherLine(row.name)
  if (new Date(row.opens_at).getTime() >= input.opensAt.getTime())
    return FOLLOWS_MESSAGES.notEarlier(row.name)
  return null
}

/**
 * The "Follows" select's choices, as a UNION ALL branch of the scheme form's one options statement
 * (scheme.server.ts): for a scheme being edited, the earlier schemes of its company whose
 * questionnaire is of its line; for a new scheme (company and questionnaire not chosen yet), every
 * scheme with its company's name, the save checking the rest.
 */
export function followOptionsSql(forSchemeId: string, limit: number) {
  return sql`(SELECT 'follows' AS kind, e.id, e.name AS label
      FROM schemes me
      JOIN questionnaires mq ON mq.id = me.questionnaire_id
      JOIN schemes e ON e.company_id = me.company_id AND e.id <> me.id AND e.opens_at < me.opens_at
      JOIN questionnaires eq ON eq.id = e.questionnaire_id AND eq.lineage_id = mq.lineage_id
      WHERE me.id = ${forSchemeId}
      ORDER BY e.opens_at DESC, e.id LIMIT ${limit})`
}
