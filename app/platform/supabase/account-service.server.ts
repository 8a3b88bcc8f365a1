import type { EmailOtpType, Factor, JwtPayload, SupabaseClient, User } from '@supabase/supabase-js'
import { clientIp } from '#app/auth/local/client-ip.server'
import { DEFAULT_RATE_LIMITS, type AuthLogger, type RateLimit, type RateLimits } from '#app/auth/local/options.server'
import { RateLimiter, type LimitDecision } from '#app/auth/local/rate-limit.server'
import { asServiceRole, type JwtClaims } from '#app/db/as-user.server'
import type { Database } from '#app/db/database.server'
import { DEFAULT_LOCALE, isLocale, localeFromPath, type Locale } from '#app/i18n/locales'
import type { AccountService, AuthAdapter, AuthResult, OAuthProvider, SignInMethod, Viewer } from '#app/platform/types'
import {
	OAUTH_PROVIDERS,
	TOTP_CODE,
	cookieLocale,
	inSignInOrder,
	isAcceptableEmail,
	isAcceptablePassword,
	isOAuthProvider,
	isPlausiblePassword,
	normaliseEmail,
} from '#app/platform/account-rules.server'
import { safeRedirectPath } from '#app/utils/redirect'
import {
	authStorageKey,
	createDetachedClient,
	createSupabaseServerClient,
	expireSessionCookies,
	hasSessionCookie,
	retryingFetch,
	type SupabaseConnection,
} from './client.server'
import { errorCode, fail, failure, isPerAddressMailCooldown, redirectErrorCode, succeed, toAuthFailure } from './errors.server'
import { MemoryRateLimiter } from './rate-limit.server'

/** The counters: in the database (shared by every instance) or in this process. */
interface Limiter {
	key(scope: string, value: string): string
	consume(key: string, limit: RateLimit): Promise<LimitDecision> | LimitDecision
	restart(key: string, windowSeconds: number): Promise<void> | void
}

/** A recovery session may set a new password without a link for this long after the link was used. */
const RECOVERY_WINDOW_SECONDS = 60 * 60
/** Link types /confirm accepts with token_hash (what Supabase's mails carry). */
const LINK_TYPES = new Set<EmailOtpType>(['signup', 'email', 'recovery', 'invite', 'magiclink', 'email_change'])

/** The user's identities as sign-in methods: the password (email) first, then the providers. */
function signInMethods(user: User): SignInMethod[] {
	const methods: SignInMethod[] = []
	for (const identity of user.identities ?? []) {
		const data = identity.identity_data ?? {}
		if (identity.provider === 'email') methods.push({ provider: 'email', detail: user.email ?? null })
		else if (isOAuthProvider(identity.provider)) {
			// Twitch's login (its channel name) where Supabase kept it; Google's address.
			const detail = identity.provider === 'twitch' ? (data.slug ?? data.name ?? data.nickname) : data.email
			methods.push({ provider: identity.provider, detail: typeof detail === 'string' && detail ? detail : null })
		}
	}
	return inSignInOrder(methods)
}

/**
 * Everything the Supabase account backend needs, built from the environment
 * by index.server.ts (nothing here reads process.env).
 */
export interface SupabaseAuthOptions {
	/** SUPABASE_URL: the project's API URL (https://<ref>.supabase.co). */
	url: string
	/** SUPABASE_ANON_KEY: the public (anon / publishable) key. */
	anonKey: string
	/**
	 * SUPABASE_SERVICE_ROLE_KEY: the secret key, for the admin API. Only
	 * account deletion needs it (auth.admin.deleteUser); without it that one
	 * operation answers error-unknown 501 ['service-role-key-missing'].
	 * Never sent to the browser.
	 */
	serviceRoleKey?: string
	/** APP_URL: the public origin, for the links in mails and the OAuth return address. */
	appUrl: string
	/** Secure cookies; by default on when appUrl is https. */
	secureCookies?: boolean
	/** TRUST_PROXY: proxies that append to X-Forwarded-For (0: the header is ignored). */
	trustProxy?: number
	/** Shown in authenticator apps as the TOTP issuer. */
	appName?: string
	/** Per-limit overrides (tests use small ones); see DEFAULT_RATE_LIMITS. */
	rateLimits?: Partial<RateLimits>
	/**
	 * The app's database: the wallet check before deleting an account, and,
	 * with `rateLimitSecret`, rate-limit counters shared by every instance
	 * (app_private.rate_limits). Without both, the counters are this
	 * process's (MemoryRateLimiter).
	 */
	db?: Database
	/** The key the counters' HMACs use; the same on every instance (index.server.ts derives it). */
	rateLimitSecret?: string
	/** Where diagnostics go; console by default (warn and error only). */
	log?: AuthLogger
	/** How long a "has a verified second factor" answer is trusted for an aal1 session (getViewer). Default 30. */
	factorCacheSeconds?: number
	/** How long the project's provider settings (GET /auth/v1/settings) are trusted. Default 300. */
	settingsCacheSeconds?: number
	/** The clock (tests). */
	now?: () => number
	/** Retries of failed calls to Supabase (retryingFetch); tests shorten the back-off. */
	retry?: { retries?: number; baseDelayMs?: number }
}

export interface SupabaseAuth {
	accounts: AccountService
	auth: AuthAdapter
}

/**
 * The Supabase platform's accounts: Supabase Auth through @supabase/ssr
 * (PKCE flow, session in HttpOnly cookies), behind the AccountService and
 * AuthAdapter interfaces the routes use. It mirrors the local platform
 * (app/auth/local/account-service.server.ts): the same error codes, the same
 * identical answers for known and unknown addresses, the same rate limits,
 * the same links:
 *
 *   sign-up / resend: a mail whose link is /{lang}/confirm?redirect-to=/path&token_hash=...&type=signup
 *     (supabase/templates/confirmation.html builds it from {{ .RedirectTo }}, which is
 *     emailRedirectTo below)                                  -> confirmEmail(request)
 *   Google / Twitch: Supabase returns to /{lang}/confirm?redirect-to=/path&code=...
 *                                                              -> confirmEmail(request)
 *   reset: /{lang}/password-reset?changePassword=true&token=<token hash>
 *     (supabase/templates/recovery.html)                       -> resetPassword({ token, password })
 */
export function createSupabaseAuth(options: SupabaseAuthOptions): SupabaseAuth {
	const service = new SupabaseAccountService(options)
	return { accounts: service, auth: { getViewer: (request) => service.getViewer(request) } }
}

type Limit = readonly [scope: string, value: string | null, limit: RateLimit]

class SupabaseAccountService implements AccountService {
	readonly #o: Required<Pick<SupabaseAuthOptions, 'url' | 'anonKey' | 'appUrl' | 'appName'>> & SupabaseAuthOptions
	readonly #connection: SupabaseConnection
	readonly #storageKey: string
	readonly #limits: RateLimits
	readonly #limiter: Limiter
	readonly #log: AuthLogger
	readonly #now: () => number
	/** `${userId}:${sessionId}` -> whether the user has a verified factor, and until when that answer holds. */
	readonly #factorCache = new Map<string, { verified: boolean; until: number }>()
	#settings: { providers: Record<string, boolean>; until: number } | null = null

	constructor(options: SupabaseAuthOptions) {
		const appUrl = options.appUrl.replace(/\/+$/, '')
		this.#o = { appName: 'Dareboost', ...options, appUrl, url: options.url.replace(/\/+$/, '') }
		this.#connection = {
			url: this.#o.url,
			anonKey: options.anonKey,
			secureCookies: options.secureCookies ?? appUrl.startsWith('https:'),
			fetch: retryingFetch(options.retry),
		}
		this.#storageKey = authStorageKey(this.#o.url)
		this.#limits = { ...DEFAULT_RATE_LIMITS, ...options.rateLimits }
		this.#now = options.now ?? Date.now
		this.#limiter =
			options.db && options.rateLimitSecret
				? new RateLimiter(options.db, options.rateLimitSecret, 'app_private.rate_limits')
				: new MemoryRateLimiter({ now: this.#now })
		this.#log = options.log ?? consoleLogger
	}

	// -------------------------------------------------------------------------
	// Viewer
	// -------------------------------------------------------------------------

	async getViewer(request: Request): Promise<{ viewer: Viewer | null; headers: Headers }> {
		const headers = new Headers()
		if (!hasSessionCookie(request, this.#storageKey)) return { viewer: null, headers }
		const supabase = this.#client(request, headers)
		// getClaims verifies the access token (against the project's JWKS, or by
		// asking the Auth server for symmetric keys) and refreshes an expired
		// one; unlike getSession it never trusts the cookie as it is.
		const { data, error } = await supabase.auth.getClaims()
		if (error || !data?.claims?.sub) return { viewer: null, headers }
		const c = data.claims
		const aal = c.aal === 'aal2' ? 'aal2' : 'aal1'
		if (aal === 'aal1') {
			// A password (or provider) sign-in of a user with two-factor sign-in
			// gets an aal1 session that still owes the code. Until it is given the
			// browser is not signed in (as on the local platform, where that
			// session does not exist yet): otherwise the code would be optional.
			const owesCode = await this.#hasVerifiedFactor(supabase, c)
			if (owesCode !== false) return { viewer: null, headers }
		}
		const claims: JwtClaims = {
			...c,
			sub: c.sub,
			role: 'authenticated',
			email: typeof c.email === 'string' ? c.email : undefined,
			aal,
			session_id: typeof c.session_id === 'string' ? c.session_id : undefined,
		}
		return { viewer: { claims, userId: c.sub, email: claims.email ?? null, totpEnabled: aal === 'aal2' }, headers }
	}

	// -------------------------------------------------------------------------
	// Sign-up and confirmation
	// -------------------------------------------------------------------------

	signUp(request: Request, input: { email: string; password: string; locale: Locale; redirectTo: string }): Promise<AuthResult> {
		return this.#guard(async (headers) => {
			const email = normaliseEmail(input.email)
			if (!isAcceptableEmail(email)) return fail(headers, 'error-invalid-email', 400)
			if (!isAcceptablePassword(input.password)) {
				return fail(headers, 'error-weak-password', 422, ['length'])
			}
			const refused = await this.#limit(headers, [
				['sign-up:ip', this.#ip(request), this.#limits.signUpPerIp],
				['sign-up:address', email, this.#limits.signUpPerAddress],
			])
			if (refused) return refused
			const redirectTo = safeRedirectPath(input.redirectTo, `/${input.locale}`)
			const { error } = await this.#client(request, headers).auth.signUp({
				email,
				password: input.password,
				options: {
					// The mail's language (supabase/templates read .Data.locale) and the
					// user's from then on.
					data: { locale: input.locale },
					emailRedirectTo: this.#confirmUrl(input.locale, redirectTo),
				},
			})
			// With confirmations on, Supabase answers a repeated sign-up with a
			// user that looks new (and mails the unconfirmed one again). What it
			// may still say differently is turned into the same answer: the
			// address exists (confirmations off), or a mail went to it a moment ago.
			if (error && !isExistingAddressAnswer(error)) throw error
			// The mail just went out: the resend countdown starts now.
			await this.#limiter.restart(this.#limiter.key('confirmation-mail', email), this.#limits.confirmationMailCooldownSeconds)
			return succeed(headers, null)
		})
	}

	resendConfirmation(request: Request, input: { email: string; locale: Locale; redirectTo: string }): Promise<AuthResult> {
		return this.#guard(async (headers) => {
			const email = normaliseEmail(input.email)
			if (!isAcceptableEmail(email)) return fail(headers, 'error-invalid-email', 400)
			const refused = await this.#limit(headers, [['resend:ip', this.#ip(request), this.#limits.resendPerIp]])
			if (refused) return refused
			// The cooldown counts per address whether or not it has an account,
			// so the answer (429 with the seconds left, or ok) says nothing.
			const cooldown = await this.#limiter.consume(this.#limiter.key('confirmation-mail', email), {
				max: 1,
				windowSeconds: this.#limits.confirmationMailCooldownSeconds,
			})
			if (!cooldown.allowed) {
				headers.set('retry-after', String(cooldown.retryAfterSeconds))
				return fail(headers, 'error-rate-limited', 429, [String(cooldown.retryAfterSeconds)])
			}
			const redirectTo = safeRedirectPath(input.redirectTo, `/${input.locale}`)
			const { error } = await this.#client(request, headers).auth.resend({
				type: 'signup',
				email,
				options: { emailRedirectTo: this.#confirmUrl(input.locale, redirectTo) },
			})
			// Supabase answers 200 for unknown and confirmed addresses, and 429 only
			// for an unconfirmed one mailed a moment ago (another instance's
			// counter): that, too, gets the common answer.
			if (error && !isPerAddressMailCooldown(error)) throw error
			return succeed(headers, null)
		})
	}

	confirmEmail(request: Request): Promise<AuthResult<{ redirectTo: string }>> {
		return this.#guard(async (headers) => {
			const url = new URL(request.url)
			const locale = localeFromPath(url.pathname) ?? DEFAULT_LOCALE
			let redirectTo = safeRedirectPath(url.searchParams.get('redirect-to'), `/${locale}`)
			const refused = await this.#limit(headers, [['link:ip', this.#ip(request), this.#limits.otherPerIp]])
			if (refused) return refused
			const supabase = this.#client(request, headers)
			const code = url.searchParams.get('code')
			const tokenHash = url.searchParams.get('token_hash')
			const type = (url.searchParams.get('type') ?? 'email') as EmailOtpType
			let user: User | null
			if (code && code.length <= 512) {
				// PKCE: Google/Twitch sign-in (or a mail link that went through
				// Supabase's /verify); the code verifier is the cookie startOAuth set.
				const { data, error } = await supabase.auth.exchangeCodeForSession(code)
				if (error) throw error
				user = data.user
				// Newer auth-js tells a recovery code exchange apart (not in every version's types).
				if ((data as { redirectType?: string | null }).redirectType === 'recovery') redirectTo = `/${locale}/password-reset?changePassword=true`
			} else if (tokenHash && tokenHash.length <= 512 && LINK_TYPES.has(type)) {
				// The link from our own templates: works in any browser, no verifier needed.
				const { data, error } = await supabase.auth.verifyOtp({ token_hash: tokenHash, type })
				if (error) throw error
				user = data.user
			} else {
				// Supabase came back with a failure (?error=...&error_code=...): say which.
				const failed = redirectErrorCode(url.searchParams)
				return failed ? fail(headers, failed, 400) : fail(headers, 'error-invalid-token', 401)
			}
			if (!user) return fail(headers, 'error-invalid-token', 401)
			// Provider sign-ups carry no locale yet: the page's, for the mails to come.
			if (!isLocale(user.user_metadata?.locale)) await this.#bestEffort('saving the locale', () => supabase.auth.updateUser({ data: { locale } }))
			// An account with two-factor sign-in owes its code before it is signed in.
			if (verifiedTotp(user)) redirectTo = `/${locale}/login?${new URLSearchParams({ step: 'totp', redirectTo })}`
			return succeed(headers, { redirectTo })
		})
	}

	// -------------------------------------------------------------------------
	// Sign-in and sign-out
	// -------------------------------------------------------------------------

	signIn(request: Request, input: { email: string; password: string }): Promise<AuthResult<{ totpRequired: boolean }>> {
		return this.#guard(async (headers) => {
			const email = normaliseEmail(input.email)
			if (!isAcceptableEmail(email)) return fail(headers, 'error-invalid-email', 400)
			const refused = await this.#limit(headers, [
				['sign-in:ip', this.#ip(request), this.#limits.signInPerIp],
				['sign-in:address', email, this.#limits.signInPerAddress],
			])
			if (refused) return refused
			if (!isPlausiblePassword(input.password)) {
				return fail(headers, 'error-invalid-credentials', 400)
			}
			const supabase = this.#client(request, headers)
			// The session this browser held before (its access token only: the
			// cookie's user object is not to be trusted on the server).
			const previous = hasSessionCookie(request, this.#storageKey)
				? (await supabase.auth.getSession()).data.session?.access_token
				: undefined
			const { data, error } = await supabase.auth.signInWithPassword({ email, password: input.password })
			if (error) throw error
			// Every sign-in gets a new session (and cookie); the previous one is
			// ended rather than left valid on the server.
			if (previous) await this.#bestEffort('ending the previous session', () => supabase.auth.admin.signOut(previous, 'local'))
			return succeed(headers, { totpRequired: verifiedTotp(data.user) !== null })
		})
	}

	verifySignInTotp(request: Request, input: { code: string }): Promise<AuthResult> {
		return this.#guard(async (headers) => {
			const refused = await this.#limit(headers, [['totp:ip', this.#ip(request), this.#limits.totpPerIp]])
			if (refused) return refused
			const code = input.code.replace(/\s+/g, '')
			// Supabase has no recovery codes: only the authenticator's 6 digits.
			if (!TOTP_CODE.test(code)) return fail(headers, 'error-invalid-totp', 422)
			const supabase = this.#client(request, headers)
			// The aal1 session the password (or provider) sign-in left; gone or
			// expired means signing in again, as on the local platform.
			const current = await this.#currentUser(supabase)
			if (!current) return fail(headers, 'error-session-not-found', 401)
			const perUser = await this.#limit(headers, [['sensitive:user', current.user.id, this.#limits.sensitivePerUser]])
			if (perUser) return perUser
			const factor = verifiedTotp(current.user)
			if (!factor) return fail(headers, 'error-invalid-totp', 422, ['not-enrolled'])
			const { error } = await supabase.auth.mfa.challengeAndVerify({ factorId: factor.id, code })
			if (error) throw error
			this.#forgetFactors(current.user.id)
			return succeed(headers, null)
		})
	}

	signOut(request: Request): Promise<AuthResult> {
		return this.#guard(async (headers) => {
			if (!hasSessionCookie(request, this.#storageKey)) return succeed(headers, null)
			const { error } = await this.#client(request, headers).auth.signOut({ scope: 'local' })
			// This browser is signed out whatever Supabase said: its cookies go.
			// A session Supabase could not revoke (unreachable) expires on its own.
			if (error) this.#log('warn', 'sign-out could not reach Supabase; the cookies are cleared anyway', error.message)
			expireSessionCookies(request, this.#storageKey, headers, this.#connection.secureCookies)
			return succeed(headers, null)
		})
	}

	// -------------------------------------------------------------------------
	// Password reset
	// -------------------------------------------------------------------------

	requestPasswordReset(request: Request, input: { email: string; locale: Locale; redirectTo: string }): Promise<AuthResult> {
		return this.#guard(async (headers) => {
			const email = normaliseEmail(input.email)
			if (!isAcceptableEmail(email)) return fail(headers, 'error-invalid-email', 400)
			const refused = await this.#limit(headers, [
				['reset:ip', this.#ip(request), this.#limits.resetPerIp],
				['reset:address', email, this.#limits.resetPerAddress],
			])
			if (refused) return refused
			// supabase/templates/recovery.html appends &token={{ .TokenHash }}.
			const redirect = new URL(`${this.#o.appUrl}/${input.locale}/password-reset`)
			redirect.searchParams.set('changePassword', 'true')
			const { error } = await this.#client(request, headers).auth.resetPasswordForEmail(email, { redirectTo: redirect.toString() })
			// Supabase answers 200 for unknown addresses; a known one mailed a
			// moment ago would get 429, which would tell: the same answer instead.
			if (error && !isPerAddressMailCooldown(error)) throw error
			return succeed(headers, null)
		})
	}

	/**
	 * With `token` (the recovery mail's token hash, as the route passes it
	 * from ?token=): verifies it, which signs the browser in with a recovery
	 * session, then sets the password. Without one: the browser must already
	 * hold a recovery session from the last hour (a recovery link that went
	 * through /confirm, or a two-factor step-up after it).
	 *
	 * Then, as on the local platform, every session of the user ends, this
	 * browser's included: the user signs in with the new password.
	 */
	resetPassword(request: Request, input: { token: string; password: string }): Promise<AuthResult> {
		return this.#guard(async (headers) => {
			const refused = await this.#limit(headers, [['link:ip', this.#ip(request), this.#limits.otherPerIp]])
			if (refused) return refused
			if (!isAcceptablePassword(input.password)) {
				return fail(headers, 'error-weak-password', 422, ['length'])
			}
			const supabase = this.#client(request, headers)
			const token = input.token?.trim() ?? ''
			if (token) {
				if (token.length > 512) return fail(headers, 'error-invalid-token', 401)
				const { error } = await supabase.auth.verifyOtp({ token_hash: token, type: 'recovery' })
				if (error) throw error
			} else {
				const { data } = await supabase.auth.getClaims()
				if (!data?.claims || !recentRecovery(data.claims, this.#now())) return fail(headers, 'error-invalid-token', 401)
			}
			const { error } = await supabase.auth.updateUser({ password: input.password })
			if (error) throw error
			const signedOut = await supabase.auth.signOut({ scope: 'global' })
			if (signedOut.error) this.#log('warn', 'could not end the other sessions after a password reset', signedOut.error.message)
			expireSessionCookies(request, this.#storageKey, headers, this.#connection.secureCookies)
			return succeed(headers, null)
		})
	}

	// -------------------------------------------------------------------------
	// Google and Twitch
	// -------------------------------------------------------------------------

	startOAuth(request: Request, input: { provider: 'google' | 'twitch'; redirectTo: string }): Promise<AuthResult<{ url: string }>> {
		return this.#guard(async (headers) => {
			if ((await this.#providerEnabled(input.provider)) === false) {
				return fail(headers, 'error-unknown', 501, ['provider-not-configured'])
			}
			const refused = await this.#limit(headers, [['oauth:ip', this.#ip(request), this.#limits.otherPerIp]])
			if (refused) return refused
			const locale = localeFromPath(input.redirectTo) ?? cookieLocale(request) ?? DEFAULT_LOCALE
			const redirectTo = safeRedirectPath(input.redirectTo, `/${locale}`)
			// Spec section 7: back to /confirm with redirect-to holding the path;
			// Supabase appends ?code=... (or ?error=...&error_code=...).
			const { data, error } = await this.#client(request, headers).auth.signInWithOAuth({
				provider: input.provider,
				options: { redirectTo: this.#confirmUrl(locale, redirectTo), skipBrowserRedirect: true },
			})
			if (error) throw error
			if (!data.url) return fail(headers, 'error-unknown', 500)
			return succeed(headers, { url: data.url })
		})
	}

	/** Supabase serves the providers' callbacks itself (/auth/v1/callback) and returns to /confirm with a code. */
	async handle(): Promise<Response | null> {
		return null
	}

	// -------------------------------------------------------------------------
	// Two-factor authentication
	// -------------------------------------------------------------------------

	enrollTotp(request: Request, input: { password: string }): Promise<AuthResult<{ uri: string; secret: string; recoveryCodes: string[] }>> {
		return this.#guard(async (headers) => {
			const supabase = this.#client(request, headers)
			const current = await this.#currentUser(supabase)
			if (!current) return fail(headers, 'error-not-authenticated', 401)
			const refused = await this.#limit(headers, [['sensitive:user', current.user.id, this.#limits.sensitivePerUser]])
			if (refused) return refused
			if (!isPlausiblePassword(input.password)) {
				return fail(headers, 'error-invalid-credentials', 400)
			}
			if (verifiedTotp(current.user)) return fail(headers, 'error-unknown', 409, ['totp-already-enabled'])
			const wrongPassword = await this.#checkPassword(headers, current.user, input.password)
			if (wrongPassword) return wrongPassword
			// An enrolment never confirmed (the page was left) is replaced.
			for (const factor of current.user.factors ?? []) {
				if (factor.factor_type === 'totp' && factor.status === 'unverified') {
					const { error } = await supabase.auth.mfa.unenroll({ factorId: factor.id })
					if (error) throw error
				}
			}
			const { data, error } = await supabase.auth.mfa.enroll({
				factorType: 'totp',
				issuer: this.#o.appName,
				friendlyName: `${this.#o.appName} ${new Date(this.#now()).toISOString().slice(0, 19)}`,
			})
			if (error) throw error
			if (data.type !== 'totp' || !data.totp.uri || !data.totp.secret) return fail(headers, 'error-unknown', 500)
			// Supabase Auth has no recovery codes (its MFA offers further factors
			// instead): the list stays empty and the settings page shows none.
			return succeed(headers, { uri: data.totp.uri, secret: data.totp.secret, recoveryCodes: [] })
		})
	}

	confirmTotpEnrollment(request: Request, input: { code: string }): Promise<AuthResult> {
		return this.#guard(async (headers) => {
			const supabase = this.#client(request, headers)
			const current = await this.#currentUser(supabase)
			if (!current) return fail(headers, 'error-not-authenticated', 401)
			const refused = await this.#limit(headers, [['sensitive:user', current.user.id, this.#limits.sensitivePerUser]])
			if (refused) return refused
			const code = input.code.replace(/\s+/g, '')
			if (!TOTP_CODE.test(code)) return fail(headers, 'error-invalid-totp', 422)
			const pending = newest((current.user.factors ?? []).filter((f) => f.factor_type === 'totp' && f.status === 'unverified'))
			if (!pending) return fail(headers, 'error-invalid-totp', 422, ['not-enrolled'])
			// The first valid code turns the factor on and upgrades this session to aal2.
			const { error } = await supabase.auth.mfa.challengeAndVerify({ factorId: pending.id, code })
			if (error) throw error
			this.#forgetFactors(current.user.id)
			return succeed(headers, null)
		})
	}

	disableTotp(request: Request, input: { password: string }): Promise<AuthResult> {
		return this.#guard(async (headers) => {
			const supabase = this.#client(request, headers)
			const current = await this.#currentUser(supabase)
			if (!current) return fail(headers, 'error-not-authenticated', 401)
			const enabled = verifiedTotp(current.user) !== null
			// Only a session that proved the factor may remove it (Supabase requires aal2 too).
			if (enabled && current.claims.aal !== 'aal2') return fail(headers, 'error-not-authenticated', 403, ['aal2-required'])
			const refused = await this.#limit(headers, [['sensitive:user', current.user.id, this.#limits.sensitivePerUser]])
			if (refused) return refused
			if (!isPlausiblePassword(input.password)) {
				return fail(headers, 'error-invalid-credentials', 400)
			}
			const wrongPassword = await this.#checkPassword(headers, current.user, input.password)
			if (wrongPassword) return wrongPassword
			for (const factor of current.user.factors ?? []) {
				if (factor.factor_type !== 'totp') continue
				const { error } = await supabase.auth.mfa.unenroll({ factorId: factor.id })
				if (error) throw error
			}
			this.#forgetFactors(current.user.id)
			// The access token still says aal2 until it is renewed: renew it now.
			if (enabled) await this.#bestEffort('refreshing the session after removing two-factor sign-in', () => supabase.auth.refreshSession())
			return succeed(headers, null)
		})
	}

	// -------------------------------------------------------------------------
	// Account deletion
	// -------------------------------------------------------------------------

	deleteAccount(request: Request): Promise<AuthResult> {
		return this.#guard(async (headers) => {
			const supabase = this.#client(request, headers)
			const current = await this.#currentUser(supabase)
			if (!current) return fail(headers, 'error-not-authenticated', 401)
			if (verifiedTotp(current.user) && current.claims.aal !== 'aal2') {
				return fail(headers, 'error-not-authenticated', 403, ['aal2-required'])
			}
			if (!this.#o.serviceRoleKey) {
				this.#log('error', 'account deletion needs SUPABASE_SERVICE_ROLE_KEY')
				return fail(headers, 'error-unknown', 501, ['service-role-key-missing'])
			}
			const userId = current.user.id
			// PRODUCT.md: the remaining balance goes to the platform's forfeit
			// account through the ledger, which does not exist yet; deleting the
			// wallet would destroy coins, so an account holding coins stays (as on
			// the local platform).
			if (this.#o.db) {
				const balance = await asServiceRole(this.#o.db, async (tx) => {
					const { rows } = await tx.query<{ balance: number }>('select balance from public.wallets where id = $1', [userId])
					return Number(rows[0]?.balance ?? 0)
				})
				if (balance > 0) return fail(headers, 'error-unknown', 409, ['wallet-not-empty'])
			}
			// The auth.users row goes; its foreign keys cascade to the profile,
			// creator profile, consents, wallet and sessions rows.
			const admin = createDetachedClient(this.#o.url, this.#o.serviceRoleKey, this.#connection.fetch)
			const { error } = await admin.auth.admin.deleteUser(userId)
			if (error && errorCode(error) !== 'user_not_found') throw error
			this.#forgetFactors(userId)
			// Its sessions went with it: this browser's cookies are stale.
			expireSessionCookies(request, this.#storageKey, headers, this.#connection.secureCookies)
			return succeed(headers, null)
		})
	}

	// -------------------------------------------------------------------------
	// Sign-in methods (settings)
	// -------------------------------------------------------------------------

	listSignInMethods(request: Request): Promise<AuthResult<{ methods: SignInMethod[]; connectable: OAuthProvider[] }>> {
		return this.#guard(async (headers) => {
			const current = await this.#currentUser(this.#client(request, headers))
			if (!current) return fail(headers, 'error-not-authenticated', 401)
			const methods = signInMethods(current.user)
			const linked = new Set(methods.map((m) => m.provider))
			const connectable: OAuthProvider[] = []
			for (const provider of OAUTH_PROVIDERS) {
				if (!linked.has(provider) && (await this.#providerEnabled(provider)) === true) connectable.push(provider)
			}
			return succeed(headers, { methods, connectable })
		})
	}

	linkProvider(request: Request, input: { provider: OAuthProvider; locale: Locale }): Promise<AuthResult<{ url: string }>> {
		return this.#guard(async (headers) => {
			const supabase = this.#client(request, headers)
			const current = await this.#currentUser(supabase)
			if (!current) return fail(headers, 'error-not-authenticated', 401)
			if ((await this.#providerEnabled(input.provider)) === false) return fail(headers, 'error-unknown', 501, ['provider-not-configured'])
			if (verifiedTotp(current.user) && current.claims.aal !== 'aal2') return fail(headers, 'error-not-authenticated', 403, ['aal2-required'])
			const refused = await this.#limit(headers, [['sensitive:user', current.user.id, this.#limits.sensitivePerUser]])
			if (refused) return refused
			// Supabase returns to the settings with ?code=... (PKCE), or ?error=...&error_code=...
			const back = new URL(`${this.#o.appUrl}/${input.locale}/settings`)
			back.searchParams.set('link', input.provider)
			const { data, error } = await supabase.auth.linkIdentity({
				provider: input.provider,
				options: { redirectTo: back.toString(), skipBrowserRedirect: true },
			})
			if (error) throw error
			if (!data.url) return fail(headers, 'error-unknown', 500)
			return succeed(headers, { url: data.url })
		})
	}

	finishLink(request: Request): Promise<AuthResult<{ provider: OAuthProvider }>> {
		return this.#guard(async (headers) => {
			const url = new URL(request.url)
			const provider = url.searchParams.get('link')
			if (!isOAuthProvider(provider)) return fail(headers, 'error-unknown', 400)
			const failed = redirectErrorCode(url.searchParams)
			if (failed) return fail(headers, failed, 400)
			const supabase = this.#client(request, headers)
			const code = url.searchParams.get('code')
			if (code && code.length <= 512) {
				// The code verifier is the cookie linkProvider left; the new session carries the identity.
				const { error } = await supabase.auth.exchangeCodeForSession(code)
				if (error) throw error
			}
			const current = await this.#currentUser(supabase)
			if (!current) return fail(headers, 'error-not-authenticated', 401)
			if (!signInMethods(current.user).some((m) => m.provider === provider)) return fail(headers, 'error-identity-not-found', 404)
			return succeed(headers, { provider })
		})
	}

	unlinkProvider(request: Request, input: { provider: OAuthProvider }): Promise<AuthResult> {
		return this.#guard(async (headers) => {
			const supabase = this.#client(request, headers)
			const current = await this.#currentUser(supabase)
			if (!current) return fail(headers, 'error-not-authenticated', 401)
			if (verifiedTotp(current.user) && current.claims.aal !== 'aal2') return fail(headers, 'error-not-authenticated', 403, ['aal2-required'])
			const refused = await this.#limit(headers, [['sensitive:user', current.user.id, this.#limits.sensitivePerUser]])
			if (refused) return refused
			const identities = current.user.identities ?? []
			const identity = identities.find((i) => i.provider === input.provider)
			if (!identity) return fail(headers, 'error-identity-not-found', 404)
			// Supabase refuses it too (single_identity_not_deletable); saying so first spares the call.
			if (identities.length === 1) return fail(headers, 'error-single-identity-not-deletable', 422)
			const { error } = await supabase.auth.unlinkIdentity(identity)
			if (error) throw error
			// The session's user object still lists it until refreshed; the next read asks Supabase again.
			await this.#bestEffort('refreshing the session after unlinking', () => supabase.auth.refreshSession())
			return succeed(headers, null)
		})
	}

	// -------------------------------------------------------------------------
	// Helpers
	// -------------------------------------------------------------------------

	/**
	 * Runs an operation and turns Supabase's refusals into AuthFailures;
	 * anything it cannot place is logged and answered with error-unknown (the
	 * details stay in the log, not in the response).
	 */
	async #guard<T>(fn: (headers: Headers) => Promise<AuthResult<T>>): Promise<AuthResult<T>> {
		const headers = new Headers({ 'cache-control': 'no-store' })
		try {
			return await fn(headers)
		} catch (error) {
			const mapped = toAuthFailure(error)
			if (mapped.code === 'error-unknown') this.#log('error', 'account operation failed', error)
			else if (mapped.code === 'error-connection') this.#log('warn', 'Supabase Auth could not be reached', describe(error))
			if (mapped.code === 'error-rate-limited' && mapped.reasons?.[0]) headers.set('retry-after', mapped.reasons[0])
			return { ok: false, error: mapped, headers }
		}
	}

	#client(request: Request, headers: Headers): SupabaseClient {
		// Where a trusted proxy names the visitor, Supabase can count its own
		// per-IP limits per visitor rather than per app server (self-hosted Auth
		// reads the header with GOTRUE_RATE_LIMIT_HEADER=X-Forwarded-For).
		const ip = this.#ip(request)
		const extra = ip ? { 'X-Forwarded-For': ip.replace(/::\/64$/, '::') } : undefined
		return createSupabaseServerClient(this.#connection, request, headers, extra)
	}

	/** The first refused limit, as a 429 with the seconds to wait; null when all allow. IP checks without an IP are skipped. */
	async #limit(headers: Headers, checks: readonly Limit[]): Promise<AuthResult<never> | null> {
		for (const [scope, value, limit] of checks) {
			if (value === null) continue
			const decision = await this.#limiter.consume(this.#limiter.key(scope, value), limit)
			if (!decision.allowed) {
				headers.set('retry-after', String(decision.retryAfterSeconds))
				return { ok: false, error: failure('error-rate-limited', 429, [String(decision.retryAfterSeconds)]), headers }
			}
		}
		return null
	}

	#ip(request: Request): string | null {
		return clientIp(request, this.#o.trustProxy ?? 0)
	}

	/** `${APP_URL}/{lang}/confirm?redirect-to=/path`: where mail links and providers return. */
	#confirmUrl(locale: Locale, redirectTo: string): string {
		const url = new URL(`${this.#o.appUrl}/${locale}/confirm`)
		url.searchParams.set('redirect-to', redirectTo)
		return url.toString()
	}

	/**
	 * The signed-in user as Supabase Auth sees it now (a request to /user:
	 * a revoked session or deleted user shows), with the token's claims; null
	 * without a session.
	 */
	async #currentUser(supabase: SupabaseClient): Promise<{ user: User; claims: JwtPayload } | null> {
		const claimed = await supabase.auth.getClaims()
		if (claimed.error) {
			if (errorCode(claimed.error) === 'session_not_found') return null
			throw claimed.error
		}
		if (!claimed.data?.claims) return null
		const { data, error } = await supabase.auth.getUser()
		if (error) throw error
		return { user: data.user, claims: claimed.data.claims }
	}

	/**
	 * Whether the session's user has a verified second factor: false, true, or
	 * null when Supabase could not say (then getViewer treats the session as
	 * owing the code: failing closed).
	 */
	async #hasVerifiedFactor(supabase: SupabaseClient, claims: JwtPayload): Promise<boolean | null> {
		const key = `${claims.sub}:${claims.session_id ?? ''}`
		const now = this.#now()
		const cached = this.#factorCache.get(key)
		if (cached && cached.until > now) return cached.verified
		const { data, error } = await supabase.auth.getUser()
		if (error || !data.user) return null
		const verified = (data.user.factors ?? []).some((f) => f.status === 'verified')
		if (this.#factorCache.size >= 10_000) this.#factorCache.clear()
		this.#factorCache.set(key, { verified, until: now + (this.#o.factorCacheSeconds ?? 30) * 1000 })
		return verified
	}

	#forgetFactors(userId: string): void {
		for (const key of this.#factorCache.keys()) if (key.startsWith(`${userId}:`)) this.#factorCache.delete(key)
	}

	/**
	 * Supabase cannot check a password on its own: sign in on the side with a
	 * client that holds no cookie, then end that session at once.
	 */
	async #checkPassword(headers: Headers, user: User, password: string): Promise<AuthResult<never> | null> {
		// An account without an e-mail address (a provider that gave none) has no password.
		if (!user.email) return fail(headers, 'error-invalid-credentials', 400)
		const side = createDetachedClient(this.#o.url, this.#o.anonKey, this.#connection.fetch)
		const { data, error } = await side.auth.signInWithPassword({ email: user.email, password })
		if (error) throw error
		if (data.session) await this.#bestEffort('ending the password check session', () => side.auth.signOut({ scope: 'local' }))
		return null
	}

	/** Whether the project has the provider switched on (GET /auth/v1/settings); null when that could not be read. */
	async #providerEnabled(provider: string): Promise<boolean | null> {
		const now = this.#now()
		if (!this.#settings || this.#settings.until <= now) {
			try {
				const response = await (this.#connection.fetch ?? fetch)(`${this.#o.url}/auth/v1/settings`, { headers: { apikey: this.#o.anonKey } })
				if (!response.ok) return null
				const body = (await response.json()) as { external?: Record<string, unknown> }
				const providers = Object.fromEntries(Object.entries(body.external ?? {}).map(([k, v]) => [k, v === true]))
				this.#settings = { providers, until: now + (this.#o.settingsCacheSeconds ?? 300) * 1000 }
			} catch {
				return null
			}
		}
		return this.#settings.providers[provider] ?? false
	}

	/** A step whose failure must not fail the operation (logged as a warning). */
	async #bestEffort(what: string, fn: () => Promise<{ error: unknown }>): Promise<void> {
		try {
			const { error } = await fn()
			if (error) this.#log('warn', `${what} failed`, describe(error))
		} catch (error) {
			this.#log('warn', `${what} failed`, describe(error))
		}
	}
}

// ---------------------------------------------------------------------------
// Small helpers
// ---------------------------------------------------------------------------

/** The user's verified authenticator-app factor, if any. */
function verifiedTotp(user: User | null | undefined): Factor | null {
	return (user?.factors ?? []).find((f) => f.factor_type === 'totp' && f.status === 'verified') ?? null
}

function newest(factors: Factor[]): Factor | null {
	return factors.reduce<Factor | null>((a, f) => (!a || f.created_at > a.created_at ? f : a), null)
}

/** Sign-up answers that only say "this address already has an account" (or was mailed a moment ago). */
function isExistingAddressAnswer(error: unknown): boolean {
	const code = errorCode(error)
	return code === 'user_already_exists' || code === 'email_exists' || isPerAddressMailCooldown(error)
}

/** Whether the session proved a recovery link within the last hour (amr entry `recovery`). */
function recentRecovery(claims: JwtPayload, now: number): boolean {
	const since = Math.floor(now / 1000) - RECOVERY_WINDOW_SECONDS
	return (claims.amr ?? []).some((entry) => typeof entry === 'object' && entry.method === 'recovery' && entry.timestamp >= since)
}

function describe(error: unknown): string {
	if (error instanceof Error) return `${error.name}: ${error.message}`
	if (typeof error === 'object' && error !== null && 'message' in error) return String((error as { message: unknown }).message)
	return String(error)
}

const consoleLogger: AuthLogger = (level, message, ...details) => {
	if (level === 'debug' || level === 'info') return
	const write = level === 'error' ? console.error : console.warn
	write(`[auth] ${message}`, ...details)
}
