import { AsyncLocalStorage } from 'node:async_hooks'
import type { AppLoadContext } from 'react-router'

/**
 * The load context of the request being handled, for code that is handed only a `Request`.
 *
 * React Router gives the root loader, each route loader and the action a Request object of their
 * own, so nothing can be remembered per request by keying it on the Request. The load context is
 * the one object all of them share: app/server/app.ts builds it once per HTTP request and runs the
 * React Router handler inside this scope, so a guard deep in a loader can find it without every
 * loader passing it along.
 */
const scope = new AsyncLocalStorage<AppLoadContext>()

export function runInRequestScope<T>(context: AppLoadContext, fn: () => T): T {
  return scope.run(context, fn)
}

/** The current request's load context; undefined outside a request (a script, a unit test). */
export function currentLoadContext(): AppLoadContext | undefined {
  return scope.getStore()
}
