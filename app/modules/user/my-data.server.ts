import { Readable } from 'node:stream'
import archiver from 'archiver'
import { sql } from 'drizzle-orm'
import { getDb, queryRows } from '#db/client'
import { log } from '#app/lib/logger.server'
import type { Actor } from '#app/lib/outcome'
import { recordAudit } from '#app/modules/audit/audit.server'
import type { SessionResult } from '#app/modules/auth/session.server'
import type { Language } from '#app/modules/i18n/languages'
import { inviteStatusOf } from '#app/modules/invite/schemas'
import { pdfAvailable } from '#app/modules/pdf/browser.server'
import { renderReportPdf, reportFileName, zipStream } from '#app/modules/pdf/report-pdf.server'
import { listOwnPlans } from '#app/modules/plan/plan.server'
import { hit, type RateLimitRule } from '#app/modules/rate-limit/rate-limit.server'
import { releasedReportRowsOf, reportOf } from '#app/modules/report/report.server'
import type { ReportData } from '#app/modules/report/report'
import type { AssignmentStatus } from '#db/enums'

/**
 * An employee's own data as one ZIP (issue 21 §4 "Access", ADR 055): JSON files and a README.txt
 * saying what each holds and what is left out, and each released report as a PDF where the server
 * can print one. Everything is read for the signed-in employee alone (their id is in every
 * statement), in a fixed number of statements however many schemes, reports and invitations they
 * have. What others wrote stays theirs: released reports carry only what the report page shows
 * (aggregates, comments without names), invitations only what the invitations page shows, and the
 * feedback the employee gave about others only that they gave it.
 */

/** Downloads per employee per hour: enough to retry, not enough to load the server with PDFs. */
export const MY_DATA_LIMIT: RateLimitRule = { limit: 5, windowMs: 60 * 60 * 1000 }

/** Counts one download; `limited` once the hour's downloads are used up. */
export function countMyDataDownload(userId: string) {
  return hit(`my-data:${userId}`, MY_DATA_LIMIT)
}

/** "panorama-my-data-2026-11-27.zip": the day it was made (UTC). */
export function myDataFileName(now = new Date()) {
  return `panorama-my-data-${now.toISOString().slice(0, 10)}.zip`
}

const iso = (value: Date | string | null | undefined) => (value ? new Date(value).toISOString() : null)

type AccountRow = {
  display_name: string
  email: string
  email_verified_at: Date | string | null
  phone: string | null
  language: string | null
  role: string
  department: string | null
  job_title: string | null
  company_name: string | null
  manager_name: string | null
  created_at: Date | string
  updated_at: Date | string
  last_sign_in_at: Date | string | null
  photo_mime: string | null
  photo_base64: string | null
  second_factor: boolean
}

const PHOTO_EXTENSIONS: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
}

/** Their account: never a password hash, a session, a token or an authenticator's secret. */
async function account(userId: string) {
  const [row] = await queryRows<AccountRow>(
    getDb(),
    sql`
    SELECT u.display_name, u.email, u.email_verified_at, u.phone, u.language, u.role, u.department,
      u.job_title, c.name AS company_name,
      coalesce(nullif(m.display_name, ''), m.email) AS manager_name,
      u.created_at, u.updated_at,
      (SELECT max(s.created_at) FROM sessions s WHERE s.user_id = u.id) AS last_sign_in_at,
      f.mime AS photo_mime, encode(f.bytes, 'base64') AS photo_base64,
      EXISTS (SELECT 1 FROM totp_credentials t WHERE t.user_id = u.id AND t.confirmed_at IS NOT NULL)
        AS second_factor
    FROM users u
    LEFT JOIN companies c ON c.id = u.company_id
    LEFT JOIN users m ON m.id = u.manager_id
    LEFT JOIN files f ON f.id = u.photo_file_id
    WHERE u.id = ${userId}`,
  )
  if (!row) return null
  const photo =
    row.photo_base64 && row.photo_mime
      ? {
          name: `photo.${PHOTO_EXTENSIONS[row.photo_mime] ?? 'bin'}`,
          bytes: Buffer.from(row.photo_base64, 'base64'),
        }
      : null
  const details = {
    name: row.display_name,
    email: row.email,
    emailVerifiedAt: iso(row.email_verified_at),
    phone: row.phone,
    language: row.language,
    role: row.role,
    company: row.company_name,
    department: row.department,
    jobTitle: row.job_title,
    manager: row.manager_name,
    photo: photo?.name ?? null,
    secondFactorEnabled: row.second_factor,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
    lastSignInAt: iso(row.last_sign_in_at),
  }
  return { details, photo }
}

type SelfRow = {
  scheme_name: string
  questionnaire_title: string
  status: AssignmentStatus
  started_at: Date | string | null
  submitted_at: Date | string | null
  questions: {
    section: string
    category: string
    kind: string
    question: string
    labels: string[] | null
    value: number | null
    notApplicable: boolean | null
    choices: string[] | null
    text: string | null
  }[]
}

/** Each of their self-assessments: every question as they read it, and their answer. */
async function selfAssessments(userId: string) {
  const rows = await queryRows<SelfRow>(
    getDb(),
    sql`
    SELECT s.name AS scheme_name, qn.title AS questionnaire_title, a.status,
      r.started_at, r.submitted_at,
      coalesce((SELECT json_agg(json_build_object(
          'section', q.section, 'category', q.category, 'kind', q.kind, 'question', q.text,
          'labels', q.options -> 'labels', 'value', an.numeric_value,
          'notApplicable', an.not_applicable, 'choices', an.choices, 'text', an.text_value
        ) ORDER BY q.position)
        FROM questions q
        LEFT JOIN answers an ON an.question_id = q.id AND an.response_id = r.id
        WHERE q.questionnaire_id = a.questionnaire_id), '[]'::json) AS questions
    FROM assignments a
    JOIN schemes s ON s.id = a.scheme_id
    JOIN questionnaires qn ON qn.id = a.questionnaire_id
    LEFT JOIN responses r ON r.assignment_id = a.id
    WHERE a.subject_id = ${userId} AND a.respondent_id = ${userId} AND a.relationship = 'self'
    ORDER BY s.opens_at, s.id`,
  )
  return rows.map((row) => ({
    scheme: row.scheme_name,
    questionnaire: row.questionnaire_title,
    status: row.status,
    startedAt: iso(row.started_at),
    submittedAt: iso(row.submitted_at),
    answers: row.questions.map((q) => ({
      section: q.section,
      category: q.category,
      kind: q.kind,
      question: q.question,
      ...(q.labels ? { options: q.labels } : {}),
      answer:
        q.notApplicable === null
          ? null
          : q.notApplicable
            ? 'not applicable'
            : q.kind === 'scale'
              ? q.value
              : q.kind === 'single' || q.kind === 'multi'
                ? (q.choices ?? [])
                : q.text,
    })),
  }))
}

/** Their released reports, each read exactly as their report page reads it (one statement for all). */
async function releasedReports(userId: string, language: Language) {
  const db = getDb()
  const rows = await releasedReportRowsOf(db, userId)
  const reports: ReportData[] = []
  for (const row of rows) reports.push(await reportOf(db, row, language))
  return reports
}

/** What of a report goes in reports.json: the page's data without the brand's look. */
function reportEntry(report: ReportData) {
  const { brand: _brand, ...header } = report.header
  return { ...report, header }
}

type InvitationRow = {
  scheme_name: string
  name: string
  email: string
  relationship: string
  status: AssignmentStatus | null
  reopened: boolean
  invited_at: Date | string | null
  list_status: string | null
  added_at: Date | string
}

/**
 * The colleagues they invited or put on their list, with the status their invitations page shows
 * (a reopened answer stays "answered", as there): never when, or what, anyone answered.
 */
async function invitations(userId: string) {
  const rows = await queryRows<InvitationRow>(
    getDb(),
    sql`
    SELECT s.name AS scheme_name,
      coalesce(nullif(a.respondent_name, ''), nullif(u.display_name, ''), u.email) AS name,
      u.email, a.relationship, a.status,
      EXISTS (SELECT 1 FROM responses x WHERE x.assignment_id = a.id AND x.reopened_at IS NOT NULL)
        AS reopened,
      a.invited_at, NULL AS list_status, a.created_at AS added_at
    FROM assignments a
    JOIN schemes s ON s.id = a.scheme_id
    JOIN users u ON u.id = a.respondent_id
    WHERE a.subject_id = ${userId} AND a.relationship <> 'self'
    UNION ALL
    SELECT s.name, n.name, n.email, n.relationship, NULL, false, NULL,
      m.nomination_status::text, n.created_at
    FROM nominees n
    JOIN schemes s ON s.id = n.scheme_id
    JOIN scheme_members m ON m.scheme_id = n.scheme_id AND m.employee_id = n.employee_id
    WHERE n.employee_id = ${userId} AND n.assignment_id IS NULL
    ORDER BY added_at, email`,
  )
  return rows.map((row) => ({
    scheme: row.scheme_name,
    name: row.name,
    email: row.email,
    relationship: row.relationship,
    status: row.status ? inviteStatusOf(row.status, row.reopened) : 'nominated',
    invitedAt: iso(row.invited_at),
    ...(row.status ? {} : { listStatus: row.list_status ?? 'draft' }),
  }))
}

const GIVEN_STATUS: Record<AssignmentStatus, string> = {
  pending: 'not started',
  in_progress: 'started',
  submitted: 'given',
  revoked: 'withdrawn',
}

/** The feedback they were asked to give about others: that they gave it, never what they answered. */
async function givenFeedback(userId: string) {
  const rows = await queryRows<{
    scheme_name: string
    subject_name: string
    relationship: string
    status: AssignmentStatus
    invited_at: Date | string | null
    submitted_at: Date | string | null
  }>(
    getDb(),
    sql`
    SELECT s.name AS scheme_name, coalesce(nullif(u.display_name, ''), u.email) AS subject_name,
      a.relationship, a.status, a.invited_at, a.submitted_at
    FROM assignments a
    JOIN schemes s ON s.id = a.scheme_id
    JOIN users u ON u.id = a.subject_id
    WHERE a.respondent_id = ${userId} AND a.relationship <> 'self'
    ORDER BY a.created_at, a.id`,
  )
  return rows.map((row) => ({
    scheme: row.scheme_name,
    about: row.subject_name,
    youAreTheir: row.relationship,
    status: GIVEN_STATUS[row.status],
    invitedAt: iso(row.invited_at),
    submittedAt: iso(row.submitted_at),
  }))
}

/**
 * Audit entries whose details are about the actor's own things (their account, sign-ins, their
 * invitations, list, plan and shares, their own answers' reopen requests): kept when no other
 * employee is named in them. Anything else keeps its action and time only.
 */
const OWN_DETAIL_ACTIONS =
  /^(user\.|auth\.|invite\.|nomination\.|report\.(un)?share$|plan\.|response\.reopen_request$|assignment\.submit$)/

type AuditRow = {
  action: string
  entity: string
  details: Record<string, unknown> | null
  ip: string | null
  at: Date | string
  by_them: boolean
  actor_role: string | null
}

/** Audit entries they made, and those about their account made by others (named by role only). */
async function auditTrail(userId: string) {
  const rows = await queryRows<AuditRow>(
    getDb(),
    sql`
    SELECT l.action, l.entity, l.details, l.ip, l.at, (l.actor_id = ${userId}) AS by_them,
      (SELECT x.role::text FROM users x WHERE x.id = l.actor_id) AS actor_role
    FROM audit_log l
    WHERE l.actor_id = ${userId} OR (l.entity = 'user' AND l.entity_id = ${userId}::text)
    ORDER BY l.at, l.id`,
  )
  return rows.map((row) => {
    if (!row.by_them)
      return {
        action: row.action,
        at: iso(row.at),
        by: row.actor_role === 'admin' ? 'an administrator' : row.actor_role ? 'someone else' : 'the system',
      }
    const employee = row.details?.employeeId
    const own = OWN_DETAIL_ACTIONS.test(row.action) && (employee === undefined || employee === userId)
    return {
      action: row.action,
      at: iso(row.at),
      by: 'you',
      ip: row.ip,
      ...(own && row.details ? { details: row.details } : {}),
    }
  })
}

/** The download, recorded with the actor's address like any of their actions. */
export async function auditMyDataExport(actor: Actor, reports: { json: number; pdf: number }) {
  await recordAudit(getDb(), actor, {
    action: 'user.data_exported',
    entity: 'user',
    entityId: actor.id,
    details: { reports: reports.json, pdfs: reports.pdf },
  })
}

export type MyData = {
  files: { name: string; content: unknown }[]
  /** Their profile photo as uploaded, if they have one. */
  photo: { name: string; bytes: Buffer } | null
  reports: ReportData[]
  /** The released reports will be added as PDFs (the server has Chromium). */
  pdfs: boolean
}

/** Everything the ZIP holds but the PDFs, read in a fixed number of statements. */
export async function collectMyData(userId: string, language: Language): Promise<MyData | null> {
  const [who, selves, reports, plans, invited, given, audit] = await Promise.all([
    account(userId),
    selfAssessments(userId),
    releasedReports(userId, language),
    listOwnPlans(userId),
    invitations(userId),
    givenFeedback(userId),
    auditTrail(userId),
  ])
  if (!who) return null
  return {
    files: [
      { name: 'account.json', content: who.details },
      { name: 'self-assessments.json', content: selves },
      { name: 'reports.json', content: reports.map(reportEntry) },
      { name: 'plans.json', content: plans },
      { name: 'invitations.json', content: invited },
      { name: 'given-feedback.json', content: given },
      { name: 'audit.json', content: audit },
    ],
    photo: who.photo,
    reports,
    pdfs: pdfAvailable() && reports.length > 0,
  }
}

export function readmeText(data: Pick<MyData, 'reports' | 'pdfs'>, madeAt: Date) {
  const pdfLine = !data.reports.length
    ? 'reports/ (not included): you have no released report yet, so there is no PDF to add.'
    : data.pdfs
      ? 'reports/*.pdf: each released report as a PDF, the report page as you see it. A report that\n' +
        '  could not be printed is replaced by a .txt file saying so.'
      : 'reports/ (not included): this server cannot print PDFs (it has no Chromium), so the reports\n' +
        '  are in reports.json only. Open a report in the portal and use "Save as PDF" to print it.'
  return `Panorama: your data
Made ${madeAt.toISOString()} for the person signed in when it was downloaded.

What is in this file
--------------------
account.json          Your account: name, e-mail address, phone, language, company, department,
                      job title, your manager's name, when the account was made and when you last
                      signed in, and the name of your photo's file. Never your password (only a one-way hash of it is stored, and it is
                      not included), your sessions, sign-in links or your authenticator's secret.
self-assessments.json Each of your self-assessments: the programme, the questionnaire, every question
                      as you read it and your answer, and when you submitted it.
reports.json          Your released reports, as your report page shows them: your own answers beside
                      your colleagues' figures as aggregates (averages and how many gave each
                      score), and their comments without names, in the report's order. Nobody's
                      individual answers and no rater's identity: the report never had them.
plans.json            Your development plans (focus areas, actions, support, check-in dates), whether
                      each is shared with your coach, and every time you shared a report with your
                      manager (and whether the plan was included), revoked shares too.
invitations.json      The colleagues you invited or put on your list: the name and address you gave,
                      how they relate to you and the status your invitations page shows (invited,
                      started, answered, revoked; "nominated" while your list waits for approval).
                      Never what a colleague answered, nor when.
given-feedback.json   The feedback you were asked to give about others: the programme, whom it was
                      about, and whether and when you gave it. Not your answers: what you said about
                      a colleague is part of their anonymous report, so it is not yours to take out
                      one answer at a time (it would tell them, and others, who said what).
audit.json            The portal's record of what you did (action, time, the address it came from)
                      and of changes to your account made by others (who is named by role only).
                      Entries about other people's data keep their action and time only.
photo.*               Your profile photo as you uploaded it (only if you have one).
${pdfLine}

Not included
------------
Other people's answers, who gave which answer, and the e-mails the portal sent you. An
administrator's own account has no such download. Ask your programme's administrator for anything
else held about you, or to have your data erased.
`
}

/** A PDF handed to the ZIP in pieces, so that the ZIP is read from only as fast as the client reads it. */
function pieces(pdf: Buffer, size = 64 * 1024) {
  return Readable.from(
    (function* () {
      for (let at = 0; at < pdf.length; at += size) yield pdf.subarray(at, at + size)
    })(),
    { objectMode: false },
  )
}

/**
 * The ZIP, streamed: the README and the JSON files first, then the released reports' PDFs one at a
 * time (each printed only once the ZIP has taken the last). The client going away stops the work.
 */
export function myDataZip(
  data: MyData,
  viewer: SessionResult,
  language: Language,
  madeAt = new Date(),
): ReadableStream<Uint8Array> {
  const archive = archiver('zip', { zlib: { level: 6 } })
  let stopped = false
  let stop: () => void = () => undefined
  // The client went away: the loop stops waiting for an entry the ZIP will never take.
  const cancelled = new Promise<void>((resolve) => (stop = resolve))
  const produce = async () => {
    archive.append(readmeText(data, madeAt), { name: 'README.txt', date: madeAt })
    for (const file of data.files)
      archive.append(`${JSON.stringify(file.content, null, 2)}\n`, { name: file.name, date: madeAt })
    if (data.photo) archive.append(data.photo.bytes, { name: data.photo.name, date: madeAt })
    if (data.pdfs) {
      for (const report of data.reports) {
        if (stopped) return
        const name = `reports/${reportFileName(report.header)}`
        try {
          const { pdf } = await renderReportPdf(report.header, viewer, language)
          const added = new Promise<void>((resolve) => archive.once('entry', () => resolve()))
          archive.append(pieces(pdf), { name, date: madeAt })
          await Promise.race([added, cancelled])
        } catch (error) {
          log.error('pdf of a report in a data export failed', { error, rid: report.header.responseId })
          archive.append('This report could not be printed as a PDF. It is in reports.json.\n', {
            name: name.replace(/\.pdf$/, '.txt'),
            date: madeAt,
          })
        }
      }
    }
    if (!stopped) await archive.finalize()
  }
  produce().catch((error: unknown) => {
    log.error('data export ZIP failed', { error })
    archive.abort()
  })
  return zipStream(archive, () => {
    stopped = true
    stop()
  })
}
