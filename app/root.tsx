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
import { useTranslation } from 'react-i18next'
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
import { I18nBootScript } from '#app/modules/i18n/boot'
import { languageOf } from '#app/modules/i18n/i18n.server'
import { languageInfo, type Language, type Namespace } from '#app/modules/i18n/languages'
import { metaT } from '#app/modules/i18n/meta'
import './app.css'

export type RouteHandle = {
  /** The layout this page renders in (portal-spec §2); the deepest match wins, else `default`. */
  layout?: LayoutName
  /** Animate navigation to this page with a view transition. */
  transition?: boolean
  /** The catalogues' namespaces this page's words are in (ADR 050): only these reach the browser. */
  i18n?: Namespace | Namespace[]
}

// The site's chrome (header, footer, skip link, error pages) is on every page.
export const handle: RouteHandle = { i18n: 'common' }

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
      // The page's language (ADR 050): the user's, their brand's, the browser's, else English.
      language: languageOf(request, result?.user ?? null),
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
  // The i18next instance's language is the one the root loader resolved (entry.server, entry.client).
  const { i18n } = useTranslation()
  const language = i18n.language as Language
  return (
    <html lang={language} dir={languageInfo(language)?.dir ?? 'ltr'}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
        <I18nBootScript />
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
  // A new language (the profile's setting saved, a sign-in) is taken up without a reload: i18next
  // fetches the namespaces it lacks, then re-renders.
  const { i18n } = useTranslation()
  useEffect(() => {
    if (i18n.language !== loaderData.language) void i18n.changeLanguage(loaderData.language)
  }, [i18n, loaderData.language])
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

export function meta({ error, matches }: Route.MetaArgs) {
  if (error) return [{ title: `${metaT(matches, `common:${errorPageContent(error).titleKey}`)} · Panorama` }]
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
