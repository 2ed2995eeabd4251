import { data } from 'react-router'
import type { Route } from './+types/assignment.$id'
import { NotBuiltYet } from '#app/components/not-built'
import { requireAssignmentAccess } from '#app/modules/assignment/access.server'
import { requireUser } from '#app/modules/auth/guards.server'
import { ROUTE_ROLES } from '#app/modules/auth/permissions'
import type { RouteHandle } from '#app/root'

export const handle: RouteHandle = { layout: 'user', transition: true }

export const meta: Route.MetaFunction = ({ data: d }) => [
  { title: `${d?.assignment.questionnaireTitle ?? 'Questionnaire'} · Panorama` },
]

export async function loader({ request, params }: Route.LoaderArgs) {
  const { user } = await requireUser(request, { roles: ROUTE_ROLES.assignment })
  const assignment = await requireAssignmentAccess(params.id, user)
  return { assignment }
}

export async function action({ request, params }: Route.ActionArgs) {
  const { user } = await requireUser(request, { roles: ROUTE_ROLES.assignment })
  await requireAssignmentAccess(params.id, user)
  return data({ notBuilt: true }, { status: 405 })
}

export default function Assignment({ loaderData }: Route.ComponentProps) {
  const { assignment } = loaderData
  return (
    <NotBuiltYet title={assignment.questionnaireTitle}>
      <p className="text-slate-700">
        {assignment.relationship === 'self'
          ? 'Your self-assessment'
          : `Feedback for ${assignment.subjectName || 'a colleague'}`}{' '}
        · {assignment.schemeName}
      </p>
    </NotBuiltYet>
  )
}
