import { metaT } from '#app/modules/i18n/meta'
import type { RouteHandle } from '#app/root'

/** Every admin page renders in the admin layout and animates the way in. */
export const ADMIN_HANDLE: RouteHandle = { layout: 'admin', transition: true }

/** An admin page's document title: its own words, then the product's ("Brand management · Panorama admin"). */
export const adminTitle = (title: string) => [{ title: `${title} · Panorama admin` }]

type Matches = Parameters<typeof metaT>[0]

/**
 * An admin page's title in the page's language (ADR 050): the key's words, then any names as they
 * are ("Response about Sam · Answer management"), then the product's.
 */
export const adminTitleT = (matches: Matches, key: string, ...rest: string[]) =>
  adminTitle([metaT(matches, key), ...rest].join(' · '))

/**
 * {@link adminTitle} in the page's language (ADR 050): the title is a key of one of the page's
 * namespaces (`adminNamedTitleT(matches, 'brands:metaTitle')`); a page about one thing puts its name
 * first (`adminNamedTitleT(matches, 'brands:metaTitle', brand.name)` → "Acme · Brand management").
 */
export const adminNamedTitleT = (matches: Matches, key: string, name?: string) =>
  adminTitle(name === undefined ? metaT(matches, key) : `${name} · ${metaT(matches, key)}`)
