import { parseTemplateId } from './schemas'
import { getTemplateEditor } from './template-editing.server'

/**
 * Everything an e-mail template's page shows (ADR 033): the editor's wording, brand and sample
 * values for the id `<key>` or `<key>.<brandId>`, and whether the restore confirmation is open.
 * Null for an unknown key, a malformed id or an unknown brand.
 */
export async function loadTemplatePage(id: string, searchParams: URLSearchParams) {
  const target = parseTemplateId(id)
  const editor = target && (await getTemplateEditor(target.key, target.brandId))
  if (!editor) return null
  return { editor, confirmRestore: searchParams.has('restore') }
}
