import { DEFAULT_LOCALE, localeFromPath } from '#app/i18n/locales'
import { readCookie } from '#app/utils/cookies'
import { safeRedirectPath } from '#app/utils/redirect'

/** Where the auth redirect remembers the page a visitor wanted (docs/product.md §3.6). */
export const RETURN_PATH_COOKIE = 'auth_return_to'

export function rememberReturnPath(path: string, secure: boolean): string {
	return [
		`${RETURN_PATH_COOKIE}=${encodeURIComponent(safeRedirectPath(path, '/'))}`,
		'Path=/',
		'Max-Age=1800',
		'HttpOnly',
		'SameSite=Lax',
		...(secure ? ['Secure'] : []),
	].join('; ')
}

export function clearReturnPath(): string {
	return `${RETURN_PATH_COOKIE}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax`
}

/**
 * The page to continue on after signing in: an explicit `redirectTo` (query
 * or form field), else the remembered one, else the home of the page's
 * language. Always a same-origin path.
 */
export function returnPath(request: Request, explicit?: string | null): string {
	const url = new URL(request.url)
	const home = `/${localeFromPath(url.pathname) ?? DEFAULT_LOCALE}`
	// An empty field (the page had no redirectTo) means "not given".
	const candidate = explicit || url.searchParams.get('redirectTo') || readCookie(request.headers.get('cookie'), RETURN_PATH_COOKIE)
	return safeRedirectPath(candidate, home)
}
