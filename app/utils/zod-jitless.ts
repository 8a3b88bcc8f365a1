import { config } from 'zod'

/**
 * Zod probes `new Function` to speed up parsing; the Content-Security-Policy
 * forbids eval (app/security/headers.server.ts), so in the browser the probe
 * would only report a violation. Imported first by the root route, so it
 * runs before any schema is built; parsing without it is fast enough for forms.
 */
config({ jitless: true })
