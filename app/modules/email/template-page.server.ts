import { parseTemplateId } from './schemas'
import { editorLanguage, getTemplateEditor } from './template-editing.server'

/**
 * Everything an e-mail template's page shows (ADR 033): the editor's wording, brand and sample
 * values for the id `<key>` or `<key>.<brandId>` in the language of `?language=` (English when
 * absent, ADR 053), and whether the restore or delete confirmation is open. Null for an unknown key,
 * a malformed id, an unknown brand or an unknown language.
 */
export async function loadTemplatePage(id: string, searchParams: URLSearchParams) {
  const target = parseTemplateId(id)
  const language = editorLanguage(searchParams.get('language'))
  const editor = target && language && (await getTemplateEditor(target.key, target.brandId, language))
  if (!editor) return null
  return {
    editor,
    confirmRestore: searchParams.has('restore'),
    confirmDelete: searchParams.has('delete') && editor.language !== 'en' && editor.own !== null,
  }
}
