import type { TFunction } from 'i18next'
import type { GroupReport } from './cohort.server'

/**
 * The group report PDF's own words (its cover, running header and footer, its title), in the
 * downloading admin's language: the `cohort` catalogue's `pdf` keys, given the request's fixed `t`
 * (`getFixedT(request, 'cohort')`). English reads exactly as app/modules/pdf/group-report-pdf.server.ts
 * writes them today, which is meant to take these (issue 20 §3; the PDF module is converted apart).
 */
export function groupReportPdfWords(report: GroupReport, t: TFunction<'cohort'>) {
  const { header, summary } = report
  return {
    cover: {
      title: t('pdf.title'),
      subject: header.name,
      lines: [
        [t('pdf.company'), header.companyName],
        [
          header.schemes.length === 1 ? t('pdf.scheme') : t('pdf.schemes'),
          header.schemes.map((s) => s.name).join(', '),
        ],
        [t('pdf.participants'), t('pdf.released', { count: summary.participants })],
      ] as [string, string][],
      note: t('pdf.note', { count: header.minRaters }),
    },
    headerRight: t('pdf.running', { name: header.name }),
    footer: t('pdf.running', { name: header.companyName }),
    title: `${t('pdf.running', { name: header.name })}${header.brand ? ` · ${header.brand.name}` : ''}`,
  }
}
