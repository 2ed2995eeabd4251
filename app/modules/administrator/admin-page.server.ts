import { getAdmin } from './administrator.server'

/**
 * Everything an administrator's page shows (ADR 033): the account with its live sessions, whether
 * it is the viewer's own (whose current session is marked), and whether the disable confirmation
 * is open. Null for an unknown or malformed id.
 */
export async function loadAdminPage(
  uid: string,
  searchParams: URLSearchParams,
  viewer: { userId: string; sessionId: string },
) {
  const admin = await getAdmin(uid)
  if (!admin) return null
  const isMe = admin.id === viewer.userId
  return {
    admin,
    isMe,
    currentSessionId: isMe ? viewer.sessionId : null,
    confirm: searchParams.has('disable') ? ('disable' as const) : null,
  }
}
