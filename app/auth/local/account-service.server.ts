import { createEmailVerificationToken } from 'better-auth/api'
import type { JwtClaims } from '#app/db/as-user.server'
import type { Database } from '#app/db/database.server'
import { DEFAULT_LOCALE, isLocale, localeFromPath, type Locale } from '#app/i18n/locales'
import type { AccountService, AuthAdapter, AuthResult, MailAdapter, OAuthProvider, SignInMethod, Viewer } from '#app/platform/types'
import {
	MAX_INPUT_LENGTH,
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
import { BackgroundTasks } from './background.server'
import { AUTH_BASE_PATH, CLIENT_IP_HEADER, createBetterAuth, type LocalBetterAuth } from './better-auth.server'
import { runInCallContext } from './call-context.server'
import { clientIp } from './client-ip.server'
import { fail, failure, succeed, toAuthFailure } from './errors.server'
import { AccountMails } from './mails.server'
import { decodeJwtPayload, type OAuthProviderId } from './oauth-providers.server'
import {
	consoleLogger,
	DEFAULT_RATE_LIMITS,
	MIN_SECRET_LENGTH,
	type AuthLogger,
	type LocalAuthOptions,
	type RateLimit,
	type RateLimits,
} from './options.server'
import { RateLimiter } from './rate-limit.server'

const OAUTH_CALLBACK = new RegExp(`^${AUTH_BASE_PATH}/callback/(google|twitch)$`)

export interface LocalAuth {
	accounts: AccountService
	auth: AuthAdapter
	/** Resolves when the mails and other work started in the background are done (tests, shutdown). */
	settled(): Promise<void>
	/** Better Auth itself, for what this module does not wrap (tests inspect its schema check). */
	betterAuth: LocalBetterAuth
}

/**
 * The local platform's accounts: Better Auth over the app's own database,
 * behind the AccountService and AuthAdapter interfaces the routes use.
 *
 * Every Better Auth call gets headers built here (the request's cookies and
 * user agent, and the client address as this module resolved it), never the
 * request itself: Better Auth's own origin checks then stay out of the way
 * of the routes' (which check every state-changing POST), and a client
 * cannot feed it forwarded-for headers.
 */
export function createLocalAuth(db: Database, mail: MailAdapter, options: LocalAuthOptions): LocalAuth {
	if (options.secret.length < MIN_SECRET_LENGTH) {
		throw new Error(`The auth secret must be at least ${MIN_SECRET_LENGTH} characters long`)
	}
	const appUrl = options.appUrl.replace(/\/+$/, '')
	const log = options.log ?? consoleLogger()
	const limits: RateLimits = { ...DEFAULT_RATE_LIMITS, ...options.rateLimits }
	const background = new BackgroundTasks(log)
	const mails = new AccountMails(appUrl, mail, background)
	const limiter = new RateLimiter(db, options.secret)
	const auth = createBetterAuth({
		db,
		appUrl,
		appName: options.appName ?? 'Dareboost',
		secret: options.secret,
		google: options.google,
		twitch: options.twitch,
		mails,
		background,
		log,
	})
	const service = new LocalAccountService({
		db,
		auth,
		appUrl,
		limits,
		limiter,
		mails,
		log,
		trustProxy: options.trustProxy ?? 0,
		providers: { google: !!options.google, twitch: !!options.twitch },
	})
	return {
		accounts: service,
		auth: { getViewer: (request) => service.getViewer(request) },
		settled: () => background.settled(),
		betterAuth: auth,
	}
}

interface ServiceDeps {
	db: Database
	auth: LocalBetterAuth
	appUrl: string
	limits: RateLimits
	limiter: RateLimiter
	mails: AccountMails
	log: AuthLogger
	trustProxy: number
	providers: Record<OAuthProviderId, boolean>
}

type Check = readonly [scope: string, value: string | null, limit: RateLimit]

type CurrentSession = NonNullable<Awaited<ReturnType<LocalBetterAuth['api']['getSession']>>>

class LocalAccountService implements AccountService {
	readonly #d: ServiceDeps

	constructor(deps: ServiceDeps) {
		this.#d = deps
	}

	// -------------------------------------------------------------------------
	// Viewer
	// -------------------------------------------------------------------------

	async getViewer(request: Request): Promise<{ viewer: Viewer | null; headers: Headers }> {
		if (!hasSessionCookie(request)) return { viewer: null, headers: new Headers() }
		// May slide the session's expiry forward, hence the cookie headers.
		const { headers, response } = await this.#d.auth.api.getSession({
			headers: this.#authHeaders(request),
			returnHeaders: true,
		})
		const out = setCookies(headers)
		if (!response) return { viewer: null, headers: out }
		const { user, session } = response
		const claims: JwtClaims = {
			sub: user.id,
			role: 'authenticated',
			email: user.email,
			// aal2 only while the second factor is on and this very session proved it.
			aal: user.twoFactorEnabled === true && session.aal === 'aal2' ? 'aal2' : 'aal1',
			session_id: session.id,
		}
		return {
			viewer: { claims, userId: user.id, email: user.email, totpEnabled: user.twoFactorEnabled === true },
			headers: out,
		}
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
			const ip = this.#ip(request)
			const refused = await this.#limit(headers, [
				['sign-up:ip', ip, this.#d.limits.signUpPerIp],
				['sign-up:address', email, this.#d.limits.signUpPerAddress],
			])
			if (refused) return refused
			const redirectTo = safeRedirectPath(input.redirectTo, `/${input.locale}`)
			const ctx = await this.#d.auth.$context
			const existing = await ctx.internalAdapter.findUserByEmail(email, { includeAccounts: true })

			if (existing) {
				// No second account, and the same answer as for a new address, after
				// the same expensive step (one password hash).
				const hash = await ctx.password.hash(input.password)
				if (!existing.user.emailVerified) {
					// A sign-up that was never confirmed is replaced by this one: the
					// latest password counts, earlier confirmation links stop working
					// (confirmEmail), and the confirmation mail goes out again unless
					// one went out in the last minute. Otherwise someone who signed up
					// first with another person's address would keep a password to
					// the account that person is about to confirm.
					const credential = existing.accounts.find((a) => a.providerId === 'credential')
					if (credential) {
						await ctx.internalAdapter.updatePassword(existing.user.id, hash)
						await this.#sendConfirmationWithCooldown(email, existing.user.id, input.locale, redirectTo)
					}
				}
				return succeed(headers, null)
			}

			try {
				await runInCallContext({ locale: input.locale, redirectTo }, () =>
					this.#d.auth.api.signUpEmail({
						body: { name: '', email, password: input.password, locale: input.locale, callbackURL: redirectTo },
						headers: this.#authHeaders(request, { withSession: false }),
					}),
				)
			} catch (error) {
				// Two sign-ups for the same new address at once: the unique e-mail
				// lets one through. The other gets the same answer as any repeat.
				if (await ctx.internalAdapter.findUserByEmail(email)) return succeed(headers, null)
				throw error
			}
			// The mail just went out: the resend countdown starts now.
			await this.#d.limiter.restart(this.#d.limiter.key('confirmation-mail', email))
			return succeed(headers, null)
		})
	}

	resendConfirmation(request: Request, input: { email: string; locale: Locale; redirectTo: string }): Promise<AuthResult> {
		return this.#guard(async (headers) => {
			const email = normaliseEmail(input.email)
			if (!isAcceptableEmail(email)) return fail(headers, 'error-invalid-email', 400)
			const refused = await this.#limit(headers, [['resend:ip', this.#ip(request), this.#d.limits.resendPerIp]])
			if (refused) return refused
			const redirectTo = safeRedirectPath(input.redirectTo, `/${input.locale}`)
			// The cooldown counts per address whether or not it has an account,
			// so the answer (429 with the seconds left, or ok) says nothing.
			const cooldown = await this.#d.limiter.consume(this.#d.limiter.key('confirmation-mail', email), {
				max: 1,
				windowSeconds: this.#d.limits.confirmationMailCooldownSeconds,
			})
			if (!cooldown.allowed) return fail(headers, 'error-rate-limited', 429, [String(cooldown.retryAfterSeconds)])
			const ctx = await this.#d.auth.$context
			const found = await ctx.internalAdapter.findUserByEmail(email)
			// The same signing work for every address.
			const token = await createEmailVerificationToken(
				ctx.secret,
				email,
				undefined,
				ctx.options.emailVerification?.expiresIn,
				found ? { userId: found.user.id } : undefined,
			)
			if (found && !found.user.emailVerified) this.#d.mails.sendConfirmation(email, input.locale, token, redirectTo)
			return succeed(headers, null)
		})
	}

	confirmEmail(request: Request): Promise<AuthResult<{ redirectTo: string }>> {
		return this.#guard(async (headers) => {
			const url = new URL(request.url)
			const locale = localeFromPath(url.pathname) ?? DEFAULT_LOCALE
			const redirectTo = safeRedirectPath(url.searchParams.get('redirect-to'), `/${locale}`)
			const refused = await this.#limit(headers, [['link:ip', this.#ip(request), this.#d.limits.otherPerIp]])
			if (refused) return refused
			// A provider that refused (access_denied and the like) returns here
			// with its own error word, which means nothing to the visitor.
			if (url.searchParams.has('error') && !url.searchParams.has('token')) return fail(headers, 'error-unknown', 400)
			const token = url.searchParams.get('token')
			if (!token) return fail(headers, 'error-invalid-token', 401)
			if (await this.#supersededConfirmation(token)) return fail(headers, 'error-invalid-token', 401)
			const result = await this.#d.auth.api.verifyEmail({
				query: { token },
				headers: this.#authHeaders(request),
				returnHeaders: true,
			})
			appendSetCookies(headers, result.headers)
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
				['sign-in:ip', this.#ip(request), this.#d.limits.signInPerIp],
				['sign-in:address', email, this.#d.limits.signInPerAddress],
			])
			if (refused) return refused
			if (!isPlausiblePassword(input.password)) {
				return fail(headers, 'error-invalid-credentials', 400)
			}
			const previous = await this.#session(request)
			const result = await this.#d.auth.api.signInEmail({
				body: { email, password: input.password, rememberMe: true },
				headers: this.#authHeaders(request, { withSession: false }),
				returnHeaders: true,
			})
			appendSetCookies(headers, result.headers)
			// Every sign-in gets a new session (and so a new cookie); the one this
			// browser held before is ended rather than left valid in the database.
			if (previous) await this.#endSession(previous.session.token)
			return succeed(headers, { totpRequired: 'twoFactorRedirect' in result.response })
		})
	}

	verifySignInTotp(request: Request, input: { code: string }): Promise<AuthResult> {
		return this.#guard(async (headers) => {
			const refused = await this.#limit(headers, [['totp:ip', this.#ip(request), this.#d.limits.totpPerIp]])
			if (refused) return refused
			const code = input.code.replace(/\s+/g, '')
			if (code.length === 0 || code.length > MAX_INPUT_LENGTH) return fail(headers, 'error-invalid-totp', 422)
			const current = await this.#session(request)

			// Step-up: a session that did not prove the second factor (one that
			// existed before TOTP was enrolled, on another device) proves it now.
			if (current && current.user.twoFactorEnabled === true && current.session.aal !== 'aal2') {
				const perUser = await this.#limit(headers, [['sensitive:user', current.user.id, this.#d.limits.sensitivePerUser]])
				if (perUser) return perUser
				await this.#verifySecondFactor(code, this.#authHeaders(request), headers)
				const ctx = await this.#d.auth.$context
				await ctx.internalAdapter.updateSession(current.session.token, { aal: 'aal2' })
				return succeed(headers, null)
			}

			// A sign-in waiting for its code (the two_factor cookie). Any other
			// session cookie is left out, or Better Auth would check the code
			// against that session instead.
			await this.#verifySecondFactor(code, this.#authHeaders(request, { withSession: false }), headers)
			if (current) await this.#endSession(current.session.token)
			return succeed(headers, null)
		})
	}

	signOut(request: Request): Promise<AuthResult> {
		return this.#guard(async (headers) => {
			if (hasSessionCookie(request)) {
				const result = await this.#d.auth.api.signOut({ headers: this.#authHeaders(request), returnHeaders: true })
				appendSetCookies(headers, result.headers)
			}
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
				['reset:ip', this.#ip(request), this.#d.limits.resetPerIp],
				['reset:address', email, this.#d.limits.resetPerAddress],
			])
			if (refused) return refused
			// Better Auth answers the same for unknown addresses (after a dummy
			// lookup); the mail, if any, goes out in the background.
			await runInCallContext({ locale: input.locale }, () =>
				this.#d.auth.api.requestPasswordReset({ body: { email }, headers: this.#authHeaders(request, { withSession: false }) }),
			)
			return succeed(headers, null)
		})
	}

	resetPassword(request: Request, input: { token: string; password: string }): Promise<AuthResult> {
		return this.#guard(async (headers) => {
			const refused = await this.#limit(headers, [['link:ip', this.#ip(request), this.#d.limits.otherPerIp]])
			if (refused) return refused
			if (!isAcceptablePassword(input.password)) {
				return fail(headers, 'error-weak-password', 422, ['length'])
			}
			if (!input.token || input.token.length > MAX_INPUT_LENGTH) return fail(headers, 'error-invalid-token', 401)
			const ctx = await this.#d.auth.$context
			const pending = await ctx.internalAdapter.findVerificationValue(`reset-password:${input.token}`)
			await this.#d.auth.api.resetPassword({ body: { token: input.token, newPassword: input.password } })
			// Following the reset link proved the mailbox is the user's, as the
			// confirmation link would have.
			if (pending) {
				const user = await ctx.internalAdapter.findUserById(pending.value)
				if (user && !user.emailVerified) await ctx.internalAdapter.updateUser(user.id, { emailVerified: true })
			}
			// Every session of the user was just revoked; this browser's cookie is stale too.
			for (const cookie of expiredSessionCookies(ctx.authCookies)) headers.append('set-cookie', cookie)
			return succeed(headers, null)
		})
	}

	// -------------------------------------------------------------------------
	// Google and Twitch
	// -------------------------------------------------------------------------

	startOAuth(request: Request, input: { provider: 'google' | 'twitch'; redirectTo: string }): Promise<AuthResult<{ url: string }>> {
		return this.#guard(async (headers) => {
			if (!this.#d.providers[input.provider]) return fail(headers, 'error-unknown', 501, ['provider-not-configured'])
			const refused = await this.#limit(headers, [['oauth:ip', this.#ip(request), this.#d.limits.otherPerIp]])
			if (refused) return refused
			const locale = localeFromPath(input.redirectTo) ?? cookieLocale(request) ?? DEFAULT_LOCALE
			const redirectTo = safeRedirectPath(input.redirectTo, `/${locale}`)
			// Spec section 7: back to /confirm with redirect-to holding the path;
			// failures come back there too, with ?error=<code>.
			const callback = new URL(`${this.#d.appUrl}/${locale}/confirm`)
			callback.searchParams.set('redirect-to', redirectTo)
			const result = await this.#d.auth.api.signInSocial({
				body: {
					provider: input.provider,
					callbackURL: callback.toString(),
					errorCallbackURL: callback.toString(),
					disableRedirect: true,
					additionalData: { locale },
				},
				headers: this.#authHeaders(request),
				returnHeaders: true,
			})
			appendSetCookies(headers, result.headers)
			if (!result.response.url) return fail(headers, 'error-unknown', 500)
			return succeed(headers, { url: result.response.url })
		})
	}

	async handle(request: Request): Promise<Response | null> {
		const url = new URL(request.url)
		if (url.pathname !== AUTH_BASE_PATH && !url.pathname.startsWith(`${AUTH_BASE_PATH}/`)) return null
		// Only the providers' callbacks are served: every other Better Auth
		// endpoint (sign-up, sign-in, ...) would bypass this service's rules.
		const provider = OAUTH_CALLBACK.exec(url.pathname)?.[1] as OAuthProviderId | undefined
		if (!provider || !this.#d.providers[provider] || (request.method !== 'GET' && request.method !== 'POST')) {
			return new Response('Not Found', { status: 404, headers: { 'cache-control': 'no-store' } })
		}
		const ip = this.#ip(request)
		if (ip) {
			const decision = await this.#d.limiter.consume(this.#d.limiter.key('oauth:ip', ip), this.#d.limits.otherPerIp)
			if (!decision.allowed) {
				return new Response('Too Many Requests', {
					status: 429,
					headers: { 'retry-after': String(decision.retryAfterSeconds), 'cache-control': 'no-store' },
				})
			}
		}
		const forwarded = new Request(url, {
			method: request.method,
			headers: this.#authHeaders(request),
			body: request.method === 'POST' ? await request.text() : undefined,
		})
		const contentType = request.headers.get('content-type')
		if (contentType) forwarded.headers.set('content-type', contentType)
		const previous = await this.#session(request)
		// The call context carries the Twitch login from the profile fetch to
		// the account row (better-auth.server.ts, databaseHooks.account).
		const response = await runInCallContext({}, () => this.#d.auth.handler(forwarded))
		// As for a password sign-in: a new session replaces, and ends, the one
		// this browser held.
		const newSession = response.headers.getSetCookie().some((c) => /^[^=]*session_token=[^;]+/.test(c))
		if (previous && newSession) await this.#endSession(previous.session.token)
		return response
	}

	// -------------------------------------------------------------------------
	// Two-factor authentication
	// -------------------------------------------------------------------------

	enrollTotp(request: Request, input: { password: string }): Promise<AuthResult<{ uri: string; secret: string; recoveryCodes: string[] }>> {
		return this.#guard(async (headers) => {
			const current = await this.#session(request)
			if (!current) return fail(headers, 'error-not-authenticated', 401)
			const refused = await this.#limit(headers, [['sensitive:user', current.user.id, this.#d.limits.sensitivePerUser]])
			if (refused) return refused
			if (!isPlausiblePassword(input.password)) {
				return fail(headers, 'error-invalid-credentials', 400)
			}
			const result = await this.#d.auth.api.enableTwoFactor({
				body: { password: input.password },
				headers: this.#authHeaders(request),
				returnHeaders: true,
			})
			appendSetCookies(headers, result.headers)
			const { totpURI, backupCodes } = result.response as { totpURI?: string; backupCodes?: string[] }
			const secret = totpURI ? new URL(totpURI).searchParams.get('secret') : null
			if (!totpURI || !secret || !backupCodes) return fail(headers, 'error-unknown', 500)
			return succeed(headers, { uri: totpURI, secret, recoveryCodes: backupCodes })
		})
	}

	confirmTotpEnrollment(request: Request, input: { code: string }): Promise<AuthResult> {
		return this.#guard(async (headers) => {
			const current = await this.#session(request)
			if (!current) return fail(headers, 'error-not-authenticated', 401)
			const refused = await this.#limit(headers, [['sensitive:user', current.user.id, this.#d.limits.sensitivePerUser]])
			if (refused) return refused
			const code = input.code.replace(/\s+/g, '')
			if (!TOTP_CODE.test(code)) return fail(headers, 'error-invalid-totp', 422)
			const wasEnabled = current.user.twoFactorEnabled === true
			// The first valid code turns TOTP on and replaces the session with
			// one that proved the factor (aal2).
			const result = await this.#d.auth.api.verifyTOTP({
				body: { code },
				headers: this.#authHeaders(request),
				returnHeaders: true,
			})
			appendSetCookies(headers, result.headers)
			if (!wasEnabled) this.#d.mails.sendTotpChanged(current.user.email, localeOf(current.user), true)
			return succeed(headers, null)
		})
	}

	disableTotp(request: Request, input: { password: string }): Promise<AuthResult> {
		return this.#guard(async (headers) => {
			const current = await this.#session(request)
			if (!current) return fail(headers, 'error-not-authenticated', 401)
			const wasEnabled = current.user.twoFactorEnabled === true
			// Only a session that proved the factor may remove it (as Supabase
			// requires aal2 to unenroll a verified factor).
			if (wasEnabled && current.session.aal !== 'aal2') return fail(headers, 'error-not-authenticated', 403, ['aal2-required'])
			const refused = await this.#limit(headers, [['sensitive:user', current.user.id, this.#d.limits.sensitivePerUser]])
			if (refused) return refused
			if (!isPlausiblePassword(input.password)) {
				return fail(headers, 'error-invalid-credentials', 400)
			}
			const result = await this.#d.auth.api.disableTwoFactor({
				body: { password: input.password },
				headers: this.#authHeaders(request),
				returnHeaders: true,
			})
			appendSetCookies(headers, result.headers)
			if (wasEnabled) this.#d.mails.sendTotpChanged(current.user.email, localeOf(current.user), false)
			return succeed(headers, null)
		})
	}

	// -------------------------------------------------------------------------
	// Account deletion
	// -------------------------------------------------------------------------

	deleteAccount(request: Request): Promise<AuthResult> {
		return this.#guard(async (headers) => {
			const current = await this.#session(request)
			if (!current) return fail(headers, 'error-not-authenticated', 401)
			if (current.user.twoFactorEnabled === true && current.session.aal !== 'aal2') {
				return fail(headers, 'error-not-authenticated', 403, ['aal2-required'])
			}
			const userId = current.user.id
			// One transaction: the Better Auth user (its sessions, provider
			// accounts and TOTP cascade), and through the trigger in
			// 150_better_auth.sql its auth.users row, whose delete cascades to the
			// profile, creator profile, consents, wallet and sessions rows.
			const outcome = await this.#d.db.transaction(async (tx) => {
				// PRODUCT.md: the remaining balance goes to the platform's forfeit
				// account through the ledger. Neither exists yet, and deleting the
				// wallet would destroy coins, so an account holding coins stays
				// until they can be moved properly.
				const { rows } = await tx.query<{ balance: number }>('select balance from public.wallets where id = $1 for update', [
					userId,
				])
				if ((rows[0]?.balance ?? 0) > 0) return 'wallet-not-empty' as const
				await tx.query('delete from better_auth."user" where id = $1', [userId])
				return 'deleted' as const
			})
			if (outcome === 'wallet-not-empty') return fail(headers, 'error-unknown', 409, ['wallet-not-empty'])
			const ctx = await this.#d.auth.$context
			for (const cookie of expiredSessionCookies(ctx.authCookies)) headers.append('set-cookie', cookie)
			return succeed(headers, null)
		})
	}

	// -------------------------------------------------------------------------
	// Sign-in methods (settings)
	// -------------------------------------------------------------------------

	listSignInMethods(request: Request): Promise<AuthResult<{ methods: SignInMethod[]; connectable: OAuthProvider[] }>> {
		return this.#guard(async (headers) => {
			const current = await this.#session(request)
			if (!current) return fail(headers, 'error-not-authenticated', 401)
			const methods = await this.#methods(current.user.id, current.user.email)
			const linked = new Set(methods.map((m) => m.provider))
			const connectable = OAUTH_PROVIDERS.filter((p) => this.#d.providers[p] && !linked.has(p))
			return succeed(headers, { methods, connectable })
		})
	}

	linkProvider(request: Request, input: { provider: OAuthProvider; locale: Locale }): Promise<AuthResult<{ url: string }>> {
		return this.#guard(async (headers) => {
			const current = await this.#session(request)
			if (!current) return fail(headers, 'error-not-authenticated', 401)
			if (!this.#d.providers[input.provider]) return fail(headers, 'error-unknown', 501, ['provider-not-configured'])
			if (current.user.twoFactorEnabled === true && current.session.aal !== 'aal2') {
				return fail(headers, 'error-not-authenticated', 403, ['aal2-required'])
			}
			const refused = await this.#limit(headers, [['sensitive:user', current.user.id, this.#d.limits.sensitivePerUser]])
			if (refused) return refused
			// Back to the settings page either way; Better Auth appends ?error=<code> on failure.
			const back = new URL(`${this.#d.appUrl}/${input.locale}/settings`)
			back.searchParams.set('link', input.provider)
			const result = await this.#d.auth.api.linkSocialAccount({
				body: { provider: input.provider, callbackURL: back.toString(), errorCallbackURL: back.toString(), disableRedirect: true },
				headers: this.#authHeaders(request),
				returnHeaders: true,
			})
			appendSetCookies(headers, result.headers)
			if (!result.response.url) return fail(headers, 'error-unknown', 500)
			return succeed(headers, { url: result.response.url })
		})
	}

	finishLink(request: Request): Promise<AuthResult<{ provider: OAuthProvider }>> {
		return this.#guard(async (headers) => {
			const url = new URL(request.url)
			const provider = url.searchParams.get('link')
			if (!isOAuthProvider(provider)) return fail(headers, 'error-unknown', 400)
			const current = await this.#session(request)
			if (!current) return fail(headers, 'error-not-authenticated', 401)
			const error = url.searchParams.get('error')
			if (error) {
				// The identity belongs to another account: Supabase's identity_already_exists.
				if (error === 'account_already_linked_to_different_user') return fail(headers, 'error-identity-already-exists', 422)
				return fail(headers, 'error-unknown', 400, [error.slice(0, 64)])
			}
			// Better Auth linked it before redirecting here; a hand-typed URL proves nothing.
			const methods = await this.#methods(current.user.id, current.user.email)
			if (!methods.some((m) => m.provider === provider)) return fail(headers, 'error-identity-not-found', 404)
			return succeed(headers, { provider })
		})
	}

	unlinkProvider(request: Request, input: { provider: OAuthProvider }): Promise<AuthResult> {
		return this.#guard(async (headers) => {
			const current = await this.#session(request)
			if (!current) return fail(headers, 'error-not-authenticated', 401)
			if (current.user.twoFactorEnabled === true && current.session.aal !== 'aal2') {
				return fail(headers, 'error-not-authenticated', 403, ['aal2-required'])
			}
			const refused = await this.#limit(headers, [['sensitive:user', current.user.id, this.#d.limits.sensitivePerUser]])
			if (refused) return refused
			const ctx = await this.#d.auth.$context
			const accounts = await ctx.internalAdapter.findAccounts(current.user.id)
			const account = accounts.find((a) => a.providerId === input.provider)
			if (!account) return fail(headers, 'error-identity-not-found', 404)
			// The last way in stays: without it the account could not be reached again.
			if (accounts.length === 1) return fail(headers, 'error-single-identity-not-deletable', 422)
			// Better Auth's endpoint also wants a fresh session (signed in within a day).
			const result = await this.#d.auth.api.unlinkAccount({
				body: { accountId: account.id },
				headers: this.#authHeaders(request),
				returnHeaders: true,
			})
			appendSetCookies(headers, result.headers)
			return succeed(headers, null)
		})
	}

	async #methods(userId: string, email: string): Promise<SignInMethod[]> {
		const ctx = await this.#d.auth.$context
		const accounts = await ctx.internalAdapter.findAccounts(userId)
		const methods: SignInMethod[] = []
		for (const account of accounts) {
			if (account.providerId === 'credential') methods.push({ provider: 'email', detail: email })
			else if (isOAuthProvider(account.providerId)) {
				const login = (account as { providerLogin?: unknown }).providerLogin
				methods.push({ provider: account.providerId, detail: typeof login === 'string' && login ? login : null })
			}
		}
		return inSignInOrder(methods)
	}

	// -------------------------------------------------------------------------
	// Helpers
	// -------------------------------------------------------------------------

	/**
	 * Runs an operation and turns Better Auth's refusals into AuthFailures;
	 * anything unexpected is logged and answered with error-unknown (the
	 * details stay in the log, not in the response).
	 */
	async #guard<T>(fn: (headers: Headers) => Promise<AuthResult<T>>): Promise<AuthResult<T>> {
		const headers = new Headers({ 'cache-control': 'no-store' })
		try {
			return await fn(headers)
		} catch (error) {
			const known = toAuthFailure(error)
			if (known) return { ok: false, error: known, headers }
			this.#d.log('error', 'account operation failed', error)
			return fail(headers, 'error-unknown', 500)
		}
	}

	/** The first refused limit, as a 429 with the seconds to wait; null when all allow. IP checks without an IP are skipped. */
	async #limit(headers: Headers, checks: readonly Check[]): Promise<AuthResult<never> | null> {
		for (const [scope, value, limit] of checks) {
			if (value === null) continue
			const decision = await this.#d.limiter.consume(this.#d.limiter.key(scope, value), limit)
			if (!decision.allowed) {
				headers.set('retry-after', String(decision.retryAfterSeconds))
				return { ok: false, error: failure('error-rate-limited', 429, [String(decision.retryAfterSeconds)]), headers }
			}
		}
		return null
	}

	#ip(request: Request): string | null {
		return clientIp(request, this.#d.trustProxy)
	}

	/** Headers for a Better Auth call: cookies (optionally without the session's), user agent, client address. */
	#authHeaders(request: Request, { withSession = true }: { withSession?: boolean } = {}): Headers {
		const headers = new Headers()
		const cookie = request.headers.get('cookie')
		const kept = cookie && !withSession ? withoutSessionCookies(cookie) : cookie
		if (kept) headers.set('cookie', kept)
		const userAgent = request.headers.get('user-agent')
		if (userAgent) headers.set('user-agent', userAgent.slice(0, 512))
		const ip = this.#ip(request)
		if (ip) headers.set(CLIENT_IP_HEADER, ip.replace(/::\/64$/, '::'))
		return headers
	}

	/** The request's session without touching its expiry, or null. */
	async #session(request: Request): Promise<CurrentSession | null> {
		if (!hasSessionCookie(request)) return null
		return this.#d.auth.api.getSession({ headers: this.#authHeaders(request), query: { disableRefresh: true } })
	}

	async #endSession(token: string): Promise<void> {
		const ctx = await this.#d.auth.$context
		await ctx.internalAdapter.deleteSession(token)
	}

	/** A 6-digit code is a TOTP, anything else a recovery code. */
	async #verifySecondFactor(code: string, authHeaders: Headers, out: Headers): Promise<void> {
		const result = TOTP_CODE.test(code)
			? await this.#d.auth.api.verifyTOTP({ body: { code }, headers: authHeaders, returnHeaders: true })
			: await this.#d.auth.api.verifyBackupCode({ body: { code }, headers: authHeaders, returnHeaders: true })
		appendSetCookies(out, result.headers)
	}

	/** Send the confirmation mail again unless one went out within the cooldown. */
	async #sendConfirmationWithCooldown(email: string, userId: string, locale: Locale, redirectTo: string): Promise<void> {
		const cooldown = await this.#d.limiter.consume(this.#d.limiter.key('confirmation-mail', email), {
			max: 1,
			windowSeconds: this.#d.limits.confirmationMailCooldownSeconds,
		})
		if (!cooldown.allowed) return
		const ctx = await this.#d.auth.$context
		const token = await createEmailVerificationToken(ctx.secret, email, undefined, ctx.options.emailVerification?.expiresIn, {
			userId,
		})
		this.#d.mails.sendConfirmation(email, locale, token, redirectTo)
	}

	/**
	 * Whether a confirmation link was issued before the password of its
	 * still-unconfirmed account last changed (a repeated sign-up replaced it):
	 * such a link would confirm an account with a password its reader may not
	 * know. Better Auth's links are signed JWTs that it cannot revoke, so the
	 * check compares the token's issue time with the credential's.
	 */
	async #supersededConfirmation(token: string): Promise<boolean> {
		const claims = decodeJwtPayload(token)
		if (typeof claims?.email !== 'string' || typeof claims.iat !== 'number') return false
		const ctx = await this.#d.auth.$context
		const found = await ctx.internalAdapter.findUserByEmail(claims.email, { includeAccounts: true })
		if (!found || found.user.emailVerified) return false
		const credential = found.accounts.find((a) => a.providerId === 'credential')
		if (!credential) return false
		return claims.iat < Math.floor(new Date(credential.updatedAt).getTime() / 1000)
	}
}

// ---------------------------------------------------------------------------
// Cookies and small helpers
// ---------------------------------------------------------------------------

function localeOf(user: object): Locale {
	const locale = (user as { locale?: unknown }).locale
	return isLocale(locale) ? locale : DEFAULT_LOCALE
}

const SESSION_COOKIE = /(^|\.)session_(token|data)$/

function hasSessionCookie(request: Request): boolean {
	for (const name of parseCookies(request.headers.get('cookie') ?? '').keys()) if (SESSION_COOKIE.test(name)) return true
	return false
}

function withoutSessionCookies(cookieHeader: string): string {
	return cookieHeader
		.split(';')
		.map((part) => part.trim())
		.filter((part) => part && !SESSION_COOKIE.test(part.slice(0, part.indexOf('=') >>> 0)))
		.join('; ')
}

function parseCookies(header: string): Map<string, string> {
	const cookies = new Map<string, string>()
	for (const part of header.split(';')) {
		const index = part.indexOf('=')
		if (index <= 0) continue
		const name = part.slice(0, index).trim()
		const raw = part.slice(index + 1).trim()
		try {
			cookies.set(name, decodeURIComponent(raw))
		} catch {
			cookies.set(name, raw)
		}
	}
	return cookies
}

function setCookies(from: Headers | null | undefined): Headers {
	const out = new Headers()
	appendSetCookies(out, from)
	return out
}

/** Only Set-Cookie crosses over: Better Auth's other headers are for its own router. */
function appendSetCookies(to: Headers, from: Headers | null | undefined): void {
	for (const cookie of from?.getSetCookie() ?? []) to.append('set-cookie', cookie)
}

interface CookieSpec {
	name: string
	attributes: { path?: string; secure?: boolean; sameSite?: string; domain?: string }
}

function expiredSessionCookies(cookies: { sessionToken: CookieSpec; sessionData: CookieSpec; dontRememberToken: CookieSpec }): string[] {
	return [cookies.sessionToken, cookies.sessionData, cookies.dontRememberToken].map(({ name, attributes }) =>
		[
			`${name}=`,
			`Path=${attributes.path ?? '/'}`,
			'Max-Age=0',
			'HttpOnly',
			`SameSite=${capitalise(attributes.sameSite ?? 'lax')}`,
			...(attributes.secure ? ['Secure'] : []),
			...(attributes.domain ? [`Domain=${attributes.domain}`] : []),
		].join('; '),
	)
}

function capitalise(value: string): string {
	return value.charAt(0).toUpperCase() + value.slice(1).toLowerCase()
}
