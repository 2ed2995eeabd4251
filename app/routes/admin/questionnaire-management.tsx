import type { SubmissionResult } from '@conform-to/react'
import { data } from 'react-router'
import type { Route } from './+types/questionnaire-management'
import { ListPagination, useListHref } from '#app/components/admin-list'
import { ConfirmPanel, formErrorsOf, Notices, PageHeader, resultFor } from '#app/components/form-kit'
import { FormErrors } from '#app/components/forms'
import { unreadableForm } from '#app/lib/form-data.server'
import { submitIntent } from '#app/lib/reply.server'
import { clipText, withoutControlCharacters } from '#app/lib/text-rules'
import { requireUser } from '#app/modules/auth/guards.server'
import { ROUTE_ROLES } from '#app/modules/auth/permissions'
import {
  CreateQuestionnaireForm,
  ImportQuestionnaireForm,
  QuestionnaireFilters,
  QuestionnaireTable,
} from '#app/modules/questionnaire/components/questionnaire-list'
import { IMPORT_MAX_BYTES, readQuestionnaireFile } from '#app/modules/questionnaire/format.server'
import {
  archiveQuestionnaire,
  createQuestionnaire,
  duplicateQuestionnaire,
  getQuestionnaire,
  importQuestionnaire,
  listQuestionnaires,
} from '#app/modules/questionnaire/questionnaire.server'
import {
  parseQnListQuery,
  QN_MESSAGES,
  QnArchiveSchema,
  QnCreateSchema,
  QnDuplicateSchema,
} from '#app/modules/questionnaire/schemas'
import { redirectWithToast } from '#app/modules/toast/toast.server'
import type { RouteHandle } from '#app/root'

export const handle: RouteHandle = { layout: 'admin', transition: true }

export const meta: Route.MetaFunction = () => [{ title: 'Questionnaire management · Panorama admin' }]

const PATH = '/admin/questionnaire-management'

/**
 * The questionnaires: one row per questionnaire with its versions (v1, v2 …, the schemes using each),
 * searchable by title, filtered by status, keyset pages; create, duplicate, archive (`?archive=<id>`
 * asks first), and import a JSON file as a new draft (docs/questionnaire-format.md).
 */
export async function loader({ request }: Route.LoaderArgs) {
  await requireUser(request, { roles: ROUTE_ROLES.admin })
  const query = parseQnListQuery(new URL(request.url).searchParams)
  const [page, archiving] = await Promise.all([
    listQuestionnaires(query),
    query.archive ? getQuestionnaire(query.archive) : null,
  ])
  const notices: string[] = []
  if (page.staleCursor) notices.push('That page link is out of date, so the first page is shown.')
  if (query.archive && !archiving) notices.push('That questionnaire does not exist (any more).')
  const openUse = archiving?.schemes.filter((s) => s.phase === 'open') ?? []
  return {
    query: { q: query.q, status: query.status ?? '', sort: query.sort },
    page,
    archiving: archiving
      ? {
          id: archiving.id,
          title: archiving.title,
          version: archiving.version,
          status: archiving.status,
          openSchemes: openUse.map((s) => s.name),
        }
      : null,
    notices,
    importMaxBytes: IMPORT_MAX_BYTES,
  }
}

function importRefused(problems: string[]) {
  const result: SubmissionResult<string[]> = { status: 'error', error: { '': problems } }
  return data({ intent: 'import' as const, result }, { status: 400 })
}

export async function action({ request, context }: Route.ActionArgs) {
  const { user } = await requireUser(request, { roles: ROUTE_ROLES.admin })
  const formData = await request.formData().catch(() => null)
  if (!formData) return unreadableForm()
  const actor = { id: user.id, ip: context.ip || null }
  const back = (request: Request) => {
    const url = new URL(request.url)
    for (const name of ['archive', 'index']) url.searchParams.delete(name)
    return `${PATH}${url.search}`
  }

  switch (formData.get('intent')) {
    case 'create':
      return submitIntent(
        formData,
        'create',
        QnCreateSchema,
        ({ title }) => createQuestionnaire(actor, title),
        ({ id }, { title }) =>
          redirectWithToast(`${PATH}/${id}`, {
            kind: 'success',
            title: 'Questionnaire created',
            description: `“${title}” is a draft. Add its sections and questions.`,
          }),
      )
    case 'duplicate':
      return submitIntent(
        formData,
        'duplicate',
        QnDuplicateSchema,
        ({ questionnaireId }) => duplicateQuestionnaire(actor, questionnaireId),
        ({ id, title }) =>
          redirectWithToast(`${PATH}/${id}`, {
            kind: 'success',
            title: 'Questionnaire duplicated',
            description: `“${title}” is a new draft.`,
          }),
      )
    case 'archive':
      return submitIntent(
        formData,
        'archive',
        QnArchiveSchema,
        ({ questionnaireId }) => archiveQuestionnaire(actor, questionnaireId),
        ({ title }) =>
          redirectWithToast(back(request), {
            kind: 'success',
            title: 'Questionnaire archived',
            description: `“${title}” is archived: no new scheme can use it.`,
          }),
      )
    case 'import': {
      const file = formData.getAll('file')
      if (file.length !== 1 || !(file[0] instanceof File) || !file[0].size)
        return importRefused([QN_MESSAGES.file])
      const upload = file[0]
      if (upload.size > IMPORT_MAX_BYTES)
        return importRefused([
          `The file is ${Math.ceil(upload.size / 1024)} kB: a questionnaire file can be at most ${IMPORT_MAX_BYTES / 1024} kB.`,
        ])
      let text: string
      try {
        text = new TextDecoder('utf-8', { fatal: true }).decode(await upload.arrayBuffer())
      } catch {
        return importRefused(['The file is not UTF-8 text. Export a questionnaire to see the format.'])
      }
      const read = readQuestionnaireFile(text)
      if (!read.ok)
        return importRefused([
          `“${clipText(withoutControlCharacters(upload.name), 80)}” was not imported:`,
          ...read.problems,
        ])
      const outcome = await importQuestionnaire(actor, read.content)
      if (!outcome.ok) return importRefused(outcome.formErrors ?? [QN_MESSAGES.file])
      return redirectWithToast(`${PATH}/${outcome.value.id}`, {
        kind: 'success',
        title: 'Questionnaire imported',
        description: `“${outcome.value.title}” (${outcome.value.questions} questions) is a new draft.`,
      })
    }
    default:
      return unreadableForm()
  }
}

export default function QuestionnaireManagement({ loaderData, actionData }: Route.ComponentProps) {
  const { page, query, archiving, notices, importMaxBytes } = loaderData
  const href = useListHref(PATH)
  const unknownErrors = actionData?.intent === 'unknown' ? formErrorsOf(actionData.result) : undefined
  const filtered = Boolean(query.q || query.status)
  const cancelHref = href({ archive: null })

  return (
    <section aria-labelledby="page-title" className="flex max-w-6xl flex-col gap-8">
      <PageHeader title="Questionnaires">
        What employees and their colleagues answer. A scheme uses one published version; editing a
        questionnaire a scheme uses makes a new version and leaves the old one, and its answers, as they are.
      </PageHeader>
      <Notices notices={notices} />
      <FormErrors errors={unknownErrors} />
      <FormErrors errors={actionData?.intent === 'duplicate' ? formErrorsOf(actionData.result) : undefined} />

      {archiving ? (
        <ConfirmPanel
          id="archive-questionnaire"
          title={`Archive “${archiving.title}” (version ${archiving.version})?`}
          intent="archive"
          fields={{ questionnaireId: archiving.id }}
          confirmLabel="Archive"
          pendingLabel="Archiving…"
          cancelHref={cancelHref}
          lastResult={resultFor(actionData, 'archive')}
          blockedBy={
            archiving.status === 'archived'
              ? 'This questionnaire is already archived.'
              : archiving.openSchemes.length
                ? `The open scheme${archiving.openSchemes.length === 1 ? '' : 's'} ${archiving.openSchemes.map((n) => `“${n}”`).join(', ')} ${archiving.openSchemes.length === 1 ? 'uses' : 'use'} this questionnaire: it can be archived once ${archiving.openSchemes.length === 1 ? 'that scheme closes' : 'they close'}.`
                : undefined
          }
        >
          <p className="text-slate-800">
            No new scheme can use an archived questionnaire. Schemes that already use it, and their answers
            and reports, stay as they are.
          </p>
        </ConfirmPanel>
      ) : null}

      <section aria-labelledby="list-title" className="flex flex-col gap-4">
        <h2 id="list-title" className="text-lg font-semibold">
          All questionnaires
        </h2>
        <QuestionnaireFilters path={PATH} query={query} />
        {page.rows.length ? (
          <QuestionnaireTable rows={page.rows} archiveHref={(id) => href({ archive: id })} />
        ) : (
          <p className="card text-slate-700">
            {filtered
              ? 'No questionnaire matches this search and this status.'
              : 'There are no questionnaires yet. Create the first one below, or import a file.'}
          </p>
        )}
        <ListPagination noun="questionnaires" next={page.next} prev={page.prev} href={href} />
      </section>

      <div className="grid gap-6 lg:grid-cols-2">
        <section aria-labelledby="create-title" className="card flex flex-col gap-4">
          <h2 id="create-title" className="text-lg font-semibold">
            Create a questionnaire
          </h2>
          <CreateQuestionnaireForm lastResult={resultFor(actionData, 'create')} />
        </section>
        <section aria-labelledby="import-title" className="card flex flex-col gap-4">
          <h2 id="import-title" className="text-lg font-semibold">
            Import a questionnaire
          </h2>
          <ImportQuestionnaireForm lastResult={resultFor(actionData, 'import')} maxBytes={importMaxBytes} />
        </section>
      </div>
    </section>
  )
}
