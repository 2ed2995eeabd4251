import { describe, expect, test } from 'vitest'
import { plural, possessive, withArticle } from '#app/lib/words'

describe('small rules of English (issue 15, B12)', () => {
  test('plural: the count, then the word in the number it needs', () => {
    expect(plural(0, 'employee', 'employees')).toBe('0 employees')
    expect(plural(1, 'employee', 'employees')).toBe('1 employee')
    expect(plural(1200, 'employee', 'employees')).toBe('1,200 employees')
  })

  test('possessive: ’s, or the apostrophe alone after an s; never after a quotation mark', () => {
    expect(possessive('Erin')).toBe('Erin’s')
    expect(possessive('Harbour Partners')).toBe('Harbour Partners’')
    expect(possessive('  Northwind Consulting ')).toBe('Northwind Consulting’s')
    expect(possessive('ACME LABS')).toBe('ACME LABS’')
  })

  test('an article by the first sound', () => {
    expect(withArticle('company')).toBe('a company')
    expect(withArticle('email template')).toBe('an email template')
    expect(withArticle('assignment')).toBe('an assignment')
    expect(withArticle('user')).toBe('a user')
    expect(withArticle('employee import')).toBe('an employee import')
    expect(withArticle('questionnaire')).toBe('a questionnaire')
  })
})
