import type { Route } from './+types/questionnaire-management.$qid.export-json'
import { notFound, requireUser } from '#app/modules/auth/guards.server'
import { ROUTE_ROLES } from '#app/modules/auth/permissions'
import { questionnaireFile } from '#app/modules/questionnaire/format.server'
import { contentOf, getQuestionnaire } from '#app/modules/questionnaire/questionnaire.server'

/**
 * The questionnaire as a file (docs/questionnaire-format.md), a download: what the import on the
 * list page reads back as a new draft.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  await requireUser(request, { roles: ROUTE_ROLES.admin })
  const questionnaire = await getQuestionnaire(params.qid)
  if (!questionnaire) notFound()
  const slug =
    questionnaire.title
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60) || 'questionnaire'
  const body = JSON.stringify(questionnaireFile(contentOf(questionnaire)), null, 2)
  return new Response(`${body}\n`, {
    headers: {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Disposition': `attachment; filename="${slug}-v${questionnaire.version}.json"`,
      'Cache-Control': 'no-store',
    },
  })
}
