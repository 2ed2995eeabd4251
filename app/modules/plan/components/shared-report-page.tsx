import { useTranslation } from 'react-i18next'
import { formatDate } from '#app/lib/dates'
import { useIntlLocale } from '#app/modules/i18n/use-intl-locale'
import { ReportView } from '#app/modules/report/report-view'
import type { SharedReport } from '../shared-report.server'
import { PlanSection } from './plan-section'

/**
 * A direct report's released report as their manager reads it (ADR 043): the report's own view in
 * the third person ("Self"), without the comments section, and their plan when they shared it.
 */
export function SharedReportPage({ access, report }: SharedReport) {
  const name = access.employeeName
  const { t } = useTranslation('shared')
  const locale = useIntlLocale()
  return (
    <div className="flex flex-col gap-6">
      <p role="note" className="no-print rounded-md border border-sky-300 bg-sky-50 p-3 text-sky-950">
        {access.consented
          ? t('consented', {
              name,
              date: access.grantedIso ? formatDate(access.grantedIso, access.timeZone, locale) : '',
            })
          : t('bySetting', { scheme: access.schemeName, name })}
      </p>
      <ReportView report={report} viewer="admin" comments={false} />
      {access.areas ? <PlanSection areas={access.areas} whose={{ kind: 'theirs', name }} /> : null}
    </div>
  )
}
