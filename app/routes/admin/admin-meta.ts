import type { RouteHandle } from '#app/root'
import { metaT } from '#app/modules/i18n/meta'

/** Every admin page renders in the admin layout and animates the way in. */
export const ADMIN_HANDLE: RouteHandle = { layout: 'admin', transition: true }

/** An admin page's document title: its own words, then the product's ("Brand management · Panorama admin"). */
export const adminTitle = (title: string) => [{ title: `${title} · Panorama admin` }]

/**
 * An admin page's title in the page's language (ADR 050): the key's words, then any names as they
 * are ("Response about Sam · Answer management"), then the product's.
 */
export const adminTitleT = (matches: Parameters<typeof metaT>[0], key: string, ...rest: string[]) =>
  adminTitle([metaT(matches, key), ...rest].join(' · '))
