import type { Role } from '#db/enums'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { Form, Link, NavLink } from 'react-router'
import { brandStyle, usePageBrand, type BrandLook } from '#app/components/brand-look'

export type LayoutUser = {
  id: string
  email: string
  displayName: string
  role: Role
  photoFileId: string | null
} | null
/** The consultancy's contact links; each is null when neither the deployment nor the brand configures it. */
export type Contact = { callbackUrl: string | null; email: string | null; profileUrl: string | null } | null
export type LayoutProps = { user: LayoutUser; contact: Contact; children: ReactNode }

/** A brand's own contact links win, link by link, over the deployment's (DESIGN.md §3, brands). */
export function contactFor(deployment: Contact, brand: BrandLook | null | undefined): Contact {
  const merged = {
    callbackUrl: brand?.contact.callbackUrl || deployment?.callbackUrl || null,
    email: brand?.contact.email || deployment?.email || null,
    profileUrl: brand?.contact.profileUrl || deployment?.profileUrl || null,
  }
  return merged.callbackUrl || merged.email || merged.profileUrl ? merged : null
}

function SkipLink() {
  const { t } = useTranslation('common')
  return (
    <a
      href="#main"
      className="sr-only focus:not-sr-only focus:absolute focus:left-4 focus:top-4 focus:z-50 focus:rounded focus:bg-white focus:px-4 focus:py-2 focus:shadow"
    >
      {t('skipLink')}
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

/**
 * A programme's brand in the header: its logo (on a white tile, since logos are drawn for white
 * paper) and its name, in the contrast-checked text colour over the brand's primary colour.
 */
function BrandMark({ brand, to }: { brand: BrandLook; to: string }) {
  return (
    <Link
      to={to}
      className="flex min-w-0 items-center gap-3 rounded-md text-lg font-bold tracking-tight text-[var(--brand-on-primary)] focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-current"
    >
      {brand.logoFileId ? (
        <span className="flex shrink-0 items-center rounded-md bg-white p-1">
          <img src={`/files/${brand.logoFileId}`} alt="" className="h-8 w-auto max-w-32 object-contain" />
        </span>
      ) : null}
      <span className="min-w-0 break-words">{brand.name}</span>
    </Link>
  )
}

/** Employee and colleague pages without one programme (the home page lists several): no one's brand. */
function NeutralMark({ to }: { to: string }) {
  const { t } = useTranslation('common')
  return (
    <Link to={to} className="flex items-center gap-2 text-lg font-bold tracking-tight text-slate-900">
      <svg aria-hidden="true" viewBox="0 0 32 32" className="h-7 w-7">
        <circle cx="16" cy="16" r="15" fill="#475569" />
        <circle cx="16" cy="16" r="9" fill="none" stroke="#fff" strokeWidth="3" />
        <circle cx="16" cy="16" r="3" fill="#fff" />
      </svg>
      {t('neutralMark')}
    </Link>
  )
}

function SignOutButton({ onBrand = false }: { onBrand?: boolean }) {
  const { t } = useTranslation('common')
  return (
    <Form method="post" action="/sign-out">
      <button
        type="submit"
        className={
          onBrand
            ? 'btn border border-current bg-transparent text-[var(--brand-on-primary)] hover:bg-black/10 focus-visible:outline-current'
            : 'btn btn-secondary'
        }
      >
        {t('signOut')}
      </button>
    </Form>
  )
}

/**
 * How the contact links read: in the portal's own voice, or naming the address (a colleague's
 * thank-you page). Catalogue keys (common namespace), read in the page's language.
 */
export type ContactWording = { email: 'contact.emailUs' | 'contact.emailAddress'; profile: string }
const OUR_WORDING: ContactWording = { email: 'contact.emailUs', profile: 'contact.ourProfile' }
export const ADDRESS_WORDING: ContactWording = { email: 'contact.emailAddress', profile: 'contact.profile' }

/** The contact links that are configured (deployment or brand); nothing at all when none is. */
export function ContactLinks({
  contact,
  wording = OUR_WORDING,
}: {
  contact: Contact
  wording?: ContactWording
}) {
  const { t } = useTranslation('common')
  if (!contact || !(contact.callbackUrl || contact.email || contact.profileUrl)) return null
  return (
    <ul className="flex flex-wrap gap-x-6 gap-y-2">
      {contact.callbackUrl ? (
        <li>
          <a className="link" href={contact.callbackUrl} rel="noopener noreferrer" target="_blank">
            {t('contact.callback')}
          </a>
        </li>
      ) : null}
      {contact.email ? (
        <li>
          <a className="link" href={`mailto:${contact.email}`}>
            {t(wording.email, { address: contact.email })}
          </a>
        </li>
      ) : null}
      {contact.profileUrl ? (
        <li>
          <a className="link" href={contact.profileUrl} rel="noopener noreferrer" target="_blank">
            {t(wording.profile)}
          </a>
        </li>
      ) : null}
    </ul>
  )
}

/** Panorama's name lives here, and only here, on a branded page. */
function Footer({ contact, brand }: { contact: Contact; brand?: BrandLook | null }) {
  const { t } = useTranslation('common')
  return (
    <footer className="no-print mt-16 border-t border-slate-200 bg-white">
      <div className="mx-auto flex max-w-6xl flex-col gap-3 px-4 py-8 text-sm text-slate-700 sm:flex-row sm:items-center sm:justify-between sm:px-6">
        <p>{brand ? t('footer.branded', { brand: brand.name }) : t('footer.plain')}</p>
        {contact ? (
          <nav aria-label={t('nav.contact')}>
            <ContactLinks contact={contact} />
          </nav>
        ) : null}
      </div>
    </footer>
  )
}

function homeOf(user: NonNullable<LayoutUser>) {
  return user.role === 'admin' ? '/admin' : user.role === 'employee' ? '/user' : '/user/thank-you'
}

/** The frame of the public and employee pages: the brand's colours, the skip link, header, main and footer. */
function BrandedShell({
  brand,
  contact,
  header,
  mainClassName,
  children,
}: {
  brand: BrandLook | null | undefined
  contact: LayoutProps['contact']
  header: ReactNode
  mainClassName: string
  children: ReactNode
}) {
  return (
    <div className="flex min-h-screen flex-col" style={brand ? brandStyle(brand) : undefined}>
      <SkipLink />
      {header}
      <main id="main" className={mainClassName}>
        {children}
      </main>
      <Footer contact={contactFor(contact, brand)} brand={brand} />
    </div>
  )
}

/**
 * Public pages: the landing page, sign-in, forgot password, verification, errors. Panorama's own
 * look, unless the page supplies a programme's brand (an invitation's landing and its sign-in step).
 */
function DefaultLayout({ user, contact, children }: LayoutProps) {
  const { t } = useTranslation('common')
  const brand = usePageBrand()
  const account = user ? (
    <>
      <Link
        className={brand ? 'font-medium text-[var(--brand-on-primary)] underline' : 'link'}
        to={homeOf(user)}
      >
        {t('myPortal')}
      </Link>
      <SignOutButton onBrand={Boolean(brand)} />
    </>
  ) : brand ? null : (
    <Link className="btn btn-primary" to="/sign-in">
      {t('signIn')}
    </Link>
  )
  return (
    <BrandedShell
      brand={brand}
      contact={contact}
      mainClassName="flex-1"
      header={
        brand ? (
          <header className="no-print">
            <div className="bg-[var(--brand-primary)] text-[var(--brand-on-primary)]">
              <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-x-4 gap-y-3 px-4 py-3 sm:px-6">
                <BrandMark brand={brand} to="/" />
                {account ? (
                  <nav aria-label={t('nav.account')} className="flex items-center gap-3">
                    {account}
                  </nav>
                ) : null}
              </div>
            </div>
            <div aria-hidden="true" className="h-1 bg-[var(--brand-accent)]" />
          </header>
        ) : (
          <header className="no-print border-b border-slate-200 bg-white">
            <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-x-4 gap-y-3 px-4 py-4 sm:px-6">
              <Logo />
              <nav aria-label={t('nav.account')} className="flex items-center gap-3">
                {account}
              </nav>
            </div>
          </header>
        )
      }
    >
      {children}
    </BrandedShell>
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

/**
 * On a branded page the current link is in the brand's colour and underlined in its accent: both the
 * variants checked against white (the row's background), so the text reads at AA.
 */
const brandNavLinkClass = ({ isActive }: { isActive: boolean }) =>
  `rounded-md border-b-2 px-3 py-2 text-sm ${
    isActive
      ? 'border-[var(--brand-accent-text)] font-semibold text-[var(--brand-primary-text)]'
      : 'border-transparent font-medium text-slate-700 hover:bg-slate-100'
  }`

/**
 * Employees and colleagues. The header wears the brand of the page's programme (logo, name, primary
 * and accent colours; usePageBrand); a page about no single programme gets a neutral header.
 */
function UserLayout({ user, contact, children }: LayoutProps) {
  const { t } = useTranslation('common')
  const brand = usePageBrand()
  const home = user ? homeOf(user) : '/'
  const who = user ? (
    <div className="flex min-w-0 flex-wrap items-center gap-3">
      <span className="flex min-w-0 items-center gap-2 text-sm">
        <Avatar user={user} />
        <span className="min-w-0 break-all">{user.displayName || user.email}</span>
      </span>
      <SignOutButton onBrand={Boolean(brand)} />
    </div>
  ) : null
  return (
    <BrandedShell
      brand={brand}
      contact={contact}
      mainClassName="mx-auto w-full max-w-6xl flex-1 px-4 py-8 sm:px-6 sm:py-10"
      header={
        <header className="no-print">
          <div
            className={
              brand
                ? 'bg-[var(--brand-primary)] text-[var(--brand-on-primary)]'
                : 'border-b border-slate-200 bg-white text-slate-700'
            }
          >
            <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-x-4 gap-y-3 px-4 py-3 sm:px-6">
              {brand ? <BrandMark brand={brand} to={home} /> : <NeutralMark to={home} />}
              {who}
            </div>
          </div>
          {brand ? <div aria-hidden="true" className="h-1 bg-[var(--brand-accent)]" /> : null}
          {user?.role === 'employee' ? (
            <div className="border-b border-slate-200 bg-white">
              <nav
                aria-label={t('nav.main')}
                className="mx-auto flex max-w-6xl flex-wrap gap-1 px-4 py-2 sm:px-6"
              >
                {(
                  [
                    ['/user', 'nav.myFeedback'],
                    ['/user/colleague-invite', 'nav.inviteColleagues'],
                    ['/user/edit-profile', 'nav.profile'],
                  ] as const
                ).map(([to, label]) => (
                  <NavLink
                    key={to}
                    to={to}
                    end={to === '/user'}
                    className={brand ? brandNavLinkClass : navLinkClass}
                    viewTransition
                  >
                    {t(label)}
                  </NavLink>
                ))}
              </nav>
            </div>
          ) : null}
        </header>
      }
    >
      {children}
    </BrandedShell>
  )
}

const ADMIN_NAV = [
  ['/admin', 'nav.dashboard'],
  ['/admin/company-management', 'nav.companies'],
  ['/admin/brand-management', 'nav.brands'],
  ['/admin/email-management', 'nav.emails'],
  ['/admin/admin-management', 'nav.admins'],
  ['/admin/identity-provider-management', 'nav.identityProviders'],
  ['/admin/api-keys', 'nav.apiKeys'],
  ['/admin/webhooks', 'nav.webhooks'],
  ['/admin/employee-management', 'nav.employees'],
  ['/admin/scheme-management', 'nav.schemes'],
  ['/admin/questionnaire-management', 'nav.questionnaires'],
  ['/admin/answer-management', 'nav.answers'],
] as const

/** Consultancy staff: a side navigation over every management page. */
function AdminLayout({ user, children }: LayoutProps) {
  const { t } = useTranslation('common')
  return (
    <div className="flex min-h-screen flex-col">
      <SkipLink />
      <header className="no-print border-b border-slate-200 bg-white">
        <div className="flex items-center justify-between px-6 py-4">
          <Logo />
          <div className="flex items-center gap-3">
            {user ? (
              <Link
                to="/admin/profile"
                className="link text-sm"
                aria-label={t('nav.yourProfile', { name: user.displayName || user.email })}
                viewTransition
              >
                {user.displayName || user.email}
              </Link>
            ) : null}
            <SignOutButton />
          </div>
        </div>
      </header>
      <div className="flex flex-1 flex-col md:flex-row">
        <nav
          aria-label={t('nav.administration')}
          className="no-print border-b border-slate-200 bg-white p-4 md:w-60 md:border-b-0 md:border-r"
        >
          <ul className="flex flex-wrap gap-1 md:flex-col">
            {ADMIN_NAV.map(([to, label]) => (
              <li key={to}>
                <NavLink to={to} end={to === '/admin'} className={navLinkClass} viewTransition>
                  {t(label)}
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
