import { readFormData } from '#app/lib/form-data.server'
import { sayOutcome, type Outcome } from '#app/lib/outcome'
import { getFixedT } from '#app/modules/i18n/i18n.server'
import type { Namespace } from '#app/modules/i18n/languages'
import { RESOURCES } from '#app/modules/i18n/resources.server'
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

/** {@link SavedToastWords} from a namespace's `toast.saved`, `toast.nothingToSave` and `toast.unchanged`. */
export function savedToastWords(
  t: (key: 'toast.saved' | 'toast.nothingToSave' | 'toast.unchanged') => string,
) {
  return { saved: t('toast.saved'), nothingToSave: t('toast.nothingToSave'), unchanged: t('toast.unchanged') }
}

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

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** Each English message of a namespace's `named` table as a pattern, its arguments captured. */
function namedPatterns(namespace: Namespace) {
  const table = (RESOURCES.en?.[namespace] as { named?: Record<string, string> } | undefined)?.named ?? {}
  return Object.entries(table).map(([key, message]) => {
    const names: string[] = []
    const source = message
      .split(/(\{[a-zA-Z]+\})/)
      .map((part) => {
        const arg = /^\{([a-zA-Z]+)\}$/.exec(part)?.[1]
        if (!arg) return escapeRegExp(part)
        names.push(arg)
        return '(.+?)'
      })
      .join('')
    return { key, names, pattern: new RegExp(`^${source}$`, 's') }
  })
}

/**
 * A module's refusal in the request's language (ADR 052): the sentences with a name in them ("A
 * company called “Acme” already exists.") cannot be looked up whole by the form kit, so the action
 * writes them, matching each against the English of the namespace's `named` table and saying it
 * with the same names. Every other message is left for the form kit's `validation` tables.
 */
export async function sayRefusal<T>(
  request: Request,
  namespace: Namespace,
  outcome: Outcome<T>,
): Promise<Outcome<T>> {
  if (outcome.ok || (!outcome.formErrors?.length && !outcome.fieldErrors)) return outcome
  const patterns = namedPatterns(namespace)
  const t = await getFixedT(request, namespace)
  const say = (message: string) => {
    for (const { key, names, pattern } of patterns) {
      const match = pattern.exec(message)
      if (!match) continue
      const values = Object.fromEntries(names.map((name, i) => [name, match[i + 1]!]))
      return t(`named.${key}` as never, values as never) as unknown as string
    }
    return message
  }
  return sayOutcome(outcome, say)
}
