import { redirect } from 'react-router'
import type { Route } from './+types/login'

// The spec's /login has no page of its own: it moved to /sign-in for good (query string kept).
function moved(request: Request) {
  const url = new URL(request.url)
  return redirect(`/sign-in${url.search}`, 301)
}

export function loader({ request }: Route.LoaderArgs) {
  return moved(request)
}

export function action({ request }: Route.ActionArgs) {
  return moved(request)
}
