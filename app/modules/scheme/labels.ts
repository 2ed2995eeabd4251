import type { SchemePhase } from './state'

/**
 * A scheme's phase in words. Kept apart from the schemas so that a page showing a badge (the
 * employee's home) does not load Zod with them.
 */
export const PHASE_LABELS: Record<SchemePhase, string> = {
  draft: 'Draft',
  upcoming: 'Launched, not open yet',
  open: 'Open',
  closed: 'Closed',
}
