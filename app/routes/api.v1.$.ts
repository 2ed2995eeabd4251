import { problem } from '#app/modules/api-key/api.server'

/** Any other path under /api/v1 (issue 21 §1): a 404 problem, never the HTML not-found page. */
const answer = () => problem('not-found', 'There is no such endpoint. See /api/v1/openapi.json.')

export const loader = answer
export const action = answer
