import type { schemes } from '#db/schema/index'
import type { SchemeInput } from '#app/modules/scheme/schemas'

/**
 * What the scheme form sends for a stored scheme left as it is, with `overrides`: the input of
 * `updateScheme` (or `createScheme`) in tests that change one setting and watch what the service says.
 */
export function schemeInputFromRow(
  scheme: typeof schemes.$inferSelect,
  overrides: Partial<SchemeInput> = {},
): SchemeInput {
  return {
    name: scheme.name,
    companyId: scheme.companyId,
    questionnaireId: scheme.questionnaireId,
    timeZone: scheme.timeZone,
    opensAt: scheme.opensAt,
    closesAt: scheme.closesAt,
    maxColleagues: scheme.maxColleagues,
    minRaters: scheme.minRaters,
    reminderCadenceDays: scheme.reminderCadenceDays,
    reportRelease: scheme.reportRelease,
    showManagerBelowThreshold: scheme.showManagerBelowThreshold,
    ...overrides,
  }
}
