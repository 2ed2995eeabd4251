import { sql, type SQL } from 'drizzle-orm'
import { getEnv } from '#app/config/env.server'

/**
 * Whether an account may still use a password (issue 20 §1, ADR 049): an employee of a company whose
 * identity provider says "no passwords" signs in only through that provider, and so does an employee
 * whose address is in a domain of the install-wide provider (OIDC_*) when OIDC_PASSWORD_SIGN_IN is
 * false. Admins always keep their password: the back office must stay reachable when a client's
 * provider is down. A boolean SQL term over `users`, so the sign-in, the link and the reset read it
 * in the statement that finds the account (no statement more). Written with the table's own name
 * (`users.…`): Drizzle leaves a single-table select's columns unqualified, and an unqualified
 * company_id inside the subquery would be the subquery's own.
 */
export function passwordAllowedSql(): SQL<boolean> {
  const env = getEnv().oidcProvider
  const envDomains =
    env && !env.allowPassword && env.domains.length
      ? sql` OR substring(users.email from '@([^@]*)$') IN (${sql.join(
          env.domains.map((d) => sql`${d}`),
          sql`, `,
        )})`
      : sql``
  return sql<boolean>`NOT (users.role = 'employee' AND (EXISTS (
      SELECT 1 FROM identity_provider_companies ipc
      JOIN identity_providers ip ON ip.id = ipc.provider_id
      WHERE ipc.company_id = users.company_id AND NOT ip.allow_password)${envDomains}))`
}
