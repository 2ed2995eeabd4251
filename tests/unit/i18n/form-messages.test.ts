import { readFileSync } from 'node:fs'
import { describe, expect, test } from 'vitest'
import { flatten, type Messages } from '#app/modules/i18n/catalogues'
import { LANGUAGE_CODES, SOURCE_LANGUAGE, type Namespace } from '#app/modules/i18n/languages'
import { RESOURCES } from '#app/modules/i18n/resources.server'
import { sentenceIn } from '#app/components/forms'
import { SCHEME_MESSAGES } from '#app/modules/scheme/schemas'
import { RELEASE_MESSAGES } from '#app/modules/report/release.server'

/**
 * Forms' messages (ADR 052): schemas and actions answer English sentences, and each slice's
 * catalogue translates them in a top-level `validation` table keyed by the sentence, which the form
 * kit looks up (app/components/forms.tsx). This test reads each slice's schema and action files for
 * the sentences they can answer and fails when the slice's English table lacks one, so a new
 * message cannot reach a German page untranslated without the catalogue test noticing (German must
 * have every English key before it ships). A sentence built with a number is written with `{n}`.
 */
export const FORM_MESSAGE_SOURCES: Partial<Record<Namespace, string[]>> = {
  common: [
    'app/lib/text-rules.ts',
    'app/lib/schema-parts.ts',
    'app/lib/form-data.server.ts',
    'app/lib/list-page.server.ts',
    'app/modules/file/file.server.ts',
  ],
  auth: ['app/modules/auth/schemas.ts'],
  'second-factor': [
    'app/modules/auth/totp.server.ts',
    'app/lib/secret-box.server.ts',
    'app/modules/auth/second-factor.server.ts',
  ],
  'thank-you': ['app/modules/response/reopen-request-schemas.ts'],
  invite: [
    'app/modules/invite/schemas.ts',
    'app/modules/invite/invite.server.ts',
    'app/modules/invite/request-cap.server.ts',
    'app/routes/user/colleague-invite.tsx',
  ],
  nomination: [
    'app/modules/nomination/schemas.ts',
    'app/modules/nomination/directory.ts',
    'app/modules/nomination/nomination.server.ts',
  ],
  profile: [
    'app/modules/user/profile-schemas.ts',
    'app/modules/user/profile-action.server.ts',
    'app/modules/user/profile.server.ts',
    'app/modules/file/file.server.ts',
  ],
  answers: [
    'app/modules/response/schemas.ts',
    'app/modules/response/reopen-request-schemas.ts',
    'app/modules/response/reopen-request.server.ts',
    'app/modules/response/response.server.ts',
    'app/modules/response/export.server.ts',
  ],
  questionnaires: [
    'app/modules/questionnaire/schemas.ts',
    'app/modules/questionnaire/questionnaire.server.ts',
    'app/modules/questionnaire/format.server.ts',
    'app/routes/admin/questionnaire-management.tsx',
    'app/routes/admin/questionnaire-management.$qid.tsx',
  ],
  companies: [
    'app/modules/company/schemas.ts',
    'app/modules/company/company.server.ts',
    'app/modules/company/company-list.server.ts',
    'app/modules/company/retention.server.ts',
  ],
  brands: ['app/modules/brand/schemas.ts', 'app/modules/brand/brand.server.ts'],
  admins: [
    'app/modules/administrator/schemas.ts',
    'app/modules/administrator/administrator.server.ts',
    'app/routes/admin/admin-management.$uid.tsx',
  ],
  'identity-providers': ['app/modules/sso/schemas.ts', 'app/modules/sso/provider.server.ts'],
  'api-keys': ['app/modules/api-key/schemas.ts', 'app/modules/api-key/api-key.server.ts'],
  webhooks: [
    'app/modules/webhook/schemas.ts',
    'app/modules/webhook/webhook.server.ts',
    'app/modules/webhook/destination.server.ts',
  ],
  answering: [
    'app/modules/assignment/answer-messages.ts',
    'app/modules/assignment/answer-parse.server.ts',
    'app/modules/assignment/save-answers.server.ts',
    'app/modules/assignment/components/answer-form.tsx',
  ],
  plan: [
    'app/modules/plan/schemas.ts',
    'app/modules/plan/plan.server.ts',
    'app/routes/user/development-plan.tsx',
  ],
  schemes: [
    'app/modules/scheme/schemas.ts',
    'app/modules/scheme/scheme.server.ts',
    'app/modules/scheme/participants.server.ts',
    'app/modules/scheme/legal-hold.server.ts',
  ],
  // The scheme page's release refusals; the rule's own reasons are written from the page's messages
  // (scheme-page:release.reason.*, catalogues.test.ts) by the action, not looked up here.
  'scheme-page': ['app/modules/report/release.server.ts'],
  employees: [
    'app/modules/employee/schemas.ts',
    'app/modules/employee/employee.server.ts',
    'app/modules/employee/employee-list.server.ts',
    'app/modules/employee/employee-page.server.ts',
    'app/modules/employee/org.server.ts',
    'app/modules/employee/import-schemas.ts',
    'app/modules/employee/import.server.ts',
    'app/modules/employee/erasure.server.ts',
  ],
  email: ['app/modules/email/schemas.ts', 'app/modules/email/template-editing.server.ts'],
}

/** The sentences a file can answer: quoted literals that start with a capital and end a sentence. */
export function sentencesIn(file: string): string[] {
  const source = readFileSync(file, 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/^\s*\/\/.*$/gm, '')
  const found = new Set<string>()
  for (const match of source.matchAll(/(['"`])((?:(?!\1)[^\\\n]|\\.)*?)\1/g)) {
    const text = match[2]!.replace(/\$\{[^}]*\}/g, '{n}').replace(/\\'/g, "'")
    if (/^[A-Z]/.test(text) && /[.?!]$/.test(text) && text.includes(' ')) found.add(text)
  }
  return [...found]
}

function tableOf(language: string, namespace: Namespace) {
  const messages = RESOURCES[language as typeof SOURCE_LANGUAGE]?.[namespace] as Messages | undefined
  return (messages?.validation ?? {}) as Record<string, string>
}

describe('forms’ messages', () => {
  for (const [namespace, files] of Object.entries(FORM_MESSAGE_SOURCES) as [Namespace, string[]][]) {
    test(`${namespace}: every sentence its forms answer is in its English table, as itself`, () => {
      const table = tableOf(SOURCE_LANGUAGE, namespace)
      const missing = files.flatMap(sentencesIn).filter((s) => table[s] !== s)
      expect(missing).toEqual([])
    })
  }

  test('schemes: every scheme form message, as the form kit looks it up, is in the table', () => {
    // The kit tries the sentence, then the sentence with its first number as {n} (forms.tsx).
    const table = tableOf(SOURCE_LANGUAGE, 'schemes')
    const found = (message: string) => {
      if (table[message] !== undefined) return true
      const number = /\d+/.exec(message)?.[0]
      return number !== undefined && table[message.replace(number, '{n}')] !== undefined
    }
    const fixed = Object.values(SCHEME_MESSAGES as Record<string, unknown>).filter(
      (m): m is string => typeof m === 'string',
    )
    expect(fixed.filter((m) => !found(m))).toEqual([])
  })

  test('the sentence finder sees literals and templates, not comments or words', () => {
    const file = 'tests/unit/i18n/fixtures/form-messages-sample.ts'
    expect(sentencesIn(file).sort()).toEqual(['Enter a name.', 'Use at least {n} characters.'])
  })

  test('every translation carries as many values ({n}) as its English sentence', () => {
    const count = (text: string) => text.split('{n}').length - 1
    const wrong: string[] = []
    for (const language of LANGUAGE_CODES)
      for (const [ns, messages] of Object.entries(RESOURCES[language] ?? {}))
        for (const [sentence, said] of Object.entries(((messages as Messages).validation ?? {}) as Messages))
          if (typeof said === 'string' && count(said) !== count(sentence))
            wrong.push(`${language}:${ns}: ${sentence}`)
    expect(wrong).toEqual([])
  })

  test('every language’s tables hold strings only, keyed by English sentences', () => {
    for (const language of LANGUAGE_CODES) {
      for (const [ns, messages] of Object.entries(RESOURCES[language] ?? {})) {
        const table = (messages as Messages).validation
        if (!table) continue
        expect(typeof table, `${language}:${ns}`).toBe('object')
        for (const key of flatten(table as Messages).keys()) {
          expect(tableOf(SOURCE_LANGUAGE, ns as Namespace), `${language}:${ns}:${key}`).toHaveProperty([key])
        }
      }
    }
  })
})

describe('a sentence looked up (the form kit’s sentenceIn)', () => {
  const german = {
    'Enter a name.': 'Geben Sie einen Namen ein.',
    'Use at least {n} characters.': 'Verwenden Sie mindestens {n} Zeichen.',
    'The field {n} was sent more than once.': 'Das Feld {n} wurde mehr als einmal gesendet.',
  }
  test('whole, with a value carried over, or as written when no table has it', () => {
    expect(sentenceIn([undefined, german], 'Enter a name.')).toBe('Geben Sie einen Namen ein.')
    expect(sentenceIn([german], 'Use at least 12 characters.')).toBe('Verwenden Sie mindestens 12 Zeichen.')
    expect(sentenceIn([german], 'The field code was sent more than once.')).toBe(
      'Das Feld code wurde mehr als einmal gesendet.',
    )
    // An empty value is not a value.
    expect(sentenceIn([german], 'Use at least  characters.')).toBe('Use at least  characters.')

    expect(sentenceIn([german], 'Enter a title.')).toBe('Enter a title.')
    expect(sentenceIn([], 'Enter a name.')).toBe('Enter a name.')
  })
  test('several values, carried over in order, each itself looked up', () => {
    const invite = {
      'The invitation to {n} was sent again only a few minutes ago. You can resend it in {n}.':
        'Die Einladung an {n} wurde erst vor wenigen Minuten erneut gesendet. Sie können sie in {n} erneut senden.',
    }
    const common = { '1 minute': '1 Minute', '{n} minutes': '{n} Minuten' }
    expect(
      sentenceIn(
        [invite, common],
        'The invitation to Ann Example was sent again only a few minutes ago. You can resend it in 15 minutes.',
      ),
    ).toBe(
      'Die Einladung an Ann Example wurde erst vor wenigen Minuten erneut gesendet. Sie können sie in 15 Minuten erneut senden.',
    )
    expect(
      sentenceIn(
        [invite, common],
        'The invitation to Bo was sent again only a few minutes ago. You can resend it in 1 minute.',
      ),
    ).toBe(
      'Die Einladung an Bo wurde erst vor wenigen Minuten erneut gesendet. Sie können sie in 1 Minute erneut senden.',
    )
    // A value no table has is carried over as written; regular-expression characters are literal.
    expect(sentenceIn([{ 'Costs {n} (or more).': 'Kostet {n} (oder mehr).' }], 'Costs 3.50 (or more).')).toBe(
      'Kostet 3.50 (oder mehr).',
    )
    expect(sentenceIn([{ 'Costs {n} (or more).': 'X' }], 'Costs 3.50 or more.')).toBe('Costs 3.50 or more.')
  })
  test('a number is written in the reader’s way', () => {
    const german = {
      'The file has more than {n} rows. Split it into smaller files.': 'Die Datei hat mehr als {n} Zeilen.',
    }
    const format = new Intl.NumberFormat('de').format
    expect(
      sentenceIn([german], 'The file has more than 10,000 rows. Split it into smaller files.', format),
    ).toBe('Die Datei hat mehr als 10.000 Zeilen.')
    expect(sentenceIn([{ 'Costs {n}.': 'Kostet {n}.' }], 'Costs 3.5.', format)).toBe('Kostet 3,5.')
    // Not a number as the portal writes one: carried over as it is.
    expect(sentenceIn([{ 'Costs {n}.': 'Kostet {n}.' }], 'Costs 10,00.', format)).toBe('Kostet 10,00.')
  })
  test('the first table that has a sentence wins', () => {
    expect(sentenceIn([{ 'Enter a name.': 'A' }, { 'Enter a name.': 'B' }], 'Enter a name.')).toBe('A')
  })
})

describe('the release refusals (release.server.ts) as a German or French reader of the scheme page sees them', () => {
  // The tables of the namespaces the scheme page loads, in the order the page holds them.
  const tablesOf = (language: string) =>
    (['common', 'schemes', 'scheme-page'] as Namespace[]).map((ns) => tableOf(language, ns))
  const fill = (sentence: string, values: readonly string[]) => {
    let i = 0
    return sentence.replace(/\{n\}/g, () => values[i++]!)
  }
  const sentences = (messages: unknown): string[] =>
    typeof messages === 'string' ? [messages] : Object.values(messages as object).flatMap(sentences)

  test('each sentence, with its numbers, is found whole in its own translation', () => {
    const english = tableOf(SOURCE_LANGUAGE, 'scheme-page')
    for (const language of ['de', 'fr']) {
      const format = new Intl.NumberFormat(language).format
      for (const sentence of sentences(RELEASE_MESSAGES)) {
        expect(english[sentence], sentence).toBe(sentence)
        const values = ['2', '3', '1,250'].slice(0, sentence.split('{n}').length - 1)
        const translation = tableOf(language, 'scheme-page')[sentence]!
        const written = values.map((v) => format(Number(v.replaceAll(',', ''))))
        expect(
          sentenceIn(tablesOf(language), fill(sentence, values), format),
          `${language}: ${sentence}`,
        ).toBe(fill(translation, written))
      }
    }
  })

  test('in German, with the plural the English chose', () => {
    const de = (message: string) => sentenceIn(tablesOf('de'), message, new Intl.NumberFormat('de').format)
    expect(
      de(
        'Only 1 answer of the 3 needed is in, so the report cannot show colleagues’ results yet. Wait for 2 more, or release the self-assessment alone.',
      ),
    ).toBe(
      'Erst 1 Antwort von 3 nötigen liegt vor, der Bericht kann also noch keine Ergebnisse der Kollegen zeigen. Warten Sie auf 2 weitere oder geben Sie nur die Selbsteinschätzung frei.',
    )
    expect(
      de(
        'No report can be released now: 2 below the 3 answers needed (release those one by one to release the self-assessment alone); 1 already released and unchanged, or changed too little.',
      ),
    ).toBe(
      'Derzeit lässt sich kein Bericht freigeben: 2 unter den 3 nötigen Antworten (geben Sie diese einzeln frei, um nur die Selbsteinschätzung freizugeben); 1 bereits freigegeben und unverändert oder zu wenig geändert.',
    )
    expect(de('This scheme no longer exists.')).toBe('Dieses Programm gibt es nicht mehr.')
  })
})
