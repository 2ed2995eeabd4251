import type { Route } from './+types/files.$id'
import { getFile } from '#app/modules/file/file.server'
import { isUuid } from '#app/lib/ids'

/**
 * Uploaded images (brand logos, profile photos) by their unguessable id: e-mails and pages show
 * them without a session. Served as the type stored at upload (checked by content then), with the
 * app-wide nosniff header (app/server/app.ts), and inside a sandboxing CSP so a file can never run as a page.
 */
export async function loader({ params, request }: Route.LoaderArgs) {
  const file = isUuid(params.id) ? await getFile(params.id) : null
  if (!file) return new Response('Not Found', { status: 404, headers: { 'Content-Type': 'text/plain' } })
  const etag = `"${file.sha256}"`
  const headers = {
    'Content-Type': file.mime,
    'Content-Security-Policy': "default-src 'none'; sandbox",
    'Content-Disposition': 'inline',
    'Cache-Control': 'public, max-age=86400',
    ETag: etag,
  }
  if (request.headers.get('If-None-Match') === etag) return new Response(null, { status: 304, headers })
  return new Response(Buffer.from(file.bytes), {
    headers: { ...headers, 'Content-Length': String(file.size) },
  })
}
