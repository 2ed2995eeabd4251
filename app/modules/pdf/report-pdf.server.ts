import { Readable } from 'node:stream'
import archiver from 'archiver'
import { sql } from 'drizzle-orm'
import { getDb, queryRows } from '#db/client'
import { formatDate } from '#app/lib/dates'
import { log } from '#app/lib/logger.server'
import type { Actor } from '#app/lib/outcome'
import { recordAudit } from '#app/modules/audit/audit.server'
import type { SessionResult } from '#app/modules/auth/session.server'
import { intlLocale, SOURCE_LANGUAGE, type Language } from '#app/modules/i18n/languages'
import { loadReport } from '#app/modules/report/report.server'
import type { ReportData, ReportHeader } from '#app/modules/report/report'
import { renderPagePdf, type RenderedPdf } from './render.server'
import { pdfT } from './words.server'

/**
 * Reports as PDF (ADR 046): one released report for its employee or an admin, and every released
 * report of a scheme as one ZIP, streamed one PDF at a time. Each PDF is the report page itself,
 * printed for the one who downloads it (render.server.ts), with a branded cover.
 */

/** Why a report has no PDF: not there or not the viewer's (404), or not released yet. */
export type ReportPdfRefusal = 'not-found' | 'not-released'

export const NOT_RELEASED_MESSAGE =
  'This report has not been released yet: its PDF can be downloaded once the results are released.'
export const NOTHING_RELEASED_MESSAGE =
  'No report of this scheme has been released yet: there is nothing to download.'

/** A report is released once a release exists for it (with colleagues' results or the self view alone). */
export const isReleased = (report: ReportData) => report.header.releasedAt !== null

/** The report the viewer may download, or why not (ownership is in loadReport's query). */
export async function releasedReport(
  rid: string,
  viewer: SessionResult['user'],
): Promise<{ ok: true; report: ReportData } | { ok: false; refusal: ReportPdfRefusal }> {
  const report = await loadReport(rid, viewer)
  if (!report) return { ok: false, refusal: 'not-found' }
  if (!isReleased(report)) return { ok: false, refusal: 'not-released' }
  return { ok: true, report }
}

/** "erin-example": letters and digits of a name, for a file name (never empty, never a path). */
export function fileSlug(text: string): string {
  const slug = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '')
  return slug || 'report'
}

/** The PDF's file name: the person and the report's short id (two people of one name stay apart). */
export function reportFileName(header: Pick<ReportHeader, 'subjectName' | 'responseId'>): string {
  return `feedback-report-${fileSlug(header.subjectName)}-${header.responseId.slice(0, 8)}.pdf`
}

/**
 * The report page printed for `viewer`, with the brand's cover, header and footer, in the reader's
 * `language` (the one the download's request resolved): the page, its cover and its margins alike.
 */
export function renderReportPdf(
  header: ReportHeader,
  viewer: SessionResult,
  language: Language = SOURCE_LANGUAGE,
): Promise<RenderedPdf> {
  const t = pdfT(language)
  const brand = header.brand
  const name = header.subjectName
  const lines: [string, string][] = [
    [t('report.scheme'), header.schemeName],
    [t('report.company'), header.companyName],
    [t('report.questionnaire'), header.questionnaireTitle],
  ]
  if (header.releasedAt)
    lines.push([t('report.released'), formatDate(header.releasedAt, header.timeZone, intlLocale(language))])
  return renderPagePdf({
    path: `/user/response-${header.responseId}`,
    viewer,
    language,
    cover: {
      brand,
      title: t('report.title'),
      subject: name,
      lines,
      note: t('report.note', { name }),
    },
    headerRight: `${header.schemeName} · ${header.companyName}`,
    footer: t('report.footer', { name }),
    title: brand
      ? t('report.documentTitleBrand', { name, brand: brand.name })
      : t('report.documentTitle', { name }),
  })
}

/** An admin's download of a report, recorded (the employee's own download is not). */
export async function auditReportDownload(actor: Actor, header: ReportHeader) {
  await recordAudit(getDb(), actor, {
    action: 'report.pdf_download',
    entity: 'response',
    entityId: header.responseId,
    details: { scheme: header.schemeName },
  })
}

type ReleasedRow = { rid: string; subject_name: string }

/** The scheme's name and its released reports (one statement each), or null when there is no such scheme. */
export async function releasedReportsOf(schemeId: string) {
  const db = getDb()
  const [scheme] = await queryRows<{ name: string }>(db, sql`SELECT name FROM schemes WHERE id = ${schemeId}`)
  if (!scheme) return null
  const reports = await queryRows<ReleasedRow>(
    db,
    sql`
    SELECT r.id AS rid, u.display_name AS subject_name
    FROM assignments a
    JOIN responses r ON r.assignment_id = a.id
    JOIN users u ON u.id = a.subject_id
    WHERE a.scheme_id = ${schemeId} AND a.relationship = 'self'
      AND EXISTS (SELECT 1 FROM report_releases rr WHERE rr.scheme_id = a.scheme_id AND rr.subject_id = a.subject_id)
    ORDER BY u.display_name, r.id`,
  )
  return { schemeName: scheme.name, reports }
}

/** File names inside one ZIP: safe, and unique even if two short ids ever met. */
function uniqueNames() {
  const used = new Set<string>()
  return (name: string) => {
    let candidate = name
    for (let n = 2; used.has(candidate); n++) candidate = name.replace(/\.(\w+)$/, `-${n}.$1`)
    used.add(candidate)
    return candidate
  }
}

/** A PDF handed to the ZIP in pieces, so that the ZIP is read from only as fast as the client reads it. */
function pieces(pdf: Buffer, size = 64 * 1024) {
  return Readable.from(
    (function* () {
      for (let at = 0; at < pdf.length; at += size) yield pdf.subarray(at, at + size)
    })(),
    { objectMode: false },
  )
}

type ZipProgress = { rendered: number; failed: number; peakMs: number }

/**
 * Every released report of a scheme as one ZIP, for an admin: a stream that renders a report, adds
 * it, and renders the next only once the ZIP has handed most of the last one on — so at most two
 * PDFs (the one being sent, the next being printed) are in memory whatever the scheme's size. A
 * report that fails to print is replaced by a short text file saying so; the client going away
 * stops the work.
 */
export function schemeReportsZip(
  reports: ReleasedRow[],
  viewer: SessionResult,
  language: Language = SOURCE_LANGUAGE,
): ReadableStream<Uint8Array> {
  const t = pdfT(language)
  const archive = archiver('zip', { store: true })
  const name = uniqueNames()
  const progress: ZipProgress = { rendered: 0, failed: 0, peakMs: 0 }
  let stopped = false
  let stop: () => void = () => undefined
  // The client went away: the loop stops waiting for an entry the ZIP will never take.
  const cancelled = new Promise<void>((resolve) => (stop = resolve))
  // An error of the ZIP itself ends the download (the client sees it cut short).
  const failed = new Promise<never>((_, reject) => archive.once('error', reject))
  failed.catch(() => undefined)

  const render = async (row: ReleasedRow) => {
    try {
      const report = await loadReport(row.rid, viewer.user)
      if (!report || !isReleased(report)) return { row, error: t('refusals.noLongerReleased') }
      const rendered = await renderReportPdf(report.header, viewer, language)
      return { row, header: report.header, rendered }
    } catch (error) {
      log.error('pdf of a report in a ZIP failed', { error, rid: row.rid })
      return { row, error: t('refusals.zipEntryFailed') }
    }
  }

  const produce = async () => {
    let next = reports.length ? render(reports[0]!) : null
    for (let i = 0; next && !stopped; i++) {
      const done = await next
      // The next report prints while this one is sent.
      next = i + 1 < reports.length && !stopped ? render(reports[i + 1]!) : null
      const added = new Promise<void>((resolve) => archive.once('entry', () => resolve()))
      if ('rendered' in done && done.rendered) {
        progress.rendered++
        progress.peakMs = Math.max(progress.peakMs, done.rendered.ms)
        archive.append(pieces(done.rendered.pdf), { name: name(reportFileName(done.header)) })
      } else {
        progress.failed++
        const base = reportFileName({ subjectName: done.row.subject_name, responseId: done.row.rid })
        archive.append(`${done.error}\n`, { name: name(base.replace(/\.pdf$/, '.txt')) })
      }
      await Promise.race([added, failed, cancelled])
    }
    await next?.catch(() => undefined)
    if (!stopped) await archive.finalize()
  }
  produce().then(
    () => log.info('report ZIP', { ...progress, reports: reports.length, stopped }),
    (error: unknown) => {
      log.error('report ZIP failed', { error })
      archive.abort()
    },
  )

  return zipStream(archive, () => {
    stopped = true
    stop()
  })
}

/** The admin's ZIP download, recorded with how many reports it holds. */
export async function auditZipDownload(actor: Actor, schemeId: string, reports: number) {
  await recordAudit(getDb(), actor, {
    action: 'scheme.reports_zip_download',
    entity: 'scheme',
    entityId: schemeId,
    details: { reports },
  })
}

/**
 * A ZIP being written as a web stream, read one chunk at a time (nothing buffered ahead): a
 * download cancelled by the browser calls `cancelled` (so the producer stops printing) and aborts
 * the archive. The report ZIP and the data export share it.
 */
export function zipStream(archive: archiver.Archiver, cancelled: () => void): ReadableStream<Uint8Array> {
  const reader = archive[Symbol.asyncIterator]() as AsyncIterator<Buffer>
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const { value, done } = await reader.next()
        if (done) controller.close()
        else controller.enqueue(new Uint8Array(value.buffer, value.byteOffset, value.byteLength))
      },
      cancel() {
        cancelled()
        archive.abort()
      },
    },
    { highWaterMark: 0 },
  )
}
