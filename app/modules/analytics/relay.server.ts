import type { IncomingMessage } from 'node:http'
import express from 'express'
import type { Env } from '#app/env.server'
import { limitedBody, refuseTooLarge } from '#app/security/body-limit.server'
import { isSameOriginRequest } from '#app/utils/same-origin.server'
import { ANALYTICS_ENTRY_ID, consentEntries, parseConsentCookies } from '#app/modules/consent/entries'
import { ANALYTICS_RELAY_PATH, RELAY_BODY_LIMIT } from './config'

/**
 * The same-origin relay PostHog sends to (ADR 026): a reverse proxy to
 * POSTHOG_HOST for the capture paths only. The browser never talks to
 * PostHog, and PostHog sees our server, not the visitor:
 * - only POST to the ingestion paths (events, batches, person updates);
 *   everything else, flags and remote config included, is 404;
 * - only from our own pages (Origin / Sec-Fetch-Site), and only while the
 *   request's consent cookies allow analytics (403 otherwise);
 * - at most RELAY_BODY_LIMIT bytes (413 beyond, chunked or not);
 * - forwarded with content type and encoding only: no cookies, no client
 *   address (no X-Forwarded-For), no user agent, no referrer; the upstream's
 *   answer comes back without its cookies.
 */
export const RELAY_UPSTREAM_PATHS: readonly RegExp[] = [/^\/e\/?$/, /^\/i\/v0\/e\/?$/, /^\/batch\/?$/, /^\/capture\/?$/, /^\/engage\/?$/]

const FORWARDED_REQUEST_HEADERS = ['content-type', 'content-encoding'] as const
const RETURNED_RESPONSE_HEADERS = ['content-type'] as const
const UPSTREAM_TIMEOUT_MS = 10_000

type RelayEnv = Pick<Env, 'POSTHOG_KEY' | 'POSTHOG_HOST' | 'APP_URL'>

export function analyticsRelay(env: RelayEnv, fetchUpstream: typeof fetch = fetch): express.Router {
	const router = express.Router()
	const entries = consentEntries({ analytics: Boolean(env.POSTHOG_KEY) })
	const appOrigin = new URL(env.APP_URL).origin
	router.all(`${ANALYTICS_RELAY_PATH}/{*path}`, async (req, res) => {
		res.set('cache-control', 'no-store')
		const path = req.path.slice(ANALYTICS_RELAY_PATH.length)
		if (!env.POSTHOG_KEY || !RELAY_UPSTREAM_PATHS.some((p) => p.test(path))) {
			res.status(404).type('text/plain').end('Not found')
			return
		}
		if (req.method !== 'POST') {
			res.status(405).set('allow', 'POST').type('text/plain').end('Method not allowed')
			return
		}
		const headers = new Headers()
		for (const [key, value] of Object.entries(req.headers)) if (typeof value === 'string') headers.set(key, value)
		const origin = `${req.protocol}://${req.headers.host}`
		if (!isSameOriginRequest(new Request(new URL(req.originalUrl, origin), { method: 'POST', headers }), [appOrigin, origin])) {
			res.status(403).type('text/plain').end('Forbidden')
			return
		}
		const consent = parseConsentCookies(req.headers.cookie, entries)
		if (!consent.enabled.includes(ANALYTICS_ENTRY_ID)) {
			res.status(403).type('text/plain').end('Analytics not allowed')
			return
		}
		let body: Uint8Array
		try {
			body = await readLimited(req, res)
		} catch {
			return // 413 sent, or the client left.
		}
		const upstream = new URL(path, env.POSTHOG_HOST)
		upstream.search = new URL(req.originalUrl, origin).search
		const forward = new Headers()
		for (const name of FORWARDED_REQUEST_HEADERS) {
			const value = req.headers[name]
			if (typeof value === 'string') forward.set(name, value)
		}
		try {
			const answer = await fetchUpstream(upstream, {
				method: 'POST',
				headers: forward,
				body: body as BodyInit,
				redirect: 'error',
				signal: AbortSignal.timeout(UPSTREAM_TIMEOUT_MS),
			})
			const text = Buffer.from(await answer.arrayBuffer())
			res.status(answer.status)
			for (const name of RETURNED_RESPONSE_HEADERS) {
				const value = answer.headers.get(name)
				if (value) res.set(name, value)
			}
			res.end(text)
		} catch {
			if (!res.headersSent) res.status(502).type('text/plain').end('Bad gateway')
		}
	})
	return router
}

async function readLimited(req: IncomingMessage, res: express.Response): Promise<Uint8Array> {
	const { body } = limitedBody(req, RELAY_BODY_LIMIT, () => refuseTooLarge(req, res))
	return new Uint8Array(await new Response(body).arrayBuffer())
}
