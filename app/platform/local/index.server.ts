import { createLocalAuth } from '#app/auth/local/account-service.server'
import { developmentSecret, type LocalAuthOptions } from '#app/auth/local/options.server'
import type { Database } from '#app/db/database.server'
import type { Env } from '#app/env.server'
import { createDevMailbox } from '#app/mail/dev-mailbox.server'
import { createSmtpMailer } from '#app/mail/smtp.server'
import type { AccountService, AuthAdapter, MailAdapter, Platform } from '#app/platform/types'
import { createSqlBroadcast } from '#app/platform/sql-broadcast.server'
import { unavailableAccountService } from '#app/platform/unavailable-accounts.server'

/**
 * Platform `local`: PGlite or a Postgres server, Better Auth for accounts
 * (app/auth/local) and the app's own realtime relay.
 */
export function createLocalPlatform(env: Env, db: Database): Platform {
	const mail: MailAdapter = env.SMTP_URL ? createSmtpMailer(env.SMTP_URL, env.MAIL_FROM) : createDevMailbox(db)
	const { accounts, auth } = createAccounts(env, db, mail)
	return {
		name: 'local',
		auth,
		accounts,
		mail,
		realtime: {
			// The relay listens on the app's own port (same origin); see ARCHITECTURE.md.
			clientConfig: (origin) => ({ url: `${origin}/realtime/v1`, apiKey: 'local' }),
			broadcast: createSqlBroadcast(db),
		},
	}
}

/**
 * The variables app/auth/local needs (the README's configuration table and
 * env.server.ts are to list them). Read defensively: until env.server.ts
 * parses them they are simply absent and the defaults below apply; once it
 * does, they flow through without a change here.
 */
interface AuthVariables {
	/** Signs sessions, links and OAuth state; at least 32 characters. Required in production. */
	BETTER_AUTH_SECRET?: string
	/** Reverse proxies in front of the app that append to X-Forwarded-For (0: ignore the header). */
	TRUST_PROXY?: number | string | boolean
	GOOGLE_CLIENT_ID?: string
	GOOGLE_CLIENT_SECRET?: string
	/** OpenID issuer for Google (default https://accounts.google.com). */
	GOOGLE_ISSUER?: string
	TWITCH_CLIENT_ID?: string
	TWITCH_CLIENT_SECRET?: string
	/** OpenID issuer for Twitch (default https://id.twitch.tv/oauth2). */
	TWITCH_ISSUER?: string
	/** Helix API base (default https://api.twitch.tv/helix). */
	TWITCH_API_URL?: string
}

/**
 * The settings for app/auth/local, from the environment; null when accounts
 * cannot run safely (production without a secret). Outside production a
 * missing secret falls back to one derived from a fixed, public string: fine
 * on a developer's machine, worthless anywhere else, so never used in
 * production.
 */
export function localAuthOptions(env: Env): LocalAuthOptions | null {
	const vars = env as Env & AuthVariables
	const secret = text(vars.BETTER_AUTH_SECRET) ?? (env.isProduction ? null : developmentSecret())
	if (!secret) return null
	const googleId = text(vars.GOOGLE_CLIENT_ID)
	const googleSecret = text(vars.GOOGLE_CLIENT_SECRET)
	const twitchId = text(vars.TWITCH_CLIENT_ID)
	const twitchSecret = text(vars.TWITCH_CLIENT_SECRET)
	return {
		appUrl: env.APP_URL,
		secret,
		trustProxy: hops(vars.TRUST_PROXY),
		...(googleId && googleSecret
			? { google: { clientId: googleId, clientSecret: googleSecret, issuer: text(vars.GOOGLE_ISSUER) } }
			: {}),
		...(twitchId && twitchSecret
			? {
					twitch: {
						clientId: twitchId,
						clientSecret: twitchSecret,
						issuer: text(vars.TWITCH_ISSUER),
						apiUrl: text(vars.TWITCH_API_URL),
					},
				}
			: {}),
	}
}

function text(value: unknown): string | undefined {
	return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined
}

/** TRUST_PROXY: a hop count, or true/false (one proxy / none). */
function hops(value: unknown): number {
	if (typeof value === 'number') return Number.isInteger(value) && value > 0 ? value : 0
	if (value === true || value === 'true' || value === 'yes') return 1
	if (typeof value === 'string' && /^\d+$/.test(value)) return Number(value)
	return 0
}

function createAccounts(env: Env, db: Database, mail: MailAdapter): { accounts: AccountService; auth: AuthAdapter } {
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
