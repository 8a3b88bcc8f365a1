import {
	AuthApiError,
	AuthInvalidJwtError,
	AuthPKCECodeVerifierMissingError,
	AuthRetryableFetchError,
	AuthSessionMissingError,
	AuthUnknownError,
	AuthWeakPasswordError,
} from '@supabase/supabase-js'
import { describe, expect, test } from 'vitest'
import {
	SUPABASE_COOKIE_CHUNK_SIZE,
	SUPABASE_COOKIE_OPTIONS,
	authStorageKey,
	expireSessionCookies,
	supabaseCookieOptions,
} from '#app/modules/account/backends/supabase/client.server'
import { isPerAddressMailCooldown, redirectErrorCode, secondsFromMessage, toAuthFailure } from '#app/modules/account/backends/supabase/errors.server'
import { parseSetCookie } from './browser'

/**
 * The pure parts of the Supabase adapter: how Supabase Auth's refusals become
 * the product's error codes (docs/product.md §12), and the cookie settings
 * (§15.6). The errors are the real auth-js classes, built the way auth-js
 * builds them from Supabase's responses.
 */

const api = (status: number, code: string, message = 'x') => new AuthApiError(message, status, code)

describe('toAuthFailure', () => {
	test('weak_password keeps Supabase reasons', () => {
		expect(toAuthFailure(new AuthWeakPasswordError('Password is too weak', 422, ['length', 'characters', 'pwned']))).toEqual({
			code: 'error-weak-password',
			status: 422,
			reasons: ['length', 'characters', 'pwned'],
		})
		// An older server that sent the code without reasons.
		expect(toAuthFailure(api(422, 'weak_password'))).toEqual({ code: 'error-weak-password', status: 422 })
		expect(toAuthFailure(api(422, 'same_password'))).toEqual({ code: 'error-weak-password', status: 422, reasons: ['same-password'] })
	})

	test.each([
		['invalid_credentials', 400, 'error-invalid-credentials', 400],
		['email_not_confirmed', 400, 'error-email-not-confirmed', 400],
		['email_address_invalid', 400, 'error-invalid-email', 400],
		['identity_already_exists', 422, 'error-identity-already-exists', 422],
		['identity_not_found', 404, 'error-identity-not-found', 404],
		['single_identity_not_deletable', 422, 'error-single-identity-not-deletable', 422],
		['session_not_found', 403, 'error-session-not-found', 401],
		['refresh_token_not_found', 400, 'error-session-not-found', 401],
		['bad_jwt', 403, 'error-session-not-found', 401],
		['otp_expired', 403, 'error-invalid-token', 401],
		['flow_state_not_found', 404, 'error-invalid-token', 401],
		['bad_code_verifier', 400, 'error-invalid-token', 401],
		['mfa_verification_failed', 422, 'error-invalid-totp', 422],
		['insufficient_aal', 403, 'error-not-authenticated', 403],
		['provider_disabled', 403, 'error-unknown', 501],
		['request_timeout', 504, 'error-connection', 504],
	])('%s (HTTP %i) -> %s', (code, status, ours, ourStatus) => {
		const mapped = toAuthFailure(api(status, code))
		expect(mapped.code).toBe(ours)
		expect(mapped.status).toBe(ourStatus)
	})

	test('rate limits carry the seconds to wait when Supabase names them', () => {
		expect(toAuthFailure(api(429, 'over_email_send_rate_limit', 'For security purposes, you can only request this after 42 seconds.'))).toEqual({
			code: 'error-rate-limited',
			status: 429,
			reasons: ['42'],
		})
		expect(toAuthFailure(api(429, 'over_request_rate_limit', 'Request rate limit reached'))).toEqual({ code: 'error-rate-limited', status: 429 })
		// A 429 without a code (a proxy in front of Supabase).
		expect(toAuthFailure(api(429, ''))).toEqual({ code: 'error-rate-limited', status: 429 })
	})

	test('session errors without a code: the session is missing, or the JWT is invalid or expired', () => {
		// auth-js turns session_not_found into AuthSessionMissingError and drops the code.
		expect(toAuthFailure(new AuthSessionMissingError())).toEqual({ code: 'error-session-not-found', status: 401 })
		expect(toAuthFailure(new AuthInvalidJwtError('JWT has expired'))).toEqual({ code: 'error-session-not-found', status: 401 })
		expect(toAuthFailure(new AuthPKCECodeVerifierMissingError())).toEqual({ code: 'error-invalid-token', status: 401 })
	})

	test('502, 503, 504 and fetch failures are connection errors; other 5xx are unknown', () => {
		for (const status of [502, 503, 504]) {
			expect(toAuthFailure(new AuthRetryableFetchError('Bad Gateway', status))).toEqual({ code: 'error-connection', status: 503 })
			expect(toAuthFailure(api(status, 'unexpected_failure'))).toEqual({ code: 'error-connection', status: 503 })
		}
		expect(toAuthFailure(new AuthRetryableFetchError('fetch failed', 0))).toEqual({ code: 'error-connection', status: 503 })
		expect(toAuthFailure(new TypeError('fetch failed', { cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) }))).toEqual({
			code: 'error-connection',
			status: 503,
		})
		expect(toAuthFailure(new AuthRetryableFetchError('Internal Server Error', 500))).toEqual({ code: 'error-unknown', status: 500 })
		expect(toAuthFailure(api(500, 'unexpected_failure'))).toEqual({ code: 'error-unknown', status: 500 })
	})

	test('anything else is error-unknown, keeping a client-error status', () => {
		expect(toAuthFailure(api(400, 'validation_failed'))).toEqual({ code: 'error-unknown', status: 400 })
		expect(toAuthFailure(api(403, 'something_new'))).toEqual({ code: 'error-unknown', status: 403 })
		expect(toAuthFailure(new AuthUnknownError('Unexpected token <', new SyntaxError('x')))).toEqual({ code: 'error-unknown', status: 500 })
		expect(toAuthFailure(new Error('boom'))).toEqual({ code: 'error-unknown', status: 500 })
		expect(toAuthFailure('boom')).toEqual({ code: 'error-unknown', status: 500 })
		expect(toAuthFailure(null)).toEqual({ code: 'error-unknown', status: 500 })
	})
})

describe('redirectErrorCode', () => {
	test('errors Supabase appends to the return URL become product codes', () => {
		const q = (query: string) => redirectErrorCode(new URLSearchParams(query))
		expect(q('error=access_denied&error_code=otp_expired&error_description=Email+link+is+invalid+or+has+expired')).toBe('error-invalid-token')
		expect(q('error=server_error&error_code=identity_already_exists')).toBe('error-identity-already-exists')
		expect(q('error=server_error&error_code=bad_oauth_state')).toBe('error-invalid-token')
		expect(q('error=access_denied&error_description=The+user+denied')).toBe('error-unknown')
		expect(q('error=server_error&error_code=something_new')).toBe('error-unknown')
		expect(q('code=abc&redirect-to=%2Fen')).toBeNull()
	})
})

describe('rate-limit messages', () => {
	test('seconds are read from old and new wordings', () => {
		expect(secondsFromMessage('For security purposes, you can only request this after 7 seconds.')).toBe(7)
		expect(secondsFromMessage('For security purposes, you can only request this once every 60 seconds')).toBe(60)
		expect(secondsFromMessage('Email rate limit exceeded')).toBeNull()
		expect(secondsFromMessage(undefined)).toBeNull()
	})

	test('only the per-address mail cooldown counts as one (it alone tells an address has an account)', () => {
		expect(isPerAddressMailCooldown(api(429, 'over_email_send_rate_limit', 'you can only request this after 12 seconds'))).toBe(true)
		expect(isPerAddressMailCooldown(api(429, 'over_email_send_rate_limit', 'Email rate limit exceeded'))).toBe(false)
		expect(isPerAddressMailCooldown(api(429, 'over_request_rate_limit', 'after 12 seconds'))).toBe(false)
		expect(isPerAddressMailCooldown(new Error('after 12 seconds'))).toBe(false)
	})
})

describe('cookies', () => {
	test('the settings of docs/product.md §15.6: 400 days, path /, SameSite lax, HttpOnly, chunks of 3180', () => {
		expect(SUPABASE_COOKIE_OPTIONS).toEqual({ path: '/', sameSite: 'lax', maxAge: 34_560_000, httpOnly: true })
		expect(SUPABASE_COOKIE_CHUNK_SIZE).toBe(3180)
		expect(supabaseCookieOptions(true)).toMatchObject({ secure: true, httpOnly: true })
		expect(supabaseCookieOptions(false).secure).toBe(false)
	})

	test('the storage key is the one supabase-js derives from the project URL', () => {
		expect(authStorageKey('https://abcdefgh.supabase.co')).toBe('sb-abcdefgh-auth-token')
		expect(authStorageKey('http://127.0.0.1:54321')).toBe('sb-127-auth-token')
	})

	test('expiring the session replaces what the response was setting and clears every chunk the browser sent', () => {
		const request = new Request('http://localhost/', {
			headers: { cookie: 'sb-x-auth-token.0=a; sb-x-auth-token.1=b; sb-x-auth-token-code-verifier=v; i18n_redirected=de' },
		})
		const headers = new Headers()
		headers.append('set-cookie', 'sb-x-auth-token=fresh; Path=/')
		headers.append('set-cookie', 'other=1; Path=/')
		expireSessionCookies(request, 'sb-x-auth-token', headers, true)
		const cookies = headers.getSetCookie().map(parseSetCookie)
		expect(cookies.map((c) => `${c.name}=${c.value}`).sort()).toEqual(['other=1', 'sb-x-auth-token.0=', 'sb-x-auth-token.1=', 'sb-x-auth-token='])
		for (const c of cookies.filter((c) => c.name.startsWith('sb-'))) {
			expect(c.attributes).toMatchObject({ 'max-age': '0', path: '/', samesite: 'Lax', httponly: true, secure: true })
		}
	})
})
