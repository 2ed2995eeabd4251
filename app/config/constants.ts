/**
 * Every business constant of the spec (§9, and the numbers of §7-§8) in one module, so a change to a
 * limit is one edit and the tests can check the values against the spec line by line.
 */

/** maxColleagues: the most colleagues an employee can invite per scheme, also the per-scheme hard ceiling. */
export const MAX_COLLEAGUES = 8

/**
 * The rater fatigue cap (issue 18 §4, ADR 038): a company's default for how many open feedback
 * requests one person may hold at once across all schemes, and the range an admin may set (the
 * database's CHECK on companies.feedback_request_cap says the same).
 */
export const FEEDBACK_REQUEST_CAP_DEFAULT = 5
export const FEEDBACK_REQUEST_CAP_MIN = 1
export const FEEDBACK_REQUEST_CAP_MAX = 50

/** The spec names the chart colours, not their values; these are readable on white yet obviously the named hue. */
export const CHART_COLOR_NAMES = [
  'black',
  'red',
  'orange',
  'yellow',
  'magenta',
  'green',
  'cyan',
  'blue',
  'violet',
  'transparent white',
] as const

/** Same order as CHART_COLOR_NAMES: the first data set (self) is black, colleagues follow. */
export const CHART_COLORS = [
  '#000000',
  '#dc2626',
  '#ea580c',
  '#ca8a04',
  '#c026d3',
  '#16a34a',
  '#0891b2',
  '#2563eb',
  '#7c3aed',
  'rgba(255, 255, 255, 0)',
] as const

export const CHART_BORDER_WIDTH = 2

export const TIMINGS = {
  /** Refresh the session token this long before it expires, so a slow answer still lands in time. */
  tokenRefreshLeadMs: 5 * 60 * 1000,
  /** First retry after a failed refresh; each further retry doubles the wait… */
  refreshRetryInitialMs: 30 * 1000,
  /** …up to this ceiling. */
  refreshRetryMaxMs: 16 * 60 * 1000,
  signInTimeoutDesktopMs: 30 * 1000,
  /** Mobile networks are slower and more often switch cells mid-request, hence twice the desktop wait. */
  signInTimeoutMobileMs: 60 * 1000,
  /** After a failed chunk or manifest load the page reloads at most once in this window. */
  reloadGuardMs: 10 * 1000,
} as const

/** Methods whose repetition may repeat a side effect; the HTTP client never retries them. */
export const NON_IDEMPOTENT_METHODS = ['POST', 'PUT', 'PATCH', 'DELETE'] as const

/** The only statuses a retry may cure: timeouts, conflicts, throttling and transient server failures. */
export const RETRY_STATUSES = [408, 409, 425, 429, 500, 502, 503, 504] as const

/** What Chrome, Safari and Firefox say when fetch() fails below HTTP; they name no host, hence §8. */
export const FAILED_FETCH_MESSAGES = [
  'Failed to fetch',
  'Load failed',
  'NetworkError when attempting to fetch resource.',
] as const

/** Configurable password policies never go below this minimum length. */
export const PASSWORD_MIN_FLOOR = 6
