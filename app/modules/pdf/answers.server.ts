import { log } from '#app/lib/logger.server'
import { SOURCE_LANGUAGE, type Language } from '#app/modules/i18n/languages'
import { PdfBusyError, PdfTimeoutError, PdfUnavailableError, pdfAvailable } from './browser.server'
import { pdfT } from './words.server'

/** A download refused in words: plain text, never cached. */
export function pdfRefusal(status: number, message: string) {
  return new Response(`${message}\n`, {
    status,
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' },
  })
}

/** A PDF handed out as a download named `fileName`, never cached (it is one viewer's). */
export function pdfDownload(pdf: Buffer, fileName: string) {
  return new Response(new Uint8Array(pdf), {
    headers: {
      'Content-Type': 'application/pdf',
      'Content-Disposition': `attachment; filename="${fileName}"`,
      'Content-Length': String(pdf.length),
      'Cache-Control': 'no-store',
    },
  })
}

/**
 * A PDF download's answer: what `make` returns, or a sentence when the server cannot make PDFs
 * (no Chromium: 503), is busy (503, try again) or took too long (504); anything else is logged and
 * answered in words too.
 */
export async function pdfAnswer(
  make: () => Promise<Response>,
  language: Language = SOURCE_LANGUAGE,
): Promise<Response> {
  const t = pdfT(language)
  if (!pdfAvailable()) return pdfRefusal(503, t('refusals.unavailable'))
  try {
    return await make()
  } catch (error) {
    if (error instanceof PdfUnavailableError) return pdfRefusal(503, t('refusals.unavailable'))
    if (error instanceof PdfBusyError) return pdfRefusal(503, t('refusals.busy'))
    if (error instanceof PdfTimeoutError) return pdfRefusal(504, t('refusals.timeout'))
    log.error('pdf download failed', { error })
    return pdfRefusal(500, t('refusals.failed'))
  }
}
