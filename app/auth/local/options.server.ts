import { createHash } from 'node:crypto'

/**
 * Everything the local account backend needs to know about its deployment,
 * built from the environment by app/platform/local/index.server.ts (nothing
 * in app/auth/local reads process.env).
 */
export interface LocalAuthOptions {
	/** The public origin (APP_URL): links in mails, OAuth redirect URIs, cookie `Secure`. */
	appUrl: string
	/**
	 * Signs and encrypts everything Better Auth hands out (session cookies,
	 * e-mail confirmation tokens, OAuth state, TOTP secrets at rest). At least
	 * 32 characters. Changing it signs every user out.
	 */
	secret: string
	/**
	 * How many reverse proxies in front of the app append to
	 * X-Forwarded-For. 0 (the default): the header is ignored, because any
	 * client can send it; the per-IP limits then have no address to count and
	 * only the per-address limits apply. 1: the last entry is the client as
	 * seen by the one proxy; 2: the second to last; and so on.
	 */
	trustProxy?: number
	/** Shown in authenticator apps as the TOTP issuer. */
	appName?: string
	google?: OAuthClientOptions
	twitch?: TwitchClientOptions
	/** Per-limit overrides (tests use small ones); see DEFAULT_RATE_LIMITS. */
	rateLimits?: Partial<RateLimits>
	/** Where Better Auth's and this module's diagnostics go; console by default. */
	log?: AuthLogger
}

export interface OAuthClientOptions {
	clientId: string
	clientSecret: string
	/**
	 * The OpenID Connect issuer whose /.well-known/openid-configuration
	 * names the endpoints. Defaults to the real provider; tests point it at a
	 * loopback provider.
	 */
	issuer?: string
}

export interface TwitchClientOptions extends OAuthClientOptions {
	/** Base URL of the Helix API (default https://api.twitch.tv/helix), read for the channel login. */
	apiUrl?: string
}

export type AuthLogLevel = 'debug' | 'info' | 'warn' | 'error'
export type AuthLogger = (level: AuthLogLevel, message: string, ...details: unknown[]) => void

/** One limit: at most `max` attempts per `windowSeconds`, counted in the database. */
export interface RateLimit {
	max: number
	windowSeconds: number
}

export interface RateLimits {
	signInPerAddress: RateLimit
	signInPerIp: RateLimit
	signUpPerAddress: RateLimit
	signUpPerIp: RateLimit
	resetPerAddress: RateLimit
	resetPerIp: RateLimit
	resendPerIp: RateLimit
	/** Confirmation mails per address: the spec's 60-second resend countdown. */
	confirmationMailCooldownSeconds: number
	/** Second-factor codes; Better Auth also locks an account after 10 wrong codes. */
	totpPerIp: RateLimit
	/** Password or code checks of a signed-in user (TOTP enrolment, step-up, removal). */
	sensitivePerUser: RateLimit
	/** Everything else that a visitor can trigger without an account (links, OAuth starts and callbacks). */
	otherPerIp: RateLimit
}

/**
 * Generous enough for a person who mistypes, tight enough that guessing a
 * password or flooding a mailbox is not practical. Counters live in the
 * database so every app instance shares them.
 */
export const DEFAULT_RATE_LIMITS: RateLimits = {
	signInPerAddress: { max: 10, windowSeconds: 15 * 60 },
	signInPerIp: { max: 50, windowSeconds: 15 * 60 },
	signUpPerAddress: { max: 5, windowSeconds: 60 * 60 },
	signUpPerIp: { max: 20, windowSeconds: 60 * 60 },
	resetPerAddress: { max: 5, windowSeconds: 60 * 60 },
	resetPerIp: { max: 20, windowSeconds: 60 * 60 },
	resendPerIp: { max: 20, windowSeconds: 60 * 60 },
	confirmationMailCooldownSeconds: 60,
	totpPerIp: { max: 30, windowSeconds: 15 * 60 },
	sensitivePerUser: { max: 10, windowSeconds: 15 * 60 },
	otherPerIp: { max: 60, windowSeconds: 15 * 60 },
}

export const MIN_SECRET_LENGTH = 32

/**
 * The secret for machines that are not production when none is configured:
 * derived from a fixed, public string, so it protects nothing and must never
 * sign a production session. Stable across restarts, so development
 * sessions survive a reload.
 */
export function developmentSecret(): string {
	return createHash('sha256').update('dareboost local development secret - not for production').digest('hex')
}

export function consoleLogger(): AuthLogger {
	return (level, message, ...details) => {
		if (level === 'debug') return
		const write = level === 'error' ? console.error : level === 'warn' ? console.warn : console.info
		write(`[auth] ${message}`, ...details)
	}
}
