import { Link } from 'react-router'
import type { Route } from './+types/email-management.$id'
import { possessive } from '#app/lib/words'
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
import { languageInfo } from '#app/modules/i18n/languages'
import {
  AddLanguageSchema,
  DeleteLanguageSchema,
  OverrideSchema,
  templateHref,
  templateId,
  parseTemplateId,
  RestoreSchema,
  TEMPLATE_DESCRIPTIONS,
  TEMPLATE_LABELS,
  templateSchema,
  TestSendSchema,
} from '#app/modules/email/schemas'
import { requireAdminForm, toastReply } from './admin-action.server'
import { ADMIN_HANDLE, adminTitle } from './admin-meta'

export const handle = ADMIN_HANDLE

export const meta: Route.MetaFunction = ({ loaderData }) =>
  adminTitle(
    loaderData
      ? `${TEMPLATE_LABELS[loaderData.editor.key]}${loaderData.editor.brand ? ` · ${loaderData.editor.brand.name}` : ''} · E-mail`
      : 'E-mail template',
  )

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
  const label = TEMPLATE_LABELS[key]
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
          created ? 'Own wording created' : 'Template saved',
          cleaned
            ? `“${label}” was saved. Some HTML that e-mail cannot safely carry was removed: check the preview.`
            : `“${label}” is used for the next message sent.`,
          cleaned ? 'info' : 'success',
        ),
    ),
    test: intent(
      TestSendSchema,
      () => (language ? sendTestEmail(actor, key, brandId, language) : unknownLanguage()),
      ({ to }) => done('Test queued', `A test of “${label}” with sample values is on its way to ${to}.`),
    ),
    restore: intent(
      RestoreSchema,
      () => restoreDefault(actor, key, brandId),
      () =>
        done(
          'Default restored',
          brandId
            ? `This brand’s own wording of “${label}” was deleted: it uses the default again.`
            : `The default wording of “${label}” is back to the text Panorama ships with.`,
        ),
    ),
    'add-language': intent(
      AddLanguageSchema,
      ({ language: added }) => addLanguageVersion(actor, key, brandId, added),
      ({ language: added }) =>
        toastReply(templateHref(params.id, added))(
          `${languageInfo(added).name} version added`,
          `“${label}” now has a ${languageInfo(added).name} version: edit it below.`,
        ),
    ),
    'delete-language': intent(
      DeleteLanguageSchema,
      () => (language ? deleteLanguageVersion(actor, key, brandId, language) : unknownLanguage()),
      ({ language: deleted }) =>
        toastReply(templateHref(params.id, 'en'))(
          `${languageInfo(deleted).name} version deleted`,
          `Messages of “${label}” in ${languageInfo(deleted).name} fall back to the next version.`,
        ),
    ),
    // Only a brand's wording can be its own copy of the default.
    ...(brandId
      ? {
          override: intent(
            OverrideSchema,
            () => createOverride(actor, key, brandId),
            () =>
              done(
                'Own wording created',
                `This brand now has its own copy of “${label}”, starting from the default.`,
              ),
          ),
        }
      : {}),
  })
}

export default function EmailTemplatePage({ loaderData, actionData }: Route.ComponentProps) {
  const { editor, confirmRestore, confirmDelete } = loaderData
  const unknownErrors = actionData?.intent === 'unknown' ? formErrorsOf(actionData.result) : undefined
  const restoreResult = resultFor(actionData, 'restore')
  const deleteResult = resultFor(actionData, 'delete-language')
  const brand = editor.brand
  const english = editor.language === 'en'
  const languageName = languageInfo(editor.language).name
  const usesDefault = Boolean(brand && !editor.own)
  const canRestore = english && (brand ? !usesDefault : editor.defaultEdited)
  const listHref = brand ? `${LIST}?brand=${brand.id}` : LIST
  const here = templateHref(templateId(editor.key, brand?.id ?? null), editor.language)
  return (
    <section aria-labelledby="page-title" className="flex max-w-6xl flex-col gap-6">
      <div className="flex flex-col gap-2">
        <Link to={listHref} className="link self-start text-sm">
          ← All e-mails
        </Link>
        <PageHeader title={`${TEMPLATE_LABELS[editor.key]}${brand ? ` · ${brand.name}` : ' · default'}`}>
          {TEMPLATE_DESCRIPTIONS[editor.key]}{' '}
          {brand
            ? usesDefault
              ? english
                ? `${brand.name} uses the default wording: saving below gives it its own.`
                : `${brand.name} has no ${languageName} version of its own: saving below gives it one.`
              : `${possessive(brand.name)} own wording; brands without their own use the default.`
            : 'The default wording, used by every brand that has none of its own.'}
        </PageHeader>
      </div>
      <TemplateLanguages editor={editor} actionData={actionData} />
      <FormErrors errors={unknownErrors} />
      {!confirmRestore ? <FormErrors errors={formErrorsOf(restoreResult)} /> : null}
      {!confirmDelete ? <FormErrors errors={formErrorsOf(deleteResult)} /> : null}
      {confirmDelete ? (
        <ConfirmPanel
          id="delete-language"
          title={`Delete the ${languageName} version?`}
          intent="delete-language"
          fields={{ language: editor.language }}
          confirmLabel={`Yes, delete the ${languageName} version`}
          pendingLabel="Deleting…"
          cancelHref={here}
          lastResult={deleteResult}
          backLabel="Back to the template"
          blockedBy={null}
        >
          <p className="text-slate-800">
            {`Messages in ${languageName} then use the next version: ${brand ? `${possessive(brand.name)} version in its default language, its English one, then the default wording` : 'the default in the brand’s language, then English'}. This cannot be undone.`}
          </p>
        </ConfirmPanel>
      ) : null}
      {confirmRestore ? (
        <ConfirmPanel
          id="restore-default"
          title={brand ? `Delete ${possessive(brand.name)} own wording?` : 'Restore the shipped wording?'}
          intent="restore"
          fields={{}}
          confirmLabel={brand ? 'Yes, use the default' : 'Yes, restore it'}
          pendingLabel="Restoring…"
          cancelHref="."
          lastResult={restoreResult}
          backLabel="Back to the template"
          blockedBy={
            canRestore
              ? null
              : brand
                ? `${brand.name} already uses the default wording.`
                : 'The default already is the wording Panorama ships with.'
          }
        >
          <p className="text-slate-800">
            {brand
              ? `${possessive(brand.name)} subject, text and HTML for this e-mail are deleted and the default is used from the next message on. This cannot be undone.`
              : 'The default subject and text go back to the wording Panorama ships with, and the HTML body is removed. Brands with their own wording are not affected. This cannot be undone.'}
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
