import type { Route } from './+types/edit-profile.my-data-zip'
import { notFound, requireUser } from '#app/modules/auth/guards.server'
import { ROUTE_ROLES } from '#app/modules/auth/permissions'
import { getFixedT, languageOf } from '#app/modules/i18n/i18n.server'
import {
  auditMyDataExport,
  collectMyData,
  countMyDataDownload,
  myDataFileName,
  myDataZip,
} from '#app/modules/user/my-data.server'

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

/**
 * /user/edit-profile/my-data.zip: the signed-in employee's own data (issue 21 §4, ADR 055). There is
 * no id in the URL: the route only ever exports the one who asks. Five downloads an hour; beyond
 * that a short page (429) says when to try again. Recorded; never cached.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const session = await requireUser(request, { roles: ROUTE_ROLES['user/edit-profile/my-data.zip'] })
  const { user } = session
  const limit = await countMyDataDownload(user.id)
  if (limit.limited) {
    const t = await getFixedT(request, 'profile')
    const minutes = Math.max(1, Math.ceil(limit.retryAfterSeconds / 60))
    const title = escapeHtml(t('myData.limitedTitle'))
    return new Response(
      `<!doctype html><html lang="${languageOf(request, user)}"><head><meta charset="utf-8">` +
        `<meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title></head>` +
        `<body style="font-family: system-ui, sans-serif; max-width: 40rem; margin: 3rem auto; padding: 0 1rem">` +
        `<h1>${title}</h1><p role="alert">${escapeHtml(t('myData.limited', { minutes }))}</p>` +
        `<p><a href="/user/edit-profile">${escapeHtml(t('myData.back'))}</a></p></body></html>\n`,
      {
        status: 429,
        headers: {
          'Content-Type': 'text/html; charset=utf-8',
          'Cache-Control': 'no-store',
          'Retry-After': String(limit.retryAfterSeconds),
        },
      },
    )
  }
  const language = languageOf(request, user)
  const data = await collectMyData(user.id, language)
  if (!data) notFound()
  await auditMyDataExport(
    { id: user.id, ip: context.ip || null },
    { json: data.reports.length, pdf: data.pdfs ? data.reports.length : 0 },
  )
  return new Response(myDataZip(data, session, language), {
    headers: {
      'Content-Type': 'application/zip',
      'Content-Disposition': `attachment; filename="${myDataFileName()}"`,
      'Cache-Control': 'no-store',
    },
  })
}
