import { createHash } from 'node:crypto'
import type { AuthLogger, RateLimits } from '#app/modules/account/limits.server'

/**
 * Everything the local account backend needs to know about its deployment,
 * built from the environment by index.server.ts (nothing in this folder
 * reads process.env).
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
