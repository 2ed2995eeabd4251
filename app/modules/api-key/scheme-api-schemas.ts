import { z } from 'zod'
import { LANGUAGE_CODES, NOMINATION_APPROVALS, NOMINATION_CHOOSERS, REPORT_RELEASES } from '#db/enums'
import { MAX_COLLEAGUES } from '#app/config/constants'
import { PART_LABELS, type PartKey } from '#app/modules/report/rater-groups'
import {
  ENROL_PICK_MAX,
  MIN_RATERS_MAX,
  REMINDER_CADENCE_MAX,
  SCHEME_NAME_MAX,
  SCHEME_PHASES,
} from '#app/modules/scheme/schemas'
import { API_PAGE_MAX, decodeCursor } from './api-schemas'

/**
 * The REST API's schemes, participants, report summaries and answer export (issue 21 §1, ADR 059),
 * in classic Zod beside api-schemas.ts: the bodies these endpoints answer and take, and their query
 * strings. A create body is read here for its shape; its values are then checked by the admin
 * form's own schema (SchemeCreateSchema), so the API and the form refuse the same things.
 */

const uuid = z.uuid()
const timestamp = z.iso.datetime({ offset: true }).meta({ example: '2026-11-27T08:00:00.000Z' })
const count = z.int().min(0)

const nextCursor = z
  .string()
  .nullable()
  .meta({ description: 'Pass as `cursor` for the next page; null on the last page.' })

const pageParams = {
  limit: z.coerce
    .number({ error: 'Must be a whole number.' })
    .int({ error: 'Must be a whole number.' })
    .min(1, { error: 'Must be at least 1.' })
    .max(API_PAGE_MAX, { error: `Must be at most ${API_PAGE_MAX}.` })
    .optional()
    .meta({ description: `Rows per page, 1–${API_PAGE_MAX} (default 50).`, example: 50 }),
  cursor: z
    .string()
    .max(100, { error: 'Is not a cursor this API gave out.' })
    .refine((v) => decodeCursor(v) !== null, { error: 'Is not a cursor this API gave out.' })
    .optional()
    .meta({ description: 'The `next_cursor` of the previous page.' }),
}

export const SchemeProgressSchema = z
  .object({
    participants_enrolled: count,
    self_assessments_submitted: count,
    invitations_sent: count.meta({ description: 'Colleague invitations not withdrawn.' }),
    invitations_answered: count.meta({ description: 'Colleague invitations answered and submitted.' }),
  })
  .meta({ id: 'SchemeProgress' })

export const SchemeSchema = z
  .object({
    id: uuid,
    name: z.string(),
    company_id: uuid,
    questionnaire_id: uuid,
    state: z.enum(SCHEME_PHASES).meta({
      description:
        'draft: being set up; upcoming: launched, not open yet; open: answering; closed: past its closing time or closed.',
    }),
    opens_at: timestamp,
    closes_at: timestamp,
    time_zone: z.string().meta({ description: 'The IANA zone its dates are set in.' }),
    min_raters: z.int().meta({ description: 'The fewest colleagues whose answers a report shows.' }),
    report_release: z.enum(REPORT_RELEASES),
    launched_at: timestamp.nullable(),
    closed_at: timestamp.nullable(),
    created_at: timestamp,
    progress: SchemeProgressSchema,
  })
  .meta({
    id: 'Scheme',
    example: {
      id: '3d4c1a8e-5b6f-4e7a-9c0d-1e2f3a4b5c6d',
      name: 'Leadership 360, spring',
      company_id: '6f1c1d1e-8a5b-4c1f-9a57-1d2e3f4a5b6c',
      questionnaire_id: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
      state: 'open',
      opens_at: '2026-03-02T08:00:00.000Z',
      closes_at: '2026-03-27T17:00:00.000Z',
      time_zone: 'Europe/Berlin',
      min_raters: 3,
      report_release: 'on_close',
      launched_at: '2026-02-25T10:00:00.000Z',
      closed_at: null,
      created_at: '2026-02-20T09:00:00.000Z',
      progress: {
        participants_enrolled: 12,
        self_assessments_submitted: 7,
        invitations_sent: 64,
        invitations_answered: 31,
      },
    },
  })

export const SchemeListSchema = z
  .object({ data: z.array(SchemeSchema), next_cursor: nextCursor })
  .meta({ id: 'SchemeList' })

export const SchemeListQuery = z.strictObject({
  ...pageParams,
  company_id: z.uuid({ error: 'Must be a company id (a UUID).' }).optional(),
  state: z
    .enum(SCHEME_PHASES, { error: `Must be one of ${SCHEME_PHASES.join(', ')}.` })
    .optional()
    .meta({ description: 'Schemes in this state now.' }),
})

export const ParticipantListQuery = z.strictObject(pageParams)
export const ReportListQuery = z.strictObject(pageParams)

export const ANSWER_EXPORT_FORMATS = ['csv', 'ndjson'] as const
export const AnswerExportQuery = z.strictObject({
  format: z
    .enum(ANSWER_EXPORT_FORMATS, { error: `Must be one of ${ANSWER_EXPORT_FORMATS.join(', ')}.` })
    .optional()
    .meta({
      description:
        '`csv` (the default) or `ndjson`: one JSON object per answer and line, the columns as snake_case keys.',
    }),
})

const localDateTime = (example: string) =>
  z
    .string()
    .max(19)
    .meta({ description: 'A wall-clock time in `time_zone`, as `YYYY-MM-DDTHH:MM`.', example })

/**
 * A whole number the form's schema checks; its range is documented here (the JSON Schema of a bare
 * `z.int()` would give the safe-integer range).
 */
const formInt = (minimum: number, maximum: number, description: string) =>
  z.int().optional().meta({ minimum, maximum, description })

/**
 * A new scheme, as the admin's create form takes it (snake_case). Values with a default on the
 * form may be left out; everything is then checked by the form's schema and the scheme service.
 */
export const SchemeCreateBody = z.strictObject({
  // Trimmed, then at most SCHEME_NAME_MAX characters (the form's rule); room here for the spaces.
  name: z
    .string()
    .max(SCHEME_NAME_MAX * 4)
    .meta({ maxLength: SCHEME_NAME_MAX }),
  company_id: z.string().max(64).meta({ format: 'uuid' }),
  questionnaire_id: z.string().max(64).meta({ format: 'uuid', description: 'A published questionnaire.' }),
  time_zone: z.string().max(64).meta({ example: 'Europe/Berlin' }),
  opens_at: localDateTime('2026-03-02T09:00'),
  closes_at: localDateTime('2026-03-27T18:00'),
  max_colleagues: formInt(
    1,
    MAX_COLLEAGUES,
    `The most colleagues each may invite (default ${MAX_COLLEAGUES}).`,
  ),
  min_raters: formInt(1, MIN_RATERS_MAX, 'The fewest colleagues a report shows (default 3).'),
  reminder_cadence_days: formInt(0, REMINDER_CADENCE_MAX, 'Days between reminders, 0 for none (default 7).'),
  report_release: z.enum(REPORT_RELEASES).optional().meta({ description: 'Default on_close.' }),
  show_manager_below_threshold: z.boolean().optional(),
  manager_sees_report: z.boolean().optional(),
  min_manager: formInt(0, MAX_COLLEAGUES, 'The fewest managers to invite (a warning; default 0).'),
  min_peer: formInt(0, MAX_COLLEAGUES, 'The fewest peers to invite (default 0).'),
  min_direct_report: formInt(0, MAX_COLLEAGUES, 'The fewest direct reports to invite (default 0).'),
  min_other: formInt(0, MAX_COLLEAGUES, 'The fewest others to invite (default 0).'),
  nomination_chooser: z.enum(NOMINATION_CHOOSERS).optional(),
  nomination_approval: z.enum(NOMINATION_APPROVALS).optional(),
  nominations_close_at: localDateTime('2026-03-13T18:00').optional(),
  languages: z.array(z.enum(LANGUAGE_CODES)).max(LANGUAGE_CODES.length).optional(),
})

export const SCHEME_CREATE_EXAMPLE = {
  name: 'Leadership 360, spring',
  company_id: '6f1c1d1e-8a5b-4c1f-9a57-1d2e3f4a5b6c',
  questionnaire_id: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
  time_zone: 'Europe/Berlin',
  opens_at: '2026-03-02T09:00',
  closes_at: '2026-03-27T18:00',
  min_raters: 3,
}

export const EnrolmentBody = z.strictObject({
  employee_ids: z
    .array(z.string().max(64).meta({ format: 'uuid' }))
    .min(1, { error: 'Name at least one employee.' })
    .max(ENROL_PICK_MAX, { error: `Name at most ${ENROL_PICK_MAX} employees at a time.` }),
})

export const EnrolmentResultSchema = z
  .object({
    enrolled: z.array(uuid).meta({ description: 'Enrolled by this request.' }),
    already_enrolled: z.array(uuid).meta({ description: 'Enrolled before: nothing changed.' }),
    problems: z
      .array(z.object({ employee_id: z.string(), message: z.string() }))
      .meta({ description: 'Each id that could not be enrolled, with why.' }),
  })
  .meta({
    id: 'EnrolmentResult',
    example: {
      enrolled: ['0b8f4a52-3c1e-4d2a-8f3b-5e6d7c8b9a01'],
      already_enrolled: [],
      problems: [
        {
          employee_id: '1c9e5b63-4d2f-4e3b-9a4c-6f7e8d9cab12',
          message: 'No active employee of the scheme’s company has this id.',
        },
      ],
    },
  })

export const SELF_STATUSES = ['none', 'pending', 'in_progress', 'submitted'] as const
export const NOMINATION_STATES = ['not_begun', 'draft', 'submitted', 'sent_back', 'approved'] as const
export const REPORT_STATES = ['none', 'gathering', 'ready', 'self-only', 'released'] as const

export const ParticipantSchema = z
  .object({
    employee_id: uuid,
    self_assessment: z.enum(SELF_STATUSES),
    nomination: z.enum(NOMINATION_STATES).meta({
      description: 'Where their list of raters stands, in a scheme that approves lists (else not_begun).',
    }),
    invitations_sent: count.meta({ description: 'How many colleagues were invited (not who).' }),
    invitations_answered: count,
    report: z.enum(REPORT_STATES),
    released_at: timestamp.nullable(),
  })
  .meta({
    id: 'Participant',
    example: {
      employee_id: '0b8f4a52-3c1e-4d2a-8f3b-5e6d7c8b9a01',
      self_assessment: 'submitted',
      nomination: 'approved',
      invitations_sent: 6,
      invitations_answered: 4,
      report: 'ready',
      released_at: null,
    },
  })

export const ParticipantListSchema = z
  .object({ data: z.array(ParticipantSchema), next_cursor: nextCursor })
  .meta({ id: 'ParticipantList' })

const PART_KEYS = Object.keys(PART_LABELS) as [PartKey, ...PartKey[]]
const score = z.number().nullable()

const groupFigure = z.object({ group: z.enum(PART_KEYS), average: score })

export const ReportSummarySchema = z
  .object({
    employee_id: uuid,
    released_at: timestamp,
    colleagues_shown: z.boolean().meta({
      description:
        'False when the release holds the self-assessment alone, or fewer colleagues than the threshold: then every colleague figure is absent.',
    }),
    colleagues: count.meta({ description: 'How many colleagues the release counts.' }),
    scale: z.object({ min: z.number(), max: z.number() }),
    groups: z.array(z.object({ group: z.enum(PART_KEYS), label: z.string(), raters: count })).meta({
      description:
        'The rater groups the report shows on their own (smaller groups merged into "others", as on the report).',
    }),
    competencies: z.array(
      z.object({
        competency: z.string(),
        self: score,
        colleagues: score,
        groups: z.array(groupFigure),
      }),
    ),
    questions: z.array(
      z.object({
        question_id: uuid,
        competency: z.string(),
        kind: z.string(),
        text: z.string(),
        self: score,
        colleagues: score,
        answered: count.nullable(),
        groups: z.array(groupFigure),
      }),
    ),
  })
  .meta({
    id: 'ReportSummary',
    example: {
      employee_id: '0b8f4a52-3c1e-4d2a-8f3b-5e6d7c8b9a01',
      released_at: '2026-03-28T09:00:00.000Z',
      colleagues_shown: true,
      colleagues: 6,
      scale: { min: 1, max: 5 },
      groups: [
        { group: 'peer', label: 'Peers', raters: 3 },
        { group: 'others', label: 'Other colleagues', raters: 3 },
      ],
      competencies: [
        {
          competency: 'Communication',
          self: 4,
          colleagues: 3.67,
          groups: [
            { group: 'peer', average: 3.5 },
            { group: 'others', average: 3.83 },
          ],
        },
      ],
      questions: [
        {
          question_id: '5e6f7a8b-9c0d-4e1f-8a2b-3c4d5e6f7a8b',
          competency: 'Communication',
          kind: 'scale',
          text: 'I listen carefully to others.',
          self: 4,
          colleagues: 3.67,
          answered: 6,
          groups: [
            { group: 'peer', average: 3.5 },
            { group: 'others', average: 3.83 },
          ],
        },
      ],
    },
  })

export const ReportSummaryListSchema = z
  .object({ data: z.array(ReportSummarySchema), next_cursor: nextCursor })
  .meta({ id: 'ReportSummaryList' })
