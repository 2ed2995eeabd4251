import { describe, expect, test } from 'vitest'
import { dateLabel, formatDate, formatDateTime, zoneName } from '#app/lib/dates'
import { formatCount, formatScore } from '#app/lib/numbers'
import { intlLocale } from '#app/modules/i18n/languages'

/** Dates and numbers in the reader's language (ADR 050), English unchanged when none is given. */
describe('dates in the reader’s language', () => {
  const summer = new Date('2026-06-30T22:59:00Z')

  test('English stays as the portal has always written it', () => {
    expect(formatDateTime(summer, 'Europe/London', intlLocale('en'))).toBe('30 June 2026 at 23:59 BST')
    expect(formatDateTime(summer, 'Europe/London')).toBe('30 June 2026 at 23:59 BST')
  })

  test('German and French join date and time, and name the zone, their own way', () => {
    expect(formatDateTime(summer, 'Europe/Berlin', intlLocale('de'))).toBe('1. Juli 2026 um 00:59 MESZ')
    expect(formatDate(summer, 'Europe/London', intlLocale('de'))).toBe('30. Juni 2026')
    expect(formatDate(summer, 'Europe/London', intlLocale('fr'))).toBe('30 juin 2026')
    expect(formatDateTime(summer, 'UTC', intlLocale('fr'))).toBe('30 juin 2026 à 22:59 UTC')
    expect(zoneName(summer, 'Europe/Berlin', intlLocale('de'))).toBe('MESZ')
  })

  test('a page’s date label carries the same instant whatever the language', () => {
    const de = dateLabel(summer, 'Europe/London', intlLocale('de'))
    const en = dateLabel(summer, 'Europe/London', intlLocale('en'))
    expect(de.iso).toBe(en.iso)
    expect(de.date).toBe('30. Juni 2026')
  })

  test('an unknown language formats as English', () => {
    expect(intlLocale('xx')).toBe('en-GB')
    expect(intlLocale(null)).toBe('en-GB')
  })
})

describe('numbers in the reader’s language', () => {
  test('counts and scores', () => {
    expect(formatCount(1500, intlLocale('en'))).toBe('1,500')
    expect(formatCount(1500, intlLocale('de'))).toBe('1.500')
    expect(formatCount(1500, intlLocale('fr'))).toBe('1\u202f500')
    expect(formatScore(3.456, 1, intlLocale('en'))).toBe('3.5')
    expect(formatScore(3.456, 1, intlLocale('de'))).toBe('3,5')
    expect(formatScore(3, 2, intlLocale('fr'))).toBe('3,00')
    expect(formatCount(1500)).toBe('1,500')
  })
})
