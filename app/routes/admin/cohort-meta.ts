import printSheet from '#app/modules/cohort/cohort.css?url'
import { adminTitle } from './admin-meta'

/**
 * What a cohort page (group report, heatmap; a scheme's or a company's) puts in the document's head,
 * written once for the four routes.
 */

/** The print sheet ("Save as PDF", and the branded PDF for the client's HR contact), print only. */
export const cohortPrintLinks = () => [{ rel: 'stylesheet', href: printSheet, media: 'print' }]

/** "Group report · Acme 2026 · Panorama admin"; the page's word alone when there is no data (an error). */
export const cohortTitle = (page: 'Group report' | 'Heatmap', name: string | undefined) =>
  adminTitle(name === undefined ? page : `${page} · ${name}`)
