import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser'
import { createInstance, type TFunction } from 'i18next'
import ICU from 'i18next-icu'
import IntlMessageFormat from 'intl-messageformat'
import { describe, expect, test } from 'vitest'
import { ERROR_PAGE_TEXTS, UNAVAILABLE_CONTENT } from '#app/components/error-boundary'
import { AUTH_ERROR_MESSAGES } from '#app/modules/auth/errors'
import { SIGN_IN_LINK_MINUTES, SIGN_IN_LINK_SENT_MESSAGE } from '#app/modules/auth/components/sign-in-page'
import { ACTION_CODE_TTL_MS } from '#app/modules/action-code/action-code.server'
import { WRONG_CODE, WRONG_SETUP_CODE } from '#app/modules/auth/totp.server'
import { flatten, type Messages } from '#app/modules/i18n/catalogues'
import { NAME_SORT_LABELS } from '#app/lib/list-query'
import { companyInUseMessage } from '#app/modules/company/company.server'
import { EMPLOYEE_MESSAGES, EMPLOYEE_STATE_LABELS } from '#app/modules/employee/schemas'
import { ADMIN_STATE_LABELS } from '#app/modules/administrator/schemas'
import { PLAN_OPTION_WORDS } from '#app/modules/plan/plan-page.server'
import { IMPORT_MESSAGES } from '#app/modules/employee/import.server'
import { ROW_PROBLEM_LABELS, ROW_PROBLEMS, rowProblemTexts } from '#app/modules/employee/import-schemas'
import {
  ACTIVITY_CODES,
  describeAction,
  describeActionIn,
  ENTITY_KEYS,
} from '#app/modules/dashboard/overview.server'
import {
  intlLocale,
  LANGUAGES,
  NAMESPACES,
  SHIPPED_LANGUAGES,
  SOURCE_LANGUAGE,
  type Language,
} from '#app/modules/i18n/languages'
import { RESOURCES } from '#app/modules/i18n/resources.server'
import { SSO_FAILURE_KEYS, ssoFailureMessage, ssoFailureText } from '#app/modules/sso/failure'
import {
  VERIFICATION_MODES,
  verificationTitle,
  verificationTitleKey,
} from '#app/modules/verification/verification'
import { RESET_LINK_HOURS, RESET_SENT_MESSAGE } from '#app/routes/public/forgot-password'
import { daysLeftLabel } from '#app/lib/words'
import { INVITE_STATUS_LABELS, RELATIONSHIP_LABELS, remainingText } from '#app/modules/invite/schemas'
import { PART_LABELS } from '#app/modules/report/rater-groups'
import { whoseList } from '#app/modules/nomination/nomination.server'
import { possessive } from '#app/lib/words'
import { MANAGER_SEES_REPORT_NOTE } from '#app/modules/plan/words'
import { ASSIGNMENT_STATUS_LABELS, PHASE_LABELS } from '#app/modules/scheme/labels'
import {
  ANSWERS_ADMIN_MESSAGES,
  RELATIONSHIP_LABELS as RESPONSE_RELATIONSHIP_LABELS,
  RESPONSE_SORT_LABELS,
  RESPONSE_STATE_LABELS,
} from '#app/modules/response/schemas'
import { SERIES_LABELS } from '#app/modules/cohort/cohort'
import { blockerSentence, blockerText, type PublishProblem } from '#app/modules/questionnaire/checks'
import { languageWarningOf, qnWords } from '#app/modules/questionnaire/components/words'
import { archiveBlocked, revertBlocked } from '#app/modules/questionnaire/named-messages'
import {
  INTRO_MAX,
  KIND_LABELS,
  QN_MESSAGES,
  QN_SORT_LABELS,
  SCALE_MAX_HIGHEST,
  SCALE_MIN_LOWEST,
  STATUS_LABELS,
} from '#app/modules/questionnaire/schemas'
import { incompleteLanguagesMessage } from '#app/modules/questionnaire/translations'
import { answeredLine, reportWords } from '#app/modules/report/report-view'
import {
  differenceCell,
  differenceWords,
  describeSelfAnswer,
  type SelfQuestion,
} from '#app/modules/report/report'
import { releaseStatus, releaseStatusIn, type ReleaseStatusInput } from '#app/modules/report/release-status'
import {
  reasonIn,
  verdictReason,
  verdictRefusal,
  type ReleaseVerdict,
} from '#app/modules/report/release-rule'
import { radarScaleNote } from '#app/modules/report/chart-series'
import { againstNormText } from '#app/modules/norm/norm'
import { footerTemplate } from '#app/modules/pdf/cover'
import { NOT_RELEASED_MESSAGE, NOTHING_RELEASED_MESSAGE } from '#app/modules/pdf/report-pdf.server'
import { NO_COHORT_FIGURE_MESSAGE } from '#app/modules/pdf/group-report-pdf.server'
import { PDF_UNAVAILABLE_MESSAGE } from '#app/modules/pdf/browser.server'
import { ANSWER_MESSAGES } from '#app/modules/assignment/answer-messages'
import { dateLabel } from '#app/lib/dates'
import { colleaguePrivacyNote } from '#app/modules/report/rater-groups'
import { STANCE_LABELS } from '#app/modules/plan/words'
import { REPORT_RELEASE_LABELS } from '#app/modules/scheme/schemas'
import { STALE_PAGE_NOTICE } from '#app/lib/list-page.server'
import {
  NOMINATION_APPROVAL_HINTS,
  NOMINATION_APPROVAL_LABELS,
  NOMINATION_CHOOSER_HINTS,
  NOMINATION_CHOOSER_LABELS,
  NOMINATION_STATUS_LABELS,
} from '#app/modules/nomination/labels'
import { OUTBOX_STATE_LABELS, TEMPLATE_DESCRIPTIONS, TEMPLATE_LABELS } from '#app/modules/email/schemas'

/**
 * The catalogues (ADR 050): a shipped language has every key English has, with the same ICU
 * arguments; an unshipped one is reported with how far it has come. English itself equals the
 * wordings the modules still export as constants (tests assert those), so the two never drift.
 */

function keysOf(language: Language) {
  const keys = new Map<string, string>()
  for (const ns of NAMESPACES) {
    const messages = RESOURCES[language]?.[ns] as Messages | undefined
    if (messages) for (const [key, value] of flatten(messages)) keys.set(`${ns}:${key}`, value)
  }
  return keys
}

/** The arguments a message uses, with their kind: `count:plural`, `name:argument`, … */
function argumentsOf(message: string): string[] {
  const found = new Set<string>()
  const walk = (elements: MessageFormatElement[]) => {
    for (const el of elements) {
      if (el.type === TYPE.argument) found.add(`${el.value}:argument`)
      else if (el.type === TYPE.number) found.add(`${el.value}:number`)
      else if (el.type === TYPE.date || el.type === TYPE.time) found.add(`${el.value}:date`)
      else if (el.type === TYPE.plural || el.type === TYPE.select) {
        found.add(`${el.value}:${el.type === TYPE.plural ? 'plural' : 'select'}`)
        for (const option of Object.values(el.options)) walk(option.value)
      } else if (el.type === TYPE.tag) walk(el.children)
    }
  }
  walk(parse(message, { ignoreTag: true }))
  return [...found].sort()
}

const english = keysOf(SOURCE_LANGUAGE)

/**
 * A translation's arguments as English's message reads them. A plain argument of English may be a
 * plural in a translation: English prints the count as it is ("1 of 3 … answered") where German
 * must agree the verb with it ("1 von 3 … hat geantwortet", "2 von 3 … haben geantwortet").
 */
function sameArguments(translated: string, source: string): boolean {
  const own = new Set(argumentsOf(source))
  const asSource = argumentsOf(translated).map((arg) => {
    const plain = arg.replace(/:plural$/, ':argument')
    return arg.endsWith(':plural') && !own.has(arg) && own.has(plain) ? plain : arg
  })
  return [...new Set(asSource)].sort().join() === [...own].join()
}

/** What keeps a language from shipping: keys English has that it lacks, or whose arguments differ. */
function shippedProblems(own: Map<string, string>): string[] {
  const problems: string[] = []
  for (const [key, message] of english) {
    const translated = own.get(key)
    if (translated === undefined) problems.push(`missing: ${key}`)
    else if (!sameArguments(translated, message)) problems.push(`other arguments: ${key}`)
  }
  return problems
}

describe('the catalogues', () => {
  test('English has every namespace, and every message is valid ICU', () => {
    for (const ns of NAMESPACES) expect(RESOURCES.en?.[ns], `en/${ns}.json`).toBeDefined()
    for (const language of LANGUAGES.map((l) => l.code)) {
      for (const [key, message] of keysOf(language)) {
        expect(() => parse(message, { ignoreTag: true }), `${language} ${key}`).not.toThrow()
      }
    }
  })

  test.each(SHIPPED_LANGUAGES.map((l) => [l]))(
    'shipped language %s has every English key, with the same ICU arguments',
    (language) => {
      expect(shippedProblems(keysOf(language))).toEqual([])
    },
  )

  test('that check fails on a missing key and on a changed argument', () => {
    const broken = new Map(english)
    broken.delete('auth:signIn.title')
    broken.set('auth:signIn.linkSent', 'Sent. It works for {minutes} minutes.')
    // A plural where English prints a plain count is the same argument; a plural of another is not.
    broken.set(
      'report:answered.some',
      '{submitted, plural, one {# of {invited} answered} other {# of {invited} answered}}',
    )
    broken.set(
      'report:answered.soFar',
      '{submitted} of {invited, plural, other {#}} {extra, plural, other {#}}',
    )
    expect(shippedProblems(broken)).toEqual([
      'missing: auth:signIn.title',
      'other arguments: auth:signIn.linkSent',
      'other arguments: report:answered.some',
      'other arguments: report:answered.soFar',
    ])
  })

  test('no language has a key English does not (a stale or misspelt key), nor other ICU arguments', () => {
    for (const language of LANGUAGES.map((l) => l.code)) {
      for (const [key, message] of keysOf(language)) {
        expect(english.has(key), `${language} has ${key}, which English has not`).toBe(true)
        expect(
          sameArguments(message, english.get(key)!),
          `${language} ${key}: ${argumentsOf(message).join()}`,
        ).toBe(true)
      }
    }
  })

  test('the unshipped languages, and how complete they are', () => {
    const report = LANGUAGES.filter((l) => !l.shipped).map((l) => {
      const own = keysOf(l.code)
      const done = [...english.keys()].filter((key) => own.has(key)).length
      return {
        language: l.code,
        keys: `${done}/${english.size}`,
        complete: Math.round((done / english.size) * 100),
      }
    })
    console.info(
      `Unshipped languages (LANGUAGES_PREVIEW shows them):\n${report
        .map((r) => `  ${r.language}: ${r.keys} keys (${r.complete} %)`)
        .join('\n')}`,
    )
    for (const r of report) expect(r.complete).toBeGreaterThanOrEqual(0)
  })
})

describe('English equals the wordings modules export', () => {
  const format = (key: string, values?: Record<string, string | number>) =>
    new IntlMessageFormat(english.get(key)!, intlLocale('en')).format(values) as string

  test('identity errors (AUTH_ERROR_MESSAGES)', () => {
    // The e-mail links' page carries the two it shows (the verification namespace).
    for (const code of ['auth/expired-action-code', 'auth/invalid-action-code'] as const)
      expect(format(`verification:errors.${code}`)).toBe(AUTH_ERROR_MESSAGES[code])
    for (const [code, text] of Object.entries(AUTH_ERROR_MESSAGES))
      expect(format(`auth:errors.${code}`)).toBe(text)
  })

  test('the sign-in link and the reset link answers, with the links’ real lifetimes', () => {
    expect(SIGN_IN_LINK_MINUTES * 60_000).toBe(ACTION_CODE_TTL_MS.sign_in_link)
    expect(RESET_LINK_HOURS * 3_600_000).toBe(ACTION_CODE_TTL_MS.reset_password)
    expect(format('sso:metaTitle')).toBe(format('auth:signIn.metaTitle'))
    expect(format('auth:signIn.linkSent', { minutes: SIGN_IN_LINK_MINUTES })).toBe(SIGN_IN_LINK_SENT_MESSAGE)
    expect(format('auth:forgotPassword.sent', { hours: RESET_LINK_HOURS })).toBe(RESET_SENT_MESSAGE)
  })

  test('the error pages', () => {
    for (const [kind, text] of Object.entries(ERROR_PAGE_TEXTS)) {
      expect(format(`common:error.${kind}.title`)).toBe(text.title)
      expect(format(`common:error.${kind}.description`)).toBe(text.description)
    }
    expect(format('common:error.unavailable.title')).toBe(UNAVAILABLE_CONTENT.title)
  })

  test('the lists’ name orders (NAME_SORT_LABELS)', () => {
    for (const [sort, label] of Object.entries(NAME_SORT_LABELS))
      expect(format(`common:kit.nameSort.${sort}`)).toBe(label)
  })

  test('the second factor’s refusals (totp.server.ts) and the tries left', () => {
    expect(format('second-factor:wrongCode')).toBe(WRONG_CODE)
    expect(format('second-factor:wrongSetUpCode')).toBe(WRONG_SETUP_CODE)
    expect(format('second-factor:triesLeft', { count: 1 })).toBe(
      '1 try left before you need to sign in again.',
    )
    expect(format('second-factor:triesLeft', { count: 4 })).toBe(
      '4 tries left before you need to sign in again.',
    )
  })

  test('the verification page’s headings', () => {
    for (const mode of [...VERIFICATION_MODES, null]) {
      expect(format(`verification:${verificationTitleKey(mode)}`)).toBe(verificationTitle(mode))
    }
  })

  test('the single sign-on failure page, with and without a provider’s name and an address', () => {
    const formatWith = (key: string, values: Record<string, string | number>) =>
      new IntlMessageFormat(english.get(`sso:${key}`)!, intlLocale('en')).format(values) as string
    for (const failure of [...SSO_FAILURE_KEYS, 'invalid-callback', 'something-new']) {
      for (const providerName of ['Acme SSO', null]) {
        for (const email of ['erin@acme.test', null]) {
          const view = { failure, providerName, email }
          const { title, body, values } = ssoFailureMessage(view)
          expect(formatWith(title, values), `${failure} title`).toBe(ssoFailureText(view).title)
          expect(formatWith(body, values), `${failure} ${providerName} ${email}`).toBe(
            ssoFailureText(view).body,
          )
        }
      }
    }
  })

  test('the employee’s home: the labels, the manager’s note and the days left', () => {
    for (const status of ['pending', 'in_progress', 'submitted'] as const)
      expect(format(`home:status.${status}`)).toBe(ASSIGNMENT_STATUS_LABELS[status])
    for (const status of ['invited', 'started', 'answered'] as const)
      expect(format(`home:inviteStatus.${status}`)).toBe(INVITE_STATUS_LABELS[status])
    for (const relationship of ['manager', 'peer', 'direct_report', 'other'] as const)
      expect(format(`home:relationship.${relationship}`)).toBe(RELATIONSHIP_LABELS[relationship])
    for (const phase of ['upcoming', 'open', 'closed'] as const)
      expect(format(`home:phase.${phase}`)).toBe(PHASE_LABELS[phase])
    expect(format('home:colleagues.managerSeesReport')).toBe(MANAGER_SEES_REPORT_NOTE)
    for (const days of [0, 1, 2, 30]) expect(format('home:card.daysLeft', { days })).toBe(daysLeftLabel(days))
  })

  test('the invitation page: the remaining places, the statuses and the outlook’s groups', () => {
    for (const count of [0, 1, 2, 5]) {
      expect(format('invite:remaining.own', { count })).toBe(remainingText(count, null))
      expect(format('invite:remaining.onBehalf', { count, who: 'Erin' })).toBe(remainingText(count, 'Erin'))
    }
    expect(format('invite:list.revoked')).toBe(INVITE_STATUS_LABELS.revoked)
    for (const group of ['manager', 'peer', 'direct_report'] as const)
      expect(format(`invite:outlook.group.${group}`)).toBe(PART_LABELS[group])
    expect(format('invite:fields.relationship')).toBe(format('invite:list.relationship'))
  })

  test('the nominations page: whose list the toasts name', () => {
    expect(format('nomination:whose.own')).toBe(whoseList('employee', 'Erin'))
    expect(format('nomination:whose.other', { whose: possessive('Erin') })).toBe(whoseList('manager', 'Erin'))
  })

  test('the report’s release sentences (release-status.ts): home:release.* equals the English lines', () => {
    const base: ReleaseStatusInput = {
      viewer: 'employee',
      reportRelease: 'on_close',
      closesAt: '2026-06-30T22:59:00Z',
      timeZone: 'Europe/London',
      schemeClosed: false,
      releasedAt: null,
      colleaguesShown: false,
      releasedAnswers: 0,
      answeredNow: 0,
      minRaters: 3,
      locale: intlLocale('en'),
    }
    const cases: Partial<ReleaseStatusInput>[] = []
    for (const reportRelease of ['on_close', 'by_admin'] as const)
      for (const schemeClosed of [false, true])
        for (const answeredNow of [0, 1, 2, 3, 5])
          for (const release of [
            {},
            { releasedAt: '2026-07-01T09:00:00Z', colleaguesShown: false, releasedAnswers: 1 },
            { releasedAt: '2026-07-01T09:00:00Z', colleaguesShown: false, releasedAnswers: 2 },
            { releasedAt: '2026-07-01T09:00:00Z', colleaguesShown: true, releasedAnswers: 1 },
            { releasedAt: '2026-07-01T09:00:00Z', colleaguesShown: true, releasedAnswers: 4 },
          ])
            cases.push({ reportRelease, schemeClosed, answeredNow, ...release })
    for (const change of cases) {
      const status = releaseStatus({ ...base, ...change })
      const said = status.messages!.map((m) => format(`home:release.${m.key}`, m.values))
      expect(said, JSON.stringify(change)).toEqual(status.lines)
    }
    expect(releaseStatus({ ...base, locale: undefined })).not.toHaveProperty('messages')
  })

  test('answer management’s labels and the reopen refusal (response/schemas.ts)', () => {
    const formatWith = (key: string, values: Record<string, string>) =>
      new IntlMessageFormat(english.get(key)!, intlLocale('en')).format(values) as string
    for (const [state, text] of Object.entries(RESPONSE_STATE_LABELS))
      expect(format(`answers:states.${state}`)).toBe(text)
    for (const [relationship, text] of Object.entries(RESPONSE_RELATIONSHIP_LABELS))
      expect(format(`answers:relationships.${relationship}`)).toBe(text)
    for (const [sort, text] of Object.entries(RESPONSE_SORT_LABELS))
      expect(format(`answers:sorts.${sort}`)).toBe(text)
    expect(formatWith('answers:response.schemeNotOpen', { scheme: 'Acme 2026' })).toBe(
      ANSWERS_ADMIN_MESSAGES.schemeNotOpen('Acme 2026'),
    )
  })

  test('the group report’s series', () => {
    for (const [series, text] of Object.entries(SERIES_LABELS))
      expect(format(`cohort:series.${series}`)).toBe(text)
  })

  test('the answering pages: notices, refusals, statuses, days left and the colleague’s privacy note', () => {
    const formatWith = (key: string, values: Record<string, string | number> = {}) =>
      new IntlMessageFormat(english.get(key)!, intlLocale('en')).format(values) as string
    const at = new Date('2026-06-30T22:59:00Z')
    const date = dateLabel(at, 'Europe/London').label
    expect(formatWith('answering:readOnly.notice.closed', { date })).toBe(
      ANSWER_MESSAGES.closed(at, 'Europe/London'),
    )
    expect(formatWith('answering:readOnly.notice.notOpen', { date })).toBe(
      ANSWER_MESSAGES.notOpen(at, 'Europe/London'),
    )
    expect(formatWith('answering:readOnly.notice.admin')).toBe(
      `${ANSWER_MESSAGES.admin} This is a read-only view of the answers saved so far.`,
    )
    for (const [status, label] of Object.entries(ASSIGNMENT_STATUS_LABELS))
      expect(formatWith(`answering:status.${status}`)).toBe(label)
    for (const days of [0, 1, 15])
      expect(formatWith('answering:daysLeft', { days })).toBe(daysLeftLabel(days))
    const employeeName = 'Erin Employee'
    expect(formatWith('answering:intro.privacyManager', { name: employeeName })).toBe(
      colleaguePrivacyNote({ relationship: 'manager', showManager: true, employeeName }),
    )
    expect(formatWith('answering:intro.privacyColleague')).toBe(
      colleaguePrivacyNote({ relationship: 'peer', showManager: true, employeeName }),
    )
    for (const [stance, label] of Object.entries(STANCE_LABELS))
      expect(formatWith(`plan:stance.${stance}`)).toBe(label)
  })

  test('the schemes’ state words and settings (scheme/labels.ts, schemas.ts, nomination/labels.ts)', () => {
    const tables: Array<[string, Record<string, string>]> = [
      ['schemes:phase', PHASE_LABELS],
      ['schemes:assignmentStatus', ASSIGNMENT_STATUS_LABELS],
      ['schemes:reportRelease', REPORT_RELEASE_LABELS],
      ['schemes:nomination.chooser', NOMINATION_CHOOSER_LABELS],
      ['schemes:nomination.chooserHint', NOMINATION_CHOOSER_HINTS],
      ['schemes:nomination.approval', NOMINATION_APPROVAL_LABELS],
      ['schemes:nomination.approvalHint', NOMINATION_APPROVAL_HINTS],
      ['schemes:nomination.status', NOMINATION_STATUS_LABELS],
    ]
    for (const [prefix, labels] of tables)
      for (const [value, text] of Object.entries(labels)) expect(format(`${prefix}.${value}`)).toBe(text)
    expect(format('scheme-page:notices.staleCursor')).toBe(STALE_PAGE_NOTICE)
  })

  test('plurals follow each language’s rules', () => {
    const linkSent = (language: Language, minutes: number) =>
      new IntlMessageFormat(keysOf(language).get('auth:signIn.linkSent')!, intlLocale(language)).format({
        minutes,
      })
    expect(linkSent('en', 1)).toContain('works for 1 minute.')
    expect(linkSent('en', 15)).toContain('works for 15 minutes.')
    expect(linkSent('de', 1)).toContain('gilt 1 Minute.')
    expect(linkSent('de', 15)).toContain('gilt 15 Minuten.')
    // French counts 0 and 1 as singular.
    expect(linkSent('fr', 0)).toContain('valable 0 minute.')
    expect(linkSent('fr', 2)).toContain('valable 2 minutes.')
  })
})

describe('the questionnaires catalogue equals the questionnaire module’s English', () => {
  const t = ((key: string, values?: Record<string, unknown>) =>
    new IntlMessageFormat(english.get(`questionnaires:${key}`)!, intlLocale('en')).format(
      values as Record<string, string>,
    ) as string) as unknown as TFunction<'questionnaires'>
  const words = qnWords(t)

  test('the statuses, the kinds of question and the list’s orders', () => {
    expect(words.statusLabels).toEqual(STATUS_LABELS)
    expect(words.kindLabels).toEqual(KIND_LABELS)
    expect(words.sortLabels).toEqual(QN_SORT_LABELS)
  })

  test('the refusals naming schemes, one, a few and more than are named', () => {
    for (const [names, total] of [
      [['Spring'], 1],
      [['Spring', 'Autumn'], 2],
      [['Spring', 'Autumn', 'Winter'], 250],
    ] as const) {
      expect(words.archiveBlocked([...names], total)).toBe(archiveBlocked([...names], total))
      expect(words.revertBlocked([...names], total)).toBe(revertBlocked([...names], total))
    }
  })

  test('what blocks publishing (checks.ts), and the languages left incomplete', () => {
    const where = { section: 2, title: 'Listening', question: 3, text: 'I listen carefully.' }
    const problems: PublishProblem[] = [
      { key: 'noSections' },
      { key: 'emptySection', section: 1, title: 'Empty' },
      { key: 'fewScaleLabels', ...where },
      { key: 'scaleLabelsOver', ...where, labels: 6, points: 5 },
      { key: 'fewChoices', ...where },
      { key: 'noScale' },
    ]
    for (const p of problems) expect(blockerText(t, p)).toBe(blockerSentence(p))
    for (const counts of [
      [{ language: 'de', missing: 1 }],
      [
        { language: 'de', missing: 12 },
        { language: 'fr', missing: 3 },
      ],
      [{ language: 'fr', missing: 0 }],
    ] as const) {
      expect(languageWarningOf(t, counts)).toBe(incompleteLanguagesMessage([...counts]))
    }
  })

  test('the limits written out in the forms’ messages', () => {
    expect(QN_MESSAGES.introTooLong).toContain(` ${INTRO_MAX.toLocaleString(intlLocale('en'))} `)
    expect(QN_MESSAGES.scaleMin).toContain(`from ${SCALE_MIN_LOWEST} to ${SCALE_MAX_HIGHEST - 1}.`)
    expect(QN_MESSAGES.scaleMax).toContain(`from ${SCALE_MIN_LOWEST + 1} to ${SCALE_MAX_HIGHEST}.`)
  })
})

/** A namespace's `t` in English, as a loader or an action gets it (getFixedT), for the pages' own words. */
export function englishT<N extends string>(namespace: N): TFunction<N> {
  return languageT('en', namespace)
}

/** The same in another language, without English beneath it (a key it lacks reads as the key). */
function languageT<N extends string>(language: Language, namespace: N): TFunction<N> {
  const instance = createInstance()
  instance.use(new ICU())
  void instance.init({
    lng: language,
    ns: [namespace],
    defaultNS: namespace,
    resources: { [language]: { [namespace]: RESOURCES[language]?.[namespace as never] ?? {} } },
    initAsync: false,
    interpolation: { escapeValue: false },
  })
  return instance.getFixedT(language, namespace) as TFunction<N>
}

describe('English equals the admin pages’ wordings', () => {
  test('the dashboard’s recent activity (describeAction)', () => {
    const t = englishT('admin-dashboard')
    const actions = [
      'company.create',
      'brand.update',
      'brand.delete',
      'user.disabled',
      'user.enabled',
      'assignment.submit',
      'admin.invited',
      'admin.invite_resent',
      'admin.sessions_ended',
      'invite.revoke',
      'invite.resend',
      'invite.create',
      'scheme.launched',
      'scheme.closed',
      'scheme.reopened',
      'employee_import.imported',
      'answers.export',
      'response.reopen',
      'response.reopen_request',
      'response.reopen_decline',
      'something.odd',
      'scheme.extend',
      ...ACTIVITY_CODES,
    ]
    for (const action of actions)
      for (const entity of [...ENTITY_KEYS, 'odd_thing'])
        expect(describeActionIn(t, action, entity), `${action} ${entity}`).toBe(
          describeAction(action, entity),
        )
    for (const extra of [
      {},
      { reason: 'Audit', scheme: 'Spring' },
      { reason: 'x'.repeat(250) },
      { scheme: 'S' },
    ]) {
      for (const action of ['response.reveal', 'answers.export_identities'])
        expect(describeActionIn(t, action, 'response', extra)).toBe(describeAction(action, 'response', extra))
    }
  })
  test('the actions English shows as their code are worded in German and French', () => {
    for (const language of ['de', 'fr'] as const) {
      const t = languageT(language, 'admin-dashboard')
      for (const action of ACTIVITY_CODES) {
        const text = describeActionIn(t, action, action.split('.')[0]!)
        expect(text, `${language} ${action}`).not.toBe(describeAction(action, action.split('.')[0]!))
        expect(text, `${language} ${action}`).not.toMatch(/^[a-z_ ]+: |codes\./)
      }
    }
  })
  test('why a company cannot be deleted (companyInUseMessage)', () => {
    const t = englishT('companies')
    for (const [employees, schemes] of [
      [1, 0],
      [0, 1],
      [2, 0],
      [0, 3],
      [1, 1],
      [1200, 2],
    ] as const)
      expect(t('inUse', { name: 'Acme', employees, schemes, count: employees + schemes })).toBe(
        companyInUseMessage('Acme', employees, schemes),
      )
  })
  test('the development plan’s focus options (PLAN_OPTION_WORDS)', () => {
    const t = englishT('plan')
    expect(t('add.options.scores', { self: '3.5', colleagues: '—' })).toBe(
      PLAN_OPTION_WORDS.scores('3.5', '—'),
    )
    expect(t('add.options.competencies')).toBe(PLAN_OPTION_WORDS.competencies)
    expect(t('add.options.questions', { category: 'Growth' })).toBe(PLAN_OPTION_WORDS.questions('Growth'))
  })
  test('the administrators’ states (ADMIN_STATE_LABELS)', () => {
    const t = englishT('admins')
    for (const [state, label] of Object.entries(ADMIN_STATE_LABELS)) expect(t(`states.${state}`)).toBe(label)
  })
  test('the employees’ words (states, schemes, feedback, named refusals)', () => {
    const t = englishT('employees')
    for (const [state, label] of Object.entries(EMPLOYEE_STATE_LABELS))
      expect(t(`states.${state}`)).toBe(label)
    for (const [phase, label] of Object.entries(PHASE_LABELS)) expect(t(`schemes.phase.${phase}`)).toBe(label)
    for (const [status, label] of Object.entries(ASSIGNMENT_STATUS_LABELS))
      expect(t(`schemes.selfStatus.${status}`)).toBe(label)
    for (const [relationship, label] of Object.entries(RELATIONSHIP_LABELS))
      expect(t(`ratings.relationship.${relationship}`)).toBe(label)
    for (const [status, label] of Object.entries(INVITE_STATUS_LABELS))
      expect(t(`ratings.inviteStatus.${status}`)).toBe(label)
    expect(t('named.alreadyEmployee', { company: 'Acme' })).toBe(EMPLOYEE_MESSAGES.alreadyEmployee('Acme'))
    expect(t('named.managerUnknown', { company: 'Acme' })).toBe(EMPLOYEE_MESSAGES.managerUnknown('Acme'))
    expect(t('named.schemeOtherCompany', { company: 'Acme' })).toBe(
      IMPORT_MESSAGES.schemeOtherCompany('Acme'),
    )
    expect(t('named.managerCycle', { manager: 'Sam' })).toBe(EMPLOYEE_MESSAGES.managerCycle('Sam'))
    expect(t('named.managesOne', { company: 'Acme' })).toBe(EMPLOYEE_MESSAGES.managesOthers(1, 'Acme'))
    expect(t('named.managesMany', { count: '3', company: 'Acme' })).toBe(
      EMPLOYEE_MESSAGES.managesOthers(3, 'Acme'),
    )
  })
  test('the CSV import’s problems, in English as the import says them', () => {
    const t = englishT('employees')
    const say = (key: string, values: Record<string, string | number>) => t(key, values)
    for (const [code, label] of Object.entries(ROW_PROBLEM_LABELS))
      expect(t(`problemLabels.${code}`)).toBe(label)
    for (const [code, text] of Object.entries(ROW_PROBLEMS)) {
      const row = { errors: [code], companyName: 'Acme Ltd', duplicateOf: null, companySuggestion: null }
      expect(rowProblemTexts(row, say)).toEqual([text])
    }
    const row = {
      errors: ['manager_other_company', 'manager_has_problems', 'email_duplicate', 'company_unknown'],
      companyName: 'Acme Ltd',
      duplicateOf: 3,
      companySuggestion: 'Acme',
      managerLine: 12,
    }
    expect(rowProblemTexts(row, say)).toEqual(rowProblemTexts(row))
  })
})

describe('the report’s and the PDFs’ English equals the wordings modules export (namespaces report, pdf)', () => {
  const tIn =
    (ns: string) =>
    (key: string, values: Record<string, unknown> = {}) =>
      new IntlMessageFormat(english.get(`${ns}:${key}`)!, intlLocale('en')).format(
        values as Record<string, string | number>,
      ) as string
  const t = tIn('report')
  const words = reportWords(t as never, intlLocale('en'))

  test('the colleagues line, the difference in words and in a cell, a self answer', () => {
    for (const [invited, colleaguesSubmitted] of [
      [0, 0],
      [1, 1],
      [8, 4],
    ] as const)
      expect(words.answeredLine({ invited, colleaguesSubmitted })).toBe(
        answeredLine({ invited, colleaguesSubmitted }),
      )
    for (const difference of [null, 0, 0.8, -1.2]) {
      for (const who of ['you', { name: 'Erin Example' }] as const)
        expect(words.differenceWords(difference, who)).toBe(differenceWords(difference, who))
      expect(words.differenceCell(difference)).toBe(differenceCell(difference))
    }
    const question = {
      kind: 'scale',
      min: 1,
      max: 5,
      labels: ['Never'],
      self: null,
    } as unknown as SelfQuestion
    expect(words.selfAnswer(question)).toBe(describeSelfAnswer(question))
    const na = { ...question, self: { notApplicable: true } } as unknown as SelfQuestion
    expect(words.selfAnswer(na)).toBe(describeSelfAnswer(na))
    expect(words.score(3.25)).toBe('3.3')
    expect(reportWords(t as never, intlLocale('de')).score(3.25)).toBe('3,3')
    expect(t('chart.rings', { min: 1, max: 5 })).toBe(radarScaleNote(1, 5))
    expect(t('cycle.aboveNorm', { norm: '3.5', amount: '0.4' })).toBe(againstNormText(3.9, 3.5))
  })

  test('the release status, in every state, for the employee and for an admin', () => {
    const base: ReleaseStatusInput = {
      viewer: 'employee',
      reportRelease: 'on_close',
      closesAt: '2026-03-31T21:59:00Z',
      timeZone: 'Europe/Berlin',
      schemeClosed: false,
      releasedAt: null,
      colleaguesShown: false,
      releasedAnswers: 0,
      answeredNow: 1,
      minRaters: 3,
    }
    const cases: Partial<ReleaseStatusInput>[] = [
      {},
      { reportRelease: 'by_admin' },
      { schemeClosed: true },
      { schemeClosed: true, answeredNow: 4 },
      { answeredNow: 2 },
      { releasedAt: '2026-04-01T08:00:00Z', releasedAnswers: 1 },
      { releasedAt: '2026-04-01T08:00:00Z', releasedAnswers: 2, answeredNow: 3 },
      { releasedAt: '2026-04-01T08:00:00Z', releasedAnswers: 2, answeredNow: 3, reportRelease: 'by_admin' },
      { releasedAt: '2026-04-01T08:00:00Z', colleaguesShown: true, releasedAnswers: 1 },
      { releasedAt: '2026-04-01T08:00:00Z', colleaguesShown: true, releasedAnswers: 5 },
    ]
    for (const viewer of ['employee', 'admin'] as const)
      for (const change of cases) {
        const input = { ...base, ...change, viewer }
        expect(releaseStatusIn(input, t, intlLocale('en')), JSON.stringify(change)).toEqual(
          releaseStatus(input),
        )
      }
  })

  test('the PDFs’ refusals and “Page n of N”', () => {
    const pdf = tIn('pdf')
    expect(pdf('refusals.notReleased')).toBe(NOT_RELEASED_MESSAGE)
    expect(pdf('refusals.nothingReleased')).toBe(NOTHING_RELEASED_MESSAGE)
    expect(pdf('refusals.noCohortFigure')).toBe(NO_COHORT_FIGURE_MESSAGE)
    expect(pdf('refusals.unavailable')).toBe(PDF_UNAVAILABLE_MESSAGE)
    expect(footerTemplate('Feedback report', (page, pages) => pdf('page', { page, pages }))).toBe(
      footerTemplate('Feedback report'),
    )
  })
})

describe('the e-mail pages’ English equals the e-mail module’s wordings (namespace email)', () => {
  const format = (key: string, values?: Record<string, string | number>) =>
    new IntlMessageFormat(english.get(`email:${key}`)!, intlLocale('en')).format(values) as string

  test('the templates’ labels and descriptions, the messages’ states', () => {
    for (const [key, label] of Object.entries(TEMPLATE_LABELS)) {
      expect(format(`templates.${key}.label`)).toBe(label)
      expect(format(`templates.${key}.description`)).toBe(
        TEMPLATE_DESCRIPTIONS[key as keyof typeof TEMPLATE_DESCRIPTIONS],
      )
    }
    for (const [state, label] of Object.entries(OUTBOX_STATE_LABELS))
      expect(format(`states.${state}`)).toBe(label)
  })
})

describe('the release panel’s reasons (release-rule.ts): scheme-page:release.reason.* in English equals verdictRefusal', () => {
  const sayIn = (language: Language) => {
    const messages = keysOf(language)
    return (key: string, values: Record<string, string | number>) =>
      new IntlMessageFormat(messages.get(`scheme-page:${key}`)!, intlLocale(language)).format(
        values,
      ) as string
  }
  const COUNTS = [0, 1, 2, 5]

  /** Every kind of verdict, its numbers 0, 1, 2 and 5 (each change alone and together). */
  function verdicts(): ReleaseVerdict[] {
    const all: ReleaseVerdict[] = []
    for (const answered of COUNTS) {
      all.push({ kind: 'unchanged', answered })
      all.push({ kind: 'fewer-than-before', answered, needed: 3 })
      all.push({ kind: 'would-reveal', answered })
      all.push({ kind: 'self-only', answered, needed: 3 })
      all.push({ kind: 'release', first: true, answered, groupsShown: true, change: null })
      for (const changed of COUNTS)
        for (const withdrawn of COUNTS) {
          const change = { added: answered, changed, withdrawn, total: answered + changed + withdrawn }
          if (change.total) all.push({ kind: 'too-few-changes', answered: 9, change, needed: 3 })
        }
    }
    return all
  }

  test('every verdict kind, with counts 0, 1, 2 and 5 and thresholds below and above them', () => {
    const english = sayIn('en')
    let said = 0
    for (const minRaters of [1, 2, 3, 6])
      for (const verdict of verdicts()) {
        const reason = verdictReason(verdict, minRaters)
        const refusal = verdictRefusal(verdict, minRaters)
        expect(reason === null, verdict.kind).toBe(refusal === null)
        if (!reason) continue
        expect(reasonIn(reason, english), JSON.stringify({ verdict, minRaters })).toBe(refusal)
        said++
      }
    expect(said).toBeGreaterThan(200)
  })

  test('German and French say it with their own words and plurals, and no English is left', () => {
    const de = sayIn('de')
    const fr = sayIn('fr')
    const tooFew = verdictReason(
      {
        kind: 'too-few-changes',
        answered: 4,
        change: { added: 1, changed: 0, withdrawn: 0, total: 1 },
        needed: 3,
      },
      3,
    )!
    expect(reasonIn(tooFew, de)).toBe(
      'Seit der letzten Freigabe hat sich 1 Antwort geändert (1 neu); nötig sind 3, bevor sich der Bericht ändern kann, damit sich niemandes Antworten durch einen Vergleich der beiden Freigaben herauslesen lassen.',
    )
    const several = verdictReason(
      {
        kind: 'too-few-changes',
        answered: 4,
        change: { added: 0, changed: 2, withdrawn: 1, total: 3 },
        needed: 5,
      },
      5,
    )!
    expect(reasonIn(several, de)).toContain('haben sich 3 Antworten geändert (2 geändert, 1 wieder geöffnet')
    expect(reasonIn(several, fr)).toContain(
      '3 réponses ont changé depuis la dernière publication (2 modifiées, 1 rouverte et non renvoyée)',
    )
    const below = (answered: number) => verdictReason({ kind: 'unchanged', answered }, 3)!
    expect(reasonIn(below(1), de)).toContain('1 Antwort von 3 nötigen liegt vor.')
    expect(reasonIn(below(2), de)).toContain('2 Antworten von 3 nötigen liegen vor.')
    // French counts 0 as singular.
    expect(reasonIn(below(0), fr)).toContain('0 réponse est arrivée sur les 3 nécessaires.')
    const fewer = verdictReason({ kind: 'fewer-than-before', answered: 1, needed: 2 }, 3)!
    expect(reasonIn(fewer, de)).toMatch(/^Jetzt ist nur 1 Antwort abgeschickt/)
    for (const verdict of verdicts())
      for (const say of [de, fr]) {
        const reason = verdictReason(verdict, 3)
        if (reason) expect(reasonIn(reason, say)).not.toMatch(/\b(?:the|answers?|responses?|release)\b/)
      }
  })
})
