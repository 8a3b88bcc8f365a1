import type { GenericOAuthConfig } from 'better-auth/plugins/generic-oauth'
import { currentCallContext } from './call-context.server'
import type { AuthLogger } from '#app/modules/account/limits.server'
import type { OAuthClientOptions, TwitchClientOptions } from './options.server'

/**
 * Google and Twitch as OpenID Connect providers through Better Auth's
 * genericOAuth plugin rather than its built-in social providers: the built-in
 * ones hard-code the providers' endpoint URLs, and both the tests (a real
 * OpenID provider on loopback) and any future proxying need them
 * configurable. Discovery also gives Better Auth the issuer and JWKS, so the
 * ID token's signature, audience and nonce are verified on every sign-in.
 *
 * Both require a verified e-mail address from the provider before a session
 * is issued, as password accounts do (emailAndPassword.requireEmailVerification).
 */

export const GOOGLE_ISSUER = 'https://accounts.google.com'
export const TWITCH_ISSUER = 'https://id.twitch.tv/oauth2'
export const TWITCH_API_URL = 'https://api.twitch.tv/helix'

/** The OAuth providers this app offers (docs/product.md §10.2: google, twitch). */
export type OAuthProviderId = 'google' | 'twitch'

function discoveryUrl(issuer: string): string {
	return `${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`
}

export function googleProvider(options: OAuthClientOptions): GenericOAuthConfig<'google'> {
	return {
		providerId: 'google',
		name: 'Google',
		discoveryUrl: discoveryUrl(options.issuer ?? GOOGLE_ISSUER),
		requireIdTokenVerification: true,
		clientId: options.clientId,
		clientSecret: options.clientSecret,
		scopes: ['openid', 'email', 'profile'],
		pkce: true,
		requireEmailVerification: true,
		// Signing out of Dareboost must not sign the user out of Google.
		disableProviderLogout: true,
	}
}

interface HelixUser {
	id: string
	login: string
	display_name: string
	profile_image_url?: string
	email?: string
}

/**
 * Twitch: the ID token says who signed in (its `sub` is the Twitch user id,
 * verified by Better Auth against Twitch's JWKS before this runs) and whether
 * the e-mail is verified; the channel name a creator links later is the
 * Helix user's `login`, which the ID token does not carry (its
 * `preferred_username` is the display name, which may differ in more than
 * case). So the profile comes from both, and the login travels to the account
 * row through the call context (see databaseHooks.account in
 * better-auth.server.ts).
 */
export function twitchProvider(options: TwitchClientOptions, log: AuthLogger): GenericOAuthConfig<'twitch'> {
	const apiUrl = (options.apiUrl ?? TWITCH_API_URL).replace(/\/+$/, '')
	return {
		providerId: 'twitch',
		name: 'Twitch',
		discoveryUrl: discoveryUrl(options.issuer ?? TWITCH_ISSUER),
		requireIdTokenVerification: true,
		clientId: options.clientId,
		clientSecret: options.clientSecret,
		scopes: ['openid', 'user:read:email'],
		// Twitch's authorization code flow does not take PKCE (Better Auth's
		// built-in Twitch provider leaves it out too); state and the OIDC nonce
		// still bind the callback to this browser and this request.
		pkce: false,
		// Twitch puts only the claims asked for into the ID token.
		authorizationUrlParams: {
			claims: JSON.stringify({ id_token: { email: null, email_verified: null, preferred_username: null } }),
		},
		requireEmailVerification: true,
		disableProviderLogout: true,
		async getUserInfo(tokens) {
			if (!tokens.accessToken) return null
			const claims = tokens.idToken ? decodeJwtPayload(tokens.idToken) : null
			const response = await fetch(`${apiUrl}/users`, {
				headers: { authorization: `Bearer ${tokens.accessToken}`, 'client-id': options.clientId },
				signal: AbortSignal.timeout(10_000),
			}).catch((error: unknown) => {
				log('error', 'Twitch: the Helix users request failed', error)
				return null
			})
			if (!response?.ok) {
				if (response) log('error', `Twitch: the Helix users request answered ${response.status}`)
				return null
			}
			const body = (await response.json().catch(() => null)) as { data?: HelixUser[] } | null
			const user = body?.data?.[0]
			if (!user?.id || !user.login) return null
			// Better Auth rejects the sign-in if this `sub` differs from the
			// verified ID token's: the Helix answer must be about the same user.
			const context = currentCallContext()
			if (context) context.twitchProfile = { id: user.id, login: user.login, displayName: user.display_name }
			return {
				id: user.id,
				sub: user.id,
				email: typeof claims?.email === 'string' ? claims.email : (user.email ?? null),
				// Only the ID token says whether Twitch verified the address.
				emailVerified: claims?.email_verified === true,
				name: user.display_name,
				image: user.profile_image_url,
				login: user.login,
			}
		},
	}
}

/**
 * The claims of a JWT whose signature was already checked elsewhere (Better
 * Auth verifies the ID token before it asks for the profile); null when it
 * is not a JWT.
 */
export function decodeJwtPayload(token: string): Record<string, unknown> | null {
	const payload = token.split('.')[1]
	if (!payload) return null
	try {
		const claims: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'))
		return claims !== null && typeof claims === 'object' ? (claims as Record<string, unknown>) : null
	} catch {
		return null
	}
}
