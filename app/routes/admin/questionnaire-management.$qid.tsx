import type { Route } from './+types/questionnaire-management.$qid'
import { dispatchIntent, intent } from '#app/lib/reply.server'
import { notFound, requireUser } from '#app/modules/auth/guards.server'
import { ROUTE_ROLES } from '#app/modules/auth/permissions'
import { loadQuestionnairePage } from '#app/modules/questionnaire/builder-page.server'
import { QuestionnaireBuilder } from '#app/modules/questionnaire/components/builder'
import * as Qn from '#app/modules/questionnaire/questionnaire.server'
import * as S from '#app/modules/questionnaire/schemas'
import { redirectWithToast } from '#app/modules/toast/toast.server'
import { plural as count } from '#app/lib/words'
import { requireAdminForm } from './admin-action.server'
import type { RouteHandle } from '#app/root'
import { ADMIN_HANDLE, adminTitle } from './admin-meta'

// The builder's preview draws the answering page's title and questions (the `answering` words).
export const handle: RouteHandle = { ...ADMIN_HANDLE, i18n: ['answering'] }

export const meta: Route.MetaFunction = ({ loaderData }) =>
  adminTitle(
    loaderData
      ? `${loaderData.questionnaire.title} (version ${loaderData.questionnaire.version}) · Questionnaires`
      : 'Questionnaire',
  )

const PATH = '/admin/questionnaire-management'

/**
 * One questionnaire: the builder while it is a draft (every change its own POST with an intent,
 * saved at once), read-only once published or archived, with publish (its checks listed first),
 * "edit as a new version", back to draft, duplicate, archive and the JSON export. `?preview=self`
 * or `?preview=colleague` shows it as respondents will see it. Unknown or malformed ids are a 404.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  await requireUser(request, { roles: ROUTE_ROLES.admin })
  return (await loadQuestionnairePage(params.qid, new URL(request.url).searchParams)) ?? notFound()
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const { actor, formData } = await requireAdminForm(request, context)
  const questionnaire = (await Qn.getQuestionnaire(params.qid)) ?? notFound()
  const id = questionnaire.id
  const here = `${PATH}/${id}`
  const done = (title: string, description: string, anchor = '') =>
    redirectWithToast(`${here}${anchor ? `#${anchor}` : ''}`, { kind: 'success', title, description })

  // A translation saved: back to the same language's view, at the item.
  const translated = (language: string, description: string, anchor: string) =>
    redirectWithToast(`${here}?language=${language}#${anchor}`, {
      kind: 'success',
      title: 'Translation saved',
      description,
    })

  return dispatchIntent(formData, {
    details: intent(
      S.QnDetailsSchema,
      (v) => Qn.updateDetails(actor, id, v),
      () => done('Saved', 'The title and introduction are saved.', 'details'),
    ),
    'add-section': intent(
      S.QnAddSectionSchema,
      (v) => Qn.addSection(actor, id, v.title),
      (r) => done('Section added', `“${r.title}” is added at the end. Add its questions.`, 'sections'),
    ),
    'rename-section': intent(
      S.QnRenameSectionSchema,
      (v) => Qn.renameSection(actor, id, v.sectionId, v.title),
      (r, v) => done('Section renamed', `“${r.from}” is now “${r.title}”.`, `section-${v.sectionId}`),
    ),
    'move-section': intent(
      S.QnMoveSectionSchema,
      (v) => Qn.moveSection(actor, id, v.sectionId, v.direction),
      (r, v) => done('Section moved', `“${r.title}” is now section ${r.position}.`, `section-${v.sectionId}`),
    ),
    'delete-section': intent(
      S.QnDeleteSectionSchema,
      (v) => Qn.deleteSection(actor, id, v.sectionId, v.confirmed),
      (r) =>
        done(
          'Section deleted',
          r.questions
            ? `“${r.title}” and its ${count(r.questions, 'question', 'questions')} are deleted.`
            : `“${r.title}” is deleted.`,
          'sections',
        ),
    ),
    'add-question': intent(
      S.QnAddQuestionSchema,
      ({ intent: _i, ...v }) => Qn.addQuestion(actor, id, v),
      (r) => done('Question added', `Added to “${r.section}”.`, `question-${r.id}`),
    ),
    'update-question': intent(
      S.QnUpdateQuestionSchema,
      ({ intent: _i, questionId, ...v }) => Qn.updateQuestion(actor, id, questionId, v),
      (_r, v) => done('Question saved', 'Its wording and settings are saved.', `question-${v.questionId}`),
    ),
    'move-question': intent(
      S.QnMoveQuestionSchema,
      (v) => Qn.moveQuestion(actor, id, v.questionId, v.direction),
      (r, v) =>
        done(
          'Question moved',
          r.moved ? `It is now in “${r.section}”.` : `It moved ${v.direction}.`,
          `question-${v.questionId}`,
        ),
    ),
    'delete-question': intent(
      S.QnDeleteQuestionSchema,
      (v) => Qn.deleteQuestion(actor, id, v.questionId),
      (r) => done('Question deleted', `“${r.text.slice(0, 80)}” is deleted.`, 'sections'),
    ),
    'add-option': intent(
      S.QnAddOptionSchema,
      (v) => Qn.changeOption(actor, id, v.questionId, { op: 'add', label: v.label }),
      (_r, v) => done('Choice added', `“${v.label}” is added.`, `question-${v.questionId}`),
    ),
    'rename-option': intent(
      S.QnRenameOptionSchema,
      (v) => Qn.changeOption(actor, id, v.questionId, { op: 'rename', index: v.index, label: v.label }),
      (_r, v) => done('Choice renamed', `It now reads “${v.label}”.`, `question-${v.questionId}`),
    ),
    'move-option': intent(
      S.QnMoveOptionSchema,
      (v) => Qn.changeOption(actor, id, v.questionId, { op: 'move', index: v.index, direction: v.direction }),
      (_r, v) => done('Choice moved', `It moved ${v.direction}.`, `question-${v.questionId}`),
    ),
    'remove-option': intent(
      S.QnRemoveOptionSchema,
      (v) => Qn.changeOption(actor, id, v.questionId, { op: 'remove', index: v.index }),
      (_r, v) => done('Choice removed', 'The choice is removed.', `question-${v.questionId}`),
    ),
    'translate-details': intent(
      S.QnTranslateDetailsSchema,
      ({ intent: _i, ...v }) => Qn.translateDetails(actor, id, v),
      (_r, v) => translated(v.language, 'The title and introduction are saved.', 'details'),
    ),
    'translate-section': intent(
      S.QnTranslateSectionSchema,
      ({ intent: _i, ...v }) => Qn.translateSection(actor, id, v),
      (r, v) => translated(v.language, `The title of “${r.title}” is saved.`, `section-${v.sectionId}`),
    ),
    'translate-question': intent(
      S.QnTranslateQuestionSchema,
      ({ intent: _i, ...v }) => Qn.translateQuestion(actor, id, v),
      (_r, v) =>
        translated(v.language, 'The question’s wordings and labels are saved.', `question-${v.questionId}`),
    ),
    publish: intent(
      S.QnPublishSchema,
      () => Qn.publishQuestionnaire(actor, id),
      (r) =>
        redirectWithToast(here, {
          kind: r.languageWarning ? 'info' : 'success',
          title: 'Questionnaire published',
          description: `“${r.title}” (version ${r.version}) can now be used by schemes. It no longer changes.${r.languageWarning ? ` Not every text is translated: ${r.languageWarning}` : ''}`,
        }),
    ),
    'revert-to-draft': intent(
      S.QnRevertSchema,
      () => Qn.revertToDraft(actor, id),
      (r) =>
        done(
          'Back to draft',
          `“${r.title}” is a draft again: no scheme can choose it until it is published.`,
        ),
    ),
    'new-version': intent(
      S.QnNewVersionSchema,
      () => Qn.newVersion(actor, id),
      (r) =>
        redirectWithToast(`${PATH}/${r.id}`, {
          kind: 'success',
          title: `Version ${r.version} created`,
          description:
            'This draft is a copy to edit. The schemes using the earlier version keep it, and their answers.',
        }),
    ),
    archive: intent(
      S.QnArchiveHereSchema,
      () => Qn.archiveQuestionnaire(actor, id),
      (r) => done('Questionnaire archived', `“${r.title}” is archived: no new scheme can use it.`),
    ),
    duplicate: intent(
      S.QnDuplicateHereSchema,
      () => Qn.duplicateQuestionnaire(actor, id),
      (r) =>
        redirectWithToast(`${PATH}/${r.id}`, {
          kind: 'success',
          title: 'Questionnaire duplicated',
          description: `“${r.title}” is a new draft.`,
        }),
    ),
  })
}

export default function QuestionnaireDetailPage({ loaderData, actionData }: Route.ComponentProps) {
  return <QuestionnaireBuilder data={loaderData} actionData={actionData} />
}
