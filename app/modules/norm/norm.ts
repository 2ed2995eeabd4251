/**
 * Norms (issue 19 §6, ADR 044): the consultancy-wide average of the colleagues' view per question key
 * and competency of a questionnaire line, across released reports of other companies. Pure: the
 * server's aggregate (norm.server.ts) answers rows; these rules decide what may be shown, and the
 * report (and, later, the group report) call them.
 *
 * Anonymous by construction: a participant's figure is what their own released report showed (the
 * all-colleagues average, already above their scheme's threshold); a norm is the mean of at least
 * `minParticipants` such figures, of companies other than the viewer's (so no client can subtract
 * its own people out), and leaves here rounded to one decimal without its exact count.
 */

export type NormRow = {
  /** A question key, or a competency name. */
  id: string
  /** The mean over participants of their colleagues' average. */
  mean: number
  /** Distinct participants (released reports, once per cycle) behind it. */
  participants: number
}

export type NormFigures = {
  /** Per question key: the norm as shown (one decimal), only where enough participants stand behind it. */
  questions: Record<string, number>
  /** Per competency name. */
  categories: Record<string, number>
}

/** A norm with fewer participants than the minimum is not shown at all. */
export function normShown(participants: number, minParticipants: number): boolean {
  return participants >= Math.max(1, Math.floor(minParticipants))
}

export const oneDecimal = (value: number) => Math.round(value * 10) / 10

/** The rows an aggregate answered → the norms that may be shown, to one decimal. */
export function normFigures(
  rows: { questions: readonly NormRow[]; categories: readonly NormRow[] },
  minParticipants: number,
): NormFigures {
  const pick = (list: readonly NormRow[]) =>
    Object.fromEntries(
      list
        .filter((r) => normShown(Number(r.participants), minParticipants) && Number.isFinite(Number(r.mean)))
        .map((r) => [r.id, oneDecimal(Number(r.mean))]),
    )
  return { questions: pick(rows.questions), categories: pick(rows.categories) }
}

/** The colleagues' figure against the norm, to one decimal (0 is "at the norm"); null: nothing to compare. */
export function normDifference(colleagues: number | null, norm: number | undefined): number | null {
  if (colleagues === null || norm === undefined) return null
  return oneDecimal(oneDecimal(colleagues) - norm)
}

/** "+0.4 above the norm", "0.3 below the norm", "at the norm". */
export function againstNormText(colleagues: number | null, norm: number | undefined): string {
  const difference = normDifference(colleagues, norm)
  if (difference === null || norm === undefined) return '—'
  if (difference === 0) return `${norm.toFixed(1)} · at the norm`
  return `${norm.toFixed(1)} · ${Math.abs(difference).toFixed(1)} ${difference > 0 ? 'above' : 'below'}`
}
