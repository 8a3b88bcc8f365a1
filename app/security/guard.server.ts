import type { NextFunction, Request, Response } from 'express'
import type { Env } from '#app/env.server'
import { bodyLimitFor, exceedsDeclaredLength, refuseTooLarge } from './body-limit.server'
import { createNonce, securityHeaders } from './headers.server'
import { allowedHosts, isAllowedHost, isLocalRequest } from './hosts.server'

/**
 * Answered for any Host (see isAllowedHost): load balancers' and the Docker
 * healthcheck's probes, and Prometheus's scrape (which /metrics guards itself).
 */
export const ANY_HOST_PATHS = new Set(['/healthz', '/readyz', '/metrics'])

/** The development mailbox (page and its data request): loopback clients only. */
const MAILBOX_PATH = /^\/dev\/mailbox(\.data)?\/?$/i

function plain(res: Response, status: number, text: string): void {
	res.status(status).set({ 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' }).end(text)
}

/**
 * The first middleware of the Node server, before static files and routing:
 * refuses what no page should ever see, and gives every answer its security
 * headers and the request's CSP nonce (`res.locals.nonce`).
 *
 * - a request-target that is not a path (`GET http://evil.example/`,
 *   `OPTIONS *`): 400;
 * - a Host the app does not serve (DNS rebinding, poisoned absolute links):
 *   421. `/healthz` and `/readyz` answer for any Host: a Docker healthcheck sends
 *   `127.0.0.1:PORT`, a load balancer or Kubernetes probe the instance's own
 *   address, and the answer carries nothing but `{ ok }`;
 * - a path with a NUL byte or broken percent-encoding: 404; such a query: 400
 *   (no route has a use for them, and Postgres refuses NUL in text);
 * - a body announced larger than the limit: 413 before reading it;
 * - the development mailbox from a non-loopback peer, or through a proxy
 *   (a forwarding header is present): 404, whatever Host or X-Forwarded-For say.
 */
export function createGuard(env: Env) {
	const hosts = allowedHosts(env)
	return function guard(req: Request, res: Response, next: NextFunction): void {
		const nonce = createNonce()
		res.locals.nonce = nonce
		res.set(securityHeaders(env, nonce))

		if (!req.url.startsWith('/')) return plain(res, 400, '400 Bad Request')
		const queryAt = req.url.indexOf('?')
		const rawPath = queryAt === -1 ? req.url : req.url.slice(0, queryAt)
		const rawQuery = queryAt === -1 ? '' : req.url.slice(queryAt + 1)

		if (!ANY_HOST_PATHS.has(rawPath) && !isAllowedHost(req.headers.host, hosts)) {
			return plain(res, 421, '421 Misdirected Request: this server does not serve that host')
		}

		let path: string
		try {
			path = decodeURIComponent(rawPath)
		} catch {
			return plain(res, 404, '404 Not Found')
		}
		if (path.includes('\0')) return plain(res, 404, '404 Not Found')
		if (/%00/i.test(rawQuery) || rawQuery.includes('\0')) return plain(res, 400, '400 Bad Request')
		try {
			decodeURIComponent(rawQuery.replace(/\+/g, ' '))
		} catch {
			return plain(res, 400, '400 Bad Request')
		}

		if (req.method !== 'GET' && req.method !== 'HEAD' && exceedsDeclaredLength(req, bodyLimitFor(path, env.MAX_BODY_BYTES))) {
			return refuseTooLarge(req, res)
		}

		if (MAILBOX_PATH.test(path) && !isLocalRequest(req.socket.remoteAddress, { get: (name) => req.get(name) ?? null })) {
			return plain(res, 404, '404 Not Found')
		}
		next()
	}
}
