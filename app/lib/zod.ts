import * as z from 'zod/mini'

/**
 * The Zod the form schemas are written in: Zod Mini (`import * as z from '#app/lib/zod'`). The
 * schemas in the modules' `schemas.ts` files run in the browser (Conform's checks as you type) and
 * on the server (the action's `parseForm`), and both run the same rules with the same Zod core.
 * Mini differs from classic Zod only in its API: functions (`z.optional(s)`, `s.check(z.maxLength(n))`)
 * instead of methods, which lets the bundler keep only the parts a page uses; classic Zod's methods
 * tie every schema type to every page that has a form (≈ 25 kB gzip). Server-only code keeps using
 * classic `zod`.
 *
 * In the browser, Zod's JIT for object schemas is off. To find out whether it may compile code, Zod
 * tries `new Function('')` when an object schema is created; the pages' Content-Security-Policy has
 * no 'unsafe-eval', so the browser reports a CSP violation on every page with a form, although Zod
 * catches the error. The JIT only pays when thousands of objects are parsed, which a form never does.
 * This module is evaluated before any schema module's body (each imports it), so the flag is set
 * before the first object schema exists.
 */
if (typeof document !== 'undefined') z.config({ jitless: true })

export * from 'zod/mini'
