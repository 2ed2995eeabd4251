import type { Route } from './+types/bench.ping'
import type { RouteHandle } from '#app/root'

export const handle: RouteHandle = { layout: 'default' }

export const meta: Route.MetaFunction = () => [
  { title: 'Ping · Panorama' },
  { name: 'robots', content: 'noindex' },
]

/**
 * The reference page of `npm run bench`. It takes the path of every other page (the Express
 * middleware, React Router's handler, the root loader, the default layout, streaming and
 * compression) but has no loader of its own, so an anonymous request runs no query: a page's speed
 * next to this one's is what that page itself costs. It shows a constant, so it is harmless in
 * production and needs no guard.
 */
export default function BenchPing() {
  return (
    <div className="mx-auto max-w-3xl px-6 py-10">
      <h1 className="text-2xl font-bold tracking-tight">Panorama is running</h1>
    </div>
  )
}
