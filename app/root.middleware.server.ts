import type { MiddlewareFunction } from 'react-router'
import { servicesContext, viewerContext } from '#app/context.server'
import { localeCookieHeader, readLocaleCookie } from '#app/i18n/detect.server'
import { localeFromPath } from '#app/i18n/locales'

/**
 * Resolves the viewer once per request and puts the auth adapter's cookies
 * on the response, whatever the route answered (an error included), so a
 * refreshed session is never dropped.
 */
export const viewerMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
	const { platform } = context.get(servicesContext)
	const { viewer, headers } = await platform.auth.getViewer(request)
	context.set(viewerContext, viewer)
	const response = await next()
	headers.forEach((value, key) => {
		if (key.toLowerCase() === 'set-cookie') response.headers.append(key, value)
	})
	return response
}

/**
 * Keeps the `i18n_redirected` cookie on the language the visitor last read a
 * page in, so `/` sends them back to it (docs/decisions/004-locale-detection.md).
 */
export const localeCookieMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
	const response = await next()
	const prefixed = localeFromPath(new URL(request.url).pathname)
	if (prefixed && prefixed !== readLocaleCookie(request) && response.status < 400) {
		const { env } = context.get(servicesContext)
		response.headers.append('set-cookie', localeCookieHeader(prefixed, env.APP_URL.startsWith('https:')))
	}
	return response
}
