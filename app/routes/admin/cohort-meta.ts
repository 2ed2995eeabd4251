import printSheet from '#app/modules/cohort/cohort.css?url'
import type { RouteHandle } from '#app/root'
import { ADMIN_HANDLE, adminTitleT } from './admin-meta'

/**
 * What a cohort page (group report, heatmap; a scheme's or a company's) puts in the document's head,
 * written once for the four routes.
 */

/** The print sheet ("Save as PDF", and the branded PDF for the client's HR contact), print only. */
export const cohortPrintLinks = () => [{ rel: 'stylesheet', href: printSheet, media: 'print' }]

/** The cohort pages' handle: the admin layout, their words in the `cohort` catalogue (ADR 050). */
export const COHORT_HANDLE: RouteHandle = { ...ADMIN_HANDLE, i18n: 'cohort' }

/**
 * "Group report · Acme 2026 · Panorama admin", in the page's language; the page's word alone when
 * there is no data (an error).
 */
export const cohortTitle = (
  matches: Parameters<typeof adminTitleT>[0],
  page: 'groupReport' | 'heatmap',
  name: string | undefined,
) => adminTitleT(matches, `cohort:meta.${page}`, ...(name === undefined ? [] : [name]))
