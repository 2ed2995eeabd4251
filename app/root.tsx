import { useEffect } from 'react'
import {
  data,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useMatches,
  useRevalidator,
  useRouteLoaderData,
  type ShouldRevalidateFunctionArgs,
} from 'react-router'
import type { Route } from './+types/root'
import { errorPageContent, GeneralErrorBoundary } from '#app/components/error-boundary'
import { LAYOUTS, type LayoutName } from '#app/components/layouts'
import { useNonce } from '#app/components/nonce'
import { Toaster } from '#app/components/toaster'
import { contactLinksOf, getEnv } from '#app/config/env.server'
import { changesNothingShown } from '#app/lib/revalidation'
import { useSessionSync } from '#app/lib/use-session-sync'
import { signIdentityToken } from '#app/modules/auth/identity-token.server'
import { getRenewedRequestSession, sessionCookie } from '#app/modules/auth/session.server'
import { readToast } from '#app/modules/toast/toast.server'
import './app.css'

export type RouteHandle = {
  /** The layout this page renders in (portal-spec §2); the deepest match wins, else `default`. */
  layout?: LayoutName
  /** Animate navigation to this page with a view transition. */
  transition?: boolean
}

export const links: Route.LinksFunction = () => [{ rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' }]

export async function loader({ request }: Route.LoaderArgs) {
  const env = getEnv()
  const result = await getRenewedRequestSession(request)
  const { toast, clear } = await readToast(request)
  const headers = new Headers()
  if (result?.renewed) headers.append('Set-Cookie', sessionCookie(result.token, result.session.expiresAt))
  if (clear) headers.append('Set-Cookie', clear)
  const identity = result ? signIdentityToken(result.session.id, result.user.id) : null
  return data(
    {
      user: result
        ? {
            id: result.user.id,
            email: result.user.email,
            displayName: result.user.displayName,
            role: result.user.role,
            photoFileId: result.user.photoFileId,
          }
        : null,
      identity,
      toast,
      publicEnv: {
        turnstileSiteKey: env.turnstileEnabled ? env.TURNSTILE_SITE_KEY! : null,
        sentryDsn: env.SENTRY_DSN ?? null,
        sentryEnvironment: env.SENTRY_ENVIRONMENT ?? env.NODE_ENV,
        passwordMinLength: env.PASSWORD_MIN_LENGTH,
        contact: contactLinksOf(env),
      },
    },
    { headers },
  )
}

// The root's data (the user, the toast, the session token) does not change with an autosave: without
// this, every autosave's answer would be followed by a request reloading the root loader.
export function shouldRevalidate({ formData, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  if (changesNothingShown(formData)) return false
  return defaultShouldRevalidate
}

export type RootLoaderData = Awaited<ReturnType<typeof loader>>['data']

export function useRootData() {
  return useRouteLoaderData<typeof loader>('root')
}

export function Layout({ children }: { children: React.ReactNode }) {
  const nonce = useNonce()
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
      </head>
      <body className="min-h-screen bg-slate-50 text-slate-900 antialiased">
        {children}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  )
}

function useLayoutName(): { layout: LayoutName; transition: boolean } {
  const matches = useMatches()
  for (let i = matches.length - 1; i >= 0; i--) {
    const handle = matches[i]?.handle as RouteHandle | undefined
    if (handle?.layout) return { layout: handle.layout, transition: Boolean(handle.transition) }
  }
  return { layout: 'default', transition: false }
}

export default function App({ loaderData }: Route.ComponentProps) {
  const { layout, transition } = useLayoutName()
  const LayoutComponent = LAYOUTS[layout] ?? LAYOUTS.default
  const { revalidate } = useRevalidator()
  useSessionSync({
    token: loaderData.identity?.token ?? null,
    expiresAt: loaderData.identity?.expiresAt ?? null,
    userId: loaderData.user?.id ?? null,
    // Pages may stay in the back/forward cache (ADR 009): one shown again re-reads its data, and one
    // whose session has ended since leaves for /sign-in (its guard redirects).
    onRestored: () => void revalidate(),
  })
  const { sentryDsn, sentryEnvironment } = loaderData.publicEnv
  // Hydration has settled (the head's title included): the PDF printer waits for this mark before it
  // changes the page (render.server.ts), so React cannot put back what it changed.
  useEffect(() => {
    document.documentElement.dataset.hydrated = ''
  }, [])
  useEffect(() => {
    // Sentry's browser SDK is a separate chunk, fetched only when a DSN is configured.
    if (sentryDsn) {
      void import('#app/modules/monitoring/sentry.client').then((m) =>
        m.initClientSentry({ dsn: sentryDsn, environment: sentryEnvironment }),
      )
    }
  }, [sentryDsn, sentryEnvironment])
  return (
    <>
      <LayoutComponent user={loaderData.user} contact={loaderData.publicEnv.contact}>
        <div style={transition ? { viewTransitionName: 'page' } : undefined}>
          <Outlet />
        </div>
      </LayoutComponent>
      <Toaster toast={loaderData.toast} />
    </>
  )
}

export function meta({ error }: Route.MetaArgs) {
  if (error) return [{ title: `${errorPageContent(error).title} · Panorama` }]
  return [{ title: 'Panorama' }]
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const root = useRootData()
  const LayoutComponent = LAYOUTS.default
  return (
    <LayoutComponent user={root?.user ?? null} contact={root?.publicEnv.contact ?? null}>
      <GeneralErrorBoundary error={error} />
    </LayoutComponent>
  )
}
