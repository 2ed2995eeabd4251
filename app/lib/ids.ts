import { z } from 'zod'

const UUID = z.uuid()

/**
 * Is this a row id (a UUID)? The one check every module runs on an id from a URL or a form before
 * it reaches a query: anything else is "not found", never a database error.
 */
export function isUuid(value: unknown): value is string {
  return UUID.safeParse(value).success
}
