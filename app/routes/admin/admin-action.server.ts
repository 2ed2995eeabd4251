import { readFormData } from '#app/lib/form-data.server'
import { requireUser } from '#app/modules/auth/guards.server'
import { ROUTE_ROLES } from '#app/modules/auth/permissions'
import { redirectWithToast, type Toast } from '#app/modules/toast/toast.server'

/**
 * The route side of the admin pages' actions, so each reads like its siblings: guard first, then
 * the form, the intent table (app/lib/reply.server.ts) and a redirect with a toast. Not a route:
 * app/routes.ts names the routes.
 */

/** Who an admin change is audited as. */
export type AdminActor = { id: string; ip: string | null }

/** The admin guard of an action, and the actor its changes are audited as (who, from where). */
export async function requireAdminActor(request: Request, context: { ip?: string }) {
  const { user, session } = await requireUser(request, { roles: ROUTE_ROLES.admin })
  const actor: AdminActor = { id: user.id, ip: context.ip || null }
  return { user, session, actor }
}

/**
 * {@link requireAdminActor}, then the posted form: an empty one when the body is not a form, whose
 * missing intent the intent table answers with the usual 400.
 */
export async function requireAdminForm(request: Request, context: { ip?: string }) {
  const admin = await requireAdminActor(request, context)
  return { ...admin, formData: await readFormData(request) }
}

/**
 * The success answer of a page's forms, written once per page: `done(title, description)` goes
 * back to `href` with that toast (`'info'` when nothing changed).
 */
export function toastReply(href: string) {
  return (title: string, description: string, kind: 'success' | 'info' = 'success') =>
    redirectWithToast(href, { kind, title, description })
}

/** An edit form's toast in the page's language (`getFixedT`): its title, and the words for no change. */
export type SavedToastWords = { saved: string; nothingToSave: string; unchanged: string }

/**
 * The toast of an edit form, from the fields its change touched: "Company saved", or that the
 * company already had those details. `words`, when given, says it in the request's language.
 */
export function savedToast(
  changed: readonly unknown[],
  noun: string,
  description: string,
  words?: SavedToastWords,
): Toast {
  return changed.length
    ? {
        kind: 'success',
        title: words?.saved ?? `${noun.charAt(0).toUpperCase()}${noun.slice(1)} saved`,
        description,
      }
    : {
        kind: 'info',
        title: words?.nothingToSave ?? 'Nothing to save',
        description: words?.unchanged ?? `The ${noun} already had those details.`,
      }
}
