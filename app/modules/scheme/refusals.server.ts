import type { TFunction } from 'i18next'
import { sayOutcome, type Outcome } from '#app/lib/outcome'
import { reasonIn } from '#app/modules/report/release-rule'
import type { ReleaseRefusal } from '#app/modules/report/release.server'

/**
 * The scheme module's refusals that carry a name or a date, in the request's language (ADR 052):
 * the modules answer English sentences (the tests assert them), and the form kit can look up only
 * fixed sentences, so the route maps these here. Every other refusal passes as it is, and the kit
 * translates it from the schemes validation table.
 */
type Mapping = [RegExp, (match: RegExpExecArray) => string]

function mappings(t: TFunction<'scheme-page'>, deadline: () => string): Mapping[] {
  return [
    [
      /^(.+) has started their self-assessment, so their enrolment can no longer be removed\. Their answers stay with the scheme\.$/,
      (m) => t('remove.started', { who: m[1] }),
    ],
    [
      /^(.+) has (\d+) colleague invitations? standing in this scheme\. Revoke (?:it|them) on their behalf first \(“Invite on their behalf”\), then remove the enrolment\.$/,
      (m) => t('remove.invited', { who: m[1], live: Number(m[2]) }),
    ],
    [
      /^“(.+)” has closed\. Reopen it with a new closing time instead\.$/,
      (m) => t('refusal.closedReopen', { name: m[1] }),
    ],
    [
      /^(.+) and their colleagues have answered everything, so there is nobody to remind\.$/,
      (m) => t('refusal.answeredEverything', { name: m[1] }),
    ],
    [
      /^Choose a time after the current deadline \(.+\)\.$/,
      () => t('refusal.afterDeadline', { date: deadline() }),
    ],
  ]
}

/** An outcome with its named refusals in the request's language (unchanged in English). */
export function translateRefusal<T>(
  outcome: Outcome<T>,
  t: TFunction<'scheme-page'>,
  /** The current deadline as the page writes it, for "Choose a time after the current deadline". */
  deadline: () => string,
): Outcome<T> {
  if (outcome.ok) return outcome
  const table = mappings(t, deadline)
  const say = (message: string) => {
    for (const [pattern, write] of table) {
      const match = pattern.exec(message)
      if (match) return write(match)
    }
    return message
  }
  return sayOutcome(outcome, say)
}

/**
 * A release refused by the rule between releases, its reason written in the request's language
 * from the same messages the release panel shows (scheme-page:release.reason.*); any other outcome
 * as it is.
 */
export function translateReleaseRefusal<T>(
  outcome: Outcome<T> | ReleaseRefusal,
  t: TFunction<'scheme-page'>,
): Outcome<T> {
  if (outcome.ok || !('reason' in outcome) || !outcome.reason) return outcome
  const { reason, ...refusal } = outcome
  return {
    ...refusal,
    formErrors: [reasonIn(reason, (key, values) => t(key as never, values as never) as unknown as string)],
  }
}
