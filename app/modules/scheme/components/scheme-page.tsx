import { getFormProps } from '@conform-to/react'
import type { TFunction } from 'i18next'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { Form, Link } from 'react-router'
import { ListPagination, useListHref } from '#app/components/admin-list'
import { Cell, DataTable, RowHeader } from '#app/components/data-table'
import {
  formErrorsOf,
  resultFor,
  useConformForm,
  usePendingIntent,
  useResetAfterSuccess,
  type FormResult,
  type IntentReply,
} from '#app/components/form-kit'
import { ConformField } from '#app/components/form-parts'
import { ConfirmPanel, Notices, PageHeader } from '#app/components/page-kit'
import { ErrorList, FormErrors } from '#app/components/forms'
import { formatDateTime, instantToZonedTime, zoneName } from '#app/lib/dates'
import type { PageData } from '#app/lib/page-data'
import { reasonIn, verdictReason, type ReleaseChange } from '#app/modules/report/release-rule'
import { enoughAnswers } from '#app/modules/report/threshold'
import { reviewListHref } from '#app/modules/nomination/labels'
import type { ParticipantRow } from '#app/modules/scheme/participants.server'
import type { loadSchemePage } from '#app/modules/scheme/scheme-page.server'
import type { SchemeDetail } from '#app/modules/scheme/scheme.server'
import { SchemeAddEmployeeSchema, SchemeEnrolSchema } from '#app/modules/scheme/schemas'
import { Card } from '#app/components/card'
import type { Language } from '#db/enums'
import { isLanguage } from '#app/modules/i18n/languages'
import { richT } from '#app/modules/i18n/rich'
import { useIntlLocale } from '#app/modules/i18n/use-intl-locale'
import { ClosingTimeForm, EditSchemeForm } from './scheme-forms'
import { LegalHoldCard } from './legal-hold'
import { PhaseBadge } from './phase-badge'
import { Progress } from './scheme-list'

/**
 * The scheme page's UI (the route is app/routes/admin/scheme-management.$schemeId.tsx): details or
 * the edit form, the lifecycle, enrolment and the progress table. Every form is a plain POST with an
 * `intent`; confirmations and the edit form open from links, so it all works without JavaScript.
 */

type Data = PageData<typeof loadSchemePage>

/**
 * Who gets which e-mail at launch, built from the counts (issue 15, B12): one employee in the
 * singular, "the others" only when there are others, and disabled accounts (which get nothing while
 * disabled) said apart.
 */
export function launchMailsSentence(
  t: TFunction<'scheme-page'>,
  {
    enrolled,
    notActivated,
    disabledMembers: disabled,
  }: Pick<SchemeDetail, 'enrolled' | 'notActivated' | 'disabledMembers'>,
): string {
  const mailed = enrolled - disabled
  const activated = mailed - notActivated
  const gone = disabled
    ? ` ${t(mailed ? 'launchMails.disabledRemaining' : 'launchMails.disabledAll', { count: disabled })}`
    : ''
  if (!mailed) return `${t('launchMails.nobody')}${gone}`
  const who = !disabled
    ? t('launchMails.whoAll', { count: enrolled })
    : t('launchMails.whoSome', { mailed, enrolled })
  const what = !notActivated
    ? t('launchMails.open')
    : !activated
      ? t('launchMails.activation', { count: mailed })
      : t('launchMails.mixed', { notActivated, activated })
  return `${t('launchMails.sentence', { who, what })}${gone}`
}

/** The languages the questionnaire lacks texts in, in words ("German lacks 12 texts, …"), or null. */
export function untranslatedMessage(
  t: TFunction<'scheme-page'>,
  counts: Array<{ language: string; missing: number }>,
) {
  const incomplete = counts.filter((c) => isLanguage(c.language) && c.missing > 0)
  if (!incomplete.length) return null
  const parts = incomplete.map((c) =>
    t('details.lacks', { language: t(`languageName.${c.language as Language}`), count: c.missing }),
  )
  return t('details.lacking', { parts: parts.join(', '), count: incomplete.length })
}

/** Why an enrolment cannot be removed (the confirmation's words; REMOVAL_MESSAGES in English). */
function removalBlockedBy(
  t: TFunction<'scheme-page'>,
  row: { name: string; email: string; started: boolean; colleaguesInvited: number },
) {
  const who = row.name || row.email
  if (row.started) return t('remove.started', { who })
  if (row.colleaguesInvited > 0) return t('remove.invited', { who, live: row.colleaguesInvited })
  return null
}

export function SchemePage({ data, actionData }: { data: Data; actionData: IntentReply }) {
  const {
    scheme,
    query,
    participants,
    candidates,
    options,
    removing,
    releasing,
    releasePlan,
    nominationQueue,
    notices,
  } = data
  const { t } = useTranslation('scheme-page')
  const path = `/admin/scheme-management/${scheme.id}`
  const href = useListHref(path)
  const closeAll = { edit: null, confirm: null, remove: null, release: null }
  const unknownErrors = actionData?.intent === 'unknown' ? formErrorsOf(actionData.result) : undefined
  // Refusals of forms that live in table rows (or a panel that is not open) show at the top.
  const panelOpen: Record<string, boolean> = {
    launch: query.confirm === 'launch',
    close: query.confirm === 'close',
    'enrol-all': query.confirm === 'enrol-all',
    remove: Boolean(removing),
    release: Boolean(releasing),
    'release-all': query.confirm === 'release-all' || query.confirm === 'release-again-all',
  }
  const rowErrors = ['remind', 'launch', 'close', 'enrol-all', 'remove', 'release', 'release-all']
    .filter((intent) => !panelOpen[intent])
    .flatMap((intent) => formErrorsOf(resultFor(actionData, intent)) ?? [])
  // A legal hold posted from a stale tab (the other of its two forms is on screen now): at the top.
  const staleHold = scheme.legalHoldAt ? 'legal-hold' : 'lift-legal-hold'
  rowErrors.push(...(formErrorsOf(resultFor(actionData, staleHold)) ?? []))
  // An edit posted without its form on screen (a stale tab): every message of it, at the top.
  const update = resultFor(actionData, 'update')
  if (update && !(query.editing && options))
    rowErrors.push(...Object.values(update.error ?? {}).flatMap((messages) => messages ?? []))

  return (
    <section aria-labelledby="page-title" className="flex max-w-6xl flex-col gap-8">
      <div className="flex flex-col gap-2">
        <p className="text-sm">
          <Link className="link" to="/admin/scheme-management">
            {t('allSchemes')}
          </Link>
        </p>
        <PageHeader title={scheme.name} />
        <div className="flex flex-wrap items-center gap-3 text-slate-700">
          <PhaseBadge phase={scheme.phase} label={t(`schemes:phase.${scheme.phase}`)} />
          <span>{scheme.companyName}</span>
          <span aria-hidden="true">·</span>
          <span>{t('enrolledCount', { count: scheme.enrolled })}</span>
        </div>
      </div>
      <Notices notices={notices} />
      <FormErrors errors={unknownErrors ?? (rowErrors.length ? rowErrors : undefined)} />

      <Lifecycle scheme={scheme} confirm={query.confirm} href={href} actionData={actionData} />

      <LegalHoldCard scheme={scheme} actionData={actionData} />

      {query.editing && options ? (
        <Card id="edit-title" title={t('editTitle')}>
          <EditSchemeForm
            values={{
              name: scheme.name,
              companyId: scheme.companyId,
              questionnaireId: scheme.questionnaireId,
              timeZone: scheme.timeZone,
              opensAt: instantToZonedTime(scheme.opensAt, scheme.timeZone),
              closesAt: instantToZonedTime(scheme.closesAt, scheme.timeZone),
              maxColleagues: scheme.maxColleagues,
              minRaters: scheme.minRaters,
              reminderCadenceDays: scheme.reminderCadenceDays,
              reportRelease: scheme.reportRelease,
              showManagerBelowThreshold: scheme.showManagerBelowThreshold,
              managerSeesReport: scheme.managerSeesReport,
              minManager: scheme.minManager,
              minPeer: scheme.minPeer,
              minDirectReport: scheme.minDirectReport,
              minOther: scheme.minOther,
              nominationChooser: scheme.nominationChooser,
              nominationApproval: scheme.nominationApproval,
              nominationsCloseAt: scheme.nominationsCloseAt
                ? instantToZonedTime(scheme.nominationsCloseAt, scheme.timeZone)
                : '',
              followsSchemeId: scheme.followsSchemeId ?? '',
              showNorm: scheme.showNorm,
              languages: scheme.languages,
            }}
            options={options}
            locked={{
              company: scheme.enrolled ? t('locked.company') : null,
              questionnaire: scheme.answered ? t('locked.questionnaire') : null,
              nomination: scheme.nominationsFixed ? t('locked.nomination') : null,
            }}
            lastResult={resultFor(actionData, 'update')}
            cancelHref={href(closeAll)}
          />
        </Card>
      ) : (
        <Details scheme={scheme} editHref={href({ ...closeAll, edit: '1' })} />
      )}

      {nominationQueue ? <NominationQueueCard scheme={scheme} queue={nominationQueue} /> : null}

      {candidates ? (
        <Enrolment
          scheme={scheme}
          candidates={candidates}
          find={query.find}
          q={query.q}
          confirmAll={query.confirm === 'enrol-all'}
          href={href}
          actionData={actionData}
        />
      ) : null}

      {removing ? (
        <ConfirmPanel
          key={removing.id}
          id="remove-enrolment"
          title={t('remove.title', { who: removing.name || removing.email })}
          intent="remove"
          fields={{ employeeId: removing.id }}
          confirmLabel={t('remove.confirm')}
          pendingLabel={t('remove.pending')}
          cancelHref={href(closeAll)}
          lastResult={resultFor(actionData, 'remove')}
          blockedBy={removalBlockedBy(t, removing)}
          backLabel={t('backToScheme')}
        >
          <p className="text-slate-800">{t('remove.body')}</p>
        </ConfirmPanel>
      ) : null}

      {releasing ? (
        <ReleasePanel
          releasing={releasing}
          scheme={scheme}
          cancelHref={href(closeAll)}
          lastResult={resultFor(actionData, 'release')}
        />
      ) : null}

      {canRelease(scheme) ? (
        <section aria-labelledby="release-title" className="flex flex-col gap-3">
          <h2 id="release-title" className="text-lg font-semibold">
            {t('reports.title')}
          </h2>
          <p className="text-slate-700">
            {scheme.reportRelease === 'by_admin' ? t('reports.byAdmin') : t('reports.onClose')}
          </p>
          {releasePlan && (query.confirm === 'release-all' || query.confirm === 'release-again-all') ? (
            <ReleaseAllPanel
              scheme={scheme}
              plan={releasePlan}
              again={query.confirm === 'release-again-all'}
              href={href}
              cancelHref={href(closeAll)}
              lastResult={resultFor(actionData, 'release-all')}
            />
          ) : (
            <div className="flex flex-wrap gap-2">
              <Link className="btn btn-secondary" to={href({ ...closeAll, confirm: 'release-all' })}>
                {t('reports.releaseAll')}
              </Link>
              {/* The cohort's pages, from the released reports (issue 19 §4). */}
              <Link className="btn btn-secondary" to={`/admin/scheme-management/${scheme.id}/group-report`}>
                {t('reports.groupReport')}
              </Link>
              <Link className="btn btn-secondary" to={`/admin/scheme-management/${scheme.id}/heatmap`}>
                {t('reports.heatmap')}
              </Link>
              {/* One PDF per released report, as one ZIP (issue 19 §7, ADR 046). */}
              <a
                className="btn btn-secondary"
                href={`/admin/scheme-management/${scheme.id}/reports.zip`}
                download
              >
                {t('reports.zip')}
              </a>
            </div>
          )}
        </section>
      ) : null}

      <Participants scheme={scheme} page={participants} q={query.q} href={href} />
    </section>
  )
}

/** Reports may be released once the scheme is launched (ADR 022). */
const canRelease = (scheme: Pick<SchemeDetail, 'phase'>) => scheme.phase !== 'draft'

/**
 * The release confirmation for one participant, with the numbers of the rule between releases
 * (ADR 025): what the report would show, or — below the threshold — the choice between waiting and
 * releasing the self-assessment alone, or why nothing can be released now.
 */
function ReleasePanel({
  releasing,
  scheme,
  cancelHref,
  lastResult,
}: {
  releasing: NonNullable<Data['releasing']>
  scheme: Data['scheme']
  cancelHref: string
  lastResult: FormResult
}) {
  const { t } = useTranslation('scheme-page')
  const locale = useIntlLocale()
  const who = releasing.name || releasing.email
  const verdict = releasing.verdict
  const reason = verdict && verdictReason(verdict, scheme.minRaters)
  const refusal =
    releasing.self !== 'submitted' || !verdict
      ? t('release.notSubmitted')
      : reason && reasonIn(reason, (key, values) => t(key as never, values as never) as unknown as string)
  const selfOnly = verdict?.kind === 'self-only'
  // Released with colleagues' results before: this would be a release again, allowed or not.
  const again = releasing.report === 'released'
  return (
    <ConfirmPanel
      key={releasing.id}
      id="release-report"
      title={t(selfOnly ? 'release.titleSelfOnly' : again ? 'release.titleAgain' : 'release.title', { who })}
      intent="release"
      fields={{ employeeId: releasing.id, kind: selfOnly ? 'self-only' : 'full' }}
      confirmLabel={t(
        selfOnly ? 'release.confirmSelfOnly' : again ? 'release.confirmAgain' : 'release.confirm',
      )}
      pendingLabel={t('release.pending')}
      cancelHref={cancelHref}
      lastResult={lastResult}
      blockedBy={refusal ?? undefined}
      tone="primary"
      backLabel={t('backToScheme')}
    >
      {verdict?.kind === 'self-only' ? (
        <>
          <p className="text-slate-800">
            {t('release.selfOnlyWhy', { answered: verdict.answered, needed: scheme.minRaters })}
          </p>
          <p className="text-slate-800">
            {richT(
              t,
              'release.selfOnlyChoice',
              { wait: <strong>{t('release.wait')}</strong>, alone: <strong>{t('release.alone')}</strong> },
              { more: verdict.needed, who, needed: scheme.minRaters },
            )}
          </p>
        </>
      ) : verdict?.kind === 'release' ? (
        <>
          <p className="text-slate-800">
            {t(verdict.groupsShown ? 'release.willShow' : 'release.willShowNoGroups', {
              answered: verdict.answered,
              who,
            })}
          </p>
          {verdict.change ? (
            <p className="text-slate-800">
              {t('release.since', {
                date: releasing.releasedAt
                  ? formatDateTime(releasing.releasedAt, scheme.timeZone, locale)
                  : t('release.before'),
                changes: changeSummary(t, verdict.change),
              })}
            </p>
          ) : null}
        </>
      ) : null}
    </ConfirmPanel>
  )
}

function changeSummary(t: TFunction<'scheme-page'>, change: ReleaseChange) {
  return [
    change.added ? t('release.added', { count: change.added }) : null,
    change.changed ? t('release.changed', { count: change.changed }) : null,
    change.withdrawn ? t('release.withdrawn', { count: change.withdrawn }) : null,
  ]
    .filter(Boolean)
    .join(', ')
}

/** "Release all reports": first releases only, unless the admin also asks for re-releases (ADR 025). */
function ReleaseAllPanel({
  scheme,
  plan,
  again,
  href,
  cancelHref,
  lastResult,
}: {
  scheme: Data['scheme']
  plan: NonNullable<Data['releasePlan']>
  again: boolean
  href: ReturnType<typeof useListHref>
  cancelHref: string
  lastResult: FormResult
}) {
  const { t } = useTranslation('scheme-page')
  const count = plan.first + (again ? plan.again : 0)
  const left = [
    plan.belowThreshold
      ? t('releaseAll.belowThreshold', { count: plan.belowThreshold, needed: scheme.minRaters })
      : null,
    plan.unchangedOrTooFew ? t('releaseAll.unchanged', { count: plan.unchangedOrTooFew }) : null,
    !again && plan.again ? t('releaseAll.notAgain', { count: plan.again }) : null,
  ].filter((line): line is string => Boolean(line))
  const includeAgain =
    !again && plan.again ? (
      <>
        {' '}
        <Link className="link" to={href({ confirm: 'release-again-all' })}>
          {t('releaseAll.includeAgain', { count: plan.again })}
        </Link>
      </>
    ) : null
  return (
    <ConfirmPanel
      id="release-all-reports"
      title={t(again ? 'releaseAll.titleAgain' : 'releaseAll.title', { name: scheme.name })}
      intent="release-all"
      fields={again ? { again: 'yes' } : {}}
      confirmLabel={t('releaseAll.confirm', { count })}
      pendingLabel={t('release.pending')}
      cancelHref={cancelHref}
      lastResult={lastResult}
      tone="primary"
      blockedBy={
        count ? undefined : (
          <>
            {left.length ? t('releaseAll.noneBecause', { reasons: left.join('; ') }) : t('releaseAll.none')}
            {includeAgain}
          </>
        )
      }
      backLabel={t('backToScheme')}
    >
      <p className="text-slate-800">
        {[
          plan.first ? t('releaseAll.first', { count: plan.first }) : null,
          again && plan.again ? t('releaseAll.again', { count: plan.again }) : null,
          t('releaseAll.emailed'),
        ]
          .filter(Boolean)
          .join(' ')}
      </p>
      {left.length ? (
        <ul className="list-disc pl-5 text-slate-800">
          {left.map((line) => (
            <li key={line}>{line}.</li>
          ))}
        </ul>
      ) : null}
      {includeAgain ? <p>{includeAgain}</p> : null}
    </ConfirmPanel>
  )
}

/** "Manager 1 · Peers 3 · Direct reports 3 (if any)", or "None". */
function minimumsText(t: TFunction<'scheme-page'>, scheme: SchemeDetail) {
  const parts = (
    [
      ['manager', scheme.minManager],
      ['peers', scheme.minPeer],
      ['directReports', scheme.minDirectReport],
      ['others', scheme.minOther],
    ] as const
  )
    .filter(([, n]) => n > 0)
    .map(([group, n]) => t(`minimums.${group}`, { n }))
  return parts.length ? parts.join(' · ') : t('minimums.none')
}

function approvalText(t: TFunction<'scheme-page'>, scheme: SchemeDetail) {
  if (scheme.nominationApproval === 'none') return t('approval.none')
  if (scheme.nominationApproval === 'manager') return t('approval.manager')
  return t(`schemes:nomination.approval.${scheme.nominationApproval}`)
}

/**
 * The lists waiting for an approval (issue 18 §3): the oldest first, who must approve each, how many
 * people are on it, and a link to the page where an administrator reviews it; above them, how many
 * lists stand in each state.
 */
function NominationQueueCard({
  scheme,
  queue,
}: {
  scheme: SchemeDetail
  queue: NonNullable<Data['nominationQueue']>
}) {
  const { t } = useTranslation('scheme-page')
  const locale = useIntlLocale()
  const { counts } = queue
  const states = (['draft', 'submitted', 'sent_back', 'approved', 'not_begun'] as const).map((state) =>
    t('queue.state', { label: t(`schemes:nomination.status.${state}`), count: counts[state] }),
  )
  return (
    <Card id="nomination-queue-title" sectionId="nomination-queue" title={t('queue.title')}>
      <p className="text-slate-700">
        <span className="sr-only">{t('queue.byState')}</span>
        {states.join(' · ')}
      </p>
      <DataTable
        caption={t('queue.caption')}
        columns={(['employee', 'submitted', 'approver', 'people', 'action'] as const).map((c) =>
          t(`queue.columns.${c}`),
        )}
        rows={queue.rows}
        // Said in the card's own words below rather than as a card inside the card.
        empty={null}
      >
        {(row) => (
          <tr key={row.employeeId}>
            <RowHeader>{row.name}</RowHeader>
            <Cell className="text-slate-800">{formatDateTime(row.submittedAt, scheme.timeZone, locale)}</Cell>
            <Cell className="text-slate-800">
              {row.approverId ? (row.approverName ?? t('queue.theirManager')) : t('queue.administrators')}
            </Cell>
            <Cell className="text-slate-800">{row.nominees.toLocaleString(locale)}</Cell>
            <Cell>
              <Link className="link" to={reviewListHref(scheme.id, row.employeeId)}>
                {t('queue.review')}
                <span className="sr-only">{t('queue.reviewWho', { name: row.name })}</span>
              </Link>
            </Cell>
          </tr>
        )}
      </DataTable>
      {queue.rows.length ? null : <p className="text-slate-700">{t('queue.empty')}</p>}
      {queue.more ? <p className="text-sm text-slate-700">{t('queue.more', { count: queue.more })}</p> : null}
    </Card>
  )
}

function Details({ scheme, editHref }: { scheme: SchemeDetail; editHref: string }) {
  const { t } = useTranslation('scheme-page')
  const locale = useIntlLocale()
  const when = (iso: string) => formatDateTime(iso, scheme.timeZone, locale)
  const items: Array<[string, string]> = [
    [t('details.company'), scheme.companyName],
    [
      t('details.questionnaire'),
      scheme.questionnaireStatus === 'published'
        ? scheme.questionnaireTitle
        : t('details.questionnaireStatus', {
            title: scheme.questionnaireTitle,
            status: scheme.questionnaireStatus,
          }),
    ],
    [t('details.opens'), when(scheme.opensAt)],
    [t('details.closes'), when(scheme.closesAt)],
    [t('details.timeZone'), scheme.timeZone],
    [t('details.maxColleagues'), scheme.maxColleagues.toLocaleString(locale)],
    [t('details.minRaters'), scheme.minRaters.toLocaleString(locale)],
    [t('details.minimums'), minimumsText(t, scheme)],
    [t('details.chooser'), t(`schemes:nomination.chooser.${scheme.nominationChooser}`)],
    [t('details.approval'), approvalText(t, scheme)],
    [
      t('details.deadline'),
      scheme.nominationsCloseAt ? when(scheme.nominationsCloseAt) : t('details.noDeadline'),
    ],
    [
      t('details.reminders'),
      scheme.reminderCadenceDays
        ? t('details.everyDays', { count: scheme.reminderCadenceDays })
        : t('details.none'),
    ],
    [t('details.reportRelease'), t(`schemes:reportRelease.${scheme.reportRelease}`)],
    [
      t('details.managerAnswers'),
      t(scheme.showManagerBelowThreshold ? 'details.managerAlways' : 'details.managerWithEnough'),
    ],
    [
      t('details.managerReads'),
      t(scheme.managerSeesReport ? 'details.managerReadsAtRelease' : 'details.managerReadsShared'),
    ],
    [t('details.follows'), scheme.followsSchemeName ?? t('details.followsNone')],
    [t('details.norm'), t(scheme.showNorm ? 'details.normShown' : 'details.normHidden')],
    [
      t('details.languages'),
      scheme.languages
        .filter(isLanguage)
        .map((l) => t(`languageName.${l}`))
        .join(', '),
    ],
  ]
  const languageWarning = untranslatedMessage(t, scheme.untranslated)
  if (scheme.launchedAt) items.push([t('details.launched'), when(scheme.launchedAt)])
  if (scheme.closedAt) items.push([t('details.closed'), when(scheme.closedAt)])
  return (
    <section aria-labelledby="details-title" className="card flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="details-title" className="text-lg font-semibold">
          {t('details.title')}
        </h2>
        <Link className="btn btn-secondary" to={editHref}>
          {t('details.edit')}
        </Link>
      </div>
      <dl className="grid gap-x-6 gap-y-3 sm:grid-cols-2">
        {items.map(([term, value]) => (
          <div key={term}>
            <dt className="text-sm font-medium text-slate-600">{term}</dt>
            <dd className="text-slate-900">{value}</dd>
          </div>
        ))}
      </dl>
      {languageWarning ? (
        <p className="text-slate-800" id="languages-warning">
          <strong>{t('details.untranslated')}</strong> {languageWarning} {t('details.untranslatedHow')}
        </p>
      ) : null}
    </section>
  )
}

function Lifecycle({
  scheme,
  confirm,
  href,
  actionData,
}: {
  scheme: Data['scheme']
  confirm: Data['query']['confirm']
  href: ReturnType<typeof useListHref>
  actionData: IntentReply
}) {
  const { t } = useTranslation('scheme-page')
  const locale = useIntlLocale()
  const cancel = href({ confirm: null })
  const zone = zoneName(scheme.closesAt, scheme.timeZone, locale)
  const opensLater = new Date(scheme.opensAt).getTime() > Date.now()
  const closesLocal = instantToZonedTime(scheme.closesAt, scheme.timeZone)
  const mails = scheme.enrolled - scheme.disabledMembers === 1 ? 1 : 2
  return (
    <Card
      id="lifecycle-title"
      title={t(
        scheme.phase === 'draft'
          ? 'lifecycle.launch'
          : scheme.phase === 'closed'
            ? 'lifecycle.closed'
            : 'lifecycle.running',
      )}
    >
      {scheme.phase === 'draft' ? (
        confirm === 'launch' ? (
          <ConfirmPanel
            id="launch-scheme"
            title={t('lifecycle.launchTitle', { name: scheme.name })}
            intent="launch"
            fields={{}}
            confirmLabel={t('lifecycle.launchConfirm')}
            pendingLabel={t('lifecycle.launchPending')}
            cancelHref={cancel}
            lastResult={resultFor(actionData, 'launch')}
            blockedBy={scheme.enrolled ? null : t('lifecycle.nobodyEnrolled')}
            backLabel={t('backToScheme')}
            tone="primary"
          >
            <p className="text-slate-800">
              {[
                launchMailsSentence(t, scheme),
                opensLater
                  ? t('lifecycle.waits', {
                      count: mails,
                      date: formatDateTime(scheme.opensAt, scheme.timeZone, locale),
                    })
                  : t('lifecycle.atOnce', { count: mails }),
                t('lifecycle.undone'),
              ].join(' ')}
            </p>
          </ConfirmPanel>
        ) : (
          <div className="flex flex-wrap items-center gap-3">
            <p className="text-slate-700">{t('lifecycle.draft')}</p>
            <Link className="btn btn-primary" to={href({ confirm: 'launch', edit: null, remove: null })}>
              {t('lifecycle.launchButton')}
            </Link>
          </div>
        )
      ) : scheme.phase === 'closed' ? (
        <div className="flex flex-col gap-3">
          <p className="text-slate-700">{t('lifecycle.closedText')}</p>
          <ClosingTimeForm
            intent="reopen"
            current={closesLocal}
            timeZoneLabel={`${scheme.timeZone}, ${zone}`}
            lastResult={resultFor(actionData, 'reopen')}
          />
        </div>
      ) : (
        <div className="flex flex-col gap-4">
          <p className="text-slate-700">
            {scheme.phase === 'upcoming'
              ? t('lifecycle.upcoming', { date: formatDateTime(scheme.opensAt, scheme.timeZone, locale) })
              : t('lifecycle.openUntil', { date: formatDateTime(scheme.closesAt, scheme.timeZone, locale) })}
          </p>
          <ClosingTimeForm
            intent="extend"
            current={closesLocal}
            timeZoneLabel={`${scheme.timeZone}, ${zone}`}
            lastResult={resultFor(actionData, 'extend')}
          />
          {confirm === 'close' ? (
            <ConfirmPanel
              id="close-scheme"
              title={t('lifecycle.closeTitle', { name: scheme.name })}
              intent="close"
              fields={{}}
              confirmLabel={t('lifecycle.closeConfirm')}
              pendingLabel={t('lifecycle.closePending')}
              cancelHref={cancel}
              lastResult={resultFor(actionData, 'close')}
            >
              <p className="text-slate-800">
                {[
                  t('lifecycle.closeBody'),
                  scheme.phase === 'upcoming' ? t('lifecycle.closeBodyUpcoming') : null,
                  t('lifecycle.closeBodyReopen'),
                ]
                  .filter(Boolean)
                  .join(' ')}
              </p>
            </ConfirmPanel>
          ) : (
            <div>
              <Link className="btn btn-secondary" to={href({ confirm: 'close', edit: null, remove: null })}>
                {t('lifecycle.closeButton')}
              </Link>
            </div>
          )}
        </div>
      )}
    </Card>
  )
}

function Enrolment({
  scheme,
  candidates,
  find,
  q,
  confirmAll,
  href,
  actionData,
}: {
  scheme: Data['scheme']
  candidates: NonNullable<Data['candidates']>
  find: string
  q: string
  confirmAll: boolean
  href: ReturnType<typeof useListHref>
  actionData: IntentReply
}) {
  const { t } = useTranslation('scheme-page')
  const company = scheme.companyName
  return (
    <section aria-labelledby="enrol-title" className="card flex flex-col gap-6">
      <div>
        <h2 id="enrol-title" className="text-lg font-semibold">
          {t('enrol.title')}
        </h2>
        <p className="text-slate-700">
          {t('enrol.intro', { company })} {t(scheme.launchedAt ? 'enrol.launched' : 'enrol.notLaunched')}
        </p>
      </div>

      <SearchForm
        label={t('enrol.findLabel')}
        field={{ id: 'enrol-find', name: 'find', label: t('enrol.findField'), value: find }}
        button={t('enrol.find')}
        before={q ? <input type="hidden" name="q" value={q} /> : null}
      />

      <PickForm
        candidates={candidates}
        find={find}
        lastResult={resultFor(actionData, 'enrol')}
        noneLeft={
          scheme.enrolled + candidates.enrollable === 0
            ? // A company with nobody to enrol yet: say so, and where employees are added.
              richT(
                t,
                'enrol.noEmployees',
                {
                  link: (
                    <Link className="link" to={`/admin/employee-management?company=${scheme.companyId}`}>
                      {t('enrol.employeeManagement')}
                    </Link>
                  ),
                },
                { company },
              )
            : t('enrol.allEnrolled', { company })
        }
      />

      {candidates.enrollable > 0 ? (
        confirmAll ? (
          <ConfirmPanel
            id="enrol-all"
            title={t('enrol.allTitle', { count: candidates.enrollable, company })}
            intent="enrol-all"
            fields={{}}
            confirmLabel={t('enrol.allConfirm')}
            pendingLabel={t('enrol.pending')}
            cancelHref={href({ confirm: null })}
            lastResult={resultFor(actionData, 'enrol-all')}
            tone="primary"
            backLabel={t('backToScheme')}
          >
            <p className="text-slate-800">
              {t(scheme.launchedAt ? 'enrol.allBodyLaunched' : 'enrol.allBody', { company })}
            </p>
          </ConfirmPanel>
        ) : (
          <div>
            <Link className="btn btn-secondary" to={href({ confirm: 'enrol-all', edit: null, remove: null })}>
              {t('enrol.allButton', { count: candidates.enrollable })}
            </Link>
          </div>
        )
      ) : null}

      <AddEmployeeForm companyName={scheme.companyName} lastResult={resultFor(actionData, 'add-employee')} />
    </section>
  )
}

function PickForm({
  candidates,
  find,
  lastResult,
  noneLeft,
}: {
  candidates: NonNullable<Data['candidates']>
  find: string
  lastResult: FormResult
  /** What to say when nobody is left to pick (and no search narrowed the list). */
  noneLeft: ReactNode
}) {
  const { t } = useTranslation('scheme-page')
  const busy = usePendingIntent('enrol')
  const [form, fields] = useConformForm(SchemeEnrolSchema, { id: 'enrol-pick', lastResult })
  if (!candidates.rows.length)
    return <p className="text-slate-700">{find ? t('enrol.noMatch', { find }) : noneLeft}</p>
  const shown = candidates.rows.length
  return (
    <Form method="post" className="flex flex-col gap-3" {...getFormProps(form)}>
      <input type="hidden" name="intent" value="enrol" />
      <FormErrors id={form.errorId} errors={form.errors} />
      <fieldset
        className="flex flex-col gap-2"
        aria-describedby={fields.employeeIds.errors ? `${fields.employeeIds.id}-error` : undefined}
      >
        <legend className="label mb-1">
          {shown < candidates.total
            ? t(find ? 'enrol.firstOfMatching' : 'enrol.firstOf', { shown, total: candidates.total, find })
            : t(find ? 'enrol.notEnrolledMatching' : 'enrol.notEnrolled', { count: candidates.total, find })}
        </legend>
        <ul className="grid max-h-80 gap-1 overflow-y-auto rounded-md border border-slate-200 p-2 sm:grid-cols-2">
          {candidates.rows.map((c) => (
            <li key={c.id}>
              <label className="flex items-start gap-2 rounded px-2 py-1 hover:bg-slate-50">
                <input type="checkbox" name={fields.employeeIds.name} value={c.id} className="mt-1" />
                <span className="min-w-0">
                  <span className="block font-medium text-slate-900">{c.name || c.email}</span>
                  <span className="block text-sm break-all text-slate-600">
                    {c.email}
                    {c.activated ? '' : t('enrol.noAccount')}
                  </span>
                </span>
              </label>
            </li>
          ))}
        </ul>
        <ErrorList id={`${fields.employeeIds.id}-error`} errors={fields.employeeIds.errors} />
      </fieldset>
      <div>
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {busy ? t('enrol.pending') : t('enrol.submit')}
        </button>
      </div>
    </Form>
  )
}

function AddEmployeeForm({ companyName, lastResult }: { companyName: string; lastResult: FormResult }) {
  const { t } = useTranslation('scheme-page')
  const busy = usePendingIntent('add-employee')
  const [form, fields] = useConformForm(SchemeAddEmployeeSchema, { id: 'add-employee', lastResult })
  useResetAfterSuccess(form.id, 'add-employee', lastResult)
  return (
    <Form
      method="post"
      aria-labelledby="add-employee-title"
      className="flex flex-col gap-3"
      {...getFormProps(form)}
    >
      <h3 id="add-employee-title" className="font-semibold">
        {t('enrol.someoneNew')}
      </h3>
      <p className="text-sm text-slate-700">{t('enrol.someoneNewIntro', { company: companyName })}</p>
      <input type="hidden" name="intent" value="add-employee" />
      <FormErrors id={form.errorId} errors={form.errors} />
      <div className="grid gap-3 sm:grid-cols-[1fr_1fr_auto] sm:items-start">
        <ConformField label={t('enrol.name')} meta={fields.displayName} autoComplete="off" />
        <ConformField label={t('enrol.email')} meta={fields.email} type="email" autoComplete="off" />
        <button type="submit" className="btn btn-secondary sm:mt-6" disabled={busy}>
          {busy ? t('enrol.adding') : t('enrol.add')}
        </button>
      </div>
    </Form>
  )
}

function ReportCell({ row, scheme }: { row: ParticipantRow; scheme: SchemeDetail }) {
  const { t } = useTranslation('scheme-page')
  const locale = useIntlLocale()
  const changed = row.changedSinceRelease
  return (
    <>
      <span className="block">
        {t(`report.${row.report}`, { answered: row.colleaguesAnswered, needed: scheme.minRaters })}
      </span>
      {row.releasedAt ? (
        <span className="block text-slate-600">
          {formatDateTime(row.releasedAt, scheme.timeZone, locale)}
        </span>
      ) : null}
      {row.report === 'released' && changed ? (
        // A reopened or late answer never reaches a released report by itself: say so (issue 15 B4).
        <span className="block text-amber-900">
          {t(enoughAnswers(changed, scheme.minRaters) ? 'report.changedEnough' : 'report.changedTooFew', {
            count: changed,
            needed: scheme.minRaters,
          })}
        </span>
      ) : null}
      {row.report === 'released' ? (
        // Whether there is a plan, never what it says (ADR 043).
        <span className="block text-slate-700">
          {`${row.planAreas ? t('report.plan', { count: row.planAreas }) : t('report.noPlan')}${row.sharedWithManager ? t('report.shared') : ''}`}
        </span>
      ) : null}
    </>
  )
}

function Participants({
  scheme,
  page,
  q,
  href,
}: {
  scheme: Data['scheme']
  page: Data['participants']
  q: string
  href: ReturnType<typeof useListHref>
}) {
  const { t } = useTranslation('scheme-page')
  const canRemind = scheme.phase === 'open'
  const canInvite = scheme.phase === 'open'
  return (
    <section aria-labelledby="participants-title" className="flex flex-col gap-4">
      <h2 id="participants-title" className="text-lg font-semibold">
        {t('participants.title')}
      </h2>
      <SearchForm
        label={t('participants.searchLabel')}
        field={{ id: 'participants-search', name: 'q', label: t('participants.searchField'), value: q }}
        button={t('participants.show')}
        after={
          q ? (
            <Link className="link self-center" to={href({ q: null, after: null, before: null })}>
              {t('participants.clear')}
            </Link>
          ) : null
        }
      />
      <DataTable
        caption={q ? t('participants.captionMatching', { q }) : t('participants.caption')}
        columns={(['employee', 'account', 'self', 'colleagues', 'report', 'actions'] as const).map((c) =>
          t(`participants.columns.${c}`),
        )}
        rows={page.rows}
        empty={
          q
            ? t('participants.noMatch', { q })
            : scheme.phase === 'closed'
              ? t('participants.nobodyClosed')
              : t('participants.nobody')
        }
      >
        {(row) => {
          const who = row.name || row.email
          const owesAnswers =
            row.self === 'pending' ||
            row.self === 'in_progress' ||
            row.colleaguesAnswered < row.colleaguesInvited
          return (
            <tr key={row.id}>
              <RowHeader>
                <span className="block">{row.name || '—'}</span>
                <span className="block font-normal break-all text-slate-600">{row.email}</span>
              </RowHeader>
              <Cell className="text-slate-800">{t(`account.${row.account}`)}</Cell>
              <Cell className="text-slate-800">
                {row.self === 'none' ? '—' : t(`schemes:assignmentStatus.${row.self}`)}
              </Cell>
              <Cell>
                <Progress
                  label={t('participants.answered')}
                  done={row.colleaguesAnswered}
                  total={row.colleaguesInvited}
                />
              </Cell>
              <Cell className="text-slate-800">
                <ReportCell row={row} scheme={scheme} />
              </Cell>
              <Cell>
                <div className="flex flex-col items-start gap-2">
                  {canRemind && owesAnswers && row.account !== 'disabled' ? (
                    <Form method="post">
                      <input type="hidden" name="intent" value="remind" />
                      <input type="hidden" name="employeeId" value={row.id} />
                      <button type="submit" className="link text-left">
                        {t('participants.remind')}
                        <span className="sr-only">{t('participants.remindWho', { who })}</span>
                      </button>
                    </Form>
                  ) : null}
                  {canInvite ? (
                    <Link
                      className="link"
                      to={`/user/colleague-invite?${new URLSearchParams({ employee: row.id, scheme: scheme.id })}`}
                    >
                      {t('participants.invite')}
                      <span className="sr-only"> ({who})</span>
                    </Link>
                  ) : null}
                  {canRelease(scheme) && row.self === 'submitted' ? (
                    <Link
                      className="link"
                      to={href({ release: row.id, remove: null, edit: null, confirm: null })}
                    >
                      {t(row.report === 'released' ? 'participants.releaseAgain' : 'participants.release')}
                      <span className="sr-only"> ({who})</span>
                    </Link>
                  ) : null}
                  {row.removable ? (
                    <Link
                      className="link text-red-800"
                      to={href({ remove: row.id, edit: null, confirm: null })}
                    >
                      {t('participants.remove')}
                      <span className="sr-only"> {who}</span>
                    </Link>
                  ) : null}
                </div>
              </Cell>
            </tr>
          )
        }}
      </DataTable>
      <ListPagination
        noun="participants"
        next={page.next}
        prev={page.prev}
        href={href}
        reset={{ remove: null, release: null, confirm: null, edit: null }}
      />
    </section>
  )
}

/**
 * A GET search form of the page (the address stays shareable, and it works without JavaScript):
 * `before` (hidden fields), the search box, its button, then `after` (a "clear" link).
 */
function SearchForm({
  label,
  field,
  button,
  before,
  after,
}: {
  label: string
  field: { id: string; name: string; label: string; value: string }
  button: string
  before?: ReactNode
  after?: ReactNode
}) {
  return (
    <Form method="get" role="search" aria-label={label} className="flex flex-wrap items-end gap-3">
      {before}
      <div className="flex min-w-56 flex-1 flex-col gap-1">
        <label htmlFor={field.id} className="label">
          {field.label}
        </label>
        <input
          id={field.id}
          type="search"
          name={field.name}
          defaultValue={field.value}
          maxLength={100}
          className="input"
        />
      </div>
      <button type="submit" className="btn btn-secondary">
        {button}
      </button>
      {after}
    </Form>
  )
}
