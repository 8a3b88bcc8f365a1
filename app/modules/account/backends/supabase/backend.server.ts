import { randomBytes } from 'node:crypto'
import type { EmailOtpType, Factor, JwtPayload, SupabaseClient, User } from '@supabase/supabase-js'
import type { JwtClaims } from '#app/db/as-user.server'
import type { Database } from '#app/db/database.server'
import { isLocale, type Locale } from '#app/i18n/locales'
import { refuse, type AccountBackend, type AccountUser, type BackendCall } from '#app/modules/account/backend.server'
import { consoleLogger, type AuthLogger, type RateLimits } from '#app/modules/account/limits.server'
import { MemoryRateLimiter } from '#app/modules/account/memory-rate-limit.server'
import { RateLimiter } from '#app/modules/account/rate-limit.server'
import { OAUTH_PROVIDERS, TOTP_CODE, inSignInOrder, isOAuthProvider } from '#app/modules/account/rules.server'
import { createAccountService } from '#app/modules/account/service.server'
import type { AccountService, AuthAdapter, AuthFailure, OAuthProvider, SignInMethod, Viewer } from '#app/modules/account/types'
import {
	authStorageKey,
	createDetachedClient,
	createSupabaseServerClient,
	expireSessionCookies,
	hasSessionCookie,
	retryingFetch,
	type SupabaseConnection,
} from './client.server'
import { errorCode, isPerAddressMailCooldown, redirectErrorCode, toAuthFailure } from './errors.server'

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
	 * The app's database: deleting an account's auth.users row in one
	 * statement, looking up whether an address has an account, and, with
	 * `rateLimitSecret`, rate-limit counters shared by every instance
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
	/** Reads the project's provider settings once, so that `oauthProviders` is known before the first page. */
	ready(): Promise<void>
}

/**
 * The Supabase platform's accounts: Supabase Auth through @supabase/ssr
 * (PKCE flow, session in HttpOnly cookies), as an AccountBackend under the
 * shared AccountService (app/modules/account). The links:
 *
 *   sign-up / resend: a mail whose link is /{lang}/confirm?redirect-to=/path&token_hash=...&type=signup
 *     (supabase/templates/confirmation.html builds it from {{ .RedirectTo }}, which is
 *     emailRedirectTo below)                                  -> confirmEmail (a POST from the confirm card)
 *   Google / Twitch: Supabase returns to /{lang}/confirm?redirect-to=/path&code=...
 *                                                              -> confirmEmail (the GET: state and PKCE protect it)
 *   reset: /{lang}/password-reset?changePassword=true&token=<token hash>
 *     (supabase/templates/recovery.html)                       -> resetPassword({ token, password })
 */
export function createSupabaseAuth(options: SupabaseAuthOptions): SupabaseAuth {
	const backend = new SupabaseAccountBackend(options)
	const now = options.now ?? Date.now
	const accounts = createAccountService(backend, {
		limiter:
			options.db && options.rateLimitSecret
				? new RateLimiter(options.db, options.rateLimitSecret, 'app_private.rate_limits')
				: new MemoryRateLimiter({ now }),
		secret: options.rateLimitSecret ?? randomBytes(32).toString('base64url'),
		trustProxy: options.trustProxy ?? 0,
		secureCookies: options.secureCookies ?? options.appUrl.startsWith('https:'),
		log: options.log ?? consoleLogger(),
		rateLimits: options.rateLimits,
		now,
	})
	return { accounts, auth: { getViewer: (request) => backend.getViewer(request) }, ready: () => backend.refreshProviders() }
}

interface SupabaseNative {
	user: User
	claims: JwtPayload
	supabase: SupabaseClient
}

/** The app_metadata mark of an unconfirmed account that two sign-ups chose different passwords for. */
const CONTESTED = 'contested_sign_up'

class SupabaseAccountBackend implements AccountBackend<SupabaseNative> {
	readonly #o: Required<Pick<SupabaseAuthOptions, 'url' | 'anonKey' | 'appUrl' | 'appName'>> & SupabaseAuthOptions
	readonly #connection: SupabaseConnection
	readonly #storageKey: string
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
		this.#now = options.now ?? Date.now
		this.#log = options.log ?? consoleLogger()
	}

	toFailure(error: unknown): AuthFailure | null {
		return toAuthFailure(error)
	}

	/** The providers the project has switched on, as last read (GET /auth/v1/settings, refreshed in the background). */
	get oauthProviders(): readonly OAuthProvider[] {
		if (!this.#settings || this.#settings.until <= this.#now()) void this.refreshProviders()
		const providers = this.#settings?.providers ?? {}
		return OAUTH_PROVIDERS.filter((p) => providers[p] === true)
	}

	async refreshProviders(): Promise<void> {
		try {
			const response = await (this.#connection.fetch ?? fetch)(`${this.#o.url}/auth/v1/settings`, { headers: { apikey: this.#o.anonKey } })
			if (!response.ok) return
			const body = (await response.json()) as { external?: Record<string, unknown> }
			const providers = Object.fromEntries(Object.entries(body.external ?? {}).map(([k, v]) => [k, v === true]))
			this.#settings = { providers, until: this.#now() + (this.#o.settingsCacheSeconds ?? 300) * 1000 }
		} catch (error) {
			this.#log('warn', 'could not read the Supabase Auth settings', describe(error))
		}
	}

	async getViewer(request: Request): Promise<{ viewer: Viewer | null; headers: Headers }> {
		const headers = new Headers()
		if (!hasSessionCookie(request, this.#storageKey)) return { viewer: null, headers }
		const supabase = this.#client(request, headers, null)
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
		// The token getClaims just verified (and refreshed if it had expired): the realtime client's.
		const accessToken = (await supabase.auth.getSession()).data.session?.access_token
		return { viewer: { claims, userId: c.sub, email: claims.email ?? null, totpEnabled: aal === 'aal2', ...(accessToken ? { accessToken } : {}) }, headers }
	}

	async currentUser(c: BackendCall): Promise<AccountUser<SupabaseNative> | null> {
		if (!hasSessionCookie(c.request, this.#storageKey)) return null
		const supabase = this.#client(c.request, c.headers, c.ip)
		const current = await this.#currentUser(supabase)
		if (!current) return null
		const amr = (current.claims.amr ?? []).filter((entry): entry is { method: string; timestamp: number } => typeof entry === 'object')
		return {
			id: current.user.id,
			email: current.user.email ?? null,
			totpEnabled: verifiedTotp(current.user) !== null,
			aal: current.claims.aal === 'aal2' ? 'aal2' : 'aal1',
			hasPassword: (current.user.identities ?? []).some((i) => i.provider === 'email'),
			signedInAt: Math.max(0, ...amr.map((e) => e.timestamp)) * 1000,
			native: { ...current, supabase },
		}
	}

	// -- Sign-up and confirmation ---------------------------------------------

	async signUp(c: BackendCall, input: { email: string; password: string; locale: Locale; redirectTo: string; mayMail: boolean }): Promise<boolean> {
		const existing = await this.#existingUser(input.email)
		if (existing) {
			// Supabase keeps an existing account's password on a repeated sign-up;
			// this keeps the answer the same, mails only within the countdown, and
			// marks a second password so that confirming cannot make either work.
			if (existing.confirmed) return false
			if (!(await this.#samePassword(input.email, input.password))) await this.#markContested(existing.id)
			if (!input.mayMail) return false
			await this.resendConfirmation(c, input)
			return true
		}
		const { error } = await this.#client(c.request, c.headers, c.ip).auth.signUp({
			email: input.email,
			password: input.password,
			options: {
				// The mail's language (supabase/templates read .Data.locale) and the
				// user's from then on.
				data: { locale: input.locale },
				emailRedirectTo: this.#confirmUrl(input.locale, input.redirectTo),
			},
		})
		// What Supabase may still say differently for a known address is turned
		// into the same answer: the address exists, or a mail went to it a moment ago.
		if (error && !isExistingAddressAnswer(error)) throw error
		return !error
	}

	/** The address's auth.users row, read from the app's database; null without one (or without a database). */
	async #existingUser(email: string): Promise<{ id: string; confirmed: boolean } | null> {
		if (!this.#o.db) return null
		const { rows } = await this.#o.db.query<{ id: string; confirmed: boolean }>(
			'select id, email_confirmed_at is not null as confirmed from auth.users where lower(email) = $1 limit 1',
			[email],
		)
		return rows[0] ?? null
	}

	/** Supabase checks the password before it refuses an unconfirmed address: that refusal means the password matched. */
	async #samePassword(email: string, password: string): Promise<boolean> {
		const side = createDetachedClient(this.#o.url, this.#o.anonKey, this.#connection.fetch)
		const { data, error } = await side.auth.signInWithPassword({ email, password })
		if (data.session) await this.#bestEffort('ending the password check session', () => side.auth.signOut({ scope: 'local' }))
		return !error || errorCode(error) === 'email_not_confirmed'
	}

	async #markContested(userId: string): Promise<void> {
		const admin = this.#admin()
		const { error } = await admin.auth.admin.updateUserById(userId, { app_metadata: { [CONTESTED]: true } })
		if (error) throw error
	}

	#admin(): SupabaseClient {
		if (!this.#o.serviceRoleKey) {
			this.#log('error', 'this account operation needs SUPABASE_SERVICE_ROLE_KEY')
			refuse('error-unknown', 501, ['service-role-key-missing'])
		}
		return createDetachedClient(this.#o.url, this.#o.serviceRoleKey, this.#connection.fetch)
	}

	async resendConfirmation(c: BackendCall, input: { email: string; locale: Locale; redirectTo: string }): Promise<void> {
		const { error } = await this.#client(c.request, c.headers, c.ip).auth.resend({
			type: 'signup',
			email: input.email,
			options: { emailRedirectTo: this.#confirmUrl(input.locale, input.redirectTo) },
		})
		// Supabase answers 200 for unknown and confirmed addresses, and 429 only
		// for an unconfirmed one mailed a moment ago (another instance's
		// counter): that, too, gets the common answer.
		if (error && !isPerAddressMailCooldown(error)) throw error
	}

	async confirmEmail(c: BackendCall, input: { locale: Locale; redirectTo: string; typedHere: (address: string) => boolean }): Promise<{ redirectTo: string; signedIn: boolean }> {
		const url = new URL(c.request.url)
		const { locale } = input
		let redirectTo = input.redirectTo
		const supabase = this.#client(c.request, c.headers, c.ip)
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
			return failed ? refuse(failed, 400) : refuse('error-invalid-token', 401)
		}
		if (!user) refuse('error-invalid-token', 401)
		if (user.app_metadata?.[CONTESTED] === true) {
			// Two sign-ups chose passwords for this address: neither starts to work.
			// The link signed its reader (the mailbox's owner) in; they set one by reset.
			const { error } = await this.#admin().auth.admin.updateUserById(user.id, {
				password: randomBytes(32).toString('base64url'),
				app_metadata: { [CONTESTED]: null },
			})
			if (error) throw error
		}
		// Provider sign-ups carry no locale yet: the page's, for the mails to come.
		if (!isLocale(user.user_metadata?.locale)) await this.#bestEffort('saving the locale', () => supabase.auth.updateUser({ data: { locale } }))
		// An account with two-factor sign-in owes its code before it is signed in.
		// A sign-up's link opened in a browser that did not type its password:
		// the address is confirmed, and nobody is signed in (someone else may
		// have chosen that password; the owner signs in, or resets it).
		if (tokenHash && (type === 'signup' || type === 'email') && !(user.email && input.typedHere(user.email))) {
			await supabase.auth.signOut({ scope: 'local' })
			return { redirectTo, signedIn: false }
		}
		if (verifiedTotp(user)) redirectTo = `/${locale}/login?${new URLSearchParams({ step: 'totp', redirectTo })}`
		return { redirectTo, signedIn: true }
	}

	// -- Sign-in and sign-out -------------------------------------------------

	async signIn(c: BackendCall, input: { email: string; password: string }): Promise<{ totpRequired: boolean }> {
		const supabase = this.#client(c.request, c.headers, c.ip)
		// The session this browser held before (its access token only: the
		// cookie's user object is not to be trusted on the server).
		const previous = hasSessionCookie(c.request, this.#storageKey) ? (await supabase.auth.getSession()).data.session?.access_token : undefined
		const { data, error } = await supabase.auth.signInWithPassword(input)
		if (error) throw error
		// Every sign-in gets a new session (and cookie); the previous one is
		// ended rather than left valid on the server.
		if (previous) await this.#bestEffort('ending the previous session', () => supabase.auth.admin.signOut(previous, 'local'))
		return { totpRequired: verifiedTotp(data.user) !== null }
	}

	async verifySignInTotp(_c: BackendCall, input: { code: string }, user: AccountUser<SupabaseNative> | null): Promise<void> {
		// Supabase has no recovery codes: only the authenticator's 6 digits.
		if (!TOTP_CODE.test(input.code)) refuse('error-invalid-totp', 422)
		// The aal1 session the password (or provider) sign-in left; gone or
		// expired means signing in again, as on the local platform.
		if (!user) refuse('error-session-not-found', 401)
		const factor = verifiedTotp(user.native.user)
		if (!factor) refuse('error-invalid-totp', 422, ['not-enrolled'])
		const { error } = await user.native.supabase.auth.mfa.challengeAndVerify({ factorId: factor.id, code: input.code })
		if (error) throw error
		this.#forgetFactors(user.id)
	}

	async signOut(c: BackendCall): Promise<void> {
		if (!hasSessionCookie(c.request, this.#storageKey)) return
		const { error } = await this.#client(c.request, c.headers, c.ip).auth.signOut({ scope: 'local' })
		// This browser is signed out whatever Supabase said: its cookies go.
		// A session Supabase could not revoke (unreachable) expires on its own.
		if (error) this.#log('warn', 'sign-out could not reach Supabase; the cookies are cleared anyway', error.message)
		expireSessionCookies(c.request, this.#storageKey, c.headers, this.#connection.secureCookies)
	}

	// -- Password reset -------------------------------------------------------

	async requestPasswordReset(c: BackendCall, input: { email: string; locale: Locale }): Promise<void> {
		// supabase/templates/recovery.html appends &token={{ .TokenHash }}.
		const redirect = new URL(`${this.#o.appUrl}/${input.locale}/password-reset`)
		redirect.searchParams.set('changePassword', 'true')
		const { error } = await this.#client(c.request, c.headers, c.ip).auth.resetPasswordForEmail(input.email, { redirectTo: redirect.toString() })
		// Supabase answers 200 for unknown addresses; a known one mailed a
		// moment ago would get 429, which would tell: the same answer instead.
		if (error && !isPerAddressMailCooldown(error)) throw error
	}

	/**
	 * With `token` (the recovery mail's token hash): verifies it, which signs
	 * the browser in with a recovery session, then sets the password. Without
	 * one: the browser must already hold a recovery session from the last
	 * hour. Then every session of the user ends, this browser's included.
	 */
	async resetPassword(c: BackendCall, input: { token: string; password: string }): Promise<void> {
		const supabase = this.#client(c.request, c.headers, c.ip)
		if (input.token) {
			const { error } = await supabase.auth.verifyOtp({ token_hash: input.token, type: 'recovery' })
			if (error) throw error
		} else {
			const { data } = await supabase.auth.getClaims()
			if (!data?.claims || !recentRecovery(data.claims, this.#now())) refuse('error-invalid-token', 401)
		}
		const { error } = await supabase.auth.updateUser({ password: input.password })
		if (error) throw error
		const signedOut = await supabase.auth.signOut({ scope: 'global' })
		if (signedOut.error) this.#log('warn', 'could not end the other sessions after a password reset', signedOut.error.message)
		expireSessionCookies(c.request, this.#storageKey, c.headers, this.#connection.secureCookies)
	}

	// -- Google and Twitch ----------------------------------------------------

	async startOAuth(c: BackendCall, input: { provider: OAuthProvider; locale: Locale; redirectTo: string }): Promise<{ url: string }> {
		// docs/product.md §3.1: back to /confirm with redirect-to holding the path;
		// Supabase appends ?code=... (or ?error=...&error_code=...).
		const { data, error } = await this.#client(c.request, c.headers, c.ip).auth.signInWithOAuth({
			provider: input.provider,
			options: { redirectTo: this.#confirmUrl(input.locale, input.redirectTo), skipBrowserRedirect: true },
		})
		if (error) throw error
		if (!data.url) refuse('error-unknown', 500)
		return { url: data.url }
	}

	/** Supabase serves the providers' callbacks itself (/auth/v1/callback) and returns to /confirm with a code. */
	ownsPath(): boolean {
		return false
	}

	async handle(): Promise<Response | null> {
		return null
	}

	// -- Proofs, two-factor ---------------------------------------------------

	/**
	 * Supabase cannot check a password on its own: sign in on the side with a
	 * client that holds no cookie, then end that session at once.
	 */
	async checkPassword(_c: BackendCall, user: AccountUser<SupabaseNative>, password: string): Promise<void> {
		// An account without an e-mail address (a provider that gave none) has no password.
		if (!user.email) refuse('error-wrong-password', 400)
		const side = createDetachedClient(this.#o.url, this.#o.anonKey, this.#connection.fetch)
		const { data, error } = await side.auth.signInWithPassword({ email: user.email, password })
		if (error && errorCode(error) === 'invalid_credentials') refuse('error-wrong-password', 400)
		if (error) throw error
		if (data.session) await this.#bestEffort('ending the password check session', () => side.auth.signOut({ scope: 'local' }))
	}

	async checkTotp(_c: BackendCall, user: AccountUser<SupabaseNative>, code: string): Promise<void> {
		const factor = verifiedTotp(user.native.user)
		if (!factor) refuse('error-invalid-totp', 422, ['not-enrolled'])
		const { error } = await user.native.supabase.auth.mfa.challengeAndVerify({ factorId: factor.id, code })
		if (error) throw error
	}

	async enrollTotp(c: BackendCall, user: AccountUser<SupabaseNative>, input: { password: string }) {
		await this.checkPassword(c, user, input.password)
		const { supabase } = user.native
		// An enrolment never confirmed (the page was left) is replaced.
		for (const factor of user.native.user.factors ?? []) {
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
		if (data.type !== 'totp' || !data.totp.uri || !data.totp.secret) refuse('error-unknown', 500)
		// Supabase Auth has no recovery codes (its MFA offers further factors
		// instead): the list stays empty and the settings page shows none.
		return { uri: data.totp.uri, secret: data.totp.secret, recoveryCodes: [] }
	}

	async confirmTotpEnrollment(_c: BackendCall, user: AccountUser<SupabaseNative>, input: { code: string }): Promise<void> {
		const pending = newest((user.native.user.factors ?? []).filter((f) => f.factor_type === 'totp' && f.status === 'unverified'))
		if (!pending) refuse('error-invalid-totp', 422, ['not-enrolled'])
		// The first valid code turns the factor on and upgrades this session to aal2.
		const { error } = await user.native.supabase.auth.mfa.challengeAndVerify({ factorId: pending.id, code: input.code })
		if (error) throw error
		this.#forgetFactors(user.id)
	}

	async disableTotp(c: BackendCall, user: AccountUser<SupabaseNative>, input: { password: string }): Promise<void> {
		await this.checkPassword(c, user, input.password)
		const { supabase } = user.native
		for (const factor of user.native.user.factors ?? []) {
			if (factor.factor_type !== 'totp') continue
			const { error } = await supabase.auth.mfa.unenroll({ factorId: factor.id })
			if (error) throw error
		}
		this.#forgetFactors(user.id)
		// The access token still says aal2 until it is renewed: renew it now.
		if (user.totpEnabled) await this.#bestEffort('refreshing the session after removing two-factor sign-in', () => supabase.auth.refreshSession())
	}

	// -- Account deletion -----------------------------------------------------

	async deleteAccount(c: BackendCall, user: AccountUser<SupabaseNative>): Promise<void> {
		// The auth.users row goes in one statement: the database's `before
		// delete` trigger ends the user's live session, refunds its dares'
		// boosters and forfeits what is left in the wallet, and the foreign
		// keys cascade to the app's rows.
		if (this.#o.db) await this.#o.db.query('delete from auth.users where id = $1', [user.id])
		// Supabase Auth's own records (and, without a database handle, the row
		// itself, through the same trigger).
		const { error } = await this.#admin().auth.admin.deleteUser(user.id)
		if (error && errorCode(error) !== 'user_not_found') throw error
		this.#forgetFactors(user.id)
		// Its sessions went with it: this browser's cookies are stale.
		expireSessionCookies(c.request, this.#storageKey, c.headers, this.#connection.secureCookies)
	}

	// -- Sign-in methods (settings) -------------------------------------------

	async signInMethods(_c: BackendCall, user: AccountUser<SupabaseNative>): Promise<SignInMethod[]> {
		return signInMethods(user.native.user)
	}

	async linkProvider(_c: BackendCall, user: AccountUser<SupabaseNative>, input: { provider: OAuthProvider; locale: Locale }): Promise<{ url: string }> {
		// Supabase returns to the settings with ?code=... (PKCE), or ?error=...&error_code=...
		const back = new URL(`${this.#o.appUrl}/${input.locale}/settings`)
		back.searchParams.set('link', input.provider)
		const { data, error } = await user.native.supabase.auth.linkIdentity({
			provider: input.provider,
			options: { redirectTo: back.toString(), skipBrowserRedirect: true },
		})
		if (error) throw error
		if (!data.url) refuse('error-unknown', 500)
		return { url: data.url }
	}

	async finishLink(c: BackendCall): Promise<void> {
		const url = new URL(c.request.url)
		const failed = redirectErrorCode(url.searchParams)
		if (failed) refuse(failed, 400)
		const code = url.searchParams.get('code')
		if (code && code.length <= 512) {
			// The code verifier is the cookie linkProvider left; the new session carries the identity.
			const { error } = await this.#client(c.request, c.headers, c.ip).auth.exchangeCodeForSession(code)
			if (error) throw error
		}
	}

	async unlinkProvider(_c: BackendCall, user: AccountUser<SupabaseNative>, input: { provider: OAuthProvider }): Promise<void> {
		const identity = (user.native.user.identities ?? []).find((i) => i.provider === input.provider)
		if (!identity) refuse('error-identity-not-found', 404)
		const { error } = await user.native.supabase.auth.unlinkIdentity(identity)
		if (error) throw error
		// The session's user object still lists it until refreshed; the next read asks Supabase again.
		await this.#bestEffort('refreshing the session after unlinking', () => user.native.supabase.auth.refreshSession())
	}

	// -- Helpers --------------------------------------------------------------

	#client(request: Request, headers: Headers, ip: string | null): SupabaseClient {
		// Where a trusted proxy names the visitor, Supabase can count its own
		// per-IP limits per visitor rather than per app server (self-hosted Auth
		// reads the header with GOTRUE_RATE_LIMIT_HEADER=X-Forwarded-For).
		const extra = ip ? { 'X-Forwarded-For': ip.replace(/::\/64$/, '::') } : undefined
		return createSupabaseServerClient(this.#connection, request, headers, extra)
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
