import { data, type MiddlewareFunction } from 'react-router'
import { servicesContext } from '#app/context.server'

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

/**
 * Is this state-changing request from one of our own pages? Browsers send
 * `Origin` on every cross-site POST (and `Sec-Fetch-Site`), so a form on
 * another site is recognised and refused; clients that are not browsers
 * send neither and cannot carry a victim's cookies anyway.
 */
export function isSameOriginRequest(request: Request, allowedOrigins: readonly string[]): boolean {
	if (SAFE_METHODS.has(request.method)) return true
	const fetchSite = request.headers.get('sec-fetch-site')
	if (fetchSite && fetchSite !== 'same-origin' && fetchSite !== 'none') return false
	const origin = request.headers.get('origin')
	if (origin && origin !== 'null') return allowedOrigins.includes(origin)
	if (origin === 'null') return false
	const referer = request.headers.get('referer')
	if (referer) {
		try {
			return allowedOrigins.includes(new URL(referer).origin)
		} catch {
			return false
		}
	}
	return true
}

/** Refuses cross-site state changes with 403 before any action runs. */
export const sameOriginMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
	const { env } = context.get(servicesContext)
	const allowed = [new URL(env.APP_URL).origin, new URL(request.url).origin]
	if (!isSameOriginRequest(request, allowed)) {
		throw data({ kind: 'cross-site' }, { status: 403 })
	}
	return next()
}
