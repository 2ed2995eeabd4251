import { Link } from 'react-router'
import type { RouteHandle } from '#app/root'
import type { Route } from './+types/email-management.$id'
import { dispatchIntent, intent } from '#app/lib/reply.server'
import { formErrorsOf, resultFor } from '#app/components/form-kit'
import { ConfirmPanel, PageHeader } from '#app/components/page-kit'
import { FormErrors } from '#app/components/forms'
import { notFound, requireUser } from '#app/modules/auth/guards.server'
import { ROUTE_ROLES } from '#app/modules/auth/permissions'
import { TemplateEditor } from '#app/modules/email/components/template-editor'
import { TemplateLanguages } from '#app/modules/email/components/template-languages'
import { loadTemplatePage } from '#app/modules/email/template-page.server'
import {
  addLanguageVersion,
  createOverride,
  deleteLanguageVersion,
  editorLanguage,
  LANGUAGE_VERSION_MESSAGES,
  restoreDefault,
  saveTemplate,
  sendTestEmail,
} from '#app/modules/email/template-editing.server'
import { refuse } from '#app/lib/outcome'
import { getFixedT, requestLanguage } from '#app/modules/i18n/i18n.server'
import { intlLocale } from '#app/modules/i18n/languages'
import { languageNameIn } from '#app/modules/email/language-name'
import { useEmailWords } from '#app/modules/email/components/use-email-words'
import {
  AddLanguageSchema,
  DeleteLanguageSchema,
  OverrideSchema,
  templateHref,
  templateId,
  parseTemplateId,
  RestoreSchema,
  templateSchema,
  TestSendSchema,
} from '#app/modules/email/schemas'
import { requireAdminForm, toastReply } from './admin-action.server'
import { ADMIN_HANDLE, adminTitleT } from './admin-meta'
import { metaT } from '#app/modules/i18n/meta'

export const handle: RouteHandle = { ...ADMIN_HANDLE, i18n: 'email' }

export const meta: Route.MetaFunction = ({ loaderData, matches }) =>
  loaderData
    ? adminTitleT(
        matches,
        `email:templates.${loaderData.editor.key}.label`,
        ...(loaderData.editor.brand ? [loaderData.editor.brand.name] : []),
        metaT(matches, 'email:templateMetaSuffix'),
      )
    : adminTitleT(matches, 'email:templateMetaTitle')

const LIST = '/admin/email-management'

/**
 * One e-mail's wording (ADR 016). The id is `<key>` for the default wording and `<key>.<brandId>`
 * for a brand's, whether that brand has its own yet or not: a brand without its own shows the
 * default and saving creates its own. Unknown keys, malformed ids and unknown brands are a 404.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  await requireUser(request, { roles: ROUTE_ROLES.admin })
  return (await loadTemplatePage(params.id, new URL(request.url).searchParams)) ?? notFound()
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const { actor, formData } = await requireAdminForm(request, context)
  const target = parseTemplateId(params.id)
  if (!target) notFound()
  const { key, brandId } = target
  const [t, reader] = await Promise.all([getFixedT(request, 'email'), requestLanguage(request)])
  const label = t(`templates.${key}.label`)
  const languageName = (code: string) => languageNameIn(code, intlLocale(reader))
  // The version the form was for (ADR 053): a hidden field, English when absent; anything else is
  // refused by the intent that needs it.
  const posted = formData.get('language')
  const language = editorLanguage(typeof posted === 'string' ? posted : null)
  const unknownLanguage = async () => refuse(LANGUAGE_VERSION_MESSAGES.unknown)
  const done = toastReply(templateHref(params.id, language ?? 'en'))
  return dispatchIntent(formData, {
    save: intent(
      templateSchema(key),
      ({ intent: _intent, ...input }) =>
        language ? saveTemplate(actor, key, brandId, input, language) : unknownLanguage(),
      ({ created, cleaned }) =>
        done(
          created ? t('toast.createdTitle') : t('toast.savedTitle'),
          cleaned ? t('toast.savedCleaned', { label }) : t('toast.savedText', { label }),
          cleaned ? 'info' : 'success',
        ),
    ),
    test: intent(
      TestSendSchema,
      () => (language ? sendTestEmail(actor, key, brandId, language) : unknownLanguage()),
      ({ to }) => done(t('toast.testTitle'), t('toast.testText', { label, to })),
    ),
    restore: intent(
      RestoreSchema,
      () => restoreDefault(actor, key, brandId),
      () =>
        done(
          t('toast.restoredTitle'),
          brandId ? t('toast.restoredBrand', { label }) : t('toast.restoredDefault', { label }),
        ),
    ),
    'add-language': intent(
      AddLanguageSchema,
      ({ language: added }) => addLanguageVersion(actor, key, brandId, added),
      ({ language: added }) =>
        toastReply(templateHref(params.id, added))(
          t('toast.addedTitle', { language: languageName(added) }),
          t('toast.addedText', { label, language: languageName(added) }),
        ),
    ),
    'delete-language': intent(
      DeleteLanguageSchema,
      () => (language ? deleteLanguageVersion(actor, key, brandId, language) : unknownLanguage()),
      ({ language: deleted }) =>
        toastReply(templateHref(params.id, 'en'))(
          t('toast.deletedTitle', { language: languageName(deleted) }),
          t('toast.deletedText', { label, language: languageName(deleted) }),
        ),
    ),
    // Only a brand's wording can be its own copy of the default.
    ...(brandId
      ? {
          override: intent(
            OverrideSchema,
            () => createOverride(actor, key, brandId),
            () => done(t('toast.createdTitle'), t('toast.overrideText', { label })),
          ),
        }
      : {}),
  })
}

export default function EmailTemplatePage({ loaderData, actionData }: Route.ComponentProps) {
  const { editor, confirmRestore, confirmDelete } = loaderData
  const { t, templateLabel, templateDescription, languageName: nameOf, owner } = useEmailWords()
  const unknownErrors = actionData?.intent === 'unknown' ? formErrorsOf(actionData.result) : undefined
  const restoreResult = resultFor(actionData, 'restore')
  const deleteResult = resultFor(actionData, 'delete-language')
  const brand = editor.brand
  const english = editor.language === 'en'
  const languageName = nameOf(editor.language)
  const usesDefault = Boolean(brand && !editor.own)
  const canRestore = english && (brand ? !usesDefault : editor.defaultEdited)
  const listHref = brand ? `${LIST}?brand=${brand.id}` : LIST
  const here = templateHref(templateId(editor.key, brand?.id ?? null), editor.language)
  return (
    <section aria-labelledby="page-title" className="flex max-w-6xl flex-col gap-6">
      <div className="flex flex-col gap-2">
        <Link to={listHref} className="link self-start text-sm">
          {t('editor.allEmails')}
        </Link>
        <PageHeader
          title={`${templateLabel(editor.key)} · ${brand ? brand.name : t('editor.defaultSuffix')}`}
        >
          {templateDescription(editor.key)}{' '}
          {brand
            ? usesDefault
              ? english
                ? t('editor.brandUsesDefault', { brand: brand.name })
                : t('editor.brandNoVersion', { brand: brand.name, language: languageName })
              : t('editor.brandOwn', { owner: owner(brand.name) })
            : t('editor.defaultIntro')}
        </PageHeader>
      </div>
      <TemplateLanguages editor={editor} actionData={actionData} />
      <FormErrors errors={unknownErrors} />
      {!confirmRestore ? <FormErrors errors={formErrorsOf(restoreResult)} /> : null}
      {!confirmDelete ? <FormErrors errors={formErrorsOf(deleteResult)} /> : null}
      {confirmDelete ? (
        <ConfirmPanel
          id="delete-language"
          title={t('editor.deleteTitle', { language: languageName })}
          intent="delete-language"
          fields={{ language: editor.language }}
          confirmLabel={t('editor.deleteConfirm', { language: languageName })}
          pendingLabel={t('editor.deleting')}
          cancelHref={here}
          lastResult={deleteResult}
          backLabel={t('editor.back')}
          blockedBy={null}
        >
          <p className="text-slate-800">
            {brand
              ? t('editor.deleteBrand', { language: languageName, owner: owner(brand.name) })
              : t('editor.deleteDefault', { language: languageName })}
          </p>
        </ConfirmPanel>
      ) : null}
      {confirmRestore ? (
        <ConfirmPanel
          id="restore-default"
          title={
            brand
              ? t('editor.restoreBrandTitle', { owner: owner(brand.name) })
              : t('editor.restoreDefaultTitle')
          }
          intent="restore"
          fields={{}}
          confirmLabel={brand ? t('editor.restoreBrandConfirm') : t('editor.restoreDefaultConfirm')}
          pendingLabel={t('editor.restoring')}
          cancelHref="."
          lastResult={restoreResult}
          backLabel={t('editor.back')}
          blockedBy={
            canRestore
              ? null
              : brand
                ? t('editor.brandAlreadyDefault', { brand: brand.name })
                : t('editor.defaultAlreadyShipped')
          }
        >
          <p className="text-slate-800">
            {brand
              ? t('editor.restoreBrandText', { owner: owner(brand.name) })
              : t('editor.restoreDefaultText')}
          </p>
        </ConfirmPanel>
      ) : null}
      <TemplateEditor
        key={`${editor.language}:${JSON.stringify(editor.own ?? editor.fallback)}`}
        editor={editor}
        actionData={actionData}
        canRestore={canRestore}
      />
    </section>
  )
}
