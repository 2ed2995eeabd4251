import { getFormProps } from '@conform-to/react'
import type { ReactNode } from 'react'
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
import { plural } from '#app/lib/words'
import type { PageData } from '#app/lib/page-data'
import { verdictRefusal, type ReleaseChange } from '#app/modules/report/release-rule'
import { enoughAnswers } from '#app/modules/report/threshold'
import {
  NOMINATION_APPROVAL_LABELS,
  NOMINATION_CHOOSER_LABELS,
  NOMINATION_STATUS_LABELS,
  reviewListHref,
} from '#app/modules/nomination/labels'
import { ASSIGNMENT_STATUS_LABELS } from '#app/modules/scheme/labels'
import type { ParticipantRow } from '#app/modules/scheme/participants.server'
import type { loadSchemePage } from '#app/modules/scheme/scheme-page.server'
import type { SchemeDetail } from '#app/modules/scheme/scheme.server'
import {
  removalBlockedBy,
  REPORT_RELEASE_LABELS,
  SchemeAddEmployeeSchema,
  SchemeEnrolSchema,
} from '#app/modules/scheme/schemas'
import { Card } from '#app/components/card'
import type { Language } from '#db/enums'
import { isLanguage, languageInfo } from '#app/modules/i18n/languages'
import { incompleteLanguagesMessage } from '#app/modules/questionnaire/translations'
import { ClosingTimeForm, EditSchemeForm } from './scheme-forms'
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
export function launchMailsSentence({
  enrolled,
  notActivated,
  disabledMembers: disabled,
}: Pick<SchemeDetail, 'enrolled' | 'notActivated' | 'disabledMembers'>): string {
  const count = (n: number) => n.toLocaleString('en-GB')
  const mailed = enrolled - disabled
  const activated = mailed - notActivated
  const disabledWho = mailed
    ? disabled === 1
      ? 'The remaining one is'
      : `The remaining ${count(disabled)} are`
    : disabled === 1
      ? 'The enrolled employee is'
      : `All ${count(disabled)} enrolled employees are`
  const gone = disabled
    ? ` ${disabledWho} disabled: no e-mail while ${disabled === 1 ? 'their account is' : 'their accounts are'}.`
    : ''
  if (!mailed) return `Nobody gets an e-mail yet.${gone}`
  const who = !disabled
    ? enrolled === 1
      ? 'The enrolled employee gets one e-mail'
      : `Each of the ${count(enrolled)} enrolled employees gets one e-mail`
    : mailed === 1
      ? `One of the ${count(enrolled)} enrolled employees gets one e-mail`
      : `${count(mailed)} of the ${count(enrolled)} enrolled employees get one e-mail each`
  const open = 'a “your programme is open” message'
  const what = !notActivated
    ? open
    : !activated
      ? `an activation link, as ${mailed === 1 ? 'they have no account' : 'none of them has an account'} yet`
      : `${notActivated === 1 ? 'the one' : `the ${count(notActivated)}`} without an account yet an activation link, ${activated === 1 ? 'the other one' : `the other ${count(activated)}`} ${open}`
  return `${who}: ${what}.${gone}`
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
  // An edit posted without its form on screen (a stale tab): every message of it, at the top.
  const update = resultFor(actionData, 'update')
  if (update && !(query.editing && options))
    rowErrors.push(...Object.values(update.error ?? {}).flatMap((messages) => messages ?? []))

  return (
    <section aria-labelledby="page-title" className="flex max-w-6xl flex-col gap-8">
      <div className="flex flex-col gap-2">
        <p className="text-sm">
          <Link className="link" to="/admin/scheme-management">
            All schemes
          </Link>
        </p>
        <PageHeader title={scheme.name} />
        <div className="flex flex-wrap items-center gap-3 text-slate-700">
          <PhaseBadge phase={scheme.phase} />
          <span>{scheme.companyName}</span>
          <span aria-hidden="true">·</span>
          <span>{plural(scheme.enrolled, 'person', 'people')} enrolled</span>
        </div>
      </div>
      <Notices notices={notices} />
      <FormErrors errors={unknownErrors ?? (rowErrors.length ? rowErrors : undefined)} />

      <Lifecycle scheme={scheme} confirm={query.confirm} href={href} actionData={actionData} />

      {query.editing && options ? (
        <Card id="edit-title" title="Edit the scheme">
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
              company: scheme.enrolled
                ? 'Employees are enrolled, so the company can no longer change.'
                : null,
              questionnaire: scheme.answered
                ? 'Someone has answered already, so the questionnaire can no longer change.'
                : null,
              nomination: scheme.nominationsFixed ? NOMINATIONS_FIXED_REASON : null,
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
          title={`Remove ${removing.name || removing.email} from this scheme?`}
          intent="remove"
          fields={{ employeeId: removing.id }}
          confirmLabel="Yes, remove the enrolment"
          pendingLabel="Removing…"
          cancelHref={href(closeAll)}
          lastResult={resultFor(actionData, 'remove')}
          blockedBy={removalBlockedBy(removing)}
          backLabel="Back to the scheme"
        >
          <p className="text-slate-800">
            Their membership and their (unstarted) self-assessment are removed, and an e-mail still waiting to
            be sent to them is withdrawn. Their account stays.
          </p>
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
            Reports
          </h2>
          <p className="text-slate-700">
            {scheme.reportRelease === 'by_admin'
              ? 'Colleagues’ results reach each report when you release it, usually at the debrief.'
              : 'Colleagues’ results reach each report when the scheme closes; you may release one earlier, for a debrief.'}
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
                Release all reports…
              </Link>
              {/* The cohort's pages, from the released reports (issue 19 §4). */}
              <Link className="btn btn-secondary" to={`/admin/scheme-management/${scheme.id}/group-report`}>
                Group report
              </Link>
              <Link className="btn btn-secondary" to={`/admin/scheme-management/${scheme.id}/heatmap`}>
                Heatmap
              </Link>
              {/* One PDF per released report, as one ZIP (issue 19 §7, ADR 046). */}
              <a
                className="btn btn-secondary"
                href={`/admin/scheme-management/${scheme.id}/reports.zip`}
                download
              >
                Download released reports (ZIP of PDFs)
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

const answersOf = (n: number) => plural(n, 'colleague answer', 'colleague answers')

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
  const who = releasing.name || releasing.email
  const verdict = releasing.verdict
  const refusal =
    releasing.self !== 'submitted' || !verdict
      ? 'Their self-assessment is not submitted yet, so there is no report to release.'
      : verdictRefusal(verdict, scheme.minRaters)
  const selfOnly = verdict?.kind === 'self-only'
  // Released with colleagues' results before: this would be a release again, allowed or not.
  const again = releasing.report === 'released'
  return (
    <ConfirmPanel
      key={releasing.id}
      id="release-report"
      title={
        selfOnly
          ? `Release ${who}’s self-assessment alone?`
          : `${again ? 'Release again' : 'Release'} the report of ${who}?`
      }
      intent="release"
      fields={{ employeeId: releasing.id, kind: selfOnly ? 'self-only' : 'full' }}
      confirmLabel={
        selfOnly
          ? 'Release the self-assessment alone'
          : again
            ? 'Yes, release it again'
            : 'Yes, release the report'
      }
      pendingLabel="Releasing…"
      cancelHref={cancelHref}
      lastResult={lastResult}
      blockedBy={refusal ?? undefined}
      tone="primary"
      backLabel="Back to the scheme"
    >
      {verdict?.kind === 'self-only' ? (
        <>
          <p className="text-slate-800">
            Only {answersOf(verdict.answered)} of the {scheme.minRaters} needed{' '}
            {verdict.answered === 1 ? 'is' : 'are'} in, so the report cannot show colleagues’ results:
            anything shown from fewer could be traced to one person.
          </p>
          <p className="text-slate-800">
            You can <strong>wait</strong> for {verdict.needed} more (send a reminder from the table below), or{' '}
            <strong>release the self-assessment alone</strong> now: {who} sees their own answers, no e-mail is
            sent, their colleagues’ invitations stay open, and a later release adds colleagues’ results once{' '}
            {scheme.minRaters} have answered.
          </p>
        </>
      ) : verdict?.kind === 'release' ? (
        <>
          <p className="text-slate-800">
            The report will show {answersOf(verdict.answered)}, combined
            {verdict.groupsShown
              ? ''
              : ', without rater groups this time (with them, comparing this release with the earlier one could single out a few colleagues)'}
            , and {who} is e-mailed that it is ready. Invitations not answered yet are closed: those
            colleagues can no longer answer. Answers changed later do not change a released report.
          </p>
          {verdict.change ? (
            <p className="text-slate-800">
              Since the release of{' '}
              {releasing.releasedAt ? formatDateTime(releasing.releasedAt, scheme.timeZone) : 'before'}:{' '}
              {changeSummary(verdict.change)}. The new report replaces that one.
            </p>
          ) : null}
        </>
      ) : null}
    </ConfirmPanel>
  )
}

function changeSummary(change: ReleaseChange) {
  return [
    change.added ? `${plural(change.added, 'response', 'responses')} added` : null,
    change.changed ? `${plural(change.changed, 'response', 'responses')} changed` : null,
    change.withdrawn
      ? `${plural(change.withdrawn, 'response', 'responses')} reopened and not submitted again`
      : null,
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
  const count = plan.first + (again ? plan.again : 0)
  const left = [
    plan.belowThreshold
      ? `${plural(plan.belowThreshold, 'report is', 'reports are')} below the ${scheme.minRaters} answers needed and ${plan.belowThreshold === 1 ? 'stays' : 'stay'} unreleased (release ${plan.belowThreshold === 1 ? 'it' : 'them'} one by one to release the self-assessment alone)`
      : null,
    plan.unchangedOrTooFew
      ? `${plural(plan.unchangedOrTooFew, 'released report has', 'released reports have')} not changed enough to be released again`
      : null,
    !again && plan.again
      ? `${plural(plan.again, 'released report has', 'released reports have')} changed enough to be released again, which this does not do`
      : null,
  ].filter((line): line is string => Boolean(line))
  const includeAgain =
    !again && plan.again ? (
      <>
        {' '}
        <Link className="link" to={href({ confirm: 'release-again-all' })}>
          Include the {plural(plan.again, 'report', 'reports')} to release again…
        </Link>
      </>
    ) : null
  return (
    <ConfirmPanel
      id="release-all-reports"
      title={
        again
          ? `Release all reports of “${scheme.name}”, again where they changed?`
          : `Release the reports of “${scheme.name}”?`
      }
      intent="release-all"
      fields={again ? { again: 'yes' } : {}}
      confirmLabel={`Yes, release ${plural(count, 'report', 'reports')}`}
      pendingLabel="Releasing…"
      cancelHref={cancelHref}
      lastResult={lastResult}
      tone="primary"
      blockedBy={
        count ? undefined : (
          <>
            No report can be released now{left.length ? `: ${left.join('; ')}` : ''}.{includeAgain}
          </>
        )
      }
      backLabel="Back to the scheme"
    >
      <p className="text-slate-800">
        {plan.first
          ? `${plural(plan.first, 'report is', 'reports are')} released for the first time with colleagues’ results, combined. `
          : ''}
        {again && plan.again
          ? `${plural(plan.again, 'report released before is', 'reports released before are')} released again: enough of ${plan.again === 1 ? 'its' : 'their'} colleagues’ responses have changed since. `
          : ''}
        Each employee is e-mailed; their unanswered invitations are closed.
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
function minimumsText(scheme: SchemeDetail) {
  const parts = (
    [
      ['Manager', scheme.minManager],
      ['Peers', scheme.minPeer],
      ['Direct reports', scheme.minDirectReport],
      ['Others', scheme.minOther],
    ] as const
  )
    .filter(([, n]) => n > 0)
    .map(([label, n]) => `${label} ${n}${label === 'Direct reports' ? ' (if any)' : ''}`)
  return parts.length ? parts.join(' · ') : 'None'
}

/** Why the edit form shows the nomination settings fixed (the server refuses a change with its own words). */
const NOMINATIONS_FIXED_REASON =
  'Lists or invitations exist in this scheme, so who chooses the raters, the approval, the most colleagues and the fewest per group can no longer change. The nomination deadline still can.'

function approvalText(scheme: SchemeDetail) {
  if (scheme.nominationApproval === 'none') return 'None: employees invite colleagues directly'
  if (scheme.nominationApproval === 'manager')
    return 'The employee’s manager (administrators for someone with no manager recorded)'
  return NOMINATION_APPROVAL_LABELS[scheme.nominationApproval]
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
  const { counts } = queue
  const states = (['draft', 'submitted', 'sent_back', 'approved', 'not_begun'] as const).map(
    (state) => `${NOMINATION_STATUS_LABELS[state]} ${counts[state].toLocaleString('en-GB')}`,
  )
  return (
    <Card
      id="nomination-queue-title"
      sectionId="nomination-queue"
      title="Nomination lists waiting for approval"
    >
      <p className="text-slate-700">
        <span className="sr-only">Lists by state: </span>
        {states.join(' · ')}
      </p>
      <DataTable
        caption="Lists waiting for approval, the oldest first"
        columns={['Employee', 'Submitted', 'To approve', 'People on the list', 'Action']}
        rows={queue.rows}
        // Said in the card's own words below rather than as a card inside the card.
        empty={null}
      >
        {(row) => (
          <tr key={row.employeeId}>
            <RowHeader>{row.name}</RowHeader>
            <Cell className="text-slate-800">{formatDateTime(row.submittedAt, scheme.timeZone)}</Cell>
            <Cell className="text-slate-800">
              {row.approverId ? (row.approverName ?? 'Their manager') : 'Administrators'}
            </Cell>
            <Cell className="text-slate-800">{row.nominees.toLocaleString('en-GB')}</Cell>
            <Cell>
              <Link className="link" to={reviewListHref(scheme.id, row.employeeId)}>
                Review<span className="sr-only"> the list of {row.name}</span>
              </Link>
            </Cell>
          </tr>
        )}
      </DataTable>
      {queue.rows.length ? null : <p className="text-slate-700">No list is waiting for approval.</p>}
      {queue.more ? (
        <p className="text-sm text-slate-700">
          {plural(queue.more, 'more list is', 'more lists are')} waiting; the oldest are shown first.
        </p>
      ) : null}
    </Card>
  )
}

function Details({ scheme, editHref }: { scheme: SchemeDetail; editHref: string }) {
  const when = (iso: string) => formatDateTime(iso, scheme.timeZone)
  const items: Array<[string, string]> = [
    ['Company', scheme.companyName],
    [
      'Questionnaire',
      `${scheme.questionnaireTitle}${scheme.questionnaireStatus === 'published' ? '' : ` (${scheme.questionnaireStatus})`}`,
    ],
    ['Opens', when(scheme.opensAt)],
    ['Closes', when(scheme.closesAt)],
    ['Time zone', scheme.timeZone],
    ['Most colleagues per employee', String(scheme.maxColleagues)],
    ['Colleague answers before a report shows them', String(scheme.minRaters)],
    ['Fewest colleagues to invite', minimumsText(scheme)],
    ['Who chooses the raters', NOMINATION_CHOOSER_LABELS[scheme.nominationChooser]],
    ['Approval before invitations go out', approvalText(scheme)],
    [
      'Nomination deadline',
      scheme.nominationsCloseAt
        ? when(scheme.nominationsCloseAt)
        : 'None: lists can change until the scheme closes',
    ],
    [
      'Reminders',
      scheme.reminderCadenceDays ? `Every ${plural(scheme.reminderCadenceDays, 'day', 'days')}` : 'None',
    ],
    ['Reports show colleagues’ answers', REPORT_RELEASE_LABELS[scheme.reportRelease]],
    [
      'Manager’s answers',
      scheme.showManagerBelowThreshold
        ? 'Shown on their own, even below the number of answers needed'
        : 'Shown on their own only with enough answers, like every group',
    ],
    [
      'Manager reads the report',
      scheme.managerSeesReport
        ? 'At release, without the employee’s consent (employees are told before inviting)'
        : 'Only when the employee shares it',
    ],
    ['Follows', scheme.followsSchemeName ?? 'No earlier scheme (a first cycle)'],
    ['Norm on reports', scheme.showNorm ? 'Shown where enough participants stand behind it' : 'Not shown'],
    ['Languages', scheme.languages.map((l) => languageInfo(l).name).join(', ')],
  ]
  const languageWarning = incompleteLanguagesMessage(
    scheme.untranslated.filter((c): c is { language: Language; missing: number } => isLanguage(c.language)),
  )
  if (scheme.launchedAt) items.push(['Launched', when(scheme.launchedAt)])
  if (scheme.closedAt) items.push(['Closed', when(scheme.closedAt)])
  return (
    <section aria-labelledby="details-title" className="card flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="details-title" className="text-lg font-semibold">
          Details
        </h2>
        <Link className="btn btn-secondary" to={editHref}>
          Edit the scheme
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
          <strong>The questionnaire is not fully translated.</strong> {languageWarning} Translate it in the
          questionnaire’s builder (a new version, if it is published).
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
  const cancel = href({ confirm: null })
  const zone = zoneName(scheme.closesAt, scheme.timeZone)
  const opensLater = new Date(scheme.opensAt).getTime() > Date.now()
  const closesLocal = instantToZonedTime(scheme.closesAt, scheme.timeZone)
  const oneMail = scheme.enrolled - scheme.disabledMembers === 1
  return (
    <Card
      id="lifecycle-title"
      title={scheme.phase === 'draft' ? 'Launch' : scheme.phase === 'closed' ? 'Closed' : 'Running'}
    >
      {scheme.phase === 'draft' ? (
        confirm === 'launch' ? (
          <ConfirmPanel
            id="launch-scheme"
            title={`Launch “${scheme.name}”?`}
            intent="launch"
            fields={{}}
            confirmLabel="Yes, launch and send the e-mails"
            pendingLabel="Launching…"
            cancelHref={cancel}
            lastResult={resultFor(actionData, 'launch')}
            blockedBy={scheme.enrolled ? null : 'Nobody is enrolled yet. Enrol at least one employee first.'}
            backLabel="Back to the scheme"
            tone="primary"
          >
            <p className="text-slate-800">
              {launchMailsSentence(scheme)}{' '}
              {opensLater
                ? `${oneMail ? 'The e-mail waits' : 'The e-mails wait'} until the scheme opens, ${formatDateTime(scheme.opensAt, scheme.timeZone)}.`
                : `The scheme is open from now on and the ${oneMail ? 'e-mail goes' : 'e-mails go'} out at once.`}{' '}
              This cannot be undone.
            </p>
          </ConfirmPanel>
        ) : (
          <div className="flex flex-wrap items-center gap-3">
            <p className="text-slate-700">
              A draft: nobody has been told yet. When its people are enrolled, launch it to send their
              e-mails.
            </p>
            <Link className="btn btn-primary" to={href({ confirm: 'launch', edit: null, remove: null })}>
              Launch the scheme
            </Link>
          </div>
        )
      ) : scheme.phase === 'closed' ? (
        <div className="flex flex-col gap-3">
          <p className="text-slate-700">
            Nobody can answer or invite colleagues any more. To run it again, reopen it with a new closing
            time.
          </p>
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
              ? `Launched. It opens ${formatDateTime(scheme.opensAt, scheme.timeZone)}; the e-mails wait until then.`
              : `Open until ${formatDateTime(scheme.closesAt, scheme.timeZone)}.`}
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
              title={`Close “${scheme.name}” now?`}
              intent="close"
              fields={{}}
              confirmLabel="Yes, close it now"
              pendingLabel="Closing…"
              cancelHref={cancel}
              lastResult={resultFor(actionData, 'close')}
            >
              <p className="text-slate-800">
                Nobody can answer or invite colleagues from now on; invitations not answered yet stay as they
                are.
                {scheme.phase === 'upcoming' ? ' The e-mails waiting for its opening are withdrawn.' : ''} You
                can reopen it later with a new closing time.
              </p>
            </ConfirmPanel>
          ) : (
            <div>
              <Link className="btn btn-secondary" to={href({ confirm: 'close', edit: null, remove: null })}>
                Close now…
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
  return (
    <section aria-labelledby="enrol-title" className="card flex flex-col gap-6">
      <div>
        <h2 id="enrol-title" className="text-lg font-semibold">
          Enrol employees
        </h2>
        <p className="text-slate-700">
          Employees of {scheme.companyName}, with an account or not yet (disabled ones cannot be enrolled).{' '}
          {scheme.launchedAt
            ? 'The scheme is launched: each one you enrol gets their e-mail straight away (held until it opens).'
            : 'They are told when the scheme is launched.'}
        </p>
      </div>

      <SearchForm
        label="Find employees to enrol"
        field={{ id: 'enrol-find', name: 'find', label: 'Find by name or e-mail', value: find }}
        button="Find"
        before={q ? <input type="hidden" name="q" value={q} /> : null}
      />

      <PickForm
        candidates={candidates}
        find={find}
        lastResult={resultFor(actionData, 'enrol')}
        noneLeft={
          scheme.enrolled + candidates.enrollable === 0 ? (
            // A company with nobody to enrol yet: say so, and where employees are added.
            <>
              {scheme.companyName} has no employees yet — add them in{' '}
              <Link className="link" to={`/admin/employee-management?company=${scheme.companyId}`}>
                Employee management
              </Link>
              , or add someone new below.
            </>
          ) : (
            `Every employee of ${scheme.companyName} is enrolled. Add someone new below.`
          )
        }
      />

      {candidates.enrollable > 0 ? (
        confirmAll ? (
          <ConfirmPanel
            id="enrol-all"
            title={`Enrol all ${plural(candidates.enrollable, 'employee', 'employees')} of ${scheme.companyName}?`}
            intent="enrol-all"
            fields={{}}
            confirmLabel="Yes, enrol them all"
            pendingLabel="Enrolling…"
            cancelHref={href({ confirm: null })}
            lastResult={resultFor(actionData, 'enrol-all')}
            tone="primary"
            backLabel="Back to the scheme"
          >
            <p className="text-slate-800">
              Every employee of {scheme.companyName} who is not enrolled yet (disabled ones excepted) joins
              the scheme{scheme.launchedAt ? ' and gets their e-mail' : ''}.
            </p>
          </ConfirmPanel>
        ) : (
          <div>
            <Link className="btn btn-secondary" to={href({ confirm: 'enrol-all', edit: null, remove: null })}>
              Enrol the whole company ({candidates.enrollable})…
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
  const busy = usePendingIntent('enrol')
  const [form, fields] = useConformForm(SchemeEnrolSchema, { id: 'enrol-pick', lastResult })
  if (!candidates.rows.length)
    return (
      <p className="text-slate-700">
        {find ? `No employee who is not enrolled yet matches “${find}”.` : noneLeft}
      </p>
    )
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
            ? `The first ${shown} of ${candidates.total} employees not enrolled yet${find ? ` matching “${find}”` : ''} (find to narrow them down)`
            : `${plural(candidates.total, 'employee', 'employees')} not enrolled yet${find ? ` matching “${find}”` : ''}`}
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
                    {c.activated ? '' : ' · no account yet'}
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
          {busy ? 'Enrolling…' : 'Enrol the chosen employees'}
        </button>
      </div>
    </Form>
  )
}

function AddEmployeeForm({ companyName, lastResult }: { companyName: string; lastResult: FormResult }) {
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
        Someone new
      </h3>
      <p className="text-sm text-slate-700">
        Adds them to {companyName} without a password and enrols them: their e-mail is an activation link.
      </p>
      <input type="hidden" name="intent" value="add-employee" />
      <FormErrors id={form.errorId} errors={form.errors} />
      <div className="grid gap-3 sm:grid-cols-[1fr_1fr_auto] sm:items-start">
        <ConformField label="Name" meta={fields.displayName} autoComplete="off" />
        <ConformField label="E-mail address" meta={fields.email} type="email" autoComplete="off" />
        <button type="submit" className="btn btn-secondary sm:mt-6" disabled={busy}>
          {busy ? 'Adding…' : 'Add and enrol'}
        </button>
      </div>
    </Form>
  )
}

const SELF_LABELS: Record<ParticipantRow['self'], string> = { none: '—', ...ASSIGNMENT_STATUS_LABELS }
const ACCOUNT_LABELS: Record<ParticipantRow['account'], string> = {
  active: 'Active',
  emailed: 'Activation e-mail sent',
  'not-emailed': 'No account yet',
  disabled: 'Disabled',
}

function reportLabel(row: ParticipantRow, minRaters: number) {
  switch (row.report) {
    case 'none':
      return 'After the self-assessment'
    case 'gathering':
      return `Gathering (${row.colleaguesAnswered} of ${minRaters} answers)`
    case 'ready':
      return 'Ready, not released'
    case 'self-only':
      return `Self-assessment released (${row.colleaguesAnswered} of ${minRaters} answers)`
    case 'released':
      return 'Released'
  }
}

function ReportCell({ row, scheme }: { row: ParticipantRow; scheme: SchemeDetail }) {
  const changed = row.changedSinceRelease
  return (
    <>
      <span className="block">{reportLabel(row, scheme.minRaters)}</span>
      {row.releasedAt ? (
        <span className="block text-slate-600">{formatDateTime(row.releasedAt, scheme.timeZone)}</span>
      ) : null}
      {row.report === 'released' && changed ? (
        // A reopened or late answer never reaches a released report by itself: say so (issue 15 B4).
        <span className="block text-amber-900">
          {plural(changed, 'response', 'responses')} changed since the release
          {!enoughAnswers(changed, scheme.minRaters)
            ? ` (${scheme.minRaters} needed to release again)`
            : ': may be released again'}
        </span>
      ) : null}
      {row.report === 'released' ? (
        // Whether there is a plan, never what it says (ADR 043).
        <span className="block text-slate-700">
          {`${row.planAreas ? `Plan: ${plural(row.planAreas, 'focus area', 'focus areas')}` : 'No plan yet'}${row.sharedWithManager ? ' · shared with manager' : ''}`}
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
  const canRemind = scheme.phase === 'open'
  const canInvite = scheme.phase === 'open'
  return (
    <section aria-labelledby="participants-title" className="flex flex-col gap-4">
      <h2 id="participants-title" className="text-lg font-semibold">
        Participants
      </h2>
      <SearchForm
        label="Search participants"
        field={{ id: 'participants-search', name: 'q', label: 'Search by name or e-mail', value: q }}
        button="Show"
        after={
          q ? (
            <Link className="link self-center" to={href({ q: null, after: null, before: null })}>
              Clear search
            </Link>
          ) : null
        }
      />
      <DataTable
        caption={`Participants${q ? ` matching “${q}”` : ''} with their progress, by name`}
        columns={['Employee', 'Account', 'Self-assessment', 'Colleagues', 'Report', 'Actions']}
        rows={page.rows}
        empty={
          q
            ? `No participant’s name or e-mail contains “${q}”.`
            : scheme.phase === 'closed'
              ? 'Nobody was enrolled in this scheme.'
              : 'Nobody is enrolled yet. Enrol employees above.'
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
              <Cell className="text-slate-800">{ACCOUNT_LABELS[row.account]}</Cell>
              <Cell className="text-slate-800">{SELF_LABELS[row.self]}</Cell>
              <Cell>
                <Progress label="Answered" done={row.colleaguesAnswered} total={row.colleaguesInvited} />
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
                        Send a reminder now<span className="sr-only"> about {who}</span>
                      </button>
                    </Form>
                  ) : null}
                  {canInvite ? (
                    <Link
                      className="link"
                      to={`/user/colleague-invite?${new URLSearchParams({ employee: row.id, scheme: scheme.id })}`}
                    >
                      Invite on their behalf<span className="sr-only"> ({who})</span>
                    </Link>
                  ) : null}
                  {canRelease(scheme) && row.self === 'submitted' ? (
                    <Link
                      className="link"
                      to={href({ release: row.id, remove: null, edit: null, confirm: null })}
                    >
                      {row.report === 'released' ? 'Release again' : 'Release report'}
                      <span className="sr-only"> ({who})</span>
                    </Link>
                  ) : null}
                  {row.removable ? (
                    <Link
                      className="link text-red-800"
                      to={href({ remove: row.id, edit: null, confirm: null })}
                    >
                      Remove<span className="sr-only"> {who}</span>
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
