import { createCookie, redirect } from 'react-router'
import { z } from 'zod'
import { getEnv } from '#app/config/env.server'

/** One-shot messages shown after a redirect ("Brand saved"), carried in a signed cookie. */
export const ToastSchema = z.object({
  kind: z.enum(['success', 'error', 'info']).default('success'),
  title: z.string().max(200),
  description: z.string().max(500).optional(),
})
export type Toast = z.infer<typeof ToastSchema>

function toastCookie() {
  const env = getEnv()
  return createCookie('__toast', {
    httpOnly: true,
    sameSite: 'lax',
    path: '/',
    maxAge: 60,
    secure: env.secure,
    secrets: [`toast:${env.SESSION_SECRET}`],
  })
}

export async function toastHeader(toast: Toast) {
  return toastCookie().serialize(ToastSchema.parse(toast))
}

export async function redirectWithToast(url: string, toast: Toast, init: ResponseInit = {}) {
  const headers = new Headers(init.headers)
  headers.append('Set-Cookie', await toastHeader(toast))
  return redirect(url, { ...init, headers })
}

/** The pending toast, and the header that clears it. */
export async function readToast(request: Request): Promise<{ toast: Toast | null; clear: string | null }> {
  const cookie = toastCookie()
  const raw = await cookie.parse(request.headers.get('Cookie')).catch(() => null)
  if (raw === null || raw === undefined) return { toast: null, clear: null }
  const parsed = ToastSchema.safeParse(raw)
  return { toast: parsed.success ? parsed.data : null, clear: await cookie.serialize('', { maxAge: 0 }) }
}
