/**
 * The account rate limits both platforms apply (app/modules/account/service.server.ts
 * counts them), and the logger type the account code writes to.
 */

export type LimitDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number }

/** Where counters live: the database (shared by every instance) or this process. */
export interface Limiter {
	key(scope: string, value: string): string
	consume(key: string, limit: RateLimit): Promise<LimitDecision> | LimitDecision
	restart(key: string, windowSeconds: number): Promise<void> | void
	/** Takes back one counted attempt (a sign-in that succeeded is not an attempt to guess). */
	giveBack(key: string): Promise<void> | void
}

export type AuthLogLevel = 'debug' | 'info' | 'warn' | 'error'
export type AuthLogger = (level: AuthLogLevel, message: string, ...details: unknown[]) => void

/** One limit: at most `max` attempts per `windowSeconds`, counted in the database. */
export interface RateLimit {
	max: number
	windowSeconds: number
}

export interface RateLimits {
	/**
	 * Sign-in attempts for one address from one client (its trusted device
	 * cookie, else its address): a stranger's wrong guesses never use up the
	 * owner's attempts on the owner's own device or network.
	 */
	signInPerAddressAndClient: RateLimit
	/** Sign-in attempts from one client, whatever the address. */
	signInPerClient: RateLimit
	signUpPerAddress: RateLimit
	signUpPerIp: RateLimit
	resetPerAddress: RateLimit
	resetPerIp: RateLimit
	resendPerIp: RateLimit
	/** Confirmation mails per address: the 60-second resend countdown (docs/product.md §10.1). */
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
	signInPerAddressAndClient: { max: 10, windowSeconds: 15 * 60 },
	signInPerClient: { max: 50, windowSeconds: 15 * 60 },
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

export function consoleLogger(): AuthLogger {
	return (level, message, ...details) => {
		if (level === 'debug') return
		const write = level === 'error' ? console.error : level === 'warn' ? console.warn : console.info
		write(`[auth] ${message}`, ...details)
	}
}
