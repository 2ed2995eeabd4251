/**
 * Dates as the portal writes them, in a scheme's time zone (schemes.time_zone, an IANA name), in the
 * reader's language (an Intl locale: `intlLocale(language)` of app/modules/i18n/languages.ts, ADR
 * 050; 'en-GB' when none is given, as the portal has always written them). The server formats them
 * (pages and e-mails), so the first render and the hydrated page read the same. An unknown zone name
 * falls back to UTC rather than failing a page.
 */
import { daysLeftLabel } from './words'

/** The locale of dates read by people when the caller names none. */
export const DEFAULT_DATE_LOCALE = 'en-GB'

/**
 * The formats the portal uses; each is built once per zone and locale (a formatter costs far more
 * than a format). The first ones are read by people, in the reader's locale (`null` here); the others
 * are for machines and keep theirs.
 */
const FORMATS = {
  /** "30 June 2026", "30. Juni 2026" */
  date: [null, { dateStyle: 'long' }],
  /** "30 June 2026 at 23:59", "30. Juni 2026 um 23:59": the language's own way of joining them. */
  dateTime: [null, { dateStyle: 'long', timeStyle: 'short', hourCycle: 'h23' }],
  /** "BST", "MESZ" */
  zone: [null, { timeZoneName: 'short' }],
  /** "2026-06-30": the calendar day in the zone. */
  day: ['en-CA', { year: 'numeric', month: '2-digit', day: '2-digit' }],
  /** The wall clock to the second, as parts (the zone's offset at an instant). */
  wall: [
    'en-US',
    {
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    },
  ],
  /** The wall clock to the minute, as parts (a datetime-local input's value). */
  local: [
    'en-US',
    {
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    },
  ],
} as const satisfies Record<string, readonly [string | null, Intl.DateTimeFormatOptions]>

// Keyed by format, zone name and locale. Only zones the runtime accepted are kept (a refused name
// throws before it is stored), and locales are the portal's few, so the map stays bounded.
const formatters = new Map<string, Intl.DateTimeFormat>()

function formatter(
  kind: keyof typeof FORMATS,
  timeZone: string,
  locale: string = DEFAULT_DATE_LOCALE,
): Intl.DateTimeFormat {
  const [fixed, options] = FORMATS[kind]
  const resolved = fixed ?? locale
  const key = `${kind}|${timeZone}|${resolved}`
  let f = formatters.get(key)
  if (!f) {
    f = new Intl.DateTimeFormat(resolved, { ...options, timeZone })
    formatters.set(key, f)
  }
  return f
}

/** The zone itself when the runtime knows it, else UTC. */
export function safeTimeZone(timeZone: string | null | undefined): string {
  if (!timeZone) return 'UTC'
  try {
    formatter('date', timeZone)
    return timeZone
  } catch {
    return 'UTC'
  }
}

const toDate = (value: Date | string) => (typeof value === 'string' ? new Date(value) : value)

/** "30 June 2026": the calendar day in the scheme's zone. */
export function formatDate(value: Date | string, timeZone = 'UTC', locale = DEFAULT_DATE_LOCALE): string {
  return formatter('date', safeTimeZone(timeZone), locale).format(toDate(value))
}

/** "BST", "CET", "UTC", "GMT-4" ("MESZ" in German): the zone's short name at that instant. */
export function zoneName(value: Date | string, timeZone = 'UTC', locale = DEFAULT_DATE_LOCALE): string {
  const parts = formatter('zone', safeTimeZone(timeZone), locale).formatToParts(toDate(value))
  return parts.find((p) => p.type === 'timeZoneName')?.value ?? 'UTC'
}

/**
 * "30 June 2026 at 23:59 BST" ("30. Juni 2026 um 23:59 MESZ"): a deadline, in the zone it was set
 * in, saying which zone that is.
 */
export function formatDateTime(value: Date | string, timeZone = 'UTC', locale = DEFAULT_DATE_LOCALE): string {
  const zone = safeTimeZone(timeZone)
  const date = toDate(value)
  return `${formatter('dateTime', zone, locale).format(date)} ${zoneName(date, zone, locale)}`
}

/**
 * A date as a page shows it: the instant for `<time dateTime>`, the deadline wording ("30 June 2026
 * at 23:59 BST") and the day alone, all in the scheme's time zone. Formatted on the server so the
 * page reads the same before and after hydration.
 */
export type DateLabel = { iso: string; label: string; date: string }
export function dateLabel(date: Date, timeZone = 'UTC', locale = DEFAULT_DATE_LOCALE): DateLabel {
  return {
    iso: date.toISOString(),
    label: formatDateTime(date, timeZone, locale),
    date: formatDate(date, timeZone, locale),
  }
}

/**
 * The days left before a deadline, one rule for every page (the home page's cards, the
 * questionnaire's introduction, the answering page): whole calendar days from today to the
 * deadline's day, both as the scheme's time zone sees them. 0 on the deadline's own day, null once
 * it has passed. A deadline at 23:59 on 24 January is "15 days left" all through 9 January.
 */
export function daysLeft(deadline: Date, timeZone = 'UTC', now = new Date()): number | null {
  if (deadline.getTime() <= now.getTime()) return null
  const zone = safeTimeZone(timeZone)
  const day = (at: Date) => {
    const [y, m, d] = formatter('day', zone).format(at).split('-').map(Number) as [number, number, number]
    return Date.UTC(y, m - 1, d)
  }
  return Math.round((day(deadline) - day(now)) / DAY_MS)
}

/** The words for the days left before a deadline in the scheme's zone ({@link daysLeft}, words.ts). */
export function timeLeft(deadline: Date, timeZone = 'UTC', now = new Date()): string | null {
  return daysLeftLabel(daysLeft(deadline, timeZone, now))
}

/**
 * The instant that is 23:59 on `day` (its calendar date as seen in the zone) in `timeZone`: a
 * deadline "by the end of 30 June" wherever the scheme is run.
 */
export function endOfDay(day: Date, timeZone: string): Date {
  const zone = safeTimeZone(timeZone)
  const [y, m, d] = formatter('day', zone).format(day).split('-').map(Number) as [number, number, number]
  // 23:59 as if UTC, then corrected by the zone's offset at that moment (twice, for a DST change that day).
  let guess = Date.UTC(y, m - 1, d, 23, 59)
  for (let i = 0; i < 2; i++) guess = Date.UTC(y, m - 1, d, 23, 59) - offsetMs(new Date(guess), zone)
  return new Date(guess)
}

/** How far the zone's wall clock is ahead of UTC at `at`, in ms. */
function offsetMs(at: Date, timeZone: string): number {
  const parts = formatter('wall', timeZone).formatToParts(at)
  const n = (type: string) => Number(parts.find((p) => p.type === type)?.value)
  const wall = Date.UTC(n('year'), n('month') - 1, n('day'), n('hour'), n('minute'), n('second'))
  return wall - Math.floor(at.getTime() / 1000) * 1000
}

// ---------------------------------------------------------------------------------------------
// Wall-clock times typed by an admin ("2026-06-30T09:00" in Europe/London) and the instants they mean.

/**
 * An IANA zone name the runtime knows ("Europe/London", "America/Argentina/Buenos_Aires", "UTC"),
 * spelled as the runtime lists it whatever the case it was typed in; null for anything else. Offsets ("+01:00") and abbreviations ("BST") are
 * refused: they do not follow summer time, so a programme's dates would drift by an hour.
 */
export function canonicalTimeZone(value: string): string | null {
  const name = value.trim()
  if (!/^(?:UTC|[A-Za-z]+(?:\/[A-Za-z0-9_+-]+)+)$/.test(name)) return null
  try {
    // Not formatter(): a typed name in any case would be kept there under each spelling.
    new Intl.DateTimeFormat('en-GB', { timeZone: name })
  } catch {
    return null
  }
  // Names are matched regardless of case; the runtime's own spelling is kept when it lists the
  // zone. Not resolvedOptions(): ICU answers the legacy aliases (Asia/Kolkata → Asia/Calcutta).
  const lower = name.toLowerCase()
  return knownTimeZones().find((z) => z.toLowerCase() === lower) ?? name
}

let zoneList: string[] | undefined
/** The zones the runtime lists (for suggestions; a zone missing here may still be valid). */
export function knownTimeZones(): string[] {
  zoneList ??= ['UTC', ...Intl.supportedValuesOf('timeZone').filter((z) => z !== 'UTC')]
  return zoneList
}

const LOCAL = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/

/** The parts of "YYYY-MM-DDTHH:mm" (a datetime-local input's value), or null when it is no such time. */
function localParts(value: string) {
  const m = LOCAL.exec(value.trim())
  if (!m) return null
  const [y, mo, d, h, mi] = m.slice(1, 6).map(Number) as [number, number, number, number, number]
  const probe = new Date(Date.UTC(y, mo - 1, d, h, mi))
  // 31 February, 24:00 and the like roll over into another day: not a time anyone meant.
  if (
    y < 1970 ||
    probe.getUTCFullYear() !== y ||
    probe.getUTCMonth() !== mo - 1 ||
    probe.getUTCDate() !== d ||
    probe.getUTCHours() !== h ||
    probe.getUTCMinutes() !== mi
  )
    return null
  return { y, mo, d, h, mi, asUtc: probe.getTime() }
}

export type ZonedTime = { ok: true; instant: Date } | { ok: false; reason: 'format' | 'zone' | 'nonexistent' }

/**
 * The instant a wall-clock time in `timeZone` means. A time the clocks skip (01:30 on the night
 * summer time starts in London) does not exist and is refused rather than moved; a time that
 * happens twice (the night it ends) means the first, as calendars do.
 */
export function zonedTimeToInstant(local: string, timeZone: string): ZonedTime {
  const parts = localParts(local)
  if (!parts) return { ok: false, reason: 'format' }
  const zone = canonicalTimeZone(timeZone)
  if (!zone) return { ok: false, reason: 'zone' }
  // Try the offsets in force a day either side: one of them is right unless the time is skipped.
  const candidates = [-DAY_MS, 0, DAY_MS]
    .map((shift) => parts.asUtc - offsetMs(new Date(parts.asUtc + shift), zone))
    .filter((t, i, all) => all.indexOf(t) === i)
    .filter((t) => instantToZonedTime(new Date(t), zone) === local.trim().slice(0, 16))
    .sort((a, b) => a - b)
  const first = candidates[0]
  return first === undefined ? { ok: false, reason: 'nonexistent' } : { ok: true, instant: new Date(first) }
}

const DAY_MS = 24 * 60 * 60 * 1000

/** "YYYY-MM-DDTHH:mm": the wall-clock time in `timeZone` at `value` (a datetime-local input's value). */
export function instantToZonedTime(value: Date | string, timeZone: string): string {
  const zone = safeTimeZone(timeZone)
  const parts = formatter('local', zone).formatToParts(toDate(value))
  const n = (type: string) => parts.find((p) => p.type === type)?.value ?? '00'
  return `${n('year')}-${n('month')}-${n('day')}T${n('hour')}:${n('minute')}`
}
