import type { ReactNode } from 'react'
import { Form, Link, NavLink } from 'react-router'

export type LayoutUser = {
  id: string
  email: string
  displayName: string
  role: 'admin' | 'employee' | 'colleague'
  photoFileId: string | null
} | null
export type Contact = { callbackUrl: string; email: string; profileUrl: string } | null
export type LayoutProps = { user: LayoutUser; contact: Contact; children: ReactNode }

function SkipLink() {
  return (
    <a
      href="#main"
      className="sr-only focus:not-sr-only focus:absolute focus:left-4 focus:top-4 focus:z-50 focus:rounded focus:bg-white focus:px-4 focus:py-2 focus:shadow"
    >
      Skip to content
    </a>
  )
}

function Logo() {
  return (
    <Link to="/" className="flex items-center gap-2 text-lg font-bold tracking-tight text-slate-900">
      <svg aria-hidden="true" viewBox="0 0 32 32" className="h-7 w-7">
        <circle cx="16" cy="16" r="15" fill="#4338ca" />
        <circle cx="16" cy="16" r="9" fill="none" stroke="#fff" strokeWidth="3" />
        <circle cx="16" cy="16" r="3" fill="#fff" />
      </svg>
      Panorama
    </Link>
  )
}

function SignOutButton() {
  return (
    <Form method="post" action="/sign-out">
      <button type="submit" className="btn btn-secondary">
        Sign out
      </button>
    </Form>
  )
}

export function ContactLinks({ contact }: { contact: Contact }) {
  if (!contact) return null
  return (
    <ul className="flex flex-wrap gap-x-6 gap-y-2">
      <li>
        <a className="link" href={contact.callbackUrl} rel="noopener noreferrer" target="_blank">
          Request a callback
        </a>
      </li>
      <li>
        <a className="link" href={`mailto:${contact.email}`}>
          E-mail us
        </a>
      </li>
      <li>
        <a className="link" href={contact.profileUrl} rel="noopener noreferrer" target="_blank">
          Our professional profile
        </a>
      </li>
    </ul>
  )
}

function Footer({ contact }: { contact: Contact }) {
  return (
    <footer className="no-print mt-16 border-t border-slate-200 bg-white">
      <div className="mx-auto flex max-w-6xl flex-col gap-3 px-6 py-8 text-sm text-slate-700 sm:flex-row sm:items-center sm:justify-between">
        <p>Panorama · 360° feedback</p>
        <nav aria-label="Contact">
          <ContactLinks contact={contact} />
        </nav>
      </div>
    </footer>
  )
}

function homeOf(user: NonNullable<LayoutUser>) {
  return user.role === 'admin' ? '/admin' : user.role === 'employee' ? '/user' : '/user/thank-you'
}

/** Public pages: the landing page, sign-in, forgot password, verification, errors. */
function DefaultLayout({ user, contact, children }: LayoutProps) {
  return (
    <div className="flex min-h-screen flex-col">
      <SkipLink />
      <header className="no-print border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-6xl items-center justify-between px-6 py-4">
          <Logo />
          <nav aria-label="Account" className="flex items-center gap-3">
            {user ? (
              <>
                <Link className="link" to={homeOf(user)}>
                  My portal
                </Link>
                <SignOutButton />
              </>
            ) : (
              <Link className="btn btn-primary" to="/sign-in">
                Sign in
              </Link>
            )}
          </nav>
        </div>
      </header>
      <main id="main" className="flex-1">
        {children}
      </main>
      <Footer contact={contact} />
    </div>
  )
}

/** "Erin Employee" → "EE"; no name → the first letter of the e-mail address. */
function initialsOf(user: NonNullable<LayoutUser>) {
  const words = user.displayName.split(/\s+/).filter(Boolean)
  const letters =
    words.length > 1 ? [words[0]!, words[words.length - 1]!] : words.length ? words : [user.email]
  return letters.map((w) => [...w][0]!.toUpperCase()).join('')
}

/** The profile photo beside the name, else initials. Decorative: the name next to it says who it is. */
function Avatar({ user }: { user: NonNullable<LayoutUser> }) {
  if (user.photoFileId) {
    return (
      <img
        src={`/files/${user.photoFileId}`}
        alt=""
        width={32}
        height={32}
        className="h-8 w-8 rounded-full border border-slate-200 bg-white object-cover"
      />
    )
  }
  return (
    <span
      aria-hidden="true"
      className="flex h-8 w-8 items-center justify-center rounded-full bg-indigo-100 text-xs font-semibold text-indigo-900"
    >
      {initialsOf(user)}
    </span>
  )
}

const navLinkClass = ({ isActive }: { isActive: boolean }) =>
  `rounded-md px-3 py-2 text-sm font-medium ${isActive ? 'bg-indigo-50 text-indigo-800' : 'text-slate-700 hover:bg-slate-100'}`

/** Employees and colleagues. */
function UserLayout({ user, contact, children }: LayoutProps) {
  return (
    <div className="flex min-h-screen flex-col">
      <SkipLink />
      <header className="no-print border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-4 px-6 py-4">
          <Logo />
          {user?.role === 'employee' ? (
            <nav aria-label="Main" className="flex flex-wrap gap-1">
              <NavLink to="/user" end className={navLinkClass} viewTransition>
                My feedback
              </NavLink>
              <NavLink to="/user/colleague-invite" className={navLinkClass} viewTransition>
                Invite colleagues
              </NavLink>
              <NavLink to="/user/edit-profile" className={navLinkClass} viewTransition>
                Profile
              </NavLink>
            </nav>
          ) : null}
          <div className="flex items-center gap-3">
            {user ? (
              <span className="flex items-center gap-2 text-sm text-slate-700">
                <Avatar user={user} />
                <span>{user.displayName || user.email}</span>
              </span>
            ) : null}
            {user ? <SignOutButton /> : null}
          </div>
        </div>
      </header>
      <main id="main" className="mx-auto w-full max-w-6xl flex-1 px-6 py-10">
        {children}
      </main>
      <Footer contact={contact} />
    </div>
  )
}

const ADMIN_NAV = [
  ['/admin', 'Dashboard'],
  ['/admin/company-management', 'Companies'],
  ['/admin/brand-management', 'Brands'],
  ['/admin/email-management', 'E-mails'],
  ['/admin/admin-management', 'Admins'],
  ['/admin/employee-management', 'Employees'],
  ['/admin/scheme-management', 'Schemes'],
  ['/admin/questionnaire-management', 'Questionnaires'],
  ['/admin/answer-management', 'Answers'],
] as const

/** Consultancy staff: a side navigation over every management page. */
function AdminLayout({ user, children }: LayoutProps) {
  return (
    <div className="flex min-h-screen flex-col">
      <SkipLink />
      <header className="no-print border-b border-slate-200 bg-white">
        <div className="flex items-center justify-between px-6 py-4">
          <Logo />
          <div className="flex items-center gap-3">
            {user ? <span className="text-sm text-slate-700">{user.displayName || user.email}</span> : null}
            <SignOutButton />
          </div>
        </div>
      </header>
      <div className="flex flex-1 flex-col md:flex-row">
        <nav
          aria-label="Administration"
          className="no-print border-b border-slate-200 bg-white p-4 md:w-60 md:border-b-0 md:border-r"
        >
          <ul className="flex flex-wrap gap-1 md:flex-col">
            {ADMIN_NAV.map(([to, label]) => (
              <li key={to}>
                <NavLink to={to} end={to === '/admin'} className={navLinkClass} viewTransition>
                  {label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <main id="main" className="min-w-0 flex-1 px-6 py-8">
          {children}
        </main>
      </div>
    </div>
  )
}

export const LAYOUTS = {
  default: DefaultLayout,
  user: UserLayout,
  admin: AdminLayout,
} as const

export type LayoutName = keyof typeof LAYOUTS
