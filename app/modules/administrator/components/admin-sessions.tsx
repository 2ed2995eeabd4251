import type { AdminSession } from '#app/modules/administrator/administrator.server'
import { IntentButton } from './admin-forms'

/** Where a session was opened, in words a person recognises ("Firefox on Windows"). */
export function deviceOf(userAgent: string | null) {
  if (!userAgent) return 'Unknown device'
  const browser = /Edg\//.test(userAgent)
    ? 'Edge'
    : /Firefox\//.test(userAgent)
      ? 'Firefox'
      : /Chrome\//.test(userAgent)
        ? 'Chrome'
        : /Safari\//.test(userAgent)
          ? 'Safari'
          : 'A browser'
  const system = /Windows/.test(userAgent)
    ? 'Windows'
    : /iPhone|iPad/.test(userAgent)
      ? 'iOS'
      : /Android/.test(userAgent)
        ? 'Android'
        : /Mac OS X/.test(userAgent)
          ? 'macOS'
          : /Linux/.test(userAgent)
            ? 'Linux'
            : null
  return system ? `${browser} on ${system}` : browser
}

const when = (iso: string) => iso.replace('T', ' ').slice(0, 16)

export function AdminSessions({
  adminId,
  sessions,
  currentSessionId,
}: {
  adminId: string
  sessions: AdminSession[]
  currentSessionId: string | null
}) {
  return (
    <section aria-labelledby="sessions-title" className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="sessions-title" className="text-lg font-semibold">
          Signed-in sessions
        </h2>
        {sessions.some((s) => s.id !== currentSessionId) ? (
          <IntentButton
            intent="end-sessions"
            fields={{ adminId }}
            label={currentSessionId ? 'End my other sessions' : 'End all sessions'}
            pendingLabel="Ending…"
            tone="danger"
          />
        ) : null}
      </div>
      {sessions.length ? (
        <ul className="flex flex-col gap-3">
          {sessions.map((s) => (
            <li key={s.id} className="card flex flex-wrap items-center justify-between gap-3">
              <div>
                <p className="font-medium text-slate-900">
                  {deviceOf(s.userAgent)}
                  {s.id === currentSessionId ? (
                    <span className="ml-2 text-sm text-emerald-800">(this session)</span>
                  ) : null}
                </p>
                <p className="text-sm text-slate-700">
                  Last active <time dateTime={s.lastSeenAt}>{when(s.lastSeenAt)}</time> UTC · signed in{' '}
                  <time dateTime={s.createdAt}>{when(s.createdAt)}</time> UTC{s.ip ? ` · from ${s.ip}` : ''}
                </p>
              </div>
              {s.id === currentSessionId ? null : (
                <IntentButton
                  intent="end-session"
                  fields={{ adminId, sessionId: s.id }}
                  label="End this session"
                  pendingLabel="Ending…"
                />
              )}
            </li>
          ))}
        </ul>
      ) : (
        <p className="card text-slate-700">No live sessions: they are not signed in anywhere.</p>
      )}
    </section>
  )
}
