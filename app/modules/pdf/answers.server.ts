import { log } from '#app/lib/logger.server'
import {
  PDF_UNAVAILABLE_MESSAGE,
  PdfBusyError,
  PdfTimeoutError,
  PdfUnavailableError,
  pdfAvailable,
} from './browser.server'

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
export async function pdfAnswer(make: () => Promise<Response>): Promise<Response> {
  if (!pdfAvailable()) return pdfRefusal(503, PDF_UNAVAILABLE_MESSAGE)
  try {
    return await make()
  } catch (error) {
    if (error instanceof PdfUnavailableError) return pdfRefusal(503, PDF_UNAVAILABLE_MESSAGE)
    if (error instanceof PdfBusyError)
      return pdfRefusal(503, 'Many PDFs are being made right now: please try again in a minute.')
    if (error instanceof PdfTimeoutError)
      return pdfRefusal(504, 'The PDF took too long to make: please try again in a minute.')
    log.error('pdf download failed', { error })
    return pdfRefusal(
      500,
      'The PDF could not be made: please try again, or use “Save as PDF” on the report page.',
    )
  }
}
