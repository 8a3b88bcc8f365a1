import { createEmailVerificationToken } from 'better-auth/api'
import { randomBytes } from 'node:crypto'
import type { JwtClaims } from '#app/db/as-user.server'
import type { Database } from '#app/db/database.server'
import { DEFAULT_LOCALE, isLocale, type Locale } from '#app/i18n/locales'
import { refuse, type AccountBackend, type AccountUser, type BackendCall } from '#app/modules/account/backend.server'
import { consoleLogger, type AuthLogger } from '#app/modules/account/limits.server'
import { RateLimiter } from '#app/modules/account/rate-limit.server'
import { isOAuthProvider, TOTP_CODE } from '#app/modules/account/rules.server'
import { createAccountService } from '#app/modules/account/service.server'
import type { AccountService, AuthAdapter, OAuthProvider, SignInMethod, Viewer } from '#app/modules/account/types'
import type { MailAdapter } from '#app/platform/types'
import { cookieNames, cookiePairs } from '#app/utils/cookies'
import { BackgroundTasks } from './background.server'
import { AUTH_BASE_PATH, CLIENT_IP_HEADER, COOKIE_PREFIX, createBetterAuth, SESSION_DAYS, SESSION_UPDATE_AGE_SECONDS, type LocalBetterAuth } from './better-auth.server'
import { runInCallContext } from './call-context.server'
import { toAuthFailure } from './errors.server'
import { AccountMails } from './mails.server'
import { decodeJwtPayload, type OAuthProviderId } from './oauth-providers.server'
import { MIN_SECRET_LENGTH, type LocalAuthOptions } from './options.server'
import { SessionCache } from './session-cache.server'

const OAUTH_CALLBACK = new RegExp(`^${AUTH_BASE_PATH}/callback/(google|twitch)$`)

/** How long a repeated sign-up's mark stays on an unconfirmed account: as long as its links can be used. */
const CONTESTED_SIGN_UP_SECONDS = 7 * 24 * 60 * 60

export interface LocalAuth {
	accounts: AccountService
	auth: AuthAdapter
	/** Resolves when the mails and other work started in the background are done (tests, shutdown). */
	settled(): Promise<void>
	/** Better Auth itself, for what this module does not wrap (tests inspect its schema check). */
	betterAuth: LocalBetterAuth
}

/**
 * The local platform's accounts: Better Auth over the app's own database, as
 * an AccountBackend under the shared AccountService (app/modules/account).
 *
 * Every Better Auth call gets headers built here (the request's cookies and
 * user agent, and the client address as the service resolved it), never the
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
	const background = new BackgroundTasks(log)
	const mails = new AccountMails(appUrl, mail, background)
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
	// Better Auth's session cookie: `token.signature`, under this name (its getCookies()).
	const sessions = new SessionCache({ secret: options.secret, cookieName: `${appUrl.startsWith('https:') ? '__Secure-' : ''}${COOKIE_PREFIX}.session_token` })
	const backend = new LocalAccountBackend({
		db,
		auth,
		appUrl,
		mails,
		log,
		providers: (['google', 'twitch'] as const).filter((p) => !!options[p]),
		sessions,
	})
	const accounts = createAccountService(backend, {
		limiter: new RateLimiter(db, options.secret),
		secret: options.secret,
		trustProxy: options.trustProxy ?? 0,
		secureCookies: appUrl.startsWith('https:'),
		log,
		rateLimits: options.rateLimits,
	})
	return {
		accounts,
		auth: { getViewer: (request) => backend.getViewer(request), observe: (topics, readAt) => sessions.observe(topics, readAt) },
		settled: () => background.settled(),
		betterAuth: auth,
	}
}

interface BackendDeps {
	db: Database
	auth: LocalBetterAuth
	appUrl: string
	mails: AccountMails
	log: AuthLogger
	providers: readonly OAuthProvider[]
	sessions: SessionCache
}

type CurrentSession = NonNullable<Awaited<ReturnType<LocalBetterAuth['api']['getSession']>>>

class LocalAccountBackend implements AccountBackend<CurrentSession> {
	readonly #d: BackendDeps
	readonly oauthProviders: readonly OAuthProvider[]

	constructor(deps: BackendDeps) {
		this.#d = deps
		this.oauthProviders = deps.providers
	}

	toFailure(error: unknown) {
		return toAuthFailure(error)
	}

	async getViewer(request: Request): Promise<{ viewer: Viewer | null; headers: Headers }> {
		if (!hasSessionCookie(request)) return { viewer: null, headers: new Headers() }
		const { sessions } = this.#d
		// From memory when the cookie's signature is ours and the session is kept
		// (session-cache.server.ts). A session_data cookie goes to Better Auth, which deletes it.
		const cookie = request.headers.get('cookie')
		const token = hasSessionDataCookie(cookie) ? null : sessions.token(cookie)
		const kept = token ? sessions.get(token) : null
		if (kept?.fresh) return { viewer: kept.viewer, headers: new Headers() }
		const lookup = sessions.begin()
		if (kept && token) {
			// The marks were not read recently: one query says whether the session is still what it was.
			const { rows } = await this.#d.db.query<SessionRow>(`${SESSION_ROW} where s."token" = $1 and s."expiresAt" > now()`, [token])
			const row = rows[0]
			// Not when Better Auth would slide its expiry now: that takes its getSession (below).
			if (row && !row.banned && basisOf(row) === kept.basis && refreshAtOf(row.expiresAt) > Date.now()) {
				sessions.store(lookup, token, kept.viewer, { basis: kept.basis, expiresAt: new Date(row.expiresAt).getTime(), refreshAt: refreshAtOf(row.expiresAt) })
				return { viewer: kept.viewer, headers: new Headers() }
			}
		}
		// May slide the session's expiry forward, hence the cookie headers.
		const { headers, response } = await this.#d.auth.api.getSession({
			headers: this.#authHeaders(request, null),
			returnHeaders: true,
		})
		const out = setCookies(headers)
		if (!response) return { viewer: null, headers: out }
		const { user, session } = response
		if (await this.#banned(user.id)) return { viewer: null, headers: out }
		// A session that has not proved the second factor the user now has (it
		// existed before TOTP was enrolled on another device) is not signed in
		// until it does (verifySignInTotp's step-up), as on Supabase: the
		// database would show it nothing of the user's anyway (has_assurance).
		if (user.twoFactorEnabled === true && session.aal !== 'aal2') return { viewer: null, headers: out }
		const claims: JwtClaims = {
			sub: user.id,
			role: 'authenticated',
			email: user.email,
			// aal2 when the second factor is on (this session proved it, above).
			aal: user.twoFactorEnabled === true ? 'aal2' : 'aal1',
			session_id: session.id,
		}
		const viewer: Viewer = { claims, userId: user.id, email: user.email, totpEnabled: user.twoFactorEnabled === true }
		if (token && token === session.token) {
			const basis = basisOf({ id: session.id, userId: user.id, email: user.email, twoFactorEnabled: user.twoFactorEnabled ?? null, aal: session.aal ?? null })
			sessions.store(lookup, token, viewer, { basis, expiresAt: new Date(session.expiresAt).getTime(), refreshAt: refreshAtOf(session.expiresAt) })
		}
		return { viewer, headers: out }
	}

	/**
	 * Banned: auth.users.banned_until in the future (Supabase Auth's column;
	 * an operator sets it). Every session of the user is refused until then.
	 */
	async #banned(userId: string): Promise<boolean> {
		const { rows } = await this.#d.db.query<{ banned: boolean }>('select banned_until > now() as banned from auth.users where id = $1', [userId])
		return rows[0]?.banned === true
	}

	async currentUser(c: BackendCall): Promise<AccountUser<CurrentSession> | null> {
		const current = await this.#session(c)
		if (!current || (await this.#banned(current.user.id))) return null
		const ctx = await this.#d.auth.$context
		const accounts = await ctx.internalAdapter.findAccounts(current.user.id)
		return {
			id: current.user.id,
			email: current.user.email,
			totpEnabled: current.user.twoFactorEnabled === true,
			aal: current.session.aal === 'aal2' ? 'aal2' : 'aal1',
			hasPassword: accounts.some((a) => a.providerId === 'credential'),
			signedInAt: new Date(current.session.createdAt).getTime(),
			native: current,
		}
	}

	// -- Sign-up and confirmation ---------------------------------------------

	async signUp(c: BackendCall, input: { email: string; password: string; locale: Locale; redirectTo: string; mayMail: boolean }): Promise<boolean> {
		const { email, locale, redirectTo } = input
		const ctx = await this.#d.auth.$context
		const existing = await ctx.internalAdapter.findUserByEmail(email, { includeAccounts: true })
		if (existing) {
			// No second account, no change to this one's password, and the same
			// answer as for a new address after the same expensive step (one hash).
			const credential = existing.accounts.find((a) => a.providerId === 'credential')
			const same = credential?.password ? await ctx.password.verify({ hash: credential.password, password: input.password }) : false
			if (existing.user.emailVerified) return false
			// Two people chose passwords for one unconfirmed address: whoever
			// confirms it (the mailbox's owner) must not end up with a password the
			// other one knows, so confirming will switch the password off (see
			// #confirmContested); the owner signs in through the link and sets one.
			if (!same) {
				await ctx.internalAdapter.createVerificationValue({
					identifier: `contested-sign-up:${existing.user.id}`,
					value: '1',
					expiresAt: new Date(Date.now() + CONTESTED_SIGN_UP_SECONDS * 1000),
				})
			}
			if (!input.mayMail) return false
			const token = await createEmailVerificationToken(ctx.secret, email, undefined, ctx.options.emailVerification?.expiresIn, {
				userId: existing.user.id,
			})
			this.#d.mails.sendConfirmation(email, locale, token, redirectTo)
			return true
		}
		try {
			await runInCallContext({ locale, redirectTo }, () =>
				this.#d.auth.api.signUpEmail({
					body: { name: '', email, password: input.password, locale, callbackURL: redirectTo },
					headers: this.#authHeaders(c.request, c.ip, { withSession: false }),
				}),
			)
		} catch (error) {
			// Two sign-ups for the same new address at once: the unique e-mail
			// lets one through. The other gets the same answer as any repeat.
			if (await ctx.internalAdapter.findUserByEmail(email)) return false
			// An address taken in auth.users but not by Better Auth (demo data):
			// the same answer as for any address that has an account.
			if (await this.#takenInAuthUsers(email)) return false
			throw error
		}
		return true
	}

	async #takenInAuthUsers(email: string): Promise<boolean> {
		const { rows } = await this.#d.db.query('select 1 from auth.users where lower(email) = $1', [email])
		return rows.length > 0
	}

	async resendConfirmation(_c: BackendCall, input: { email: string; locale: Locale; redirectTo: string }): Promise<void> {
		const ctx = await this.#d.auth.$context
		const found = await ctx.internalAdapter.findUserByEmail(input.email)
		// The same signing work for every address.
		const token = await createEmailVerificationToken(
			ctx.secret,
			input.email,
			undefined,
			ctx.options.emailVerification?.expiresIn,
			found ? { userId: found.user.id } : undefined,
		)
		if (found && !found.user.emailVerified) this.#d.mails.sendConfirmation(input.email, input.locale, token, input.redirectTo)
	}

	async confirmEmail(c: BackendCall, input: { locale: Locale; redirectTo: string; typedHere: (address: string) => boolean }): Promise<{ redirectTo: string; signedIn: boolean }> {
		const url = new URL(c.request.url)
		// A provider that refused (access_denied and the like) returns here
		// with its own error word, which means nothing to the visitor.
		if (url.searchParams.has('error') && !url.searchParams.has('token')) refuse('error-unknown', 400)
		const token = url.searchParams.get('token')
		if (!token || token.length > 4096) refuse('error-invalid-token', 401)
		// Better Auth's links are signed, not stored: the same link would pass
		// again. A link is used once; then it offers a new mail like an expired one.
		if (await this.#alreadyConfirmed(token)) refuse('error-invalid-token', 401)
		await this.#confirmContested(token)
		const result = await this.#d.auth.api.verifyEmail({
			query: { token },
			headers: this.#authHeaders(c.request, c.ip),
			returnHeaders: true,
		})
		// Someone else may have signed this address up and chosen its password:
		// a link opened in a browser that did not type it confirms the address
		// but signs nobody in (the session Better Auth just made goes), so its
		// reader, the mailbox's owner, never uses an account another person
		// can open; they sign in with the password, or choose a new one by reset.
		const address = decodeJwtPayload(token)?.email
		if (typeof address !== 'string' || !input.typedHere(address)) {
			const made = sessionTokenOf(result.headers)
			if (made) await (await this.#d.auth.$context).internalAdapter.deleteSession(made)
			return { redirectTo: input.redirectTo, signedIn: false }
		}
		appendSetCookies(c.headers, result.headers)
		return { redirectTo: input.redirectTo, signedIn: true }
	}

	async #alreadyConfirmed(token: string): Promise<boolean> {
		const claims = decodeJwtPayload(token)
		if (typeof claims?.email !== 'string' || 'updateTo' in claims) return false
		const found = await (await this.#d.auth.$context).internalAdapter.findUserByEmail(claims.email)
		return found?.user.emailVerified === true
	}

	/**
	 * A still-unconfirmed account that two sign-ups chose different passwords
	 * for: neither password may start to work when the link confirms it (one
	 * of them was chosen by someone else). The credential gets an unguessable
	 * one; the link still signs its reader in, who sets a password by reset.
	 */
	async #confirmContested(token: string): Promise<void> {
		const claims = decodeJwtPayload(token)
		if (typeof claims?.email !== 'string') return
		const ctx = await this.#d.auth.$context
		const found = await ctx.internalAdapter.findUserByEmail(claims.email)
		if (!found || found.user.emailVerified) return
		const mark = await ctx.internalAdapter.findVerificationValue(`contested-sign-up:${found.user.id}`)
		if (!mark) return
		await ctx.internalAdapter.updatePassword(found.user.id, await ctx.password.hash(randomBytes(32).toString('base64url')))
		await ctx.internalAdapter.deleteVerificationByIdentifier(`contested-sign-up:${found.user.id}`)
	}

	// -- Sign-in and sign-out -------------------------------------------------

	async signIn(c: BackendCall, input: { email: string; password: string }): Promise<{ totpRequired: boolean }> {
		const previous = await this.#session(c)
		const result = await this.#d.auth.api.signInEmail({
			body: { email: input.email, password: input.password, rememberMe: true },
			headers: this.#authHeaders(c.request, c.ip, { withSession: false }),
			returnHeaders: true,
		})
		appendSetCookies(c.headers, result.headers)
		// Every sign-in gets a new session (and so a new cookie); the one this
		// browser held before is ended rather than left valid in the database.
		if (previous) await this.#endSession(previous.session.token)
		return { totpRequired: 'twoFactorRedirect' in result.response }
	}

	async verifySignInTotp(c: BackendCall, input: { code: string }, user: AccountUser<CurrentSession> | null): Promise<void> {
		// Step-up: a session that did not prove the second factor (one that
		// existed before TOTP was enrolled, on another device) proves it now.
		if (user && user.totpEnabled && user.aal !== 'aal2') {
			await this.#verifySecondFactor(input.code, this.#authHeaders(c.request, c.ip), c.headers)
			const ctx = await this.#d.auth.$context
			await ctx.internalAdapter.updateSession(user.native.session.token, { aal: 'aal2' })
			return
		}
		// A sign-in waiting for its code (the two_factor cookie). Any other
		// session cookie is left out, or Better Auth would check the code
		// against that session instead.
		await this.#verifySecondFactor(input.code, this.#authHeaders(c.request, c.ip, { withSession: false }), c.headers)
		if (user) await this.#endSession(user.native.session.token)
	}

	async signOut(c: BackendCall): Promise<void> {
		if (!hasSessionCookie(c.request)) return
		const result = await this.#d.auth.api.signOut({ headers: this.#authHeaders(c.request, c.ip), returnHeaders: true })
		appendSetCookies(c.headers, result.headers)
	}

	// -- Password reset -------------------------------------------------------

	async requestPasswordReset(c: BackendCall, input: { email: string; locale: Locale }): Promise<void> {
		// Better Auth answers the same for unknown addresses (after a dummy
		// lookup); the mail, if any, goes out in the background.
		await runInCallContext({ locale: input.locale }, () =>
			this.#d.auth.api.requestPasswordReset({ body: { email: input.email }, headers: this.#authHeaders(c.request, c.ip, { withSession: false }) }),
		)
	}

	async resetPassword(c: BackendCall, input: { token: string; password: string }): Promise<void> {
		if (!input.token) refuse('error-invalid-token', 401)
		const ctx = await this.#d.auth.$context
		const pending = await ctx.internalAdapter.findVerificationValue(`reset-password:${input.token}`)
		await this.#d.auth.api.resetPassword({ body: { token: input.token, newPassword: input.password } })
		// Following the reset link proved the mailbox is the user's, as the
		// confirmation link would have; a contested sign-up is settled by it.
		if (pending) {
			const user = await ctx.internalAdapter.findUserById(pending.value)
			if (user && !user.emailVerified) await ctx.internalAdapter.updateUser(user.id, { emailVerified: true })
			if (user) await ctx.internalAdapter.deleteVerificationByIdentifier(`contested-sign-up:${user.id}`)
		}
		// Every session of the user was just revoked; this browser's cookie is stale too.
		for (const cookie of expiredSessionCookies(ctx.authCookies)) c.headers.append('set-cookie', cookie)
	}

	// -- Google and Twitch ----------------------------------------------------

	async startOAuth(c: BackendCall, input: { provider: OAuthProvider; locale: Locale; redirectTo: string }): Promise<{ url: string }> {
		// docs/product.md §3.1: back to /confirm with redirect-to holding the path;
		// failures come back there too, with ?error=<code>.
		const callback = new URL(`${this.#d.appUrl}/${input.locale}/confirm`)
		callback.searchParams.set('redirect-to', input.redirectTo)
		const result = await this.#d.auth.api.signInSocial({
			body: {
				provider: input.provider,
				callbackURL: callback.toString(),
				errorCallbackURL: callback.toString(),
				disableRedirect: true,
				additionalData: { locale: input.locale },
			},
			headers: this.#authHeaders(c.request, c.ip),
			returnHeaders: true,
		})
		appendSetCookies(c.headers, result.headers)
		if (!result.response.url) refuse('error-unknown', 500)
		return { url: result.response.url }
	}

	ownsPath(pathname: string): boolean {
		return pathname === AUTH_BASE_PATH || pathname.startsWith(`${AUTH_BASE_PATH}/`)
	}

	async handle(request: Request): Promise<Response | null> {
		const url = new URL(request.url)
		// Only the providers' callbacks are served: every other Better Auth
		// endpoint (sign-up, sign-in, ...) would bypass the service's rules.
		const provider = OAUTH_CALLBACK.exec(url.pathname)?.[1] as OAuthProviderId | undefined
		if (!provider || !this.oauthProviders.includes(provider) || (request.method !== 'GET' && request.method !== 'POST')) {
			return new Response('Not Found', { status: 404, headers: { 'cache-control': 'no-store' } })
		}
		const forwarded = new Request(url, {
			method: request.method,
			headers: this.#authHeaders(request, null),
			body: request.method === 'POST' ? await request.text() : undefined,
		})
		const contentType = request.headers.get('content-type')
		if (contentType) forwarded.headers.set('content-type', contentType)
		const previous = await this.#session({ request, headers: new Headers(), ip: null })
		// The call context carries the Twitch login from the profile fetch to
		// the account row (better-auth.server.ts, databaseHooks.account).
		const response = await runInCallContext({}, () => this.#d.auth.handler(forwarded))
		// As for a password sign-in: a new session replaces, and ends, the one
		// this browser held.
		const newSession = response.headers.getSetCookie().some((cookie) => /^[^=]*session_token=[^;]+/.test(cookie))
		if (previous && newSession) await this.#endSession(previous.session.token)
		return response
	}

	// -- Proofs, two-factor ---------------------------------------------------

	async checkPassword(_c: BackendCall, user: AccountUser<CurrentSession>, password: string): Promise<void> {
		const ctx = await this.#d.auth.$context
		const accounts = await ctx.internalAdapter.findAccounts(user.id)
		const hash = accounts.find((a) => a.providerId === 'credential')?.password
		if (!hash || !(await ctx.password.verify({ hash, password }))) refuse('error-wrong-password', 400)
	}

	async checkTotp(c: BackendCall, _user: AccountUser<CurrentSession>, code: string): Promise<void> {
		await this.#verifySecondFactor(code, this.#authHeaders(c.request, c.ip), new Headers())
	}

	async enrollTotp(c: BackendCall, _user: AccountUser<CurrentSession>, input: { password: string }) {
		const result = await this.#d.auth.api.enableTwoFactor({
			body: { password: input.password },
			headers: this.#authHeaders(c.request, c.ip),
			returnHeaders: true,
		})
		appendSetCookies(c.headers, result.headers)
		const { totpURI, backupCodes } = result.response as { totpURI?: string; backupCodes?: string[] }
		const secret = totpURI ? new URL(totpURI).searchParams.get('secret') : null
		if (!totpURI || !secret || !backupCodes) refuse('error-unknown', 500)
		return { uri: totpURI, secret, recoveryCodes: backupCodes }
	}

	async confirmTotpEnrollment(c: BackendCall, user: AccountUser<CurrentSession>, input: { code: string }): Promise<void> {
		// The first valid code turns TOTP on and replaces the session with
		// one that proved the factor (aal2).
		const result = await this.#d.auth.api.verifyTOTP({
			body: { code: input.code },
			headers: this.#authHeaders(c.request, c.ip),
			returnHeaders: true,
		})
		appendSetCookies(c.headers, result.headers)
		if (!user.totpEnabled) this.#d.mails.sendTotpChanged(user.native.user.email, localeOf(user.native.user), true)
	}

	async disableTotp(c: BackendCall, user: AccountUser<CurrentSession>, input: { password: string }): Promise<void> {
		const result = await this.#d.auth.api.disableTwoFactor({
			body: { password: input.password },
			headers: this.#authHeaders(c.request, c.ip),
			returnHeaders: true,
		})
		appendSetCookies(c.headers, result.headers)
		if (user.totpEnabled) this.#d.mails.sendTotpChanged(user.native.user.email, localeOf(user.native.user), false)
	}

	// -- Account deletion -----------------------------------------------------

	async deleteAccount(c: BackendCall, user: AccountUser<CurrentSession>): Promise<void> {
		// The Better Auth user (its sessions, provider accounts and TOTP
		// cascade) and, through the shim's trigger, its auth.users row, whose
		// delete cascades to the app's rows. The `before delete` trigger on
		// auth.users settles the user's sessions and forfeits the wallet,
		// inside this one statement's transaction.
		await this.#d.db.query('delete from better_auth."user" where id = $1', [user.id])
		const ctx = await this.#d.auth.$context
		for (const cookie of expiredSessionCookies(ctx.authCookies)) c.headers.append('set-cookie', cookie)
	}

	// -- Sign-in methods (settings) -------------------------------------------

	async signInMethods(_c: BackendCall, user: AccountUser<CurrentSession>): Promise<SignInMethod[]> {
		const ctx = await this.#d.auth.$context
		const accounts = await ctx.internalAdapter.findAccounts(user.id)
		const methods: SignInMethod[] = []
		for (const account of accounts) {
			if (account.providerId === 'credential') methods.push({ provider: 'email', detail: user.email })
			else if (isOAuthProvider(account.providerId)) {
				const login = (account as { providerLogin?: unknown }).providerLogin
				methods.push({ provider: account.providerId, detail: typeof login === 'string' && login ? login : null })
			}
		}
		return methods
	}

	async linkProvider(c: BackendCall, _user: AccountUser<CurrentSession>, input: { provider: OAuthProvider; locale: Locale }): Promise<{ url: string }> {
		// Back to the settings page either way; Better Auth appends ?error=<code> on failure.
		const back = new URL(`${this.#d.appUrl}/${input.locale}/settings`)
		back.searchParams.set('link', input.provider)
		const result = await this.#d.auth.api.linkSocialAccount({
			body: { provider: input.provider, callbackURL: back.toString(), errorCallbackURL: back.toString(), disableRedirect: true },
			headers: this.#authHeaders(c.request, c.ip),
			returnHeaders: true,
		})
		appendSetCookies(c.headers, result.headers)
		if (!result.response.url) refuse('error-unknown', 500)
		return { url: result.response.url }
	}

	async finishLink(c: BackendCall): Promise<void> {
		const error = new URL(c.request.url).searchParams.get('error')
		if (!error) return
		// The identity belongs to another account: Supabase's identity_already_exists.
		if (error === 'account_already_linked_to_different_user') refuse('error-identity-already-exists', 422)
		refuse('error-unknown', 400, [error.slice(0, 64)])
	}

	async unlinkProvider(c: BackendCall, user: AccountUser<CurrentSession>, input: { provider: OAuthProvider }): Promise<void> {
		const ctx = await this.#d.auth.$context
		const accounts = await ctx.internalAdapter.findAccounts(user.id)
		const account = accounts.find((a) => a.providerId === input.provider)
		if (!account) refuse('error-identity-not-found', 404)
		// Better Auth's endpoint also wants a fresh session (signed in within a day).
		const result = await this.#d.auth.api.unlinkAccount({
			body: { accountId: account.id },
			headers: this.#authHeaders(c.request, c.ip),
			returnHeaders: true,
		})
		appendSetCookies(c.headers, result.headers)
	}

	// -- Helpers --------------------------------------------------------------

	/** Headers for a Better Auth call: cookies (optionally without the session's), user agent, client address. */
	#authHeaders(request: Request, ip: string | null, { withSession = true }: { withSession?: boolean } = {}): Headers {
		const headers = new Headers()
		const cookie = request.headers.get('cookie')
		const kept = cookie && !withSession ? withoutSessionCookies(cookie) : cookie
		if (kept) headers.set('cookie', kept)
		const userAgent = request.headers.get('user-agent')
		if (userAgent) headers.set('user-agent', userAgent.slice(0, 512))
		if (ip) headers.set(CLIENT_IP_HEADER, ip.replace(/::\/64$/, '::'))
		return headers
	}

	/** The request's session without touching its expiry, or null. */
	async #session(c: BackendCall): Promise<CurrentSession | null> {
		if (!hasSessionCookie(c.request)) return null
		return this.#d.auth.api.getSession({ headers: this.#authHeaders(c.request, c.ip), query: { disableRefresh: true } })
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
}

// ---------------------------------------------------------------------------
// Cookies and small helpers
// ---------------------------------------------------------------------------

function localeOf(user: object): Locale {
	const locale = (user as { locale?: unknown }).locale
	return isLocale(locale) ? locale : DEFAULT_LOCALE
}

/**
 * A session as getViewer reads it in one query, to confirm a kept one
 * (session-cache.server.ts): the rows Better Auth's getSession reads (the
 * session by token, its user) and the user's ban (auth.users).
 */
const SESSION_ROW = `select s."id", s."userId", s."expiresAt", s."aal", u."email", u."twoFactorEnabled", coalesce(a.banned_until > now(), false) as banned
	from better_auth."session" s join better_auth."user" u on u."id" = s."userId" left join auth.users a on a.id = u."id"`

type SessionRow = { id: string; userId: string; expiresAt: string | Date; aal: string | null; email: string; twoFactorEnabled: boolean | null; banned: boolean }

/** What a viewer is made of: a kept viewer stands while the database reads the same. */
function basisOf(row: Pick<SessionRow, 'id' | 'userId' | 'email' | 'twoFactorEnabled' | 'aal'>): string {
	return JSON.stringify([row.id, row.userId, row.email, row.twoFactorEnabled === true, row.aal === 'aal2'])
}

/** When Better Auth's getSession would slide the expiry of a session expiring then (its updateAge rule). */
function refreshAtOf(expiresAt: string | Date): number {
	return new Date(expiresAt).getTime() - SESSION_DAYS * 86_400_000 + SESSION_UPDATE_AGE_SECONDS * 1000
}

const SESSION_COOKIE = /(^|\.)session_(token|data)$/

function hasSessionCookie(request: Request): boolean {
	return cookieNames(request.headers.get('cookie')).some((name) => SESSION_COOKIE.test(name))
}

function hasSessionDataCookie(cookieHeader: string | null): boolean {
	return cookieNames(cookieHeader).some((name) => /(^|\.)session_data$/.test(name))
}

function withoutSessionCookies(cookieHeader: string): string {
	return cookiePairs(cookieHeader)
		.filter(([name]) => !SESSION_COOKIE.test(name))
		.map(([name, value]) => (name === '' ? value : `${name}=${value}`))
		.join('; ')
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

/** The session token in Better Auth's Set-Cookie headers (`…session_token=<token>.<signature>`), if it set one. */
function sessionTokenOf(headers: Headers): string | null {
	for (const cookie of headers.getSetCookie()) {
		const match = /^[^=]*session_token=([^;]*)/.exec(cookie)
		if (match?.[1]) return decodeURIComponent(match[1]).split('.')[0] || null
	}
	return null
}
