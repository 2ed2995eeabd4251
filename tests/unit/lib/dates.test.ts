import { describe, expect, test } from 'vitest'
import {
  canonicalTimeZone,
  daysLeft,
  endOfDay,
  formatDate,
  formatDateTime,
  instantToZonedTime,
  safeTimeZone,
  timeLeft,
  zonedTimeToInstant,
  zoneName,
} from '#app/lib/dates'
import { daysLeftLabel } from '#app/lib/words'

describe('dates in a scheme’s time zone', () => {
  test('a deadline reads in the zone it was set in, naming the zone', () => {
    // 22:59 UTC in summer is 23:59 in London.
    const summer = new Date('2026-06-30T22:59:00Z')
    expect(formatDateTime(summer, 'Europe/London')).toBe('30 June 2026 at 23:59 BST')
    expect(formatDateTime(summer, 'UTC')).toBe('30 June 2026 at 22:59 UTC')
    const winter = new Date('2026-12-31T23:59:00Z')
    expect(formatDateTime(winter, 'Europe/London')).toBe('31 December 2026 at 23:59 GMT')
    expect(zoneName(summer, 'Europe/Berlin')).toBe('CEST')
  })

  test('the calendar day is the zone’s: late evening in New York is already tomorrow in UTC', () => {
    const evening = new Date('2026-07-01T03:30:00Z')
    expect(formatDate(evening, 'America/New_York')).toBe('30 June 2026')
    expect(formatDate(evening, 'UTC')).toBe('1 July 2026')
    expect(formatDate(evening.toISOString())).toBe('1 July 2026')
  })

  test('end of day: 23:59 on that date in the zone, across summer time', () => {
    const midday = new Date('2026-06-30T12:00:00Z')
    expect(endOfDay(midday, 'Europe/London').toISOString()).toBe('2026-06-30T22:59:00.000Z')
    expect(endOfDay(new Date('2026-01-15T12:00:00Z'), 'Europe/London').toISOString()).toBe(
      '2026-01-15T23:59:00.000Z',
    )
    expect(endOfDay(midday, 'America/New_York').toISOString()).toBe('2026-07-01T03:59:00.000Z')
    expect(endOfDay(midday, 'Asia/Tokyo').toISOString()).toBe('2026-06-30T14:59:00.000Z')
    expect(endOfDay(midday, 'UTC').toISOString()).toBe('2026-06-30T23:59:00.000Z')
    // The day clocks go forward (29 March 2026 in London) still ends at 23:59 local.
    expect(formatDateTime(endOfDay(new Date('2026-03-29T06:00:00Z'), 'Europe/London'), 'Europe/London')).toBe(
      '29 March 2026 at 23:59 BST',
    )
  })

  test('an unknown zone name falls back to UTC instead of failing the page', () => {
    expect(safeTimeZone('Mars/Olympus_Mons')).toBe('UTC')
    expect(safeTimeZone(null)).toBe('UTC')
    expect(formatDateTime(new Date('2026-06-30T22:59:00Z'), 'Mars/Olympus_Mons')).toBe(
      '30 June 2026 at 22:59 UTC',
    )
  })
})

describe('wall-clock times an admin types, in the scheme’s zone', () => {
  test('a zone is an IANA name the runtime knows, in its canonical spelling', () => {
    expect(canonicalTimeZone('Europe/London')).toBe('Europe/London')
    expect(canonicalTimeZone(' europe/london ')).toBe('Europe/London')
    expect(canonicalTimeZone('America/Argentina/Buenos_Aires')).toBe('America/Argentina/Buenos_Aires')
    expect(canonicalTimeZone('UTC')).toBe('UTC')
    expect(canonicalTimeZone('Etc/GMT+5')).toBe('Etc/GMT+5')
    for (const bad of [
      'Mars/Olympus_Mons',
      '+01:00',
      'BST',
      '',
      'Europe/',
      '../etc/passwd',
      'Europe/London\u0000',
    ])
      expect(canonicalTimeZone(bad), bad).toBeNull()
  })

  test('a local time means the instant of that zone, summer time included', () => {
    const at = (local: string, zone: string) => {
      const r = zonedTimeToInstant(local, zone)
      return r.ok ? r.instant.toISOString() : r.reason
    }
    expect(at('2026-06-30T09:00', 'Europe/London')).toBe('2026-06-30T08:00:00.000Z')
    expect(at('2026-01-15T09:00', 'Europe/London')).toBe('2026-01-15T09:00:00.000Z')
    expect(at('2026-06-30T09:00', 'America/New_York')).toBe('2026-06-30T13:00:00.000Z')
    expect(at('2026-06-30T09:00', 'Asia/Kolkata')).toBe('2026-06-30T03:30:00.000Z')
    expect(at('2026-06-30T09:00:00', 'UTC')).toBe('2026-06-30T09:00:00.000Z')
    // The hour the clocks skip does not exist; the hour they repeat means its first passing.
    expect(at('2026-03-29T01:30', 'Europe/London')).toBe('nonexistent')
    expect(at('2026-10-25T01:30', 'Europe/London')).toBe('2026-10-25T00:30:00.000Z')
    for (const bad of [
      '2026-02-30T09:00',
      '2026-06-30T24:00',
      '2026-06-30',
      '30/06/2026 09:00',
      '',
      '1960-01-01T00:00',
    ])
      expect(at(bad, 'UTC'), bad).toBe('format')
    expect(at('2026-06-30T09:00', 'Mars/Olympus_Mons')).toBe('zone')
  })

  test('and back: the instant as the zone’s wall clock, for the form’s inputs', () => {
    expect(instantToZonedTime(new Date('2026-06-30T08:00:00Z'), 'Europe/London')).toBe('2026-06-30T09:00')
    expect(instantToZonedTime('2026-12-31T23:59:00Z', 'Asia/Tokyo')).toBe('2027-01-01T08:59')
    expect(instantToZonedTime('2026-06-30T00:30:00Z', 'UTC')).toBe('2026-06-30T00:30')
  })
})

describe('the days left before a deadline: one rule for every page (issue 15, B12)', () => {
  // 23:59 on 24 January 2027 in London (GMT): the deadline of the demo scheme.
  const deadline = new Date('2027-01-24T23:59:00Z')

  test('calendar days in the scheme’s zone, whatever the time of day', () => {
    for (const now of ['2027-01-09T00:00:00Z', '2027-01-09T10:00:00Z', '2027-01-09T23:58:00Z'])
      expect(daysLeft(deadline, 'Europe/London', new Date(now)), now).toBe(15)
    expect(timeLeft(deadline, 'Europe/London', new Date('2027-01-09T10:00:00Z'))).toBe('15 days left')
    expect(timeLeft(deadline, 'Europe/London', new Date('2027-01-23T10:00:00Z'))).toBe('1 day left')
    expect(timeLeft(deadline, 'Europe/London', new Date('2027-01-24T00:01:00Z'))).toBe('last day')
    expect(timeLeft(deadline, 'Europe/London', new Date('2027-01-24T23:59:00Z'))).toBeNull()
    expect(daysLeftLabel(null)).toBeNull()
  })

  test('the days are the zone’s: late evening in New York is still the day before the deadline there', () => {
    // 23:59 on 1 July in New York is 03:59 UTC on 2 July.
    const newYork = new Date('2026-07-02T03:59:00Z')
    const eveningBefore = new Date('2026-07-01T02:00:00Z') // 22:00 on 30 June in New York
    expect(daysLeft(newYork, 'America/New_York', eveningBefore)).toBe(1)
    expect(daysLeft(newYork, 'UTC', eveningBefore)).toBe(1)
    expect(daysLeft(newYork, 'Asia/Tokyo', eveningBefore)).toBe(1)
    // Across the change to summer time (29 March 2026 in London) a day is still a day.
    expect(
      daysLeft(new Date('2026-04-01T22:59:00Z'), 'Europe/London', new Date('2026-03-28T12:00:00Z')),
    ).toBe(4)
  })
})
