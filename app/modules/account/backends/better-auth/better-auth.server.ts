import { betterAuth } from 'better-auth'
import { createAuthMiddleware, getOAuthState } from 'better-auth/api'
import { deleteSessionCookie } from 'better-auth/cookies'
import { generateRandomString } from 'better-auth/crypto'
import { genericOAuth } from 'better-auth/plugins/generic-oauth'
import { twoFactor } from 'better-auth/plugins/two-factor'
import type { Database } from '#app/db/database.server'
import { DEFAULT_LOCALE, isLocale, type Locale } from '#app/i18n/locales'
import { CONFIRMATION_LINK_HOURS, RESET_LINK_HOURS } from '#app/mail/templates.server'
import type { BackgroundTasks } from './background.server'
import { currentCallContext } from './call-context.server'
import { AppDatabaseDialect } from './kysely-dialect.server'
import type { AccountMails } from './mails.server'
import { googleProvider, twitchProvider } from './oauth-providers.server'
import type { AuthLogger } from '#app/modules/account/limits.server'
import type { OAuthClientOptions, TwitchClientOptions } from './options.server'

/**
 * Better Auth, configured for this product. Only this folder talks to it:
 * the routes use AccountService, and only the OAuth callbacks reach Better
 * Auth's HTTP router (see AccountService.handle).
 */

/** Where Better Auth's router is mounted; only the OAuth callbacks under it are served. */
export const AUTH_BASE_PATH = '/api/auth/provider'

/**
 * The header that carries the client address (as the account service
 * resolved it, app/modules/account/client-ip.server.ts) into Better Auth,
 * which records it on sessions.
 * Incoming requests never get to set it: the service builds the headers it
 * passes to Better Auth itself.
 */
export const CLIENT_IP_HEADER = 'x-dareboost-client-ip'

/** Better Auth's cookies are `dareboost.session_token` and so on (`__Secure-` prefixed over https). */
export const COOKIE_PREFIX = 'dareboost'

/** Sliding sessions: 30 days since the last day the user came back. */
export const SESSION_DAYS = 30

/** A session is slid forward when it was last slid this long ago (Better Auth's updateAge). */
export const SESSION_UPDATE_AGE_SECONDS = 24 * 60 * 60

/** How long a started second-factor sign-in waits for its code (Better Auth's default). */
const PENDING_SECOND_FACTOR_SECONDS = 600

/** Paths on which Better Auth creates a session because a second factor was just proven. */
const SECOND_FACTOR_PATHS = new Set(['/two-factor/verify-totp', '/two-factor/verify-backup-code'])

export interface BetterAuthSetup {
	db: Database
	appUrl: string
	appName: string
	secret: string
	google?: OAuthClientOptions
	twitch?: TwitchClientOptions
	mails: AccountMails
	background: BackgroundTasks
	log: AuthLogger
}

export function createBetterAuth(setup: BetterAuthSetup) {
	const { appUrl, log } = setup
	const secure = appUrl.startsWith('https:')
	const oauthProviders = [
		...(setup.google ? [googleProvider(setup.google)] : []),
		...(setup.twitch ? [twitchProvider(setup.twitch, log)] : []),
	]

	return betterAuth({
		appName: setup.appName,
		baseURL: appUrl,
		basePath: AUTH_BASE_PATH,
		secret: setup.secret,
		trustedOrigins: [new URL(appUrl).origin],
		telemetry: { enabled: false },
		logger: {
			level: 'warn',
			log: (level, message, ...args) => log(level, message, ...args),
		},

		database: {
			dialect: new AppDatabaseDialect(setup.db),
			type: 'postgres',
			// Tables in their own schema, created by supabase/local-shim/150_better_auth.sql;
			// Better Auth never migrates anything itself.
			schemaName: 'better_auth',
			transaction: true,
		},

		// Limits are enforced by AccountService, per address and per IP, in
		// the database (several app instances share them). Better Auth's own
		// limiter counts per IP only and would keep its counters in memory.
		rateLimit: { enabled: false },

		emailAndPassword: {
			enabled: true,
			requireEmailVerification: true,
			autoSignIn: false,
			// docs/product.md §7.1: 6 to 100 characters.
			minPasswordLength: 6,
			maxPasswordLength: 100,
			resetPasswordTokenExpiresIn: RESET_LINK_HOURS * 60 * 60,
			// Whoever held a session when the password had to be reset may be
			// the reason it had to be.
			revokeSessionsOnPasswordReset: true,
			async sendResetPassword({ user, token }) {
				const context = currentCallContext()
				setup.mails.sendReset(user.email, context?.locale ?? localeOf(user), token)
			},
		},

		emailVerification: {
			sendOnSignUp: true,
			sendOnSignIn: false,
			// Following the link signs the user in (as Supabase's confirmation
			// does); only the first time, since an already verified address
			// gets no session from the link.
			autoSignInAfterVerification: true,
			expiresIn: CONFIRMATION_LINK_HOURS * 60 * 60,
			async sendVerificationEmail({ user, url, token }) {
				const context = currentCallContext()
				// Better Auth puts the sign-up's callbackURL (our redirect-to path) into its own link.
				const redirectTo = context?.redirectTo ?? new URL(url).searchParams.get('callbackURL') ?? '/'
				setup.mails.sendConfirmation(user.email, context?.locale ?? localeOf(user), token, redirectTo)
			},
		},

		user: {
			validateUserInfo({ user, source }) {
				// A provider that does not vouch for the address must not create
				// an account holding it: once the real owner confirmed that
				// address by password sign-up, whoever controls the provider
				// identity would share their account. (Linking to an existing
				// account already requires a verified address on both sides.)
				if (source.method === 'oauth' && source.action === 'create-user' && user.emailVerified !== true) {
					return { error: 'email_not_verified' }
				}
			},
			additionalFields: {
				// The language the account was created in; mirrored into
				// auth.users.raw_user_meta_data.locale (Supabase's sign-up metadata).
				locale: { type: 'string', required: false, defaultValue: DEFAULT_LOCALE, input: true },
			},
		},

		session: {
			expiresIn: SESSION_DAYS * 24 * 60 * 60,
			updateAge: SESSION_UPDATE_AGE_SECONDS,
			additionalFields: {
				// Authenticator assurance level of this session: aal2 once it has
				// proven a second factor (set by databaseHooks.session below).
				aal: { type: 'string', required: false, defaultValue: 'aal1', input: false },
			},
		},

		account: {
			// Provider tokens (Twitch's can act on the user's channel) are
			// encrypted at rest with the secret.
			encryptOAuthTokens: true,
			// allowDifferentEmails: connecting Google or Twitch from the settings
			// (signed in, on purpose) may bring another address than the
			// account's; signing in with a provider still links only by the
			// same, verified address.
			accountLinking: { enabled: true, allowDifferentEmails: true },
			additionalFields: {
				// The provider's user name where it matters: the Twitch login
				// (channel name), for linking the channel later. The stable
				// identity is accountId (the Twitch user id).
				providerLogin: { type: 'string', required: false, input: false },
			},
		},

		advanced: {
			// The same id as the user's auth.users row (a uuid there), which
			// the trigger in 150_better_auth.sql creates.
			database: { generateId: () => crypto.randomUUID() },
			useSecureCookies: secure,
			cookiePrefix: COOKIE_PREFIX,
			defaultCookieAttributes: { httpOnly: true, sameSite: 'lax', path: '/', secure },
			ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
			backgroundTasks: { handler: (promise) => setup.background.run(promise, 'an auth background task') },
		},

		onAPIError: {
			// An OAuth callback that cannot even tell where it came from (no
			// state) lands here; every other failure goes back to the page
			// that started the sign-in, with ?error=...
			errorURL: `${appUrl}/${DEFAULT_LOCALE}/confirm`,
		},

		databaseHooks: {
			user: {
				create: {
					async before(user) {
						// OAuth sign-ups: the language of the page that started the
						// sign-in travels in the OAuth state (startOAuth puts it there;
						// password sign-ups pass it in the body and have no state).
						// Only our own server starts OAuth flows (the sign-in endpoint
						// is not routed), but the value is checked anyway.
						const state = (await getOAuthState()) as { locale?: unknown } | null
						if (!isLocale(state?.locale)) return
						return { data: { ...user, locale: state.locale } }
					},
				},
			},
			session: {
				create: {
					async before(session, context) {
						const aal = context?.path && SECOND_FACTOR_PATHS.has(context.path) ? 'aal2' : 'aal1'
						return { data: { ...session, aal } }
					},
				},
			},
			account: {
				create: {
					async before(account) {
						const profile = currentCallContext()?.twitchProfile
						if (account.providerId !== 'twitch' || !profile || profile.id !== account.accountId) return
						return { data: { ...account, providerLogin: profile.login } }
					},
				},
				update: {
					async before(account) {
						// A returning Twitch user: keep the login current (renames).
						// Only the OAuth callback of that very account has a profile
						// in its call context, and its update names the provider.
						const profile = currentCallContext()?.twitchProfile
						if (account.providerId !== 'twitch' || !profile) return
						return { data: { ...account, providerLogin: profile.login } }
					},
				},
			},
		},

		hooks: {
			after: createAuthMiddleware(async (ctx) => {
				// Better Auth's two-factor plugin asks for the code after a
				// password sign-in only; an OAuth sign-in would hand a full
				// session to a user who enrolled TOTP. docs/product.md §10.7:
				// once enrolled, sign-in asks for the code. So a provider callback
				// for such a user is turned into a pending second factor exactly
				// as the plugin does for passwords (its two_factor cookie and
				// verification rows), and the browser lands on the page with
				// ?totp=required, where verifySignInTotp completes it.
				if (ctx.path !== '/callback/:id') return
				const created = ctx.context.newSession
				if (!created || (created.user as { twoFactorEnabled?: boolean | null }).twoFactorEnabled !== true) return
				deleteSessionCookie(ctx, true)
				await ctx.context.internalAdapter.deleteSession(created.session.token)
				ctx.context.setNewSession(null)
				const cookie = ctx.context.createAuthCookie('two_factor', { maxAge: PENDING_SECOND_FACTOR_SECONDS })
				const identifier = `2fa-${generateRandomString(20)}`
				const expiresAt = new Date(Date.now() + PENDING_SECOND_FACTOR_SECONDS * 1000)
				await ctx.context.internalAdapter.createVerificationValue({ value: created.user.id, identifier, expiresAt })
				await ctx.context.internalAdapter.createVerificationValue({
					value: '0',
					identifier: `2fa-attempts-${identifier}`,
					expiresAt,
				})
				await ctx.setSignedCookie(cookie.name, identifier, ctx.context.secret, cookie.attributes)
				const state = await getOAuthState()
				const target = new URL(state?.callbackURL ?? `${appUrl}/${DEFAULT_LOCALE}/confirm`, appUrl)
				target.searchParams.set('totp', 'required')
				throw ctx.redirect(target.toString())
			}),
		},

		plugins: [
			twoFactor({
				issuer: setup.appName,
				backupCodeOptions: { amount: 10, length: 10 },
			}),
			...(oauthProviders.length > 0 ? [genericOAuth({ config: oauthProviders })] : []),
		],
	})

	function localeOf(user: object): Locale {
		const locale = (user as { locale?: unknown }).locale
		return isLocale(locale) ? locale : DEFAULT_LOCALE
	}
}

export type LocalBetterAuth = ReturnType<typeof createBetterAuth>
