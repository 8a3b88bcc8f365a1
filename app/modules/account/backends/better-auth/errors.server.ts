import { isAPIError } from 'better-auth/api'
import type { AuthErrorCode, AuthFailure } from '#app/modules/account/types'

/**
 * Better Auth's refusals, as the product's error codes (docs/product.md §12).
 * Statuses follow what Supabase Auth answers for the same refusal where it
 * has one, so routes behave the same on both platforms.
 */

export function failure(code: AuthErrorCode, status: number, reasons?: string[]): AuthFailure {
	return reasons ? { code, status, reasons } : { code, status }
}

/** Better Auth error code -> ours. Anything not listed is unexpected (error-unknown). */
const BETTER_AUTH_CODES: Readonly<Record<string, AuthFailure>> = {
	INVALID_EMAIL_OR_PASSWORD: failure('error-invalid-credentials', 400),
	// A wrong current password when enrolling or removing TOTP.
	INVALID_PASSWORD: failure('error-wrong-password', 400),
	CREDENTIAL_ACCOUNT_NOT_FOUND: failure('error-invalid-credentials', 400),
	EMAIL_NOT_VERIFIED: failure('error-email-not-confirmed', 400),
	PASSWORD_TOO_SHORT: failure('error-weak-password', 422, ['length']),
	PASSWORD_TOO_LONG: failure('error-weak-password', 422, ['length']),
	INVALID_EMAIL: failure('error-invalid-email', 400),
	// Confirmation and reset links.
	INVALID_TOKEN: failure('error-invalid-token', 401),
	TOKEN_EXPIRED: failure('error-invalid-token', 401),
	USER_NOT_FOUND: failure('error-invalid-token', 401),
	// Second factor.
	INVALID_CODE: failure('error-invalid-totp', 422),
	INVALID_BACKUP_CODE: failure('error-invalid-totp', 422),
	INVALID_TWO_FACTOR_AUTHENTICATION: failure('error-invalid-totp', 422),
	TOTP_NOT_ENABLED: failure('error-invalid-totp', 422, ['not-enrolled']),
	TWO_FACTOR_NOT_ENABLED: failure('error-invalid-totp', 422, ['not-enrolled']),
	// The pending second factor is gone (expired, already used, too many wrong codes): sign in again.
	INVALID_TWO_FACTOR_COOKIE: failure('error-session-not-found', 401),
	TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE: failure('error-session-not-found', 401, ['too-many-attempts']),
	ACCOUNT_TEMPORARILY_LOCKED: failure('error-rate-limited', 429),
	UNAUTHORIZED: failure('error-not-authenticated', 401),
	SESSION_EXPIRED: failure('error-session-not-found', 401),
	// Disconnecting a provider wants a session signed in within the last day.
	SESSION_NOT_FRESH: failure('error-session-not-found', 403, ['not-fresh']),
	FAILED_TO_UNLINK_LAST_ACCOUNT: failure('error-single-identity-not-deletable', 422),
	ACCOUNT_NOT_FOUND: failure('error-identity-not-found', 404),
	TOTP_ALREADY_ENABLED: failure('error-unknown', 409, ['totp-already-enabled']),
	// OAuth: the provider is not configured on this deployment.
	PROVIDER_NOT_FOUND: failure('error-provider-not-configured', 404),
}

/** SQLSTATE classes and Node error codes that mean the database could not be reached. */
const CONNECTION_SQLSTATE = /^(08|53|57P0[1-3])/
const CONNECTION_ERRNO = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EHOSTUNREACH', 'EPIPE'])

export function toAuthFailure(error: unknown): AuthFailure | null {
	if (isAPIError(error)) {
		const code = typeof error.body?.code === 'string' ? error.body.code : undefined
		const known = code ? BETTER_AUTH_CODES[code] : undefined
		if (known) return known
		if (error.statusCode === 429) return failure('error-rate-limited', 429)
		return null
	}
	if (isConnectionError(error)) return failure('error-connection', 503)
	return null
}

function isConnectionError(error: unknown): boolean {
	for (let e: unknown = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
		const code: unknown = (e as Error & { code?: unknown }).code
		if (typeof code === 'string' && (CONNECTION_ERRNO.has(code) || (code.length === 5 && CONNECTION_SQLSTATE.test(code)))) {
			return true
		}
		if (e.message.includes('Connection terminated')) return true
	}
	return false
}
