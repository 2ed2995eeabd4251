import { index, route, type RouteConfig } from '@react-router/dev/routes'

// One entry per row of the spec's route table (portal-spec.txt §2), plus the resource routes.
export default [
  index('routes/public/index.tsx'),
  route('sign-in', 'routes/public/sign-in.tsx'),
  // Single sign-on through a client organisation's OpenID provider (issue 20 §1, ADR 049): the start
  // (a GET the sign-in page's first step leads to) and the callback every provider sends back to.
  route('sign-in/sso', 'routes/public/sign-in.sso.tsx'),
  route('sign-in/sso/callback', 'routes/public/sign-in.sso-callback.tsx'),
  // The second step of signing in (a code, or an admin's first authenticator): ADR 048.
  route('sign-in/second-factor', 'routes/public/sign-in.second-factor.tsx'),
  route('forgot-password', 'routes/public/forgot-password.tsx'),
  route('verification', 'routes/verification.tsx'),
  route('sign-out', 'routes/sign-out.ts'),
  route('login', 'routes/login.ts'),

  route('user', 'routes/user/home.tsx'),
  route('user/edit-profile', 'routes/user/edit-profile.tsx'),
  // The employee's own data as one ZIP (issue 21 §4 "Access", ADR 055): a resource route.
  route('user/edit-profile/my-data.zip', 'routes/user/edit-profile.my-data-zip.ts'),
  route('user/thank-you', 'routes/user/thank-you.tsx'),
  route('user/colleague-invite', 'routes/user/colleague-invite.tsx'),
  // An employee's list of raters where the scheme approves lists first (issue 18 §3, ADR 042).
  route('user/nominations', 'routes/user/nominations.tsx'),
  // The colleague directory's type-ahead (issue 18 §3): a resource route answering JSON.
  route('user/colleague-invite/directory', 'routes/user/colleague-invite.directory.ts'),
  // A development plan made from a released report, and a report shared with its employee's manager
  // (issue 19 §1–2, ADR 043); :rid is the report's id, as in /user/response-:rid.
  route('user/development-plan/:rid', 'routes/user/development-plan.tsx'),
  route('user/shared/:rid', 'routes/user/shared.tsx'),
  // React Router has no partial segments: /user/response-:rid is a slug whose loader strips "response-".
  route('user/:responseSlug', 'routes/user/response.tsx'),
  // The released report as a PDF, printed by headless Chromium (issue 19 §7, ADR 046).
  route('user/:responseSlug/report.pdf', 'routes/user/response.report-pdf.ts'),

  route('assignment/:id', 'routes/assignment.$id.tsx'),
  route('questionnaire/:id', 'routes/questionnaire.$id.tsx'),

  route('admin', 'routes/admin/dashboard.tsx'),
  route('admin/answer-management', 'routes/admin/answer-management.tsx'),
  // The answers as CSV (a resource route, ADR 023), then one response.
  route('admin/answer-management/export.csv', 'routes/admin/answer-management.export-csv.ts'),
  // Respondents' requests to reopen their submitted answers (issue 18 §5, ADR 039).
  route('admin/answer-management/reopen-requests', 'routes/admin/answer-management.reopen-requests.tsx'),
  route('admin/answer-management/:responseId', 'routes/admin/answer-management.$responseId.tsx'),
  route('admin/company-management', 'routes/admin/company-management.tsx'),
  // A company's retention: settings, the dry run, the last pass (issue 21 §3, ADR 058).
  route(
    'admin/company-management/:companyId/retention',
    'routes/admin/company-management.$companyId.retention.tsx',
  ),
  // A cohort's group report and heatmap, for a company across its schemes (issue 19 §4, ADR 045).
  route(
    'admin/company-management/:companyId/group-report',
    'routes/admin/company-management.$companyId.group-report.tsx',
  ),
  route(
    'admin/company-management/:companyId/heatmap',
    'routes/admin/company-management.$companyId.heatmap.tsx',
  ),
  route(
    'admin/company-management/:companyId/group-report.pdf',
    'routes/admin/company-management.$companyId.group-report-pdf.ts',
  ),
  route('admin/brand-management', 'routes/admin/brand-management.tsx'),
  route('admin/brand-management/:id', 'routes/admin/brand-management.$id.tsx'),
  route('admin/email-management', 'routes/admin/email-management.tsx'),
  route('admin/email-management/outbox/:messageId', 'routes/admin/email-management.outbox.$messageId.tsx'),
  route('admin/email-management/:id', 'routes/admin/email-management.$id.tsx'),
  // The client organisations' OpenID providers (issue 20 §1, ADR 049).
  route('admin/identity-provider-management', 'routes/admin/identity-provider-management.tsx'),
  route('admin/identity-provider-management/:id', 'routes/admin/identity-provider-management.$id.tsx'),
  // The REST API's keys and its reference for admins (issue 21 §1, ADR 054).
  route('admin/api-keys', 'routes/admin/api-keys.tsx'),
  route('admin/api-keys/reference', 'routes/admin/api-keys.reference.tsx'),
  route('admin/webhooks', 'routes/admin/webhooks.tsx'),
  route('admin/webhooks/:id', 'routes/admin/webhooks.$id.tsx'),
  route('admin/admin-management', 'routes/admin/admin-management.tsx'),
  route('admin/admin-management/:uid', 'routes/admin/admin-management.$uid.tsx'),
  route('admin/employee-management', 'routes/admin/employee-management.tsx'),
  route('admin/employee-management/:uid', 'routes/admin/employee-management.$uid.tsx'),
  // The CSV import's downloads (resource routes): the template and a file's rows with problems.
  route('admin/employee-management/template.csv', 'routes/admin/employee-management.template-csv.ts'),
  route(
    'admin/employee-management/imports/:importId/problems.csv',
    'routes/admin/employee-management.import-problems-csv.ts',
  ),
  route('admin/scheme-management', 'routes/admin/scheme-management.tsx'),
  route('admin/scheme-management/:schemeId', 'routes/admin/scheme-management.$schemeId.tsx'),
  route(
    'admin/scheme-management/:schemeId/group-report',
    'routes/admin/scheme-management.$schemeId.group-report.tsx',
  ),
  route('admin/scheme-management/:schemeId/heatmap', 'routes/admin/scheme-management.$schemeId.heatmap.tsx'),
  // A group report as a branded PDF for the client's HR contact (issue 19 §4, §7).
  route(
    'admin/scheme-management/:schemeId/group-report.pdf',
    'routes/admin/scheme-management.$schemeId.group-report-pdf.ts',
  ),
  // Every released report of a scheme as one streamed ZIP of PDFs (issue 19 §7, ADR 046).
  route(
    'admin/scheme-management/:schemeId/reports.zip',
    'routes/admin/scheme-management.$schemeId.reports-zip.ts',
  ),
  route('admin/questionnaire-management', 'routes/admin/questionnaire-management.tsx'),
  route('admin/questionnaire-management/:qid', 'routes/admin/questionnaire-management.$qid.tsx'),
  // The questionnaire file (docs/questionnaire-format.md): a resource route.
  route(
    'admin/questionnaire-management/:qid/export.json',
    'routes/admin/questionnaire-management.$qid.export-json.ts',
  ),
  // Not in the spec's table: an admin's own name, password and e-mail (issue 7).
  route('admin/profile', 'routes/admin/profile.tsx'),

  route('api/__session', 'routes/api.session.ts'),
  route('files/:id', 'routes/files.$id.ts'),
  route('api/events', 'routes/api.events.ts'),
  route('api/admin-events', 'routes/api.admin-events.ts'),
  // The REST API (issue 21 §1, ADR 054): keyed by API keys, JSON answers and problems only; any
  // other path under /api/v1 is a 404 problem, not the HTML page.
  route('api/v1/openapi.json', 'routes/api.v1.openapi-json.ts'),
  route('api/v1/companies', 'routes/api.v1.companies.ts'),
  route('api/v1/companies/:id', 'routes/api.v1.companies.$id.ts'),
  route('api/v1/employees', 'routes/api.v1.employees.ts'),
  route('api/v1/employees/:id', 'routes/api.v1.employees.$id.ts'),
  route('api/v1/schemes', 'routes/api.v1.schemes.ts'),
  route('api/v1/schemes/:id', 'routes/api.v1.schemes.$id.ts'),
  route('api/v1/schemes/:id/enrolments', 'routes/api.v1.schemes.$id.enrolments.ts'),
  route('api/v1/schemes/:id/launch', 'routes/api.v1.schemes.$id.launch.ts'),
  route('api/v1/schemes/:id/participants', 'routes/api.v1.schemes.$id.participants.ts'),
  route('api/v1/schemes/:id/reports', 'routes/api.v1.schemes.$id.reports.ts'),
  route('api/v1/schemes/:id/answers', 'routes/api.v1.schemes.$id.answers.ts'),
  route('api/v1/employees/bulk', 'routes/api.v1.employees.bulk.ts'),
  route('api/v1/employees/:id/disable', 'routes/api.v1.employees.$id.disable.ts'),
  route('api/v1/employees/:id/enable', 'routes/api.v1.employees.$id.enable.ts'),
  route('api/v1/*', 'routes/api.v1.$.ts'),
  // The reference page of `npm run bench`: a page like any other, with no loader of its own.
  route('bench/ping', 'routes/bench.ping.tsx'),
  route('*', 'routes/$.tsx'),
] satisfies RouteConfig
