/** Where the browser sends analytics: our origin, forwarded to POSTHOG_HOST (relay.server.ts). */
export const ANALYTICS_RELAY_PATH = '/ingress'

/** Largest analytics request the relay forwards (a batch of events, gzip or JSON). */
export const RELAY_BODY_LIMIT = 256 * 1024
