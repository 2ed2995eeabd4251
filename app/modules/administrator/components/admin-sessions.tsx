import { useTranslation } from 'react-i18next'
import type { AdminSession } from '#app/modules/administrator/administrator.server'
import { richT } from '#app/modules/i18n/rich'
import { IntentButton } from './admin-forms'

/** Where a session was opened, in words a person recognises ("Firefox on Windows"). */
export function deviceOf(userAgent: string | null) {
  if (!userAgent) return 'Unknown device'
  const { browser, system } = deviceParts(userAgent)
  return system ? `${browser ?? 'A browser'} on ${system}` : (browser ?? 'A browser')
}

/** The browser and the system a user agent names (null: not one the portal knows). */
function deviceParts(userAgent: string) {
  const browser = /Edg\//.test(userAgent)
    ? 'Edge'
    : /Firefox\//.test(userAgent)
      ? 'Firefox'
      : /Chrome\//.test(userAgent)
        ? 'Chrome'
        : /Safari\//.test(userAgent)
          ? 'Safari'
          : null
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
  return { browser, system }
}

/** {@link deviceOf} in the page's language (admins:sessions.device). */
function useDeviceOf() {
  const { t } = useTranslation('admins')
  return (userAgent: string | null) => {
    if (!userAgent) return t('sessions.unknownDevice')
    const { browser, system } = deviceParts(userAgent)
    const named = browser ?? t('sessions.aBrowser')
    return system ? t('sessions.device', { browser: named, system }) : named
  }
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
  const { t } = useTranslation('admins')
  const device = useDeviceOf()
  return (
    <section aria-labelledby="sessions-title" className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="sessions-title" className="text-lg font-semibold">
          {t('sessions.title')}
        </h2>
        {sessions.some((s) => s.id !== currentSessionId) ? (
          <IntentButton
            intent="end-sessions"
            fields={{ adminId }}
            label={currentSessionId ? t('sessions.endOthers') : t('sessions.endAll')}
            pendingLabel={t('sessions.ending')}
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
                  {device(s.userAgent)}
                  {s.id === currentSessionId ? (
                    <span className="ml-2 text-sm text-emerald-800">{t('sessions.this')}</span>
                  ) : null}
                </p>
                <p className="text-sm text-slate-700">
                  {richT(
                    t,
                    'sessions.times',
                    {
                      lastSeen: <time dateTime={s.lastSeenAt}>{when(s.lastSeenAt)}</time>,
                      created: <time dateTime={s.createdAt}>{when(s.createdAt)}</time>,
                    },
                    { hasIp: s.ip ? 'yes' : 'no', ip: s.ip ?? '' },
                  )}
                </p>
              </div>
              {s.id === currentSessionId ? null : (
                <IntentButton
                  intent="end-session"
                  fields={{ adminId, sessionId: s.id }}
                  label={t('sessions.end')}
                  pendingLabel={t('sessions.ending')}
                />
              )}
            </li>
          ))}
        </ul>
      ) : (
        <p className="card text-slate-700">{t('sessions.none')}</p>
      )}
    </section>
  )
}
