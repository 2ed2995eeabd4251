import { getDb } from '#db/client'
import type { Actor } from '#app/lib/outcome'
import { SOURCE_LANGUAGE, type Language } from '#app/modules/i18n/languages'
import { recordAudit } from '#app/modules/audit/audit.server'
import type { SessionResult } from '#app/modules/auth/session.server'
import { loadGroupReport, type CohortScope, type GroupReport } from '#app/modules/cohort/cohort.server'
import { cohortHref } from '#app/modules/cohort/components/cohort-parts'
import { pdfAnswer, pdfDownload, pdfRefusal } from './answers.server'
import { fileSlug } from './report-pdf.server'
import { renderPagePdf } from './render.server'
import { pdfT } from './words.server'

/**
 * A cohort's group report as a branded PDF (issue 19 §4 and §7, ADR 046): the group report page
 * itself printed for the administrator who asks, with a cover — what an admin hands the client's HR
 * contact. The page holds only figures of at least the threshold of participants and never a comment
 * (ADR 045), so the PDF does too.
 */

export const NO_COHORT_FIGURE_MESSAGE =
  'No report has been released yet: the group report has nothing to print until reports are released.'

export function groupReportFileName(report: GroupReport): string {
  return `group-report-${fileSlug(report.header.name)}-${report.header.id.slice(0, 8)}.pdf`
}

/** The answer of a group-report PDF route: 404 for no such scheme/company, 409 with nothing released. */
export async function groupReportPdfResponse(
  scope: CohortScope,
  id: string,
  viewer: SessionResult,
  ip: string | null,
  language: Language = SOURCE_LANGUAGE,
): Promise<Response | null> {
  const t = pdfT(language)
  const report = await loadGroupReport(scope, id)
  if (!report) return null
  if (report.summary.participants === 0) return pdfRefusal(409, t('refusals.noCohortFigure'))
  const { header, summary } = report
  const name = header.name
  return pdfAnswer(async () => {
    const { pdf } = await renderPagePdf({
      path: cohortHref(header, 'group-report'),
      viewer,
      language,
      cover: {
        brand: header.brand,
        title: t('group.title'),
        subject: name,
        lines: [
          [t('group.company'), header.companyName],
          [
            t('group.schemes', { count: header.schemes.length }),
            header.schemes.map((s) => s.name).join(', '),
          ],
          [t('group.participants'), t('group.participantsValue', { count: summary.participants })],
        ],
        note: t('group.note', { minRaters: header.minRaters }),
      },
      headerRight: t('group.header', { name }),
      footer: t('group.footer', { company: header.companyName }),
      title: header.brand
        ? t('group.documentTitleBrand', { name, brand: header.brand.name })
        : t('group.documentTitle', { name }),
    })
    await auditGroupReportDownload({ id: viewer.user.id, ip }, scope, id, summary.participants)
    return pdfDownload(pdf, groupReportFileName(report))
  }, language)
}

async function auditGroupReportDownload(actor: Actor, scope: CohortScope, id: string, participants: number) {
  await recordAudit(getDb(), actor, {
    action: 'cohort.pdf_download',
    entity: scope,
    entityId: id,
    details: { participants },
  })
}
