import { createInstance, type TFunction } from 'i18next'
import ICU from 'i18next-icu'
import { describe, expect, test } from 'vitest'
import type { GroupReport } from '#app/modules/cohort/cohort.server'
import { groupReportPdfWords } from '#app/modules/cohort/pdf-words'
import { RESOURCES } from '#app/modules/i18n/resources.server'

/**
 * The group report PDF's own words (app/modules/cohort/pdf-words.ts), for the PDF module to take
 * when it is converted: English reads exactly as group-report-pdf.server.ts writes them today;
 * German is German.
 */
function tIn(language: 'en' | 'de') {
  const instance = createInstance()
  instance.use(new ICU())
  void instance.init({
    lng: language,
    fallbackLng: 'en',
    ns: ['cohort'],
    defaultNS: 'cohort',
    resources: RESOURCES,
    initAsync: false,
    interpolation: { escapeValue: false },
  })
  return instance.getFixedT(language, 'cohort') as TFunction<'cohort'>
}

const report = (schemes: number, minRaters: number) =>
  ({
    header: {
      name: 'Spring 360',
      companyName: 'Acme',
      brand: { name: 'Acme People' },
      minRaters,
      schemes: Array.from({ length: schemes }, (_, i) => ({ id: `${i}`, name: `Scheme ${i}`, minRaters })),
    },
    summary: { participants: 12 },
  }) as unknown as GroupReport

describe('the group report PDF’s words', () => {
  test('English, as the PDF module writes them', () => {
    const words = groupReportPdfWords(report(2, 3), tIn('en'))
    expect(words.cover).toEqual({
      title: 'Group report',
      subject: 'Spring 360',
      lines: [
        ['Company', 'Acme'],
        ['Schemes', 'Scheme 0, Scheme 1'],
        ['Participants', '12 with a released report'],
      ],
      note: 'Confidential. Every figure stands on at least 3 participants, each counted only through what their own report shows; no comment and no name of a colleague appears.',
    })
    expect(words.headerRight).toBe('Group report · Spring 360')
    expect(words.footer).toBe('Group report · Acme')
    expect(words.title).toBe('Group report · Spring 360 · Acme People')
    expect(groupReportPdfWords(report(1, 1), tIn('en')).cover.lines[1]![0]).toBe('Scheme')
    expect(groupReportPdfWords(report(1, 1), tIn('en')).cover.note).toContain('at least 1 participant,')
  })

  test('German', () => {
    const words = groupReportPdfWords(report(1, 3), tIn('de'))
    expect(words.cover.title).toBe('Gruppenbericht')
    expect(words.cover.lines[1]![0]).toBe('Programm')
    expect(words.cover.note).toContain('mindestens 3 Teilnehmenden')
    expect(words.footer).toBe('Gruppenbericht · Acme')
  })
})
