import { redirect, type RouterContextProvider } from 'react-router'
import { servicesContext, viewerContext } from '#app/context.server'
import { DEFAULT_LOCALE, localeFromPath } from '#app/i18n/locales'
import { rememberReturnPath } from './return-path.server'

/**
 * The auth redirect (docs/product.md §3.6): a page that needs an account sends a
 * visitor to /{lang}/login and remembers where they were going, so signing
 * in brings them back.
 */
export function requireViewer(request: Request, context: Readonly<RouterContextProvider>) {
	const viewer = context.get(viewerContext)
	if (viewer) return viewer
	const url = new URL(request.url)
	const { env } = context.get(servicesContext)
	const lang = localeFromPath(url.pathname) ?? DEFAULT_LOCALE
	throw redirect(`/${lang}/login`, {
		headers: { 'set-cookie': rememberReturnPath(url.pathname + url.search, env.APP_URL.startsWith('https:')) },
	})
}
