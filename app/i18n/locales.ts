// The product's languages (docs/product.md §1.2). Shared by server and client.
export const LOCALES = [
	{ code: 'en', name: 'English', language: 'en-US' },
	{ code: 'de', name: 'Deutsch', language: 'de-DE' },
	{ code: 'es', name: 'Español', language: 'es-ES' },
	{ code: 'tr', name: 'Türkçe', language: 'tr-TR' },
] as const

export type Locale = (typeof LOCALES)[number]['code']

export const LOCALE_CODES: readonly Locale[] = LOCALES.map((l) => l.code)
export const DEFAULT_LOCALE: Locale = 'en'

/** Name of the cookie that remembers the visitor's language (docs/product.md §1.2). */
export const LOCALE_COOKIE = 'i18n_redirected'
export const LOCALE_COOKIE_MAX_AGE = 365 * 24 * 60 * 60

export function isLocale(value: unknown): value is Locale {
	return typeof value === 'string' && (LOCALE_CODES as readonly string[]).includes(value)
}

/** Where the browser fetches a locale's messages (app/routes/i18n-messages.ts), `version` their hash (cache busting). */
export function messagesPath(locale: string, version: string): string {
	return `/_i18n/${locale}/messages.json?v=${encodeURIComponent(version)}`
}

/** The locale named by the first path segment, if it is one of ours. */
export function localeFromPath(pathname: string): Locale | null {
	const first = pathname.split('/')[1]
	return isLocale(first) ? first : null
}

/** The same path in another language: `/de/terms` -> `/tr/terms`, `/` -> `/tr`. */
export function switchLocalePath(pathname: string, to: Locale): string {
	const segments = pathname.split('/')
	if (isLocale(segments[1])) {
		segments[1] = to
		return segments.join('/') || `/${to}`
	}
	return pathname === '/' ? `/${to}` : `/${to}${pathname}`
}
