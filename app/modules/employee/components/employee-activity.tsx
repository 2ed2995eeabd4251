import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { Section } from '#app/components/card'
import { Cell, DataTable, RowHeader } from '#app/components/data-table'
import { formatDate } from '#app/lib/dates'
import { useIntlLocale } from '#app/modules/i18n/use-intl-locale'
import { inviteStatusOf } from '#app/modules/invite/schemas'
import type { EmployeeProgramme, EmployeeRating } from '../employee.server'

/** An employee's schemes (self-assessment, colleagues, report) and the feedback asked of them. */

type Programme = EmployeeProgramme
type Rating = EmployeeRating

export function EmployeeProgrammes({
  employeeId,
  employeeName,
  programmes,
}: {
  employeeId: string
  employeeName: string
  programmes: Programme[]
}) {
  const { t } = useTranslation('employees')
  const locale = useIntlLocale()
  return (
    <Section id="programmes-title" title={t('schemes.title')} className="gap-3">
      <DataTable
        caption={t('schemes.caption', { name: employeeName })}
        columns={[
          t('schemes.scheme'),
          t('schemes.status'),
          t('schemes.self'),
          t('schemes.colleagues'),
          t('schemes.links'),
        ]}
        rows={programmes}
        empty={t('schemes.empty', { name: employeeName })}
      >
        {(p) => (
          <tr key={p.schemeId}>
            <RowHeader>
              <Link className="link" to={`/admin/scheme-management/${p.schemeId}`}>
                {p.schemeName}
              </Link>
              <span className="block text-xs font-normal text-slate-700">
                {p.companyName} · {t('schemes.closes', { date: formatDate(p.closesAt, p.timeZone, locale) })}
              </span>
            </RowHeader>
            <Cell>{t(`schemes.phase.${p.phase}`)}</Cell>
            <Cell>{p.selfStatus ? t(`schemes.selfStatus.${p.selfStatus}`) : '—'}</Cell>
            <Cell>{t('schemes.answered', { answered: p.answered, invited: p.invited })}</Cell>
            <Cell>
              <div className="flex flex-col gap-1">
                {p.responseId ? (
                  <Link className="link" to={`/user/response-${p.responseId}`}>
                    {t('schemes.openReport')}
                    <span className="sr-only">{t('schemes.forScheme', { scheme: p.schemeName })}</span>
                  </Link>
                ) : null}
                {p.phase !== 'closed' ? (
                  <Link
                    className="link"
                    to={`/user/colleague-invite?${new URLSearchParams({ employee: employeeId, scheme: p.schemeId })}`}
                  >
                    {t('schemes.inviteColleagues')}
                    <span className="sr-only">{t('schemes.forScheme', { scheme: p.schemeName })}</span>
                  </Link>
                ) : null}
              </div>
            </Cell>
          </tr>
        )}
      </DataTable>
      <p className="text-sm">
        <Link className="link" to={`/user/colleague-invite?${new URLSearchParams({ employee: employeeId })}`}>
          {t('schemes.inviteOnBehalf', { name: employeeName })}
        </Link>
      </p>
    </Section>
  )
}

export function EmployeeRatings({ employeeName, ratings }: { employeeName: string; ratings: Rating[] }) {
  const { t } = useTranslation('employees')
  return (
    <Section id="ratings-title" title={t('ratings.title', { name: employeeName })} className="gap-3">
      <DataTable
        caption={t('ratings.caption', { name: employeeName })}
        columns={[t('ratings.about'), t('ratings.scheme'), t('ratings.as'), t('ratings.status')]}
        rows={ratings}
        empty={t('ratings.empty', { name: employeeName })}
      >
        {(r) => (
          <tr key={r.assignmentId}>
            <RowHeader href={`/admin/employee-management/${r.subjectId}`}>{r.subjectName}</RowHeader>
            <Cell>{r.schemeName}</Cell>
            <Cell>{t(`ratings.relationship.${r.relationship}`)}</Cell>
            <Cell>{t(`ratings.inviteStatus.${inviteStatusOf(r.status)}`)}</Cell>
          </tr>
        )}
      </DataTable>
    </Section>
  )
}
