import { readCookie } from '#app/utils/cookies'
import {
	DEFAULT_LOCALE,
	LOCALE_COOKIE,
	LOCALE_COOKIE_MAX_AGE,
	isLocale,
	localeFromPath,
	type Locale,
} from './locales'

/**
 * Language tags from an Accept-Language header, best first (q-values
 * honoured, ties keep header order, q=0 dropped).
 */
export function parseAcceptLanguage(header: string | null): string[] {
	if (!header) return []
	return header
		.split(',')
		.map((part, index) => {
			const [tag = '', ...params] = part.trim().split(';')
			const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='))
			const quality = q ? Number(q.slice(2)) : 1
			return { tag: tag.trim(), quality: Number.isFinite(quality) ? quality : 0, index }
		})
		.filter((e) => /^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*$/.test(e.tag) && e.quality > 0)
		.sort((a, b) => b.quality - a.quality || a.index - b.index)
		.map((e) => e.tag)
}

function fromAcceptLanguage(header: string | null): Locale | null {
	for (const tag of parseAcceptLanguage(header)) {
		const primary = tag.toLowerCase().split('-')[0]
		if (isLocale(primary)) return primary
	}
	return null
}

/** The language the visitor chose last (the i18n_redirected cookie), if it names one. */
export function readLocaleCookie(request: Request): Locale | null {
	const value = readCookie(request.headers.get('cookie'), LOCALE_COOKIE)
	return isLocale(value) ? value : null
}

function fromDomain(request: Request, domains: Record<string, Locale>): Locale | null {
	const host = new URL(request.url).hostname.toLowerCase()
	return domains[host] ?? null
}

/**
 * The visitor's preferred language where the URL does not name one, in the
 * order of docs/product.md §1.2: the `i18n_redirected` cookie, the browser's languages, the
 * domain (operator's LOCALE_DOMAINS map), the route prefix, then English.
 */
export function detectLocale(request: Request, domains: Record<string, Locale> = {}): Locale {
	return (
		readLocaleCookie(request) ??
		fromAcceptLanguage(request.headers.get('accept-language')) ??
		fromDomain(request, domains) ??
		localeFromPath(new URL(request.url).pathname) ??
		DEFAULT_LOCALE
	)
}

/**
 * The language a page is rendered in: the URL's prefix when it has one (a
 * shared link to /tr/terms is Turkish for everyone), else the detected one.
 * See docs/decisions/004-locale-detection.md.
 */
export function pageLocale(request: Request, domains: Record<string, Locale> = {}): Locale {
	return localeFromPath(new URL(request.url).pathname) ?? detectLocale(request, domains)
}

export function localeCookieHeader(locale: Locale, secure: boolean): string {
	return [
		`${LOCALE_COOKIE}=${locale}`,
		'Path=/',
		`Max-Age=${LOCALE_COOKIE_MAX_AGE}`,
		'SameSite=Lax',
		...(secure ? ['Secure'] : []),
	].join('; ')
}
