import type { Database } from '#app/db/database.server'
import type { Env } from '#app/env.server'
import type { AccountService, AuthAdapter } from '#app/modules/account/types'
import { unavailableAccountService } from '#app/modules/account/unavailable.server'
import type { MailAdapter } from '#app/platform/types'
import { createLocalAuth } from './backend.server'
import { developmentSecret, type LocalAuthOptions } from './options.server'

/**
 * The local platform's accounts: Better Auth over the app's own database
 * (backend.server.ts), its mails through the platform's mail adapter. The
 * platform (app/platform/index.server.ts) calls this.
 */
export function createBetterAuthAccounts(env: Env, db: Database, mail: MailAdapter): { accounts: AccountService; auth: AuthAdapter } {
	const options = localAuthOptions(env)
	if (!options) {
		// Production without a real secret: sessions signed with a public one
		// could be forged, so there are no accounts at all rather than insecure
		// ones. Everyone is a visitor and account actions answer 503.
		console.error('Accounts are disabled: BETTER_AUTH_SECRET is required in production (see README, configuration).')
		return {
			accounts: unavailableAccountService(503, ['auth-not-configured']),
			auth: { getViewer: async () => ({ viewer: null, headers: new Headers() }) },
		}
	}
	const local = createLocalAuth(db, mail, options)
	return { accounts: local.accounts, auth: local.auth }
}

/**
 * The settings for the local accounts (backend.server.ts), from the environment; null when accounts
 * cannot run safely (production without a secret). Outside production a
 * missing secret falls back to one derived from a fixed, public string: fine
 * on a developer's machine, worthless anywhere else, so never used in
 * production.
 */
export function localAuthOptions(env: Env): LocalAuthOptions | null {
	const secret = env.BETTER_AUTH_SECRET ?? (env.isProduction ? null : developmentSecret())
	if (!secret) return null
	return {
		appUrl: env.APP_URL,
		secret,
		trustProxy: env.TRUST_PROXY,
		...(env.GOOGLE_CLIENT_ID && env.GOOGLE_CLIENT_SECRET
			? { google: { clientId: env.GOOGLE_CLIENT_ID, clientSecret: env.GOOGLE_CLIENT_SECRET, issuer: env.GOOGLE_ISSUER } }
			: {}),
		...(env.TWITCH_CLIENT_ID && env.TWITCH_CLIENT_SECRET
			? {
					twitch: {
						clientId: env.TWITCH_CLIENT_ID,
						clientSecret: env.TWITCH_CLIENT_SECRET,
						issuer: env.TWITCH_ISSUER,
						apiUrl: env.TWITCH_API_URL,
					},
				}
			: {}),
	}
}
