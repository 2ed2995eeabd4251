import type { Route } from './+types/questionnaire-management.$qid'
import { unreadableForm } from '#app/lib/form-data.server'
import { submitIntent } from '#app/lib/reply.server'
import { notFound, requireUser } from '#app/modules/auth/guards.server'
import { ROUTE_ROLES } from '#app/modules/auth/permissions'
import { publishBlockers } from '#app/modules/questionnaire/checks'
import { QuestionnaireBuilder } from '#app/modules/questionnaire/components/builder'
import {
  addQuestion,
  addSection,
  archiveQuestionnaire,
  changeOption,
  deleteQuestion,
  deleteSection,
  duplicateQuestionnaire,
  getQuestionnaire,
  moveQuestion,
  moveSection,
  newVersion,
  publishQuestionnaire,
  renameSection,
  revertToDraft,
  updateDetails,
  updateQuestion,
} from '#app/modules/questionnaire/questionnaire.server'
import {
  parseQnDetailQuery,
  QnAddOptionSchema,
  QnAddQuestionSchema,
  QnAddSectionSchema,
  QnArchiveHereSchema,
  QnDeleteQuestionSchema,
  QnDeleteSectionSchema,
  QnDetailsSchema,
  QnDuplicateHereSchema,
  QnMoveOptionSchema,
  QnMoveQuestionSchema,
  QnMoveSectionSchema,
  QnNewVersionSchema,
  QnPublishSchema,
  QnRemoveOptionSchema,
  QnRenameOptionSchema,
  QnRenameSectionSchema,
  QnRevertSchema,
  QnUpdateQuestionSchema,
} from '#app/modules/questionnaire/schemas'
import { redirectWithToast } from '#app/modules/toast/toast.server'
import type { RouteHandle } from '#app/root'
import { plural as count } from '#app/lib/words'

export const handle: RouteHandle = { layout: 'admin', transition: true }

export const meta: Route.MetaFunction = ({ loaderData }) => [
  {
    title: loaderData
      ? `${loaderData.questionnaire.title} (version ${loaderData.questionnaire.version}) · Questionnaires · Panorama admin`
      : 'Questionnaire · Panorama admin',
  },
]

const PATH = '/admin/questionnaire-management'
/** The colleague preview's subject: a made-up name in place of {{name}}. */
export const PREVIEW_NAME = 'Alex Example'

/**
 * One questionnaire: the builder while it is a draft (every change its own POST with an intent,
 * saved at once), read-only once published or archived, with publish (its checks listed first),
 * "edit as a new version", back to draft, duplicate, archive and the JSON export. `?preview=self`
 * or `?preview=colleague` shows it as respondents will see it. Unknown or malformed ids are a 404.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  await requireUser(request, { roles: ROUTE_ROLES.admin })
  const questionnaire = await getQuestionnaire(params.qid)
  if (!questionnaire) notFound()
  const query = parseQnDetailQuery(new URL(request.url).searchParams)
  const blockers = publishBlockers(questionnaire.sections)
  const notices: string[] = []
  const deleting = query.deleteSection
    ? (questionnaire.sections.find((s) => s.id === query.deleteSection) ?? null)
    : null
  if (query.deleteSection && !deleting) notices.push('That section is not in this questionnaire (any more).')
  return {
    questionnaire,
    blockers,
    preview: query.preview ?? null,
    previewName: PREVIEW_NAME,
    confirm: query.confirm ?? null,
    deleting: deleting
      ? { id: deleting.id, title: deleting.title, questions: deleting.questions.length }
      : null,
    notices,
  }
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const { user } = await requireUser(request, { roles: ROUTE_ROLES.admin })
  const questionnaire = await getQuestionnaire(params.qid)
  if (!questionnaire) notFound()
  const formData = await request.formData().catch(() => null)
  if (!formData) return unreadableForm()
  const actor = { id: user.id, ip: context.ip || null }
  const id = questionnaire.id
  const here = `${PATH}/${id}`
  const done = (title: string, description: string, anchor = '') =>
    redirectWithToast(`${here}${anchor ? `#${anchor}` : ''}`, { kind: 'success', title, description })

  switch (formData.get('intent')) {
    case 'details':
      return submitIntent(
        formData,
        'details',
        QnDetailsSchema,
        (v) => updateDetails(actor, id, v),
        () => done('Saved', 'The title and introduction are saved.', 'details'),
      )
    case 'add-section':
      return submitIntent(
        formData,
        'add-section',
        QnAddSectionSchema,
        (v) => addSection(actor, id, v.title),
        (r) => done('Section added', `“${r.title}” is added at the end. Add its questions.`, 'sections'),
      )
    case 'rename-section':
      return submitIntent(
        formData,
        'rename-section',
        QnRenameSectionSchema,
        (v) => renameSection(actor, id, v.sectionId, v.title),
        (r, v) => done('Section renamed', `“${r.from}” is now “${r.title}”.`, `section-${v.sectionId}`),
      )
    case 'move-section':
      return submitIntent(
        formData,
        'move-section',
        QnMoveSectionSchema,
        (v) => moveSection(actor, id, v.sectionId, v.direction),
        (r, v) =>
          done('Section moved', `“${r.title}” is now section ${r.position}.`, `section-${v.sectionId}`),
      )
    case 'delete-section':
      return submitIntent(
        formData,
        'delete-section',
        QnDeleteSectionSchema,
        (v) => deleteSection(actor, id, v.sectionId, v.confirmed),
        (r) =>
          done(
            'Section deleted',
            r.questions
              ? `“${r.title}” and its ${count(r.questions, 'question', 'questions')} are deleted.`
              : `“${r.title}” is deleted.`,
            'sections',
          ),
      )
    case 'add-question':
      return submitIntent(
        formData,
        'add-question',
        QnAddQuestionSchema,
        ({ intent: _i, ...v }) => addQuestion(actor, id, v),
        (r) => done('Question added', `Added to “${r.section}”.`, `question-${r.id}`),
      )
    case 'update-question':
      return submitIntent(
        formData,
        'update-question',
        QnUpdateQuestionSchema,
        ({ intent: _i, questionId, ...v }) => updateQuestion(actor, id, questionId, v),
        (_r, v) => done('Question saved', 'Its wording and settings are saved.', `question-${v.questionId}`),
      )
    case 'move-question':
      return submitIntent(
        formData,
        'move-question',
        QnMoveQuestionSchema,
        (v) => moveQuestion(actor, id, v.questionId, v.direction),
        (r, v) =>
          done(
            'Question moved',
            r.moved ? `It is now in “${r.section}”.` : `It moved ${v.direction}.`,
            `question-${v.questionId}`,
          ),
      )
    case 'delete-question':
      return submitIntent(
        formData,
        'delete-question',
        QnDeleteQuestionSchema,
        (v) => deleteQuestion(actor, id, v.questionId),
        (r) => done('Question deleted', `“${r.text.slice(0, 80)}” is deleted.`, 'sections'),
      )
    case 'add-option':
      return submitIntent(
        formData,
        'add-option',
        QnAddOptionSchema,
        (v) => changeOption(actor, id, v.questionId, { op: 'add', label: v.label }),
        (_r, v) => done('Choice added', `“${v.label}” is added.`, `question-${v.questionId}`),
      )
    case 'rename-option':
      return submitIntent(
        formData,
        'rename-option',
        QnRenameOptionSchema,
        (v) => changeOption(actor, id, v.questionId, { op: 'rename', index: v.index, label: v.label }),
        (_r, v) => done('Choice renamed', `It now reads “${v.label}”.`, `question-${v.questionId}`),
      )
    case 'move-option':
      return submitIntent(
        formData,
        'move-option',
        QnMoveOptionSchema,
        (v) => changeOption(actor, id, v.questionId, { op: 'move', index: v.index, direction: v.direction }),
        (_r, v) => done('Choice moved', `It moved ${v.direction}.`, `question-${v.questionId}`),
      )
    case 'remove-option':
      return submitIntent(
        formData,
        'remove-option',
        QnRemoveOptionSchema,
        (v) => changeOption(actor, id, v.questionId, { op: 'remove', index: v.index }),
        (_r, v) => done('Choice removed', 'The choice is removed.', `question-${v.questionId}`),
      )
    case 'publish':
      return submitIntent(
        formData,
        'publish',
        QnPublishSchema,
        () => publishQuestionnaire(actor, id),
        (r) =>
          done(
            'Questionnaire published',
            `“${r.title}” (version ${r.version}) can now be used by schemes. It no longer changes.`,
          ),
      )
    case 'revert-to-draft':
      return submitIntent(
        formData,
        'revert-to-draft',
        QnRevertSchema,
        () => revertToDraft(actor, id),
        (r) =>
          done(
            'Back to draft',
            `“${r.title}” is a draft again: no scheme can choose it until it is published.`,
          ),
      )
    case 'new-version':
      return submitIntent(
        formData,
        'new-version',
        QnNewVersionSchema,
        () => newVersion(actor, id),
        (r) =>
          redirectWithToast(`${PATH}/${r.id}`, {
            kind: 'success',
            title: `Version ${r.version} created`,
            description:
              'This draft is a copy to edit. The schemes using the earlier version keep it, and their answers.',
          }),
      )
    case 'archive':
      return submitIntent(
        formData,
        'archive',
        QnArchiveHereSchema,
        () => archiveQuestionnaire(actor, id),
        (r) => done('Questionnaire archived', `“${r.title}” is archived: no new scheme can use it.`),
      )
    case 'duplicate':
      return submitIntent(
        formData,
        'duplicate',
        QnDuplicateHereSchema,
        () => duplicateQuestionnaire(actor, id),
        (r) =>
          redirectWithToast(`${PATH}/${r.id}`, {
            kind: 'success',
            title: 'Questionnaire duplicated',
            description: `“${r.title}” is a new draft.`,
          }),
      )
    default:
      return unreadableForm()
  }
}

export default function QuestionnaireDetailPage({ loaderData, actionData }: Route.ComponentProps) {
  return <QuestionnaireBuilder data={loaderData} actionData={actionData} />
}
