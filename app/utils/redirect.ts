/**
 * A same-origin path to send the visitor to, or the fallback: never an
 * absolute URL, a protocol-relative `//host` or a backslash trick, so a
 * crafted link cannot turn the app into an open redirect.
 */
export function safeRedirectPath(to: unknown, fallback: string): string {
	if (typeof to !== 'string' || to.length === 0 || to.length > 2048) return fallback
	if (!to.startsWith('/') || to.startsWith('//') || to.startsWith('/\\')) return fallback
	// eslint-disable-next-line no-control-regex
	if (/[\u0000-\u001f\\]/.test(to)) return fallback
	try {
		const url = new URL(to, 'http://same-origin.invalid')
		if (url.origin !== 'http://same-origin.invalid') return fallback
		return url.pathname + url.search + url.hash
	} catch {
		return fallback
	}
}
