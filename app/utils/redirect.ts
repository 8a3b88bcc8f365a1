const SAME_ORIGIN = 'http://same-origin.invalid'

/**
 * A same-origin path to send the visitor to, or the fallback: never an
 * absolute URL, a protocol-relative `//host` or a backslash trick, so a
 * crafted link cannot turn the app into an open redirect.
 *
 * The value is normalised first, exactly as a browser would resolve it
 * (dot segments removed, tabs and newlines dropped, backslashes read as
 * slashes), and the result is checked: `/.//evil.example` and
 * `/en/..//evil.example` resolve to the path `//evil.example`, which a
 * browser reads as another host. Anything whose normalised form is not a
 * single-slash path on this origin is refused, as is any control character
 * or backslash in the input, and an encoded slash, backslash or control
 * character in its path (the query may carry encoded paths).
 */
export function safeRedirectPath(to: unknown, fallback: string): string {
	if (typeof to !== 'string' || to.length === 0 || to.length > 2048) return fallback
	if (!to.startsWith('/')) return fallback
	// Control characters (browsers silently drop tab/CR/LF, which hides a
	// second slash), backslashes (browsers read them as slashes) and their
	// percent-encoded forms have no place in a path this app links to.
	// eslint-disable-next-line no-control-regex
	if (/[\u0000-\u001f\u007f\\]/.test(to)) return fallback
	const rawPath = to.split(/[?#]/, 1)[0]!
	if (/%(0[0-9a-f]|1[0-9a-f]|7f|5c|2f)/i.test(rawPath)) return fallback
	let url: URL
	try {
		url = new URL(to, SAME_ORIGIN)
	} catch {
		return fallback
	}
	if (url.origin !== SAME_ORIGIN) return fallback
	const result = url.pathname + url.search + url.hash
	// After normalisation: still one leading slash (not `//host` or `/\host`).
	if (!result.startsWith('/') || result.startsWith('//') || result.startsWith('/\\')) return fallback
	// Encoded dot segments (`%2e%2e`) are not removed by URL parsing but a
	// server in front may decode them; refuse rather than guess.
	if (/(^|\/)(%2e|\.){1,2}(\/|$)/i.test(url.pathname)) return fallback
	// What the Location header will carry must resolve back to itself.
	const again = new URL(result, SAME_ORIGIN)
	if (again.origin !== SAME_ORIGIN || again.pathname + again.search + again.hash !== result) return fallback
	return result
}
