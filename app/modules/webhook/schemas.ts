import { WEBHOOK_EVENTS, type WebhookEvent } from '#db/enums'
import { optionalText } from '#app/lib/schema-parts'
import * as z from '#app/lib/zod'

/**
 * The webhooks pages' forms (issue 21 §2, ADR 057), in Zod Mini (app/lib/zod.ts): shared by Conform
 * in the browser and the actions on the server. No server-only imports: this file reaches the
 * client. The address checks that need a lookup (destination.server.ts) answer field messages too.
 */

export const WEBHOOK_URL_MAX = 2000
export const WEBHOOK_DESCRIPTION_MAX = 200

export const WEBHOOK_MESSAGES = {
  urlRequired:
    'Enter the address that receives the events, for example https://hr.example.com/panorama-events.',
  urlTooLong: `The address must be ${WEBHOOK_URL_MAX} characters or fewer.`,
  urlInvalid: 'Enter a full web address that starts with https://.',
  urlCredentials:
    'Leave the user name and password out of the address: the signature tells the receiver the request is ours.',
  urlFragment: 'Leave out the part after “#”: it is never sent to the receiver.',
  httpsRequired:
    'Use https://. Plain http:// is accepted only for receivers that the server’s WEBHOOK_ALLOWED_HOSTS lists.',
  hostUnknown:
    'This server cannot find that host. Check the address; an intranet host must resolve from the server.',
  privateAddress:
    'That address is on a private, loopback or link-local network, which webhooks may not reach. If the receiver is on your intranet, ask whoever runs Panorama to add it to WEBHOOK_ALLOWED_HOSTS.',
  descriptionTooLong: `The description must be ${WEBHOOK_DESCRIPTION_MAX} characters or fewer.`,
  eventsRequired: 'Tick at least one event.',
  eventUnknown: 'An event could not be identified. Reload the page and try again.',
  company: 'Choose one of the companies offered, or all companies.',
  companyGone: 'That company no longer exists. Choose another one.',
  gone: 'This webhook endpoint no longer exists.',
  deliveryGone: 'This delivery no longer exists.',
  deliveryBusy: 'This delivery is being sent right now. Wait a moment, then try again.',
} as const

const isEvent = (v: string): v is WebhookEvent => (WEBHOOK_EVENTS as readonly string[]).includes(v)

// Checkboxes: the events ticked (none ticked arrives missing), checked as a whole.
const events = z.pipe(
  z.pipe(
    z.pipe(
      z.optional(z.array(z.string())),
      z.transform((v: string[] | undefined) => [...new Set(v ?? [])]),
    ),
    z.array(z.string()).check(
      z.minLength(1, WEBHOOK_MESSAGES.eventsRequired),
      z.maxLength(WEBHOOK_EVENTS.length, WEBHOOK_MESSAGES.eventUnknown),
      z.refine((v) => v.every(isEvent), WEBHOOK_MESSAGES.eventUnknown),
    ),
  ),
  z.transform((v: string[]) => WEBHOOK_EVENTS.filter((e) => v.includes(e))),
)

const url = z.string({ error: WEBHOOK_MESSAGES.urlRequired }).check(
  z.trim(),
  z.minLength(1, WEBHOOK_MESSAGES.urlRequired),
  z.maxLength(WEBHOOK_URL_MAX, WEBHOOK_MESSAGES.urlTooLong),
  z.refine((v) => /^https?:\/\/[^\s]+$/i.test(v), WEBHOOK_MESSAGES.urlInvalid),
)

const companyId = z.pipe(
  z.optional(z.uuid({ error: WEBHOOK_MESSAGES.company })),
  z.transform((v: string | undefined) => v?.toLowerCase() ?? null),
)

const description = z.pipe(
  optionalText(WEBHOOK_MESSAGES.descriptionTooLong, WEBHOOK_DESCRIPTION_MAX),
  z.transform((v: string | null) => v ?? ''),
)

export const WebhookCreateSchema = z.object({
  intent: z.literal('create'),
  url,
  description,
  events,
  companyId,
})

export const WebhookUpdateSchema = z.object({
  intent: z.literal('update'),
  url,
  description,
  events,
  companyId,
  // A checkbox: "on" when ticked, missing when not.
  enabled: z.pipe(
    z.optional(z.string()),
    z.transform((v: string | undefined) => v === 'on'),
  ),
})

const endpointId = z.uuid({ error: WEBHOOK_MESSAGES.gone })

export const WebhookRotateSchema = z.object({ intent: z.literal('rotate'), id: endpointId })
export const WebhookDeleteSchema = z.object({ intent: z.literal('delete'), id: endpointId })
export const WebhookRedeliverSchema = z.object({
  intent: z.literal('redeliver'),
  deliveryId: z.uuid({ error: WEBHOOK_MESSAGES.deliveryGone }),
})

export type WebhookInput = {
  url: string
  description: string
  events: WebhookEvent[]
  companyId: string | null
}
