import type { Route } from './+types/questionnaire-management.$qid'
import { dispatchIntent, intent } from '#app/lib/reply.server'
import { notFound, requireUser } from '#app/modules/auth/guards.server'
import { ROUTE_ROLES } from '#app/modules/auth/permissions'
import { loadQuestionnairePage } from '#app/modules/questionnaire/builder-page.server'
import { QuestionnaireBuilder } from '#app/modules/questionnaire/components/builder'
import { languageWarningOf } from '#app/modules/questionnaire/components/words'
import * as Qn from '#app/modules/questionnaire/questionnaire.server'
import * as S from '#app/modules/questionnaire/schemas'
import { redirectWithToast } from '#app/modules/toast/toast.server'
import { getFixedT } from '#app/modules/i18n/i18n.server'
import { metaT } from '#app/modules/i18n/meta'
import type { RouteHandle } from '#app/root'
import { requireAdminForm } from './admin-action.server'
import { ADMIN_HANDLE, adminTitle } from './admin-meta'

// The builder's preview draws the answering page's title and questions (the `answering` words).
export const handle: RouteHandle = { ...ADMIN_HANDLE, i18n: ['questionnaires', 'answering'] }

// `metaT` takes no arguments: the version's word and the list's name are put around the title.
export const meta: Route.MetaFunction = ({ loaderData, matches }) =>
  adminTitle(
    loaderData
      ? `${loaderData.questionnaire.title} (${metaT(matches, 'questionnaires:meta.version')} ${loaderData.questionnaire.version}) · ${metaT(matches, 'questionnaires:meta.questionnaires')}`
      : metaT(matches, 'questionnaires:meta.questionnaire'),
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
  const t = await getFixedT(request, 'questionnaires')
  const done = (title: string, description: string, anchor = '') =>
    redirectWithToast(`${here}${anchor ? `#${anchor}` : ''}`, { kind: 'success', title, description })

  // A translation saved: back to the same language's view, at the item.
  const translated = (language: string, description: string, anchor: string) =>
    redirectWithToast(`${here}?language=${language}#${anchor}`, {
      kind: 'success',
      title: t('toasts.translated.title'),
      description,
    })

  return dispatchIntent(formData, {
    details: intent(
      S.QnDetailsSchema,
      (v) => Qn.updateDetails(actor, id, v),
      () => done(t('toasts.details.title'), t('toasts.details.description'), 'details'),
    ),
    'add-section': intent(
      S.QnAddSectionSchema,
      (v) => Qn.addSection(actor, id, v.title),
      (r) =>
        done(
          t('toasts.sectionAdded.title'),
          t('toasts.sectionAdded.description', { title: r.title }),
          'sections',
        ),
    ),
    'rename-section': intent(
      S.QnRenameSectionSchema,
      (v) => Qn.renameSection(actor, id, v.sectionId, v.title),
      (r, v) =>
        done(
          t('toasts.sectionRenamed.title'),
          t('toasts.sectionRenamed.description', { from: r.from, title: r.title }),
          `section-${v.sectionId}`,
        ),
    ),
    'move-section': intent(
      S.QnMoveSectionSchema,
      (v) => Qn.moveSection(actor, id, v.sectionId, v.direction),
      (r, v) =>
        done(
          t('toasts.sectionMoved.title'),
          t('toasts.sectionMoved.description', { title: r.title, position: r.position }),
          `section-${v.sectionId}`,
        ),
    ),
    'delete-section': intent(
      S.QnDeleteSectionSchema,
      (v) => Qn.deleteSection(actor, id, v.sectionId, v.confirmed),
      (r) =>
        done(
          t('toasts.sectionDeleted.title'),
          t('toasts.sectionDeleted.description', { title: r.title, count: r.questions }),
          'sections',
        ),
    ),
    'add-question': intent(
      S.QnAddQuestionSchema,
      ({ intent: _i, ...v }) => Qn.addQuestion(actor, id, v),
      (r) =>
        done(
          t('toasts.questionAdded.title'),
          t('toasts.questionAdded.description', { section: r.section }),
          `question-${r.id}`,
        ),
    ),
    'update-question': intent(
      S.QnUpdateQuestionSchema,
      ({ intent: _i, questionId, ...v }) => Qn.updateQuestion(actor, id, questionId, v),
      (_r, v) =>
        done(
          t('toasts.questionSaved.title'),
          t('toasts.questionSaved.description'),
          `question-${v.questionId}`,
        ),
    ),
    'move-question': intent(
      S.QnMoveQuestionSchema,
      (v) => Qn.moveQuestion(actor, id, v.questionId, v.direction),
      (r, v) =>
        done(
          t('toasts.questionMoved.title'),
          r.moved
            ? t('toasts.questionMoved.toSection', { section: r.section })
            : t('toasts.moved', { direction: v.direction }),
          `question-${v.questionId}`,
        ),
    ),
    'delete-question': intent(
      S.QnDeleteQuestionSchema,
      (v) => Qn.deleteQuestion(actor, id, v.questionId),
      (r) =>
        done(
          t('toasts.questionDeleted.title'),
          t('toasts.questionDeleted.description', { text: r.text.slice(0, 80) }),
          'sections',
        ),
    ),
    'add-option': intent(
      S.QnAddOptionSchema,
      (v) => Qn.changeOption(actor, id, v.questionId, { op: 'add', label: v.label }),
      (_r, v) =>
        done(
          t('toasts.choiceAdded.title'),
          t('toasts.choiceAdded.description', { label: v.label }),
          `question-${v.questionId}`,
        ),
    ),
    'rename-option': intent(
      S.QnRenameOptionSchema,
      (v) => Qn.changeOption(actor, id, v.questionId, { op: 'rename', index: v.index, label: v.label }),
      (_r, v) =>
        done(
          t('toasts.choiceRenamed.title'),
          t('toasts.choiceRenamed.description', { label: v.label }),
          `question-${v.questionId}`,
        ),
    ),
    'move-option': intent(
      S.QnMoveOptionSchema,
      (v) => Qn.changeOption(actor, id, v.questionId, { op: 'move', index: v.index, direction: v.direction }),
      (_r, v) =>
        done(
          t('toasts.choiceMoved.title'),
          t('toasts.moved', { direction: v.direction }),
          `question-${v.questionId}`,
        ),
    ),
    'remove-option': intent(
      S.QnRemoveOptionSchema,
      (v) => Qn.changeOption(actor, id, v.questionId, { op: 'remove', index: v.index }),
      (_r, v) =>
        done(
          t('toasts.choiceRemoved.title'),
          t('toasts.choiceRemoved.description'),
          `question-${v.questionId}`,
        ),
    ),
    'translate-details': intent(
      S.QnTranslateDetailsSchema,
      ({ intent: _i, ...v }) => Qn.translateDetails(actor, id, v),
      (_r, v) => translated(v.language, t('toasts.details.description'), 'details'),
    ),
    'translate-section': intent(
      S.QnTranslateSectionSchema,
      ({ intent: _i, ...v }) => Qn.translateSection(actor, id, v),
      (r, v) =>
        translated(v.language, t('toasts.translated.section', { title: r.title }), `section-${v.sectionId}`),
    ),
    'translate-question': intent(
      S.QnTranslateQuestionSchema,
      ({ intent: _i, ...v }) => Qn.translateQuestion(actor, id, v),
      (_r, v) => translated(v.language, t('toasts.translated.question'), `question-${v.questionId}`),
    ),
    publish: intent(
      S.QnPublishSchema,
      () => Qn.publishQuestionnaire(actor, id),
      (r) =>
        redirectWithToast(here, {
          kind: r.languageWarning ? 'info' : 'success',
          title: t('toasts.published.title'),
          description: `${t('toasts.published.description', { title: r.title, version: r.version })}${
            r.incomplete.length
              ? ` ${t('toasts.published.untranslated', { warning: languageWarningOf(t, r.incomplete) })}`
              : ''
          }`,
        }),
    ),
    'revert-to-draft': intent(
      S.QnRevertSchema,
      () => Qn.revertToDraft(actor, id),
      (r) => done(t('toasts.reverted.title'), t('toasts.reverted.description', { title: r.title })),
    ),
    'new-version': intent(
      S.QnNewVersionSchema,
      () => Qn.newVersion(actor, id),
      (r) =>
        redirectWithToast(`${PATH}/${r.id}`, {
          kind: 'success',
          title: t('toasts.newVersion.title', { version: r.version }),
          description: t('toasts.newVersion.description'),
        }),
    ),
    archive: intent(
      S.QnArchiveHereSchema,
      () => Qn.archiveQuestionnaire(actor, id),
      (r) => done(t('toasts.archived.title'), t('toasts.archived.description', { title: r.title })),
    ),
    duplicate: intent(
      S.QnDuplicateHereSchema,
      () => Qn.duplicateQuestionnaire(actor, id),
      (r) =>
        redirectWithToast(`${PATH}/${r.id}`, {
          kind: 'success',
          title: t('toasts.duplicated.title'),
          description: t('toasts.duplicated.description', { title: r.title }),
        }),
    ),
  })
}

export default function QuestionnaireDetailPage({ loaderData, actionData }: Route.ComponentProps) {
  return <QuestionnaireBuilder data={loaderData} actionData={actionData} />
}
