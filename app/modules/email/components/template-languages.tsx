import { Form, Link } from 'react-router'
import { resultFor, usePendingIntent, type IntentReply } from '#app/components/form-kit'
import { FormErrors } from '#app/components/forms'
import type { PageData } from '#app/lib/page-data'
import { languageInfo } from '#app/modules/i18n/languages'
import { useEmailWords } from './use-email-words'
import { templateHref, templateId } from '../schemas'
import type { loadTemplatePage } from '../template-page.server'

type EditorData = PageData<typeof loadTemplatePage>['editor']

/**
 * The versions of one e-mail (ADR 053): a link to each language it has (the one being edited
 * marked), "Add a version" in a language offered that it lacks, and "Delete this version" for any
 * but English. One language is edited at a time.
 */
export function TemplateLanguages({ editor, actionData }: { editor: EditorData; actionData: IntentReply }) {
  const { t, languageName } = useEmailWords()
  const id = templateId(editor.key, editor.brand?.id ?? null)
  const adding = usePendingIntent('add-language')
  const added = resultFor(actionData, 'add-language')
  const shown = editor.languages.includes(editor.language)
    ? editor.languages
    : [...editor.languages, editor.language]
  return (
    <nav aria-labelledby="languages-title" className="card flex flex-col gap-3">
      <h2 id="languages-title" className="text-lg font-semibold">
        {t('editor.languages')}
      </h2>
      <ul className="flex flex-wrap gap-2" data-testid="template-languages">
        {shown.map((code) => {
          const current = code === editor.language
          const has = editor.languages.includes(code)
          const label = has
            ? languageInfo(code).nativeName
            : t('editor.noneYet', { language: languageInfo(code).nativeName })
          return (
            <li key={code}>
              {current ? (
                <span aria-current="page" className="btn btn-primary">
                  {label}
                </span>
              ) : (
                <Link to={templateHref(id, code)} className="btn btn-secondary" lang={code}>
                  {label}
                </Link>
              )}
            </li>
          )
        })}
      </ul>
      <p className="text-sm text-slate-700">{t('editor.languagesHelp')}</p>
      <div className="flex flex-wrap items-end gap-4">
        {editor.addable.length ? (
          <Form method="post" className="flex flex-wrap items-end gap-2">
            <input type="hidden" name="intent" value="add-language" />
            <div className="flex flex-col gap-1">
              <label htmlFor="add-language" className="label">
                {t('editor.addIn')}
              </label>
              <select id="add-language" name="language" className="input" defaultValue={editor.addable[0]}>
                {editor.addable.map((code) => (
                  <option key={code} value={code}>
                    {languageName(code)}
                  </option>
                ))}
              </select>
            </div>
            <button type="submit" className="btn btn-secondary" disabled={adding}>
              {adding ? t('editor.adding') : t('editor.add')}
            </button>
          </Form>
        ) : null}
        {editor.language !== 'en' && editor.own ? (
          <Link to={`${templateHref(id, editor.language)}&delete`} className="btn btn-secondary">
            {t('editor.deleteVersion', { language: languageName(editor.language) })}
          </Link>
        ) : null}
      </div>
      <FormErrors errors={added?.error?.language ?? added?.error?.[''] ?? undefined} />
    </nav>
  )
}
