import { describe, expect, test } from 'vitest'
import { answersNeeded, enoughAnswers, threshold } from '#app/modules/report/threshold'

/** The anonymity threshold, owned by one module (issue 16 §2): every caller reads it the same way. */
describe('the anonymity threshold', () => {
  test('a scheme’s whole number is its threshold; anything else is at least one whole colleague', () => {
    expect([1, 3, 8].map(threshold)).toEqual([1, 3, 8])
    expect([0, -2, 2.9].map(threshold)).toEqual([1, 1, 2])
  })

  test('enough and needed agree at every count', () => {
    for (const minRaters of [1, 2, 3, 5, 8])
      for (let answered = 0; answered <= 10; answered++) {
        expect(enoughAnswers(answered, minRaters)).toBe(answered >= minRaters)
        expect(answersNeeded(answered, minRaters)).toBe(Math.max(0, minRaters - answered))
        expect(answersNeeded(answered, minRaters) === 0).toBe(enoughAnswers(answered, minRaters))
      }
  })
})
