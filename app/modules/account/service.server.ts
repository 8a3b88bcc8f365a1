import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import { readLocaleCookie } from '#app/i18n/detect.server'
import { DEFAULT_LOCALE, localeFromPath } from '#app/i18n/locales'
import type { AccountService, AuthFailure, AuthResult, OAuthProvider, SignInMethod } from './types'
import { readCookie } from '#app/utils/cookies'
import { safeRedirectPath } from '#app/utils/redirect'
import { AccountRefusal, type AccountBackend, type AccountUser, type BackendCall } from './backend.server'
import { clientIp } from './client-ip.server'
import { DEFAULT_RATE_LIMITS, type AuthLogger, type Limiter, type RateLimit, type RateLimits } from './limits.server'
import {
	MAX_INPUT_LENGTH,
	TOTP_CODE,
	inSignInOrder,
	isAcceptableEmail,
	isAcceptablePassword,
	isPlausiblePassword,
	normaliseEmail,
} from './rules.server'

/**
 * A provider-only account (no password, no second factor) may be deleted
 * only this soon after it signed in: the sign-in is the proof.
 */
export const RECENT_SIGN_IN_SECONDS = 5 * 60

/** The cookie that marks a browser in which an address signed in before (sign-in limits). */
export const DEVICE_COOKIE = 'dareboost_device'
const DEVICE_COOKIE_SECONDS = 365 * 24 * 60 * 60

export interface AccountServiceOptions {
	limiter: Limiter
	/** Signs the device cookie. */
	secret: string
	/** TRUST_PROXY: proxies that append to X-Forwarded-For (0: the header is ignored). */
	trustProxy: number
	secureCookies: boolean
	log: AuthLogger
	rateLimits?: Partial<RateLimits>
	/** The clock (tests). */
	now?: () => number
}

type Check = readonly [scope: string, value: string | null, limit: RateLimit]

/**
 * The account rules, once for both platforms (docs/decisions/011-account-module.md):
 * addresses are normalised and inputs bounded before a backend hears of them,
 * the same rate limits count under the same keys, known and unknown
 * addresses get the same answers, sensitive changes need the session's second
 * factor and a fresh proof, and every backend error becomes an AuthFailure
 * (unknown ones are logged and answered with error-unknown).
 */
export function createAccountService<Native>(backend: AccountBackend<Native>, options: AccountServiceOptions): AccountService {
	const limits: RateLimits = { ...DEFAULT_RATE_LIMITS, ...options.rateLimits }
	const { limiter, log } = options
	const now = options.now ?? Date.now

	function call(request: Request, headers: Headers): BackendCall {
		return { request, headers, ip: clientIp(request, options.trustProxy) }
	}

	async function guard<T>(request: Request, fn: (c: BackendCall) => Promise<AuthResult<T> | T>): Promise<AuthResult<T>> {
		const headers = new Headers({ 'cache-control': 'no-store' })
		try {
			const out = await fn(call(request, headers))
			if (isResult<T>(out)) return out
			return { ok: true, data: out, headers }
		} catch (error) {
			const failure = toFailure(error)
			if (failure.code === 'error-rate-limited' && failure.reasons?.[0]) headers.set('retry-after', failure.reasons[0])
			return { ok: false, error: failure, headers }
		}
	}

	function toFailure(error: unknown): AuthFailure {
		if (error instanceof AccountRefusal) return error.failure
		const known = backend.toFailure(error)
		if (known && known.code !== 'error-unknown') {
			if (known.code === 'error-connection') log('warn', 'the account system could not be reached', describe(error))
			return known
		}
		log('error', 'account operation failed', error)
		return known ?? { code: 'error-unknown', status: 500 }
	}

	/** Throws the first refused limit as error-rate-limited with the seconds to wait. IP checks without an IP are skipped. */
	async function limit(checks: readonly Check[]): Promise<void> {
		for (const [scope, value, l] of checks) {
			if (value === null) continue
			const decision = await limiter.consume(limiter.key(scope, value), l)
			if (!decision.allowed) throw new AccountRefusal({ code: 'error-rate-limited', status: 429, reasons: [String(decision.retryAfterSeconds)] })
		}
	}

	/** Takes back the attempts `limit` counted for these checks. */
	async function giveBack(checks: readonly Check[]): Promise<void> {
		for (const [scope, value] of checks) if (value !== null) await limiter.giveBack(limiter.key(scope, value))
	}

	function fail(code: AuthFailure['code'], status: number, reasons?: string[]): never {
		throw new AccountRefusal(reasons ? { code, status, reasons } : { code, status })
	}

	async function signedIn(c: BackendCall, { aal2 = true }: { aal2?: boolean } = {}): Promise<AccountUser<Native>> {
		const user = await backend.currentUser(c)
		if (!user) fail('error-not-authenticated', 401)
		// A two-factor account changes nothing from a session that did not prove the factor.
		if (aal2 && user.totpEnabled && user.aal !== 'aal2') fail('error-not-authenticated', 403, ['aal2-required'])
		return user
	}

	/** Refuses a provider this deployment has not configured (after one fresh look where the settings live elsewhere). */
	async function configured(provider: OAuthProvider): Promise<void> {
		if (backend.oauthProviders.includes(provider)) return
		await backend.refreshProviders?.()
		if (!backend.oauthProviders.includes(provider)) fail('error-provider-not-configured', 404)
	}

	const perUser = (user: AccountUser<Native>) => limit([['sensitive:user', user.id, limits.sensitivePerUser]])

	function email(raw: string): string {
		const normalised = normaliseEmail(raw)
		if (!isAcceptableEmail(normalised)) fail('error-invalid-email', 400)
		return normalised
	}

	const cooldownKey = (address: string) => limiter.key('confirmation-mail', address)

	// -- The device cookie: a browser where this address signed in before ----

	function deviceMac(id: string, address: string): string {
		return createHmac('sha256', options.secret).update(`device\0${id}\0${address}`).digest('base64url')
	}

	/** The device id when the request's cookie was issued to this address; null otherwise. */
	function knownDevice(request: Request, address: string): string | null {
		const value = readCookie(request.headers.get('cookie'), DEVICE_COOKIE)
		const [id, mac] = value?.split('.') ?? []
		if (!id || !mac || id.length > 64) return null
		const expected = Buffer.from(deviceMac(id, address))
		const given = Buffer.from(mac)
		return expected.length === given.length && timingSafeEqual(expected, given) ? id : null
	}

	function rememberDevice(headers: Headers, request: Request, address: string): void {
		const id = knownDevice(request, address) ?? randomBytes(16).toString('base64url')
		headers.append(
			'set-cookie',
			[
				`${DEVICE_COOKIE}=${id}.${deviceMac(id, address)}`,
				'Path=/',
				`Max-Age=${DEVICE_COOKIE_SECONDS}`,
				'HttpOnly',
				'SameSite=Lax',
				...(options.secureCookies ? ['Secure'] : []),
			].join('; '),
		)
	}

	const service: AccountService = {
		get oauthProviders() {
			return backend.oauthProviders
		},

		signUp: (request, input) =>
			guard(request, async (c) => {
				const address = email(input.email)
				if (!isAcceptablePassword(input.password)) fail('error-weak-password', 422, ['length'])
				await limit([
					['sign-up:ip', c.ip, limits.signUpPerIp],
					['sign-up:address', address, limits.signUpPerAddress],
				])
				const redirectTo = safeRedirectPath(input.redirectTo, `/${input.locale}`)
				// A repeated sign-up mails again only once the resend countdown allows
				// it; the answer is the same either way.
				const cooldown = await limiter.consume(cooldownKey(address), { max: 1, windowSeconds: limits.confirmationMailCooldownSeconds })
				const mailed = await backend.signUp(c, { email: address, password: input.password, locale: input.locale, redirectTo, mayMail: cooldown.allowed })
				// This browser typed the address's password: its confirmation link signs in here (confirmEmail).
				rememberDevice(c.headers, request, address)
				// The mail just went out: the resend countdown starts now.
				if (mailed) await limiter.restart(cooldownKey(address), limits.confirmationMailCooldownSeconds)
				return null
			}),

		resendConfirmation: (request, input) =>
			guard(request, async (c) => {
				const address = email(input.email)
				await limit([['resend:ip', c.ip, limits.resendPerIp]])
				// The cooldown counts per address whether or not it has an account,
				// so the answer (429 with the seconds left, or ok) says nothing.
				const cooldown = await limiter.consume(cooldownKey(address), { max: 1, windowSeconds: limits.confirmationMailCooldownSeconds })
				if (!cooldown.allowed) fail('error-rate-limited', 429, [String(cooldown.retryAfterSeconds)])
				const redirectTo = safeRedirectPath(input.redirectTo, `/${input.locale}`)
				await backend.resendConfirmation(c, { email: address, locale: input.locale, redirectTo })
				return null
			}),

		confirmEmail: (request) =>
			guard(request, async (c) => {
				const url = new URL(request.url)
				const locale = localeFromPath(url.pathname) ?? DEFAULT_LOCALE
				const redirectTo = safeRedirectPath(url.searchParams.get('redirect-to'), `/${locale}`)
				await limit([['link:ip', c.ip, limits.otherPerIp]])
				return backend.confirmEmail(c, { locale, redirectTo, typedHere: (address) => knownDevice(request, email(address)) !== null })
			}),

		signIn: (request, input) =>
			guard(request, async (c) => {
				const address = email(input.email)
				// Counted per address and client, and per client: a stranger's wrong
				// guesses use up their own attempts, never the owner's on the owner's
				// device (the cookie a sign-in there left) or network.
				const client = knownDevice(request, address) ? `device:${knownDevice(request, address)}` : `ip:${c.ip ?? 'unknown'}`
				const checks: Check[] = [
					['sign-in:client', c.ip, limits.signInPerClient],
					['sign-in:address+client', `${address}\0${client}`, limits.signInPerAddressAndClient],
				]
				await limit(checks)
				if (!isPlausiblePassword(input.password)) fail('error-invalid-credentials', 400)
				// "Not confirmed yet" would tell, right after a sign-up with that
				// address, whether it already had a confirmed account (whose password
				// is another): both get the one answer, whose text mentions both.
				const result = await backend.signIn(c, { email: address, password: input.password }).catch((error: unknown) => {
					const failure = error instanceof AccountRefusal ? error.failure : backend.toFailure(error)
					if (failure?.code === 'error-email-not-confirmed') fail('error-invalid-credentials', 400)
					throw error
				})
				rememberDevice(c.headers, request, address)
				// Only guesses count: a sign-in that worked (the owner signing in
				// again and again on a shared network) gives its attempt back.
				await giveBack(checks)
				return result
			}),

		verifySignInTotp: (request, input) =>
			guard(request, async (c) => {
				await limit([['totp:ip', c.ip, limits.totpPerIp]])
				const code = input.code.replace(/\s+/g, '')
				if (code.length === 0 || code.length > MAX_INPUT_LENGTH) fail('error-invalid-totp', 422)
				const user = await backend.currentUser(c)
				if (user) await perUser(user)
				await backend.verifySignInTotp(c, { code }, user)
				return null
			}),

		signOut: (request) =>
			guard(request, async (c) => {
				await backend.signOut(c)
				return null
			}),

		requestPasswordReset: (request, input) =>
			guard(request, async (c) => {
				const address = email(input.email)
				await limit([
					['reset:ip', c.ip, limits.resetPerIp],
					['reset:address', address, limits.resetPerAddress],
				])
				await backend.requestPasswordReset(c, { email: address, locale: input.locale })
				return null
			}),

		resetPassword: (request, input) =>
			guard(request, async (c) => {
				await limit([['link:ip', c.ip, limits.otherPerIp]])
				if (!isAcceptablePassword(input.password)) fail('error-weak-password', 422, ['length'])
				if ((input.token?.length ?? 0) > 512) fail('error-invalid-token', 401)
				await backend.resetPassword(c, { token: input.token?.trim() ?? '', password: input.password })
				return null
			}),

		startOAuth: (request, input) =>
			guard(request, async (c) => {
				await configured(input.provider)
				await limit([['oauth:ip', c.ip, limits.otherPerIp]])
				const locale = localeFromPath(input.redirectTo) ?? readLocaleCookie(request) ?? DEFAULT_LOCALE
				const redirectTo = safeRedirectPath(input.redirectTo, `/${locale}`)
				return backend.startOAuth(c, { provider: input.provider, locale, redirectTo })
			}),

		async handle(request) {
			if (!backend.ownsPath(new URL(request.url).pathname)) return null
			const ip = clientIp(request, options.trustProxy)
			if (ip) {
				const decision = await limiter.consume(limiter.key('oauth:ip', ip), limits.otherPerIp)
				if (!decision.allowed) {
					return new Response('Too Many Requests', {
						status: 429,
						headers: { 'retry-after': String(decision.retryAfterSeconds), 'cache-control': 'no-store' },
					})
				}
			}
			return backend.handle(request)
		},

		enrollTotp: (request, input) =>
			guard(request, async (c) => {
				const user = await signedIn(c, { aal2: false })
				await perUser(user)
				if (!isPlausiblePassword(input.password)) fail('error-wrong-password', 400)
				if (user.totpEnabled) fail('error-unknown', 409, ['totp-already-enabled'])
				return backend.enrollTotp(c, user, input)
			}),

		confirmTotpEnrollment: (request, input) =>
			guard(request, async (c) => {
				const user = await signedIn(c, { aal2: false })
				await perUser(user)
				const code = input.code.replace(/\s+/g, '')
				if (!TOTP_CODE.test(code)) fail('error-invalid-totp', 422)
				await backend.confirmTotpEnrollment(c, user, { code })
				return null
			}),

		disableTotp: (request, input) =>
			guard(request, async (c) => {
				const user = await signedIn(c)
				await perUser(user)
				if (!isPlausiblePassword(input.password)) fail('error-wrong-password', 400)
				await backend.disableTotp(c, user, input)
				return null
			}),

		deleteAccount: (request, input) =>
			guard(request, async (c) => {
				const user = await signedIn(c)
				await perUser(user)
				if (user.totpEnabled) {
					const code = (input.code ?? '').replace(/\s+/g, '')
					if (!TOTP_CODE.test(code)) fail('error-invalid-totp', 422)
					await backend.checkTotp(c, user, code)
				} else if (user.hasPassword) {
					const password = input.password ?? ''
					if (!isPlausiblePassword(password)) fail('error-wrong-password', 400)
					await backend.checkPassword(c, user, password)
				} else if (now() - user.signedInAt > RECENT_SIGN_IN_SECONDS * 1000) {
					fail('error-reauthentication-required', 403, [String(RECENT_SIGN_IN_SECONDS / 60)])
				}
				await backend.deleteAccount(c, user)
				return null
			}),

		listSignInMethods: (request) =>
			guard(request, async (c) => {
				const user = await signedIn(c, { aal2: false })
				const methods: SignInMethod[] = inSignInOrder(await backend.signInMethods(c, user))
				const linked = new Set(methods.map((m) => m.provider))
				if (backend.oauthProviders.length === 0) await backend.refreshProviders?.()
				const connectable: OAuthProvider[] = backend.oauthProviders.filter((p) => !linked.has(p))
				return { methods, connectable }
			}),

		linkProvider: (request, input) =>
			guard(request, async (c) => {
				const user = await signedIn(c)
				await configured(input.provider)
				await perUser(user)
				return backend.linkProvider(c, user, input)
			}),

		finishLink: (request) =>
			guard(request, async (c) => {
				const provider = new URL(request.url).searchParams.get('link')
				if (provider !== 'google' && provider !== 'twitch') fail('error-unknown', 400)
				await backend.finishLink(c, { provider })
				const user = await signedIn(c, { aal2: false })
				const methods = await backend.signInMethods(c, user)
				// The provider linked it before redirecting here; a hand-typed URL proves nothing.
				if (!methods.some((m) => m.provider === provider)) fail('error-identity-not-found', 404)
				return { provider }
			}),

		unlinkProvider: (request, input) =>
			guard(request, async (c) => {
				const user = await signedIn(c)
				await perUser(user)
				const methods = await backend.signInMethods(c, user)
				if (!methods.some((m) => m.provider === input.provider)) fail('error-identity-not-found', 404)
				// The last way in stays: without it the account could not be reached again.
				if (methods.length === 1) fail('error-single-identity-not-deletable', 422)
				await backend.unlinkProvider(c, user, input)
				return null
			}),
	}
	return service
}

function isResult<T>(value: unknown): value is AuthResult<T> {
	return typeof value === 'object' && value !== null && 'ok' in value && 'headers' in value && (value as { headers: unknown }).headers instanceof Headers
}

function describe(error: unknown): string {
	if (error instanceof Error) return `${error.name}: ${error.message}`
	if (typeof error === 'object' && error !== null && 'message' in error) return String((error as { message: unknown }).message)
	return String(error)
}
