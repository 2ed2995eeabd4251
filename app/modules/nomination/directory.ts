/**
 * The colleague directory's type-ahead (issue 18 §3): what the resource route answers and the
 * combobox reads. No imports at all: this file reaches the browser, whose bundle for the page is
 * held to its budget (npm run size).
 */

/** The resource route the combobox asks (app/routes/user/colleague-invite.directory.ts). */
export const DIRECTORY_PATH = '/user/colleague-invite/directory'

/** Fewer letters than this match too much to be useful, and the trigram indexes serve 3 or more. */
export const DIRECTORY_MIN_QUERY = 3
/** A type-ahead shows a handful: enough to pick from, never the directory. */
export const DIRECTORY_MAX_RESULTS = 8
/** The longest search term read (a name, a department or a title is far shorter). */
export const DIRECTORY_QUERY_MAX = 100

export const DIRECTORY_MESSAGES = {
  tooShort: `Type at least ${DIRECTORY_MIN_QUERY} letters`,
  limited: (seconds: number) =>
    `Too many searches in a short time. Try again in ${seconds} second${seconds === 1 ? '' : 's'}.`,
} as const

/** One person the directory offers. Never their e-mail address: the server resolves it by id. */
export type DirectoryPerson = { id: string; name: string; department: string | null; jobTitle: string | null }

export type DirectoryAnswer = { people: DirectoryPerson[]; hint: string | null }
