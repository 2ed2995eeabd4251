import { sql } from 'drizzle-orm'
import {
  boolean,
  check,
  index,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core'
import { companies } from './companies'
import { users } from './users'

/**
 * Single sign-on (issue 20 §1, ADR 049): the client organisations' OpenID providers an admin set up,
 * the e-mail domains each signs in and the companies that use it, the provider subjects linked to
 * accounts, and the short-lived state of a sign-in on its way through a provider.
 */

/** An OpenID provider: where it is, and who the portal is there (client id, sealed secret). */
export const identityProviders = pgTable(
  'identity_providers',
  {
    id: uuid().primaryKey().defaultRandom(),
    /** What people see: "Continue with …" and the pages that name it. */
    name: text().notNull(),
    issuer: text().notNull(),
    clientId: text().notNull(),
    /** AES-256-GCM with SECRET_KEY (app/lib/secret-box.server.ts); never shown again. */
    clientSecretSealed: text().notNull(),
    /** Space-separated, always with openid. */
    scopes: text().notNull().default('openid email profile'),
    /** Whether the employees of its companies may still sign in with a password. */
    allowPassword: boolean().notNull().default(true),
    /**
     * Just-in-time accounts: the company (one of its own) that an unknown, verified address of its
     * domains joins as an employee on first sign-in; null (the default) creates nobody.
     */
    jitCompanyId: uuid().references(() => companies.id, { onDelete: 'set null' }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('identity_providers_name_lower_unique').on(sql`lower(${t.name})`),
    index().on(t.createdAt, t.id),
  ],
)

/** The e-mail domains a provider signs in: one provider per domain, so routing by domain is one answer. */
export const identityProviderDomains = pgTable(
  'identity_provider_domains',
  {
    domain: text().primaryKey(),
    providerId: uuid()
      .notNull()
      .references(() => identityProviders.id, { onDelete: 'cascade' }),
  },
  (t) => [
    index().on(t.providerId),
    check('identity_provider_domains_lower', sql`${t.domain} = lower(${t.domain})`),
  ],
)

/** The companies whose people sign in through a provider (and whose password rule it sets). */
export const identityProviderCompanies = pgTable(
  'identity_provider_companies',
  {
    providerId: uuid()
      .notNull()
      .references(() => identityProviders.id, { onDelete: 'cascade' }),
    companyId: uuid()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.providerId, t.companyId] }), index().on(t.companyId)],
)

/**
 * A provider's subject linked to an account on its first sign-in there. Keyed by issuer, not by the
 * provider's row: `sub` is unique per issuer (OpenID Connect Core §2), the same for a provider set up
 * by variables, and survives a provider being set up again. One subject per account and issuer.
 */
export const userIdentities = pgTable(
  'user_identities',
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    issuer: text().notNull(),
    subject: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('user_identities_issuer_subject_unique').on(t.issuer, t.subject),
    uniqueIndex('user_identities_user_issuer_unique').on(t.userId, t.issuer),
  ],
)

/**
 * A sign-in on its way through a provider: only hashes. The state's, and the browser's (the random
 * secret of its `__sso` cookie): the PKCE verifier and the nonce are derived from that secret and
 * the state, so this row alone signs nobody in. Deleted when the callback uses it (single use) and
 * by housekeeping once expired. `providerId` null: the provider set by variables.
 */
export const ssoLoginStates = pgTable(
  'sso_login_states',
  {
    stateHash: text().primaryKey(),
    browserHash: text().notNull(),
    providerId: uuid().references(() => identityProviders.id, { onDelete: 'cascade' }),
    /** Where to go once signed in: a path on this site (safeRedirect), or null for the role's home. */
    redirectTo: text(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [index().on(t.expiresAt)],
)
