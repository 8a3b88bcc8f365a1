import { createServerClient, parseCookieHeader, serializeCookieHeader, type CookieOptions } from '@supabase/ssr'
import { createClient, type SupabaseClient } from '@supabase/supabase-js'
import { WebSocket } from 'ws'

/**
 * Cookie settings of docs/product.md §15.6: 400 days, path /, SameSite lax,
 * HttpOnly (the browser never reads the session; the server resolves the
 * viewer and hands the realtime client what it needs).
 *
 * @supabase/ssr 0.12 applies `maxAge` 400 days to every auth cookie whatever
 * is passed here (it overrides maxAge with its own default, which is the
 * product's value), and splits a value longer than 3180 URI-encoded characters
 * into `name.0`, `name.1`, ... (MAX_CHUNK_SIZE in its chunker; not
 * configurable, and exactly the 3,180 of §15.6). The tests check both
 * on the Set-Cookie headers, so an upgrade that changes either shows.
 */
export const SUPABASE_COOKIE_OPTIONS = {
	path: '/',
	sameSite: 'lax',
	maxAge: 400 * 24 * 60 * 60,
	httpOnly: true,
} as const satisfies CookieOptions

/** The chunk size docs/product.md §15.6 names and @supabase/ssr uses. */
export const SUPABASE_COOKIE_CHUNK_SIZE = 3180

export interface SupabaseConnection {
	url: string
	anonKey: string
	/** Secure cookies: on when the app is served over https. */
	secureCookies: boolean
	/** The fetch every client uses (retryingFetch). */
	fetch?: typeof fetch
}

/** Gateway answers that mean Supabase did not (or could not) handle the request. */
const RETRY_STATUSES = new Set([502, 503, 504])
/** Methods that may run twice with the same effect. */
const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT'])
/** Failures before anything was sent: safe to retry whatever the method. */
const NOT_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN'])

/**
 * fetch with the retries for calls to Supabase (docs/product.md §15.3:
 * failed fetches retry up to 3 times), backing off exponentially from
 * `baseDelayMs` (200 ms, as auth-js's own token refresh). Only what cannot
 * do harm twice is retried: a request that never left (connection refused,
 * no such host) whatever its method; reads and PUTs also after a network
 * failure or a 502/503/504. A sign-up or a mail that may have gone out is
 * never sent again.
 */
export function retryingFetch({ retries = 3, baseDelayMs = 200 }: { retries?: number; baseDelayMs?: number } = {}): typeof fetch {
	return async (input, init) => {
		const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase()
		const idempotent = IDEMPOTENT.has(method)
		for (let attempt = 0; ; attempt++) {
			try {
				const response = await fetch(input, init)
				if (!idempotent || attempt >= retries || !RETRY_STATUSES.has(response.status)) return response
				await response.body?.cancel()
			} catch (error) {
				if (attempt >= retries || !(idempotent ? isNetworkError(error) : neverSent(error))) throw error
			}
			await new Promise((resolve) => setTimeout(resolve, baseDelayMs * 2 ** attempt))
		}
	}
}

function errorCodes(error: unknown): string[] {
	const codes: string[] = []
	for (let e: unknown = error, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
		const code = (e as { code?: unknown }).code
		if (typeof code === 'string') codes.push(code)
	}
	return codes
}

/** undici's "fetch failed" (a TypeError whose cause is the socket's error). */
function isNetworkError(error: unknown): boolean {
	return error instanceof TypeError && errorCodes(error).length > 0
}

function neverSent(error: unknown): boolean {
	return errorCodes(error).some((code) => NOT_SENT.has(code))
}

export function supabaseCookieOptions(secure: boolean): CookieOptions {
	return { ...SUPABASE_COOKIE_OPTIONS, secure }
}

/** The name auth-js stores the session under (`sb-<first label of the host>-auth-token`), chunks append `.0`, `.1`... */
export function authStorageKey(url: string): string {
	return `sb-${new URL(url).hostname.split('.')[0]}-auth-token`
}

/**
 * A Supabase client for one request: reads the request's cookies, and writes
 * every cookie it sets (session, refreshed session, PKCE code verifier) and
 * the no-store headers @supabase/ssr asks for onto `headers`, which the
 * caller puts on the response whatever the outcome.
 *
 * Node 20 has no global WebSocket, which supabase-js's realtime client wants
 * at construction: `ws` stands in (the app runs on Node.js 20: README).
 */
export function createSupabaseServerClient(
	connection: SupabaseConnection,
	request: Request,
	headers: Headers,
	extraRequestHeaders?: Record<string, string>,
): SupabaseClient {
	return createServerClient(connection.url, connection.anonKey, {
		global: { ...(extraRequestHeaders ? { headers: extraRequestHeaders } : {}), ...(connection.fetch ? { fetch: connection.fetch } : {}) },
		cookieOptions: supabaseCookieOptions(connection.secureCookies),
		cookies: {
			getAll: () =>
				parseCookieHeader(request.headers.get('cookie') ?? '').map(({ name, value }) => ({ name, value: value ?? '' })),
			setAll: (cookies, cacheHeaders) => {
				for (const { name, value, options } of cookies) headers.append('set-cookie', serializeCookieHeader(name, value, options))
				for (const [key, value] of Object.entries(cacheHeaders ?? {})) headers.set(key, value)
			},
		},
		realtime: { transport: WebSocket as never },
	})
}

/**
 * A client with no session of its own, for calls that must not touch the
 * request's cookies: the service-role admin API, and password checks that
 * sign in on the side.
 */
export function createDetachedClient(url: string, key: string, fetchImpl?: typeof fetch): SupabaseClient {
	return createClient(url, key, {
		...(fetchImpl ? { global: { fetch: fetchImpl } } : {}),
		auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
		realtime: { transport: WebSocket as never },
	})
}

/** Whether the request carries a Supabase session cookie (whole or chunked). */
export function hasSessionCookie(request: Request, storageKey: string): boolean {
	return sessionCookieNames(request, storageKey).length > 0
}

function sessionCookieNames(request: Request, storageKey: string): string[] {
	const chunk = sessionCookiePattern(storageKey)
	return parseCookieHeader(request.headers.get('cookie') ?? '')
		.map(({ name }) => name)
		.filter((name) => chunk.test(name))
}

/**
 * Expire this browser's session cookies (every chunk it sent, and any this
 * response was about to set), for when the session is gone on the server
 * side (signed out everywhere, account deleted) or a sign-out could not reach
 * Supabase: the browser is signed out either way.
 */
export function expireSessionCookies(request: Request, storageKey: string, headers: Headers, secure: boolean): void {
	const chunk = sessionCookiePattern(storageKey)
	const setCookies = headers.getSetCookie()
	const kept = setCookies.filter((c) => !chunk.test(c.slice(0, c.indexOf('='))))
	const names = new Set([...sessionCookieNames(request, storageKey), ...setCookies.map((c) => c.slice(0, c.indexOf('='))).filter((n) => chunk.test(n))])
	headers.delete('set-cookie')
	for (const cookie of kept) headers.append('set-cookie', cookie)
	for (const name of names) headers.append('set-cookie', serializeCookieHeader(name, '', { ...supabaseCookieOptions(secure), maxAge: 0 }))
}

function sessionCookiePattern(storageKey: string): RegExp {
	return new RegExp(`^${escapeRegExp(storageKey)}(\\.\\d+)?$`)
}

function escapeRegExp(text: string): string {
	return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}
