import { expect, test } from 'vitest'
import { sampleValues } from '#app/modules/email/schemas'
import { colleaguePrivacyNote } from '#app/modules/report/rater-groups'

// The e-mail module receives the privacy sentence and does not import the report's rule: its preview
// keeps a copy of what a peer is told, and this keeps the copy true.
test('the preview’s privacy note is what a peer is told', () => {
  expect(sampleValues('http://localhost:3000').privacyNote).toBe(
    colleaguePrivacyNote({ relationship: 'peer', showManager: false, employeeName: 'Sam Example' }),
  )
})
