/**
 * The anonymity threshold (ADR 006, 021, 025), owned here and nowhere else: colleagues' answers
 * show — in a report, a group, a question, a release, the home page's progress — only once at least
 * the scheme's `min_raters` colleagues stand behind them. A scheme's value is a whole number from 1
 * to 8 (schemes_min_raters_range); the rule still reads any number as at least one whole colleague,
 * so no caller can open the gate at zero. Client-safe: no server imports.
 */

/** How many colleague answers open the gate. */
export function threshold(minRaters: number): number {
  return Math.max(1, Math.floor(minRaters))
}

/** Enough colleagues stand behind `answered` answers for them to show. */
export function enoughAnswers(answered: number, minRaters: number): boolean {
  return answered >= threshold(minRaters)
}

/** How many more colleague answers the gate needs (0 once open). */
export function answersNeeded(answered: number, minRaters: number): number {
  return Math.max(0, threshold(minRaters) - Math.max(0, Math.floor(answered)))
}
