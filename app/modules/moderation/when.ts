import type { Locale } from '#app/i18n/locales'

/** A date (with its time, in UTC, when asked) in the page's language: UTC so the server's render and the browser's agree. */
export function formatWhen(lang: Locale, iso: string, withTime = true): string {
	const at = new Date(iso)
	if (!withTime) return new Intl.DateTimeFormat(lang, { dateStyle: 'long', timeZone: 'UTC' }).format(at)
	return `${new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }).format(at)} UTC`
}
