import { getNominationQueue } from '#app/modules/nomination/queue.server'
import { previewRelease, previewSchemeRelease } from '#app/modules/report/release.server'
import { getParticipant, listCandidates, listParticipants } from './participants.server'
import { parseSchemeDetailQuery } from './schemas'
import { getScheme, getSchemeFormOptions } from './scheme.server'

/**
 * Everything the scheme page shows (ADR 033: the page's props are this function's result): the
 * scheme, its participants and candidates, the lists waiting for approval (in a scheme that
 * approves them), the edit form's options and the panel the address asks for (`?edit`,
 * `?confirm=`, `?remove=`, `?release=`). Null when there is no such scheme.
 */
export async function loadSchemePage(
  schemeId: string,
  searchParams: URLSearchParams,
  /** The notices' words in the page's language (the route translates; English by default). */
  words = {
    staleCursor: 'That page link is out of date, so the first page is shown.',
    notEnrolled: 'That employee is not enrolled in this scheme (any more).',
  },
) {
  const scheme = await getScheme(schemeId)
  if (!scheme) return null
  const query = parseSchemeDetailQuery(searchParams)
  const editing = query.edit !== undefined
  const releasingAll = query.confirm === 'release-all' || query.confirm === 'release-again-all'
  const [
    participants,
    candidates,
    options,
    removing,
    releasing,
    releaseVerdict,
    releasePlan,
    nominationQueue,
  ] = await Promise.all([
    listParticipants(scheme, query),
    scheme.phase === 'closed' ? null : listCandidates(scheme, query.find),
    editing ? getSchemeFormOptions(scheme.questionnaireId, scheme.id) : null,
    query.remove ? getParticipant(scheme, query.remove) : null,
    query.release ? getParticipant(scheme, query.release) : null,
    // What a release would do now, under the rule between releases (ADR 025), for its confirmation.
    query.release ? previewRelease(scheme.id, query.release) : null,
    releasingAll ? previewSchemeRelease(scheme.id) : null,
    // The lists waiting for approval (ADR 042): only in a scheme that approves lists.
    scheme.nominationApproval === 'none' ? null : getNominationQueue(scheme.id),
  ])
  const notices: string[] = []
  if (participants.staleCursor) notices.push(words.staleCursor)
  if ((query.remove && !removing) || (query.release && !releasing)) notices.push(words.notEnrolled)
  return {
    scheme,
    query: { q: query.q, find: query.find, confirm: query.confirm ?? null, editing },
    participants,
    candidates,
    options,
    removing,
    releasing: releasing ? { ...releasing, verdict: releaseVerdict } : null,
    releasePlan,
    nominationQueue,
    notices,
  }
}

/** The scheme page as it was, without a panel open: where a finished change returns to. */
export function schemePageHref(url: URL, schemeId: string) {
  const search = new URLSearchParams(url.searchParams)
  for (const name of ['edit', 'confirm', 'remove', 'release', 'index']) search.delete(name)
  const rest = search.toString()
  return `/admin/scheme-management/${schemeId}${rest ? `?${rest}` : ''}`
}
