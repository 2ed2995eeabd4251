import type { SubmissionResult } from '@conform-to/react'
import { useTranslation } from 'react-i18next'
import { data } from 'react-router'
import type { Route } from './+types/questionnaire-management'
import { UnknownIntentErrors, useListHref } from '#app/components/admin-list'
import { formErrorsOf, resultFor } from '#app/components/form-kit'
import { Notices, PageHeader } from '#app/components/page-kit'
import { FormErrors } from '#app/components/forms'
import { listHref } from '#app/lib/list-page.server'
import { dispatchIntent, intent } from '#app/lib/reply.server'
import { formatCount } from '#app/lib/numbers'
import { clipText, withoutControlCharacters } from '#app/lib/text-rules'
import { getFixedT, requestLanguage } from '#app/modules/i18n/i18n.server'
import { intlLocale } from '#app/modules/i18n/languages'
import { metaT } from '#app/modules/i18n/meta'
import { requireUser } from '#app/modules/auth/guards.server'
import { ROUTE_ROLES } from '#app/modules/auth/permissions'
import {
  AddQuestionnaire,
  ArchiveConfirm,
  QuestionnaireList,
} from '#app/modules/questionnaire/components/questionnaire-list'
import { IMPORT_MAX_BYTES, readQuestionnaireFile } from '#app/modules/questionnaire/format.server'
import {
  archiveQuestionnaire,
  createQuestionnaire,
  duplicateQuestionnaire,
  importQuestionnaire,
} from '#app/modules/questionnaire/questionnaire.server'
import { loadQuestionnaireList } from '#app/modules/questionnaire/questionnaire-list.server'
import {
  parseQnListQuery,
  QN_MESSAGES,
  QnArchiveSchema,
  QnCreateSchema,
  QnDuplicateSchema,
} from '#app/modules/questionnaire/schemas'
import { redirectWithToast } from '#app/modules/toast/toast.server'
import { requireAdminForm, type AdminActor } from './admin-action.server'
import { ADMIN_HANDLE, adminTitle } from './admin-meta'
import type { RouteHandle } from '#app/root'

export const handle: RouteHandle = { ...ADMIN_HANDLE, i18n: 'questionnaires' }

export const meta: Route.MetaFunction = ({ matches }) =>
  adminTitle(metaT(matches, 'questionnaires:meta.management'))

const PATH = '/admin/questionnaire-management'

/**
 * The questionnaires: one row per questionnaire with its versions (v1, v2 …, the schemes using each),
 * searchable by title, filtered by status, keyset pages; create, duplicate, archive (`?archive=<id>`
 * asks first), and import a JSON file as a new draft (docs/questionnaire-format.md).
 */
export async function loader({ request }: Route.LoaderArgs) {
  await requireUser(request, { roles: ROUTE_ROLES.admin })
  return await loadQuestionnaireList(parseQnListQuery(new URL(request.url).searchParams))
}

function importRefused(problems: string[]) {
  const result: SubmissionResult<string[]> = { status: 'error', error: { '': problems } }
  return data({ intent: 'import' as const, result }, { status: 400 })
}

/**
 * The import: one JSON file, read and checked, becomes a new draft; every problem goes back to the
 * form. The framing sentences are in the request's language; a file's own problems name its JSON
 * fields (docs/questionnaire-format.md) and stay as the reader writes them.
 */
async function importFile(request: Request, actor: AdminActor, formData: FormData) {
  const t = await getFixedT(request, 'questionnaires')
  const locale = intlLocale(await requestLanguage(request))
  const file = formData.getAll('file')
  if (file.length !== 1 || !(file[0] instanceof File) || !file[0].size)
    return importRefused([QN_MESSAGES.file])
  const upload = file[0]
  if (upload.size > IMPORT_MAX_BYTES)
    return importRefused([
      t('import.tooLarge', {
        kb: formatCount(Math.ceil(upload.size / 1024), locale),
        max: formatCount(IMPORT_MAX_BYTES / 1024, locale),
      }),
    ])
  let text: string
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(await upload.arrayBuffer())
  } catch {
    return importRefused([t('import.notUtf8')])
  }
  const read = readQuestionnaireFile(text)
  if (!read.ok)
    return importRefused([
      t('import.notImported', { name: clipText(withoutControlCharacters(upload.name), 80) }),
      ...read.problems,
    ])
  const outcome = await importQuestionnaire(actor, read.content)
  if (!outcome.ok) return importRefused(outcome.formErrors ?? [QN_MESSAGES.file])
  return redirectWithToast(`${PATH}/${outcome.value.id}`, {
    kind: 'success',
    title: t('toasts.imported.title'),
    description: t('toasts.imported.description', {
      title: outcome.value.title,
      count: outcome.value.questions,
    }),
  })
}

export async function action({ request, context }: Route.ActionArgs) {
  const { actor, formData } = await requireAdminForm(request, context)
  const t = await getFixedT(request, 'questionnaires')
  return dispatchIntent(formData, {
    create: intent(
      QnCreateSchema,
      ({ title }) => createQuestionnaire(actor, title),
      ({ id }, { title }) =>
        redirectWithToast(`${PATH}/${id}`, {
          kind: 'success',
          title: t('toasts.created.title'),
          description: t('toasts.created.description', { title }),
        }),
    ),
    duplicate: intent(
      QnDuplicateSchema,
      ({ questionnaireId }) => duplicateQuestionnaire(actor, questionnaireId),
      ({ id, title }) =>
        redirectWithToast(`${PATH}/${id}`, {
          kind: 'success',
          title: t('toasts.duplicated.title'),
          description: t('toasts.duplicated.description', { title }),
        }),
    ),
    archive: intent(
      QnArchiveSchema,
      ({ questionnaireId }) => archiveQuestionnaire(actor, questionnaireId),
      ({ title }) =>
        redirectWithToast(listHref(request, PATH, ['archive']), {
          kind: 'success',
          title: t('toasts.archived.title'),
          description: t('toasts.archived.description', { title }),
        }),
    ),
    import: (formData) => importFile(request, actor, formData),
  })
}

export default function QuestionnaireManagement({ loaderData, actionData }: Route.ComponentProps) {
  const { archiving, notices, importMaxBytes } = loaderData
  const { t } = useTranslation('questionnaires')
  const href = useListHref(PATH)
  return (
    <section aria-labelledby="page-title" className="flex max-w-6xl flex-col gap-8">
      <PageHeader title={t('list.title')}>{t('list.intro')}</PageHeader>
      <Notices notices={notices} />
      <UnknownIntentErrors actionData={actionData} />
      <FormErrors errors={actionData?.intent === 'duplicate' ? formErrorsOf(actionData.result) : undefined} />
      {archiving ? (
        <ArchiveConfirm
          archiving={archiving}
          cancelHref={href({ archive: null })}
          lastResult={resultFor(actionData, 'archive')}
        />
      ) : null}
      <QuestionnaireList data={loaderData} path={PATH} href={href} />
      <AddQuestionnaire importMaxBytes={importMaxBytes} actionData={actionData} />
    </section>
  )
}
