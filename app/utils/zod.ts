import { config, z } from 'zod'

/**
 * Zod for the schemas the browser runs too (Conform validates forms with
 * them). Zod probes `new Function` to speed up parsing; the
 * Content-Security-Policy forbids eval (app/security/headers.server.ts), so
 * in the browser the probe would only report a violation. Turned off here,
 * before any schema is built. Schemas import `z` from this module, not from
 * 'zod', so Zod is loaded with the forms that use it and is no part of a
 * page's first load otherwise (issue 11's JavaScript budget).
 */
config({ jitless: true })

export { z }
