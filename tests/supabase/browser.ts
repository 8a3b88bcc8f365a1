import type { AuthResult } from '#app/modules/account/types'

export const APP_URL = 'http://localhost:3000'

export interface ParsedCookie {
	name: string
	value: string
	attributes: Record<string, string | true>
}

/** One Set-Cookie header, as a browser reads it (attribute names lower-cased). */
export function parseSetCookie(header: string): ParsedCookie {
	const [pair = '', ...attrs] = header.split(';')
	const index = pair.indexOf('=')
	const attributes: Record<string, string | true> = {}
	for (const attr of attrs) {
		const [k = '', ...v] = attr.trim().split('=')
		if (k) attributes[k.toLowerCase()] = v.length > 0 ? v.join('=') : true
	}
	return { name: pair.slice(0, index).trim(), value: pair.slice(index + 1).trim(), attributes }
}

/**
 * A cookie jar standing in for the browser: keeps what Set-Cookie headers
 * set, drops what they expire, and sends the rest with each request to the
 * app.
 */
export class Browser {
	readonly cookies = new Map<string, string>()

	request(path: string, init: { method?: string; headers?: Record<string, string> } = {}): Request {
		const headers = new Headers(init.headers)
		if (this.cookies.size > 0) headers.set('cookie', [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '))
		return new Request(new URL(path, APP_URL), { method: init.method ?? 'POST', headers })
	}

	/** Apply a result's Set-Cookie headers; returns the result for chaining. */
	take<T extends { headers: Headers }>(result: T): T {
		for (const header of result.headers.getSetCookie()) {
			const cookie = parseSetCookie(header)
			const maxAge = cookie.attributes['max-age']
			if (maxAge === '0' || cookie.value === '') this.cookies.delete(cookie.name)
			else this.cookies.set(cookie.name, cookie.value)
		}
		return result
	}

	names(): string[] {
		return [...this.cookies.keys()].sort()
	}
}

export function expectOk<T>(result: AuthResult<T>): T {
	if (!result.ok) throw new Error(`expected ok, got ${JSON.stringify(result.error)}`)
	return result.data
}

export function expectError<T>(result: AuthResult<T>) {
	if (result.ok) throw new Error(`expected an error, got ok with ${JSON.stringify(result.data)}`)
	return result.error
}
