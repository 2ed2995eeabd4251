import type { RouteHandle } from '#app/root'

/** Every admin page renders in the admin layout and animates the way in. */
export const ADMIN_HANDLE: RouteHandle = { layout: 'admin', transition: true }

/** An admin page's document title: its own words, then the product's ("Brand management · Panorama admin"). */
export const adminTitle = (title: string) => [{ title: `${title} · Panorama admin` }]
