import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import type { EmailTab } from '../schemas'

const TABS: Array<{ tab: EmailTab; href: string }> = [
  { tab: 'templates', href: '/admin/email-management' },
  { tab: 'outbox', href: '/admin/email-management?tab=outbox' },
]

/** The two views of e-mail management, as links (the tab lives in the URL, so it works without JS). */
export function EmailTabs({ current }: { current: EmailTab }) {
  const { t: say } = useTranslation('email')
  return (
    <nav aria-label={say('tabs.label')} className="border-b border-slate-200">
      <ul className="flex gap-1">
        {TABS.map((t) => (
          <li key={t.tab}>
            <Link
              to={t.href}
              aria-current={t.tab === current ? 'page' : undefined}
              className={`-mb-px inline-block rounded-t-md border px-4 py-2 text-sm font-medium focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 ${
                t.tab === current
                  ? 'border-slate-200 border-b-white bg-white text-slate-900'
                  : 'border-transparent text-slate-700 hover:text-slate-900 hover:underline'
              }`}
            >
              {say(`tabs.${t.tab}`)}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  )
}
