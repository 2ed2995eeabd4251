import { data } from 'react-router'
import type { Route } from './+types/questionnaire.$id'
import { NotBuiltYet } from '#app/components/not-built'
import { requireQuestionnaireAccess } from '#app/modules/assignment/access.server'
import { requireUser } from '#app/modules/auth/guards.server'
import { ROUTE_ROLES } from '#app/modules/auth/permissions'
import type { RouteHandle } from '#app/root'

export const handle: RouteHandle = { layout: 'user', transition: true }

export const meta: Route.MetaFunction = ({ data: d }) => [
  { title: `${d?.questionnaire.title ?? 'Questionnaire'} · Panorama` },
]

export async function loader({ request, params }: Route.LoaderArgs) {
  const { user } = await requireUser(request, { roles: ROUTE_ROLES.questionnaire })
  const questionnaire = await requireQuestionnaireAccess(params.id, user)
  return { questionnaire }
}

export async function action({ request, params }: Route.ActionArgs) {
  const { user } = await requireUser(request, { roles: ROUTE_ROLES.questionnaire })
  await requireQuestionnaireAccess(params.id, user)
  return data({ notBuilt: true }, { status: 405 })
}

export default function Questionnaire({ loaderData }: Route.ComponentProps) {
  return (
    <NotBuiltYet title={loaderData.questionnaire.title}>
      {loaderData.questionnaire.intro ? (
        <p className="text-slate-700">{loaderData.questionnaire.intro}</p>
      ) : null}
    </NotBuiltYet>
  )
}
