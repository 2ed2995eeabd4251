import { json, methodNotAllowed } from '#app/modules/api-key/api.server'
import { openApiDocument } from '#app/modules/api-key/openapi.server'

/** GET /api/v1/openapi.json (issue 21 §1, ADR 054): the API's OpenAPI 3.1 document, public. */
export function loader() {
  return json(openApiDocument())
}

export function action() {
  return methodNotAllowed('GET')
}
