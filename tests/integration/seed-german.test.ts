import { and, eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { assignments, questionnaires, schemes, users } from '#db/schema/index'
import { seed } from '#db/seed'
import { getQuestionnaire } from '#app/modules/questionnaire/questionnaire.server'
import { placeholderProblem } from '#app/modules/questionnaire/schemas'
import { untranslatedItems } from '#app/modules/questionnaire/translations'
import { useTestDatabase } from '#tests/support/database'
import { send, sessionCookieFor, useTestServer } from '#tests/support/app'
import { usePreviewLanguages } from '#tests/support/languages'

/**
 * The demo questionnaire in German (issue 20 §3, ADR 051): every text translated (the {{name}} rule
 * kept), the demo programme offering English and German, a second seed changing nothing, and the
 * demo employee reading it in German through the built server.
 */
const db = useTestDatabase()
const server = useTestServer()

const preview = usePreviewLanguages(server)

describe('the demo questionnaire in German', () => {
  test('is complete, offered by the demo programme, and read in German by a German reader', async () => {
    const first = await seed()
    expect(first.made).toContain('questionnaire in German: Führung 360')
    const [row] = await db()
      .select({ id: questionnaires.id })
      .from(questionnaires)
      .where(eq(questionnaires.title, 'Leadership 360'))
    const qn = (await getQuestionnaire(row!.id))!
    expect(untranslatedItems(qn, 'de')).toEqual([])
    for (const q of qn.sections.flatMap((s) => s.questions)) {
      expect(placeholderProblem(q.translations.de!.raterText!)).toBeNull()
      expect(q.translations.de!.labels?.length ?? 0).toBe(q.options.labels?.length ?? 0)
    }
    const [scheme] = await db().select().from(schemes).where(eq(schemes.name, 'Acme leadership programme'))
    expect(scheme!.languages).toEqual(['en', 'de'])
    expect((await seed()).made).toEqual([])

    preview('de')
    const [erin] = await db().select().from(users).where(eq(users.email, 'employee@panorama.test'))
    await db().update(users).set({ language: 'de' }).where(eq(users.id, erin!.id))
    const [self] = await db()
      .select({ id: assignments.id })
      .from(assignments)
      .where(
        and(
          eq(assignments.schemeId, scheme!.id),
          eq(assignments.respondentId, erin!.id),
          eq(assignments.relationship, 'self'),
        ),
      )
    const html = await (
      await send(server, `/assignment/${self!.id}`, { cookie: await sessionCookieFor(erin!.id) })
    ).text()
    expect(html).toContain('Führung 360')
    expect(html).toContain('Ich höre aufmerksam zu, bevor ich antworte.')
    expect(html).not.toContain('I listen carefully before I respond.')
  })
})
