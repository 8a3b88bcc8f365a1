/**
 * Reading a Cookie header (or `document.cookie`), one way for the whole app:
 * `name=value` pairs split at `;`, names and values trimmed, values as sent.
 * A part without `=` is a cookie without a name (as browsers read it, RFC
 * 6265bis); empty parts are skipped. Libraries that own their cookies
 * (Better Auth, remix-toast, @supabase/ssr) read theirs themselves.
 */
export function cookiePairs(header: string | null | undefined): Array<[name: string, value: string]> {
	const pairs: Array<[string, string]> = []
	for (const part of (header ?? '').split(';')) {
		const eq = part.indexOf('=')
		const name = eq === -1 ? '' : part.slice(0, eq).trim()
		const value = (eq === -1 ? part : part.slice(eq + 1)).trim()
		if (name !== '' || value !== '') pairs.push([name, value])
	}
	return pairs
}

/** The names of the cookies ('' for a cookie without one). */
export function cookieNames(header: string | null | undefined): string[] {
	return cookiePairs(header).map(([name]) => name)
}

/** The first cookie of that name, percent-decoded; null when there is none or its value does not decode. */
export function readCookie(header: string | null | undefined, name: string): string | null {
	const pair = cookiePairs(header).find(([n]) => n === name)
	if (!pair) return null
	try {
		return decodeURIComponent(pair[1])
	} catch {
		return null
	}
}
