import { z } from 'zod'
import type { ApiScope } from '#db/enums'
import {
  API_PAGE_MAX,
  API_SCOPES,
  BULK_MAX_ROWS,
  BulkResultSchema,
  CompanyCreateBody,
  CompanyUpdateBody,
  EmployeeBulkBody,
  EmployeeCreateBody,
  EmployeeUpdateBody,
  NoQuery,
  CompanyListQuery,
  CompanyListSchema,
  CompanySchema,
  EmployeeListQuery,
  EmployeeListSchema,
  EmployeeSchema,
  ProblemSchema,
} from './api-schemas'
import { EXPORT_COLUMNS } from '#app/modules/response/export.server'
import {
  AnswerExportQuery,
  EnrolmentBody,
  EnrolmentResultSchema,
  ParticipantListQuery,
  ParticipantListSchema,
  ParticipantSchema,
  ReportListQuery,
  ReportSummaryListSchema,
  ReportSummarySchema,
  SCHEME_CREATE_EXAMPLE,
  SchemeCreateBody,
  SchemeListQuery,
  SchemeListSchema,
  SchemeProgressSchema,
  SchemeSchema,
} from './scheme-api-schemas'
import { PROBLEMS, problemType, type ProblemKind } from './api.server'

/** One line of the NDJSON export, as the document shows it. */
const NDJSON_EXAMPLE = {
  scheme: 'Leadership 2026',
  subject: 'Ada Lovelace',
  subject_id: '8a0e4b5c-2f7d-4c1e-9b3a-5d6e7f809a1b',
  subject_email: 'ada@contoso.example',
  relationship_group: 'Peer',
  rater: 'Peer 2',
  submitted_on: '2026-11-20',
  question_key: '3b1f2c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
  section: 'Communication',
  competency: 'Listening',
  question: 'I listen before I answer.',
  kind: 'scale',
  scale_min: 1,
  scale_max: 5,
  value: 4,
  value_label: 'Often',
  text: null,
}

/**
 * The OpenAPI 3.1 document of `/api/v1` (issue 21 §1, ADR 054), generated from the Zod schemas the
 * endpoints validate and answer with (Zod 4's own `z.toJSONSchema`, JSON Schema 2020-12 as OpenAPI
 * 3.1 takes it). {@link API_OPERATIONS} is the one list of endpoints: the document, the reference
 * page and the contract test read it.
 */

/** The named schemas of the document's components, as the contract test validates answers with. */
export const API_COMPONENTS = {
  Problem: ProblemSchema,
  Company: CompanySchema,
  CompanyList: CompanyListSchema,
  Employee: EmployeeSchema,
  EmployeeList: EmployeeListSchema,
  SchemeProgress: SchemeProgressSchema,
  Scheme: SchemeSchema,
  SchemeList: SchemeListSchema,
  EnrolmentResult: EnrolmentResultSchema,
  Participant: ParticipantSchema,
  ParticipantList: ParticipantListSchema,
  ReportSummary: ReportSummarySchema,
  ReportSummaryList: ReportSummaryListSchema,
  BulkResult: BulkResultSchema,
} as const
export type ApiComponent = keyof typeof API_COMPONENTS

export type ApiOperation = {
  operationId: string
  method: 'get' | 'post' | 'put' | 'patch' | 'delete'
  /** As OpenAPI writes it: `/api/v1/companies/{id}`. */
  path: string
  summary: string
  description: string
  /** Null: no key needed (the document itself). */
  scope: ApiScope | null
  query: z.ZodObject | null
  pathId: string | null
  /** A JSON request body: the schema the endpoint parses it with (parseBody) and an example. */
  body?: { schema: z.ZodType; example: unknown; description: string }
  /** Request headers besides Authorization (an `Idempotency-Key`). */
  headers?: Array<{ name: string; required: boolean; description: string; example: string }>
  /** The success status (200 unless it creates: 201). */
  status?: 200 | 201
  /** 'AnswersCsv': a streamed `text/csv` body rather than JSON. */
  ok: ApiComponent | 'OpenApiDocument' | 'AnswersCsv'
  /** The document's tag, when not the path's first segment (reports, answers). */
  tag?: string
  /** The problems it may answer, besides 401, 429 and 500 (which every keyed endpoint may). */
  problems: ProblemKind[]
}

/** Schemes, participants, report summaries and the answer export (issue 21 §1, ADR 059). */
function SCHEME_OPERATIONS(): ApiOperation[] {
  const schemeId = 'The scheme’s id.'
  return [
    {
      operationId: 'listSchemes',
      method: 'get',
      path: '/api/v1/schemes',
      summary: 'List schemes',
      description:
        'Schemes with their progress, filtered by company and state, by id, a page at a time. A key restricted to a company sees only its schemes, and asking for another company is refused (403).',
      scope: 'schemes:read',
      query: SchemeListQuery,
      pathId: null,
      ok: 'SchemeList',
      problems: ['bad-request', 'forbidden'],
    },
    {
      operationId: 'getScheme',
      method: 'get',
      path: '/api/v1/schemes/{id}',
      summary: 'Get a scheme',
      description:
        'One scheme with its progress: participants enrolled, self-assessments submitted, colleague invitations sent and answered (counts only). Another company’s scheme is not found for a restricted key.',
      scope: 'schemes:read',
      query: null,
      pathId: schemeId,
      ok: 'Scheme',
      problems: ['forbidden', 'not-found'],
    },
    {
      operationId: 'createScheme',
      method: 'post',
      path: '/api/v1/schemes',
      summary: 'Create a scheme',
      description:
        'A draft scheme for a company, checked as the back office’s create form checks it: a published questionnaire, a time zone, opening and closing times as wall-clock times in that zone (the closing time in the future, after the opening). Left-out settings take the form’s defaults. A key restricted to another company is refused (403).',
      scope: 'schemes:write',
      query: null,
      pathId: null,
      body: {
        schema: SchemeCreateBody,
        example: SCHEME_CREATE_EXAMPLE,
        description: 'The scheme’s company, questionnaire, name and dates; other settings optional.',
      },
      status: 201,
      ok: 'Scheme',
      problems: ['forbidden'],
    },
    {
      operationId: 'enrolEmployees',
      method: 'post',
      path: '/api/v1/schemes/{id}/enrolments',
      summary: 'Enrol employees',
      description:
        'Enrols active employees of the scheme’s company by id (up to 200 a request). Each id that cannot be enrolled is named with why; someone already enrolled is not an error (the request is idempotent). In a launched scheme the newcomers get their programme e-mail. A closed scheme takes nobody (409).',
      scope: 'schemes:write',
      query: null,
      pathId: schemeId,
      body: {
        schema: EnrolmentBody,
        example: { employee_ids: ['0b8f4a52-3c1e-4d2a-8f3b-5e6d7c8b9a01'] },
        description: 'The employees to enrol.',
      },
      ok: 'EnrolmentResult',
      problems: ['forbidden', 'not-found', 'conflict'],
    },
    {
      operationId: 'launchScheme',
      method: 'post',
      path: '/api/v1/schemes/{id}/launch',
      summary: 'Launch a scheme',
      description:
        'Draft → launched, as the back office’s launch: every participant’s programme e-mail is queued (held until the scheme opens). Refused with the reason (409) when the scheme was launched already, its closing time has passed, its questionnaire is no longer published, or nobody is enrolled.',
      scope: 'schemes:write',
      query: null,
      pathId: schemeId,
      ok: 'Scheme',
      problems: ['bad-request', 'forbidden', 'not-found', 'conflict'],
    },
    {
      operationId: 'listParticipants',
      method: 'get',
      path: '/api/v1/schemes/{id}/participants',
      summary: 'List a scheme’s participants',
      description:
        'Each participant’s self-assessment, list of raters (nomination) and report state, and how many colleagues were invited and answered — never who they are. By employee id, a page at a time.',
      scope: 'schemes:read',
      query: ParticipantListQuery,
      pathId: schemeId,
      ok: 'ParticipantList',
      problems: ['bad-request', 'forbidden', 'not-found'],
    },
    {
      operationId: 'listReportSummaries',
      method: 'get',
      path: '/api/v1/schemes/{id}/reports',
      summary: 'List released report summaries',
      description:
        'For each participant whose report has been released: the averages of the scale questions and competencies, self and colleagues, per rater group, exactly as the report shows them — a group below the threshold is merged or hidden as on the report, a release below the threshold or of the self-assessment alone has no colleague figures. Aggregates only: no comments, never a rater’s identity. A report not released is absent. By employee id, a page at a time.',
      scope: 'reports:read',
      query: ReportListQuery,
      pathId: schemeId,
      ok: 'ReportSummaryList',
      tag: 'reports',
      problems: ['bad-request', 'forbidden', 'not-found'],
    },
    {
      operationId: 'exportAnswers',
      method: 'get',
      path: '/api/v1/schemes/{id}/answers',
      summary: 'Export a scheme’s answers (CSV or NDJSON stream)',
      description:
        'Every answer of the scheme, one row per answer, as the back office’s anonymous export: raters as labels such as "Peer 2" (stable within a subject), never names or addresses. Streamed while it is read, so it may be large: `text/csv` by default (UTF-8 with a BOM, CRLF line ends), or with `format=ndjson` `application/x-ndjson`: one JSON object per answer and line, the columns as snake_case keys, empty cells null, the scale’s bounds and a scale answer’s value as numbers.',
      scope: 'answers:read',
      query: AnswerExportQuery,
      pathId: schemeId,
      ok: 'AnswersCsv',
      tag: 'answers',
      problems: ['bad-request', 'forbidden', 'not-found'],
    },
  ]
}

export const API_OPERATIONS: ApiOperation[] = [
  {
    operationId: 'listCompanies',
    method: 'get',
    path: '/api/v1/companies',
    summary: 'List companies',
    description:
      'The companies the key may read (its own company only when it is restricted to one), by id, a page at a time.',
    scope: 'companies:read',
    query: CompanyListQuery,
    pathId: null,
    ok: 'CompanyList',
    problems: ['bad-request', 'forbidden'],
  },
  {
    operationId: 'getCompany',
    method: 'get',
    path: '/api/v1/companies/{id}',
    summary: 'Get a company',
    description: 'One company. A key restricted to another company is refused (403).',
    scope: 'companies:read',
    query: null,
    pathId: 'The company’s id.',
    ok: 'Company',
    problems: ['forbidden', 'not-found'],
  },
  {
    operationId: 'listEmployees',
    method: 'get',
    path: '/api/v1/employees',
    summary: 'List employees',
    description:
      'Employees, filtered by company, address or status, by id, a page at a time. A key restricted to a company sees only its employees, and asking for another company is refused (403).',
    scope: 'employees:read',
    query: EmployeeListQuery,
    pathId: null,
    ok: 'EmployeeList',
    problems: ['bad-request', 'forbidden'],
  },
  {
    operationId: 'getEmployee',
    method: 'get',
    path: '/api/v1/employees/{id}',
    summary: 'Get an employee',
    description: 'One employee. Another company’s employee is not found for a restricted key.',
    scope: 'employees:read',
    query: null,
    pathId: 'The employee’s id.',
    ok: 'Employee',
    problems: ['forbidden', 'not-found'],
  },
  {
    operationId: 'getOpenApiDocument',
    method: 'get',
    path: '/api/v1/openapi.json',
    summary: 'This document',
    description: 'The OpenAPI 3.1 document of this API. No key is needed.',
    scope: null,
    query: null,
    pathId: null,
    ok: 'OpenApiDocument',
    problems: [],
  },
  ...SCHEME_OPERATIONS(),
  // Writes (ADR 054 "Writes").
  {
    operationId: 'createCompany',
    method: 'post',
    path: '/api/v1/companies',
    summary: 'Create a company',
    description:
      'Creates a company, as the back office does (audited). Names are unique ignoring case: a taken name is a 409. A key restricted to a company cannot create companies (403).',
    scope: 'companies:write',
    query: NoQuery,
    pathId: null,
    body: {
      schema: CompanyCreateBody,
      example: { name: 'Contoso' },
      description: 'The new company. `brand_id` may be left out when the install has one brand.',
    },
    status: 201,
    ok: 'Company',
    problems: ['bad-request', 'forbidden', 'conflict'],
  },
  {
    operationId: 'renameCompany',
    method: 'patch',
    path: '/api/v1/companies/{id}',
    summary: 'Rename a company',
    description:
      'Renames a company (audited); nothing else of it changes. Another company’s name is a 409. A key restricted to a company may rename its own only.',
    scope: 'companies:write',
    query: NoQuery,
    pathId: 'The company’s id.',
    body: { schema: CompanyUpdateBody, example: { name: 'Contoso Europe' }, description: 'The new name.' },
    ok: 'Company',
    problems: ['bad-request', 'forbidden', 'not-found', 'conflict'],
  },
  {
    operationId: 'createEmployee',
    method: 'post',
    path: '/api/v1/employees',
    summary: 'Create an employee',
    description:
      'Adds an employee as the back office does: invited (no password yet), audited, with the same rules and messages. No e-mail is sent now: the activation e-mail goes out when a scheme they take part in is launched (or an administrator sends it from their page). An address that is already an employee’s, another company’s or an administrator’s is a 409. A key restricted to a company adds to its company only (the default).',
    scope: 'employees:write',
    query: NoQuery,
    pathId: null,
    body: {
      schema: EmployeeCreateBody,
      example: {
        email: 'ada.lovelace@contoso.example',
        display_name: 'Ada Lovelace',
        company_id: '6f1c1d1e-8a5b-4c1f-9a57-1d2e3f4a5b6c',
        department: 'Engineering',
        job_title: 'Lead engineer',
        manager_id: null,
      },
      description: 'The new employee.',
    },
    status: 201,
    ok: 'Employee',
    problems: ['bad-request', 'forbidden', 'conflict'],
  },
  {
    operationId: 'updateEmployee',
    method: 'patch',
    path: '/api/v1/employees/{id}',
    summary: 'Update an employee',
    description:
      'Changes the fields sent and no others; null clears department, job title or manager. The back office’s rules apply (a manager of the same company, no circle of managers; moving someone who manages others or takes part in a running scheme is refused). An address another account has is a 409. Another company’s employee is not found for a restricted key.',
    scope: 'employees:write',
    query: NoQuery,
    pathId: 'The employee’s id.',
    body: {
      schema: EmployeeUpdateBody,
      example: { job_title: 'Head of engineering', manager_id: null },
      description: 'The fields to change.',
    },
    ok: 'Employee',
    problems: ['bad-request', 'forbidden', 'not-found', 'conflict'],
  },
  {
    operationId: 'disableEmployee',
    method: 'post',
    path: '/api/v1/employees/{id}/disable',
    summary: 'Disable an employee',
    description:
      'The employee can no longer sign in, and every session they have ends (audited). Disabling a disabled employee changes nothing.',
    scope: 'employees:write',
    query: NoQuery,
    pathId: 'The employee’s id.',
    ok: 'Employee',
    problems: ['bad-request', 'forbidden', 'not-found'],
  },
  {
    operationId: 'enableEmployee',
    method: 'post',
    path: '/api/v1/employees/{id}/enable',
    summary: 'Enable an employee',
    description:
      'A disabled employee may sign in again (audited). Enabling an enabled employee changes nothing.',
    scope: 'employees:write',
    query: NoQuery,
    pathId: 'The employee’s id.',
    ok: 'Employee',
    problems: ['bad-request', 'forbidden', 'not-found'],
  },
  {
    operationId: 'bulkUpsertEmployees',
    method: 'post',
    path: '/api/v1/employees/bulk',
    summary: 'Create or update employees in bulk',
    description: [
      `Up to ${BULK_MAX_ROWS} employees of one company, keyed by e-mail address (a body of 2 MiB at most): a missing one is created (invited, no e-mail sent), a changed one updated (name, and department, job title and manager where given — null or left out leaves them as they are), an unchanged one left alone. The rows are checked by the CSV import’s own rules: a row with a problem is left out and reported in \`problems\` (its index, the field, why), the other rows are written — in one transaction, audited as an import.`,
      'The `Idempotency-Key` header is required. The answer is kept a day: the same key with the same body answers it again (with `Idempotent-Replayed: true`) without doing anything; the same key with another body is a 422; while the first request runs, the same key is a 409 (try again shortly).',
    ].join('\n\n'),
    scope: 'employees:write',
    query: NoQuery,
    pathId: null,
    headers: [
      {
        name: 'Idempotency-Key',
        required: true,
        description:
          'A key of your choosing for this request, 1–255 printable ASCII characters (a UUID will do).',
        example: '3f0c9a4e-hr-sync-2026-11-27',
      },
    ],
    body: {
      schema: EmployeeBulkBody,
      example: {
        company_id: '6f1c1d1e-8a5b-4c1f-9a57-1d2e3f4a5b6c',
        rows: [
          { email: 'ada.lovelace@contoso.example', display_name: 'Ada Lovelace', department: 'Engineering' },
          {
            email: 'charles.babbage@contoso.example',
            display_name: 'Charles Babbage',
            manager_email: 'ada.lovelace@contoso.example',
          },
        ],
      },
      description: 'The company and its rows.',
    },
    ok: 'BulkResult',
    problems: ['bad-request', 'forbidden', 'conflict', 'idempotency-key-reused'],
  },
]

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` })

const PROBLEM_EXAMPLES: Record<ProblemKind, string> = {
  'bad-request': 'Unknown query parameters: page.',
  unauthorized: 'Send an API key as "Authorization: Bearer <key>".',
  forbidden: 'This key lacks the scope employees:read.',
  'not-found': 'Nothing with this id is available to this key.',
  'method-not-allowed': 'This endpoint answers GET only.',
  conflict: 'Another employee of this company has the address ada.lovelace@contoso.example.',
  'length-required': 'Send a Content-Length with the body.',
  'payload-too-large': 'The body may be 65536 bytes at most.',
  'unsupported-media-type': 'Send the body as JSON ("Content-Type: application/json").',
  'idempotency-key-reused':
    'This Idempotency-Key was used with another body. Send the same body, or a new key for a new request.',
  'too-many-requests': 'This key may make 600 requests a minute. Try again in 12 seconds.',
  'server-error': 'Something went wrong on our side. Try again later.',
  unavailable: 'The service cannot reach its database. Try again later.',
}

function problemResponse(kind: ProblemKind) {
  const { status, title } = PROBLEMS[kind]
  const example: Record<string, unknown> = {
    type: problemType(kind),
    title,
    status,
    detail: PROBLEM_EXAMPLES[kind],
  }
  if (kind === 'bad-request')
    example.errors = [{ field: 'page', message: 'Is not a parameter of this endpoint.' }]
  return {
    description: title,
    ...(kind === 'too-many-requests'
      ? { headers: { 'Retry-After': { description: 'Seconds to wait.', schema: { type: 'integer' } } } }
      : {}),
    content: { 'application/problem+json': { schema: ref('Problem'), example } },
  }
}

/** A schema of the document: JSON Schema 2020-12 without its own `$schema`, referring to components. */
function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output') {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { io, target: 'draft-2020-12' }) as Record<
    string,
    unknown
  >
  return rest
}

function componentSchemas() {
  // Every schema with an id, each with references to the others (Zod's registry form).
  const { schemas } = z.toJSONSchema(z.globalRegistry, {
    io: 'output',
    target: 'draft-2020-12',
    uri: (id) => `#/components/schemas/${id}`,
  }) as { schemas: Record<string, Record<string, unknown>> }
  return Object.fromEntries(
    Object.keys(API_COMPONENTS).map((name) => {
      const { $schema: _drop, $id: _uri, id: _id, ...own } = schemas[name]!
      return [name, own]
    }),
  )
}

function parameters(operation: ApiOperation) {
  const list: Record<string, unknown>[] = []
  for (const header of operation.headers ?? [])
    list.push({
      name: header.name,
      in: 'header',
      required: header.required,
      description: header.description,
      example: header.example,
      schema: { type: 'string' },
    })
  if (operation.pathId)
    list.push({
      name: 'id',
      in: 'path',
      required: true,
      description: operation.pathId,
      schema: { type: 'string', format: 'uuid' },
    })
  for (const [name, schema] of Object.entries(operation.query?.shape ?? {})) {
    const { description, example, ...rest } = jsonSchemaOf(schema as z.ZodType, 'output')
    list.push({
      name,
      in: 'query',
      required: false,
      ...(description ? { description } : {}),
      ...(example !== undefined ? { example } : {}),
      schema: rest,
    })
  }
  return list
}

function operationObject(operation: ApiOperation) {
  const okResponse =
    operation.ok === 'OpenApiDocument'
      ? {
          description: 'The OpenAPI document.',
          content: { 'application/json': { schema: { type: 'object' } } },
        }
      : operation.ok === 'AnswersCsv'
        ? {
            description: 'The answers, streamed as CSV or (`format=ndjson`) as JSON lines.',
            content: {
              'text/csv': {
                schema: { type: 'string' },
                example: `${EXPORT_COLUMNS.join(',')}\r\n`,
              },
              'application/x-ndjson': {
                schema: { type: 'string' },
                example: `${JSON.stringify(NDJSON_EXAMPLE)}\n`,
              },
            },
          }
        : {
            description: 'OK',
            content: { 'application/json': { schema: ref(operation.ok), example: exampleOf(operation.ok) } },
          }
  const problems: ProblemKind[] = operation.scope
    ? [
        'unauthorized',
        ...operation.problems,
        ...(operation.body ? (['bad-request', 'payload-too-large', 'unsupported-media-type'] as const) : []),
        'too-many-requests',
        'server-error',
      ]
    : operation.problems
  return {
    operationId: operation.operationId,
    summary: operation.summary,
    description: operation.scope
      ? `${operation.description}\n\nNeeds the scope \`${operation.scope}\`.`
      : operation.description,
    tags: [
      operation.tag ??
        (operation.path.split('/')[3] === 'openapi.json' ? 'meta' : operation.path.split('/')[3]!),
    ],
    ...(operation.scope ? {} : { security: [] }),
    parameters: parameters(operation),
    ...(operation.body
      ? {
          requestBody: {
            required: true,
            description: operation.body.description,
            content: {
              'application/json': {
                schema: jsonSchemaOf(operation.body.schema, 'input'),
                example: operation.body.example,
              },
            },
          },
        }
      : {}),
    responses: {
      [String(operation.status ?? 200)]: okResponse,
      ...Object.fromEntries(
        [...new Set(problems)]
          .sort((a, b) => PROBLEMS[a].status - PROBLEMS[b].status)
          .map((kind) => [String(PROBLEMS[kind].status), problemResponse(kind)]),
      ),
    },
  }
}

function exampleOf(name: ApiComponent): unknown {
  const company = CompanySchema.meta()?.example
  const employee = EmployeeSchema.meta()?.example
  if (name === 'CompanyList') return { data: [company], next_cursor: 'NmYxYzFkMWUtOGE1Yi00YzFm' }
  if (name === 'EmployeeList') return { data: [employee], next_cursor: null }
  const listed: Partial<Record<ApiComponent, ApiComponent>> = {
    SchemeList: 'Scheme',
    ParticipantList: 'Participant',
    ReportSummaryList: 'ReportSummary',
  }
  const item = listed[name]
  if (item) return { data: [API_COMPONENTS[item].meta()?.example], next_cursor: null }
  return API_COMPONENTS[name].meta()?.example
}

/** The operations by path, each path's methods together. */
function pathsOf(operations: ApiOperation[]) {
  const paths: Record<string, Record<string, unknown>> = {}
  for (const operation of operations)
    (paths[operation.path] ??= {})[operation.method] = operationObject(operation)
  return paths
}

/** The whole document, built once per process (it depends on the code only). */
let built: Record<string, unknown> | undefined
export function openApiDocument(): Record<string, unknown> {
  built ??= {
    openapi: '3.1.0',
    info: {
      title: 'Panorama REST API',
      version: '1.0.0',
      description: [
        'The REST API of Panorama, for HR systems: authenticate with an API key an administrator created (`Authorization: Bearer <key>`).',
        `Scopes are \`<resource>:<read|write>\`: ${API_SCOPES.map((s) => `\`${s}\``).join(', ')}.`,
        `Lists are paginated by a cursor: \`limit\` (1–${API_PAGE_MAX}) and the \`next_cursor\` of the previous page as \`cursor\`; the last page's \`next_cursor\` is null.`,
        'Every error is an RFC 9457 problem (`application/problem+json`). Unknown query parameters and unknown body fields are refused (400), naming them.',
        'Request bodies are JSON (`Content-Type: application/json`), 64 KiB at most unless an endpoint says otherwise (413 past it).',
        'Each key has a rate limit per minute; past it, 429 with Retry-After. While the service cannot reach its database, every endpoint answers 503 with Retry-After.',
      ].join('\n\n'),
    },
    servers: [{ url: '/' }],
    security: [{ apiKey: [] }],
    tags: [
      { name: 'companies', description: 'The client organisations.' },
      { name: 'employees', description: 'The people of each company who receive feedback.' },
      { name: 'meta', description: 'This document.' },
      {
        name: 'schemes',
        description: 'Feedback programmes: create, enrol, launch, progress and participants.',
      },
      { name: 'reports', description: 'Released reports’ figures, under the report’s anonymity rules.' },
      { name: 'answers', description: 'The anonymous answer export.' },
    ],
    paths: pathsOf(API_OPERATIONS),
    components: {
      securitySchemes: {
        apiKey: {
          type: 'http',
          scheme: 'bearer',
          description:
            'An API key from the back office (Administration → API keys), shown once when created.',
        },
      },
      schemas: componentSchemas(),
    },
  }
  return built
}

type DocOperation = {
  operationId: string
  summary: string
  description: string
  parameters: Array<{
    name: string
    in: string
    required: boolean
    description?: string
    schema: Record<string, unknown>
  }>
  requestBody?: { description: string; content: Record<string, { example?: unknown }> }
  responses: Record<string, { description: string; content?: Record<string, { example?: unknown }> }>
}

/** A parameter's type as the reference page writes it: "integer (1–200)", "string, uuid". */
function typeText(schema: Record<string, unknown>) {
  const parts = [String(schema.type ?? 'string')]
  if (schema.format) parts.push(String(schema.format))
  if (Array.isArray(schema.enum)) parts.push(schema.enum.join(' | '))
  if (schema.minimum !== undefined && schema.maximum !== undefined)
    parts.push(`${schema.minimum}–${schema.maximum}`)
  return parts.join(', ')
}

/**
 * The admins' reference page's data, read from the document itself (so the page says what the
 * document says): each operation with its parameters, responses and first example.
 */
export function apiReference() {
  const document = openApiDocument() as {
    info: { title: string; version: string; description: string }
    paths: Record<string, Record<string, DocOperation>>
  }
  return {
    title: document.info.title,
    version: document.info.version,
    description: document.info.description.split('\n\n'),
    operations: Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({
        id: operation.operationId,
        method: method.toUpperCase(),
        path,
        summary: operation.summary,
        description: operation.description.split('\n\n'),
        parameters: operation.parameters.map((p) => ({
          name: p.name,
          in: p.in,
          required: p.required,
          type: typeText(p.schema),
          description: p.description ?? '',
        })),
        body: operation.requestBody
          ? {
              description: operation.requestBody.description,
              example: JSON.stringify(Object.values(operation.requestBody.content)[0]?.example, null, 2),
            }
          : null,
        responses: Object.entries(operation.responses).map(([status, response]) => {
          const example = Object.values(response.content ?? {})[0]?.example
          return {
            status,
            description: response.description,
            example: example === undefined ? null : JSON.stringify(example, null, 2),
          }
        }),
      })),
    ),
  }
}
