import type { SubmissionResult } from '@conform-to/react'
import { data } from 'react-router'

/**
 * The posted form, or an empty one when the body is not a form at all (JSON, a broken multipart):
 * the action then answers its usual 400 "fill in the fields" instead of a 500.
 */
export async function readFormData(request: Request): Promise<FormData> {
  try {
    return await request.formData()
  } catch {
    return new FormData()
  }
}

export const UNREADABLE_FORM_MESSAGE = 'This form could not be read. Reload the page and try again.'

/** The action's answer to a post it cannot read (no form body, no or an unknown intent): a 400. */
export function unreadableForm() {
  const result: SubmissionResult<string[]> = { status: 'error', error: { '': [UNREADABLE_FORM_MESSAGE] } }
  return data({ intent: 'unknown' as const, result }, { status: 400 })
}
