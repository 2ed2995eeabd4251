import { Form, Link } from 'react-router'
import { resultFor, usePendingIntent, type IntentReply } from '#app/components/form-kit'
import { FormErrors } from '#app/components/forms'
import type { PageData } from '#app/lib/page-data'
import { languageInfo } from '#app/modules/i18n/languages'
import { templateHref, templateId } from '../schemas'
import type { loadTemplatePage } from '../template-page.server'

type EditorData = PageData<typeof loadTemplatePage>['editor']

/**
 * The versions of one e-mail (ADR 053): a link to each language it has (the one being edited
 * marked), "Add a version" in a language offered that it lacks, and "Delete this version" for any
 * but English. One language is edited at a time.
 */
export function TemplateLanguages({ editor, actionData }: { editor: EditorData; actionData: IntentReply }) {
  const id = templateId(editor.key, editor.brand?.id ?? null)
  const adding = usePendingIntent('add-language')
  const added = resultFor(actionData, 'add-language')
  const shown = editor.languages.includes(editor.language)
    ? editor.languages
    : [...editor.languages, editor.language]
  return (
    <nav aria-labelledby="languages-title" className="card flex flex-col gap-3">
      <h2 id="languages-title" className="text-lg font-semibold">
        Languages
      </h2>
      <ul className="flex flex-wrap gap-2" data-testid="template-languages">
        {shown.map((code) => {
          const current = code === editor.language
          const has = editor.languages.includes(code)
          const label = `${languageInfo(code).nativeName}${has ? '' : ' (none yet)'}`
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
      <p className="text-sm text-slate-700">
        Each reader gets their own language; without a version in it, their brand’s default language, then
        English. You edit one language at a time.
      </p>
      <div className="flex flex-wrap items-end gap-4">
        {editor.addable.length ? (
          <Form method="post" className="flex flex-wrap items-end gap-2">
            <input type="hidden" name="intent" value="add-language" />
            <div className="flex flex-col gap-1">
              <label htmlFor="add-language" className="label">
                Add a version in
              </label>
              <select id="add-language" name="language" className="input" defaultValue={editor.addable[0]}>
                {editor.addable.map((code) => (
                  <option key={code} value={code}>
                    {languageInfo(code).name}
                  </option>
                ))}
              </select>
            </div>
            <button type="submit" className="btn btn-secondary" disabled={adding}>
              {adding ? 'Adding…' : 'Add version'}
            </button>
          </Form>
        ) : null}
        {editor.language !== 'en' && editor.own ? (
          <Link to={`${templateHref(id, editor.language)}&delete`} className="btn btn-secondary">
            Delete the {languageInfo(editor.language).name} version…
          </Link>
        ) : null}
      </div>
      <FormErrors errors={added?.error?.language ?? added?.error?.[''] ?? undefined} />
    </nav>
  )
}
