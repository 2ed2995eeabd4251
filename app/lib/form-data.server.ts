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
