import type { AuthErrorCode, AuthFailure, AuthResult } from '#app/modules/account/types'

/**
 * Supabase Auth's (GoTrue's) refusals, as the product's error codes
 * (docs/product.md §12). Pure: no I/O, so tests/supabase/errors.test.ts covers every
 * branch. Statuses follow what Supabase answers, rounded to what the local
 * platform answers for the same refusal, so routes behave the same on both.
 */

export function failure(code: AuthErrorCode, status: number, reasons?: string[]): AuthFailure {
	return reasons && reasons.length > 0 ? { code, status, reasons } : { code, status }
}

export function fail<T = null>(headers: Headers, code: AuthErrorCode, status: number, reasons?: string[]): AuthResult<T> {
	return { ok: false, error: failure(code, status, reasons), headers }
}

export function succeed<T>(headers: Headers, data: T): AuthResult<T> {
	return { ok: true, data, headers }
}

/** What auth-js hands back as `error` (AuthError and its subclasses), read structurally. */
interface AuthErrorLike {
	name?: unknown
	message?: unknown
	status?: unknown
	code?: unknown
	reasons?: unknown
}

/** GoTrue error codes (`code` in API version 2024-01-01, `error_code` before) -> ours. */
const CODES: Readonly<Record<string, AuthFailure>> = {
	invalid_credentials: failure('error-invalid-credentials', 400),
	email_not_confirmed: failure('error-email-not-confirmed', 400),
	email_address_invalid: failure('error-invalid-email', 400),
	email_address_not_authorized: failure('error-invalid-email', 400),
	identity_already_exists: failure('error-identity-already-exists', 422),
	email_exists: failure('error-identity-already-exists', 422),
	user_already_exists: failure('error-identity-already-exists', 422),
	identity_not_found: failure('error-identity-not-found', 404),
	single_identity_not_deletable: failure('error-single-identity-not-deletable', 422),
	email_conflict_identity_not_deletable: failure('error-single-identity-not-deletable', 422),
	same_password: failure('error-weak-password', 422, ['same-password']),
	// Connecting a provider from the settings needs the project's manual linking on (supabase/config.toml).
	manual_linking_disabled: failure('error-unknown', 501, ['manual-linking-disabled']),
	// The session behind the token is gone (signed out elsewhere, user deleted,
	// refresh token used twice) or the token itself is bad: sign in again.
	session_not_found: failure('error-session-not-found', 401),
	session_expired: failure('error-session-not-found', 401),
	refresh_token_not_found: failure('error-session-not-found', 401),
	refresh_token_already_used: failure('error-session-not-found', 401),
	bad_jwt: failure('error-session-not-found', 401),
	invalid_jwt: failure('error-session-not-found', 401),
	user_not_found: failure('error-session-not-found', 401),
	no_authorization: failure('error-not-authenticated', 401),
	// Confirmation, recovery and OAuth links (token_hash or PKCE code).
	otp_expired: failure('error-invalid-token', 401),
	flow_state_not_found: failure('error-invalid-token', 401),
	flow_state_expired: failure('error-invalid-token', 401),
	bad_code_verifier: failure('error-invalid-token', 401),
	pkce_code_verifier_not_found: failure('error-invalid-token', 401),
	bad_oauth_state: failure('error-invalid-token', 401),
	bad_oauth_callback: failure('error-invalid-token', 401),
	// Second factor.
	mfa_verification_failed: failure('error-invalid-totp', 422),
	mfa_verification_rejected: failure('error-invalid-totp', 422),
	mfa_challenge_expired: failure('error-invalid-totp', 422, ['challenge-expired']),
	mfa_factor_not_found: failure('error-invalid-totp', 422, ['not-enrolled']),
	mfa_ip_address_mismatch: failure('error-invalid-totp', 422, ['ip-address-mismatch']),
	insufficient_aal: failure('error-not-authenticated', 403, ['aal2-required']),
	mfa_verified_factor_exists: failure('error-unknown', 409, ['totp-already-enabled']),
	mfa_factor_name_conflict: failure('error-unknown', 409, ['totp-already-enabled']),
	too_many_enrolled_mfa_factors: failure('error-unknown', 409, ['too-many-factors']),
	mfa_totp_enroll_not_enabled: failure('error-unknown', 501, ['totp-not-enabled']),
	mfa_totp_verify_not_enabled: failure('error-unknown', 501, ['totp-not-enabled']),
	// OAuth: the provider is not switched on in the Supabase project.
	provider_disabled: failure('error-unknown', 501, ['provider-not-configured']),
	oauth_provider_not_supported: failure('error-unknown', 501, ['provider-not-configured']),
	// Gateway-side timeouts count as connection trouble, as 504 does.
	request_timeout: failure('error-connection', 504),
	hook_timeout: failure('error-connection', 504),
	hook_timeout_after_retry: failure('error-connection', 504),
}

const RATE_LIMIT_CODES = new Set(['over_email_send_rate_limit', 'over_request_rate_limit', 'over_sms_send_rate_limit'])

/** Statuses that mean Supabase (or what stands in front of it) could not answer: 502-504 and Cloudflare's 520-530. */
function isGatewayStatus(status: number): boolean {
	return status === 502 || status === 503 || status === 504 || (status >= 520 && status <= 530)
}

/**
 * Seconds to wait from a rate-limit message: "For security purposes, you can
 * only request this after 42 seconds." (older servers: "once every 60
 * seconds"). Null when the message names none.
 */
export function secondsFromMessage(message: unknown): number | null {
	if (typeof message !== 'string') return null
	const match = /(\d+)\s*seconds?/i.exec(message)
	if (!match?.[1]) return null
	const seconds = Number(match[1])
	return Number.isFinite(seconds) && seconds >= 0 ? seconds : null
}

/**
 * Whether a rate-limit error is the per-address mail frequency (a mail went
 * to this very address a moment ago) rather than a project-wide limit. Only
 * the former reveals that the address has an account.
 */
export function isPerAddressMailCooldown(error: unknown): boolean {
	if (!isAuthErrorLike(error)) return false
	return error.code === 'over_email_send_rate_limit' && secondsFromMessage(error.message) !== null
}

/** The GoTrue error code of an auth-js error, if it carries one. */
export function errorCode(error: unknown): string | null {
	if (!isAuthErrorLike(error)) return null
	if (typeof error.code === 'string' && error.code) return error.code
	// auth-js turns `session_not_found` into AuthSessionMissingError and drops the code.
	if (error.name === 'AuthSessionMissingError') return 'session_not_found'
	return null
}

function isAuthErrorLike(error: unknown): error is AuthErrorLike {
	return typeof error === 'object' && error !== null
}

/**
 * Any error auth-js returned or threw (or a fetch failure), as an
 * AuthFailure. Never throws; what it cannot place is error-unknown with the
 * upstream status when that is a client error, 500 otherwise.
 */
export function toAuthFailure(error: unknown): AuthFailure {
	if (!isAuthErrorLike(error)) return failure('error-unknown', 500)
	const name = typeof error.name === 'string' ? error.name : ''
	const status = typeof error.status === 'number' ? error.status : 0
	const code = errorCode(error)

	if (code === 'weak_password' || name === 'AuthWeakPasswordError') {
		const reasons = Array.isArray(error.reasons) ? error.reasons.filter((r): r is string => typeof r === 'string') : []
		return failure('error-weak-password', 422, reasons)
	}
	if (code && RATE_LIMIT_CODES.has(code)) {
		const seconds = secondsFromMessage(error.message)
		return failure('error-rate-limited', 429, seconds === null ? undefined : [String(seconds)])
	}
	if (code) {
		const known = CODES[code]
		if (known) return known
	}
	if (name === 'AuthInvalidJwtError') return failure('error-session-not-found', 401)
	// A network failure (status 0) or a gateway that could not reach Supabase.
	if (name === 'AuthRetryableFetchError' && (status === 0 || isGatewayStatus(status))) return failure('error-connection', 503)
	if (isGatewayStatus(status)) return failure('error-connection', 503)
	if (status === 429) return failure('error-rate-limited', 429)
	if (isFetchFailure(error)) return failure('error-connection', 503)
	return failure('error-unknown', status >= 400 && status < 500 ? status : 500)
}

const CONNECTION_ERRNO = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EHOSTUNREACH', 'EPIPE', 'UND_ERR_CONNECT_TIMEOUT'])

/** A `fetch` that never got an answer (undici's "fetch failed" with a socket error as its cause). */
function isFetchFailure(error: unknown): boolean {
	for (let e: unknown = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
		const errno: unknown = (e as Error & { code?: unknown }).code
		if (typeof errno === 'string' && CONNECTION_ERRNO.has(errno)) return true
		if (e.name === 'TypeError' && e.message === 'fetch failed') return true
	}
	return false
}

/**
 * What Supabase appends when it sends the browser back to /confirm after a
 * failure (a provider sign-in that went wrong, an expired link that went
 * through its /verify): `?error=access_denied&error_code=otp_expired&error_description=...`.
 * The product's code for it, or null when the query carries no such error
 * (confirmEmail answers with it when the URL has no code or token).
 */
export function redirectErrorCode(params: URLSearchParams): AuthErrorCode | null {
	const error = params.get('error')
	const code = params.get('error_code')
	if (!error && !code) return null
	if (!code) return 'error-unknown'
	return toAuthFailure({ name: 'AuthApiError', code, status: 400 }).code
}
