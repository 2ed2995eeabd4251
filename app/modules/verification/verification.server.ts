import type { PageData } from '#app/lib/page-data'
import { createCookie } from 'react-router'
import type { BrandLook } from '#app/components/brand-look'
import { getEnv } from '#app/config/env.server'
import { KIND_OF_MODE } from '#app/modules/action-code/action-code.server'
import { checkInvite } from '#app/modules/invite/accept.server'
import { brandOfActivationCode, checkActionCode } from '#app/modules/auth/auth.server'
import { authErrorMessage } from '#app/modules/auth/errors'
import { getRequestSession, type SessionUser } from '#app/modules/auth/session.server'
import type { VerificationMode as Mode } from './verification'

/**
 * The data of the e-mail action handler's page (/verification, ADR 005): which step a link's code
 * is at, read from the short-lived cookie the code moved into. The route answers the statuses and
 * moves the code out of the address bar; this module decides what the page shows.
 */

/** The HttpOnly cookie a link's code waits in between the link's GET and the page's POST. */
export function pendingCookie() {
  const env = getEnv()
  return createCookie('__action', {
    httpOnly: true,
    sameSite: 'lax',
    // Path=/ rather than /verification: script submissions post to /verification.data, which a
    // /verification cookie path would not match.
    path: '/',
    maxAge: 60 * 60,
    secure: env.secure,
    secrets: [`action:${env.SESSION_SECRET}`],
  })
}

/** The code waiting for this mode, if any. */
export async function readPendingCode(request: Request, mode: Mode): Promise<string | null> {
  const value = (await pendingCookie()
    .parse(request.headers.get('Cookie'))
    .catch(() => null)) as { mode?: string; code?: string } | null
  return value?.mode === mode && typeof value.code === 'string' ? value.code : null
}

/**
 * A link that no longer works still shows whose programme it came from: an activation or invite
 * code whose owner is still found by its hash gives its brand (only the look, nothing of the account).
 */
const expired = (mode: Mode | null, brand: BrandLook | null = null) => ({
  state: 'expired' as const,
  mode,
  message: authErrorMessage('auth/expired-action-code'),
  code: 'auth/expired-action-code' as const,
  brand,
})

// A colleague opening their link after answering: nothing is wrong, nothing more is needed.
// `changeAnswers`: where this respondent, signed in here, may ask to change their answers (ADR 039).
const submitted = (mode: Mode, brand: BrandLook | null, changeAnswers: string | null = null) => ({
  state: 'submitted' as const,
  mode,
  brand,
  changeAnswers,
})

/**
 * A used invite link of answers that are in, opened in a browser signed in as their respondent
 * while the round is open: the way to "I need to change my answers". Anyone else holding the link
 * learns nothing more than that the feedback is in.
 */
async function changeAnswersHref(
  request: Request,
  answered: { assignmentId: string; respondentId: string } | undefined,
) {
  if (!answered) return null
  const current = await getRequestSession(request)
  if (current?.user.id !== answered.respondentId) return null
  return `/user/thank-you?assignment=${answered.assignmentId}#change-answers`
}

/** The brand an expired or used link still shows: an activation link's (an invite's comes with its check). */
function linkBrand(mode: Mode, code: string): Promise<BrandLook | null> {
  return mode === 'activate' ? brandOfActivationCode(code) : Promise.resolve(null)
}

/** A link's code, checked before it moves into the cookie: null when it works, else the page saying why not. */
export async function checkLinkCode(mode: Mode, code: string, request: Request) {
  if (mode === 'invite') {
    const check = await checkInvite(code)
    if (!check.ok)
      return check.submitted
        ? submitted(mode, check.brand, await changeAnswersHref(request, check.answered))
        : expired(mode, check.brand)
  } else {
    const check = await checkActionCode(KIND_OF_MODE[mode]!, code)
    if (!check.ok) return expired(mode, await linkBrand(mode, code))
  }
  return null
}

/**
 * Who else this browser is signed in as (null: nobody, or the link's own person), named on a page
 * whose press would replace that session.
 */
async function otherSignedIn(request: Request, isLinkOwner: (user: SessionUser) => boolean) {
  const current = await getRequestSession(request)
  if (!current || isLinkOwner(current.user)) return null
  return current.user.displayName || current.user.email
}

/**
 * The page for a mode (null: the address named none it knows) once the code is in the cookie:
 * what to show, or why the link no longer works. `done` is the confirmation after a new e-mail
 * address was confirmed.
 */
export async function loadVerificationPage(request: Request, mode: Mode | null, done: boolean) {
  if (!mode)
    return {
      state: 'invalid' as const,
      message: authErrorMessage('auth/invalid-action-code'),
      code: 'auth/invalid-action-code' as const,
    }
  if (mode === 'verifyEmail' && done) return { state: 'done' as const, mode }
  const pending = await readPendingCode(request, mode)
  if (!pending) return expired(mode)
  if (mode === 'invite') {
    const check = await checkInvite(pending)
    if (!check.ok)
      return check.submitted
        ? submitted(mode, check.brand, await changeAnswersHref(request, check.answered))
        : expired(mode, check.brand)
    // Signed in as someone else here: say so, and let them choose (no automatic switch).
    const signedInAs = await otherSignedIn(request, (user) => user.id === check.respondentId)
    return { state: 'invite' as const, mode, subjectName: check.subjectName, signedInAs, brand: check.brand }
  }
  const check = await checkActionCode(KIND_OF_MODE[mode]!, pending)
  if (!check.ok) return expired(mode, await linkBrand(mode, pending))
  if (mode === 'verifyEmail') return { state: 'confirm-email' as const, mode, newEmail: check.newEmail }
  if (mode === 'signIn') {
    // Signed in as someone else here: say so before the press replaces that session.
    const signedInAs = await otherSignedIn(request, (user) => user.email === check.email)
    return { state: 'sign-in-link' as const, mode, email: check.email, signedInAs }
  }
  return {
    state: 'form' as const,
    mode,
    email: check.email,
    passwordMinLength: getEnv().PASSWORD_MIN_LENGTH,
    // The first page an employee sees of a programme wears its brand (issue 15, B10).
    ...(mode === 'activate' ? { brand: await brandOfActivationCode(pending) } : {}),
  }
}

export type VerificationPageData = PageData<typeof loadVerificationPage>
