import { dateLabel } from '#app/lib/dates'

/** What the answering page and saving say when answers cannot be written, in the same words. */
export const ANSWER_MESSAGES = {
  closed: (closesAt: Date, timeZone?: string) =>
    `This feedback round closed on ${dateLabel(closesAt, timeZone).label}. Answers can no longer be added, changed or submitted.`,
  notOpen: (opensAt: Date, timeZone?: string) =>
    `This feedback round has not opened yet (it opens on ${dateLabel(opensAt, timeZone).label}). Answers cannot be saved before then.`,
  submitted: 'These answers were submitted and can no longer be changed.',
  admin: 'Administrators can view answers but cannot answer on someone’s behalf.',
  unreadable: 'This form could not be read. Reload the page and try again.',
} as const
