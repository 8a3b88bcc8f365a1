import { z } from 'zod'
import { ISO_COUNTRIES } from '#app/modules/payouts/countries'

/**
 * Every setting the server reads, parsed once at boot (server/app.ts). A bad
 * value stops the server with a message naming the variable; nothing else in
 * the app reads `process.env`. The README's configuration table mirrors this
 * schema (tests/unit/readme-env.test.ts keeps them in step).
 */
const booleanish = z
	.enum(['true', 'false', '1', '0', 'yes', 'no'])
	.transform((v) => v === 'true' || v === '1' || v === 'yes')

const localeDomains = z
	.string()
	.transform((value, ctx) => {
		// "example.de=de,example.com.tr=tr"
		const map: Record<string, 'en' | 'de' | 'es' | 'tr'> = {}
		for (const pair of value.split(',').map((p) => p.trim()).filter(Boolean)) {
			const [host, locale] = pair.split('=').map((s) => s.trim().toLowerCase())
			if (!host || (locale !== 'en' && locale !== 'de' && locale !== 'es' && locale !== 'tr')) {
				ctx.addIssue({ code: 'custom', message: `expected host=locale pairs (locale one of en, de, es, tr), got "${pair}"` })
				return z.NEVER
			}
			map[host] = locale
		}
		return map
	})

const hostList = z.string().transform((value, ctx) => {
	const hosts: string[] = []
	for (const entry of value.split(',').map((h) => h.trim().toLowerCase()).filter(Boolean)) {
		// host, host:port, [v6]:port; no scheme, path or userinfo.
		if (!/^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(:\d{1,5})?$/.test(entry)) {
			ctx.addIssue({ code: 'custom', message: `expected host or host:port names, got "${entry}"` })
			return z.NEVER
		}
		hosts.push(entry)
	}
	return hosts
})

/** Host names that only ever reach this machine. */
export const LOOPBACK_HOSTNAMES: readonly string[] = ['localhost', '127.0.0.1', '[::1]']

/** One pack of the shop: coins, and the price in the currency's minor unit (cents). */
export interface ShopPack {
	id: string
	coins: number
	amountMinor: number
}

function parseShopPacks(value: string): ShopPack[] | string {
	const packs: ShopPack[] = []
	for (const pair of value.split(',').map((p) => p.trim()).filter(Boolean)) {
		const match = /^(\d{1,7})=(\d{1,6})(?:\.(\d{1,2}))?$/.exec(pair)
		const coins = Number(match?.[1])
		const amountMinor = Number(match?.[2]) * 100 + Number((match?.[3] ?? '0').padEnd(2, '0'))
		if (!match || coins < 1 || coins > 10_000_000 || amountMinor < 1) {
			return `expected coins=price pairs like 500=4.99, got "${pair}"`
		}
		if (packs.some((p) => p.coins === coins)) return `two packs of ${coins} coins`
		packs.push({ id: `coins-${coins}`, coins, amountMinor })
	}
	return packs.length > 0 ? packs.sort((a, b) => a.coins - b.coins) : 'at least one pack is needed'
}

function parseShopPacksOrThrow(value: string): ShopPack[] {
	const packs = parseShopPacks(value)
	if (typeof packs === 'string') throw new Error(packs)
	return packs
}

const shopPacks = z.string().transform((value, ctx) => {
	const packs = parseShopPacks(value)
	if (typeof packs === 'string') {
		ctx.addIssue({ code: 'custom', message: packs })
		return z.NEVER
	}
	return packs
})

const variables = z.object({
		NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
		PORT: z.coerce.number().int().min(1).max(65535).default(3000),
		/**
		 * Interface to listen on. Loopback by default: `npm start` on a laptop
		 * is not reachable from the network; a container or server sets
		 * 0.0.0.0 (the Dockerfile does).
		 */
		HOST: z.string().min(1).default('127.0.0.1'),
		/** The public origin, used for links in mails and same-origin checks. */
		APP_URL: z.url({ protocol: /^https?$/ }).optional(),
		/**
		 * Further host names (host or host:port, comma-separated) the app answers
		 * for besides APP_URL's and LOCALE_DOMAINS' hosts; any other Host header
		 * gets 421 (app/security/hosts.server.ts).
		 */
		ALLOWED_HOSTS: hostList.default([]),
		/** Largest request body in bytes (forms, JSON); larger ones get 413 unread. */
		MAX_BODY_BYTES: z.coerce.number().int().min(1024).max(64 * 1024 * 1024).default(1024 * 1024),
		/**
		 * How long a visitor's page (a session page, home, a legal page),
		 * rendered once, is served to other visitors at most (a change to the
		 * session outdates a session page sooner); 0: every visitor's page is
		 * rendered for them (app/modules/shared-pages/shared-render.server.ts).
		 */
		SHARED_PAGE_MAX_AGE_MS: z.coerce.number().int().min(0).max(60_000).default(1000),
		/**
		 * Signs the flash-message cookie. Default: derived from BETTER_AUTH_SECRET;
		 * without one (Supabase), a random key per process (flash messages then do
		 * not survive a restart or a hop to another instance).
		 */
		COOKIE_SECRET: z.string().min(32).optional(),
		PLATFORM: z.enum(['local', 'supabase']).default('local'),
		/** Postgres server; without it the local platform uses embedded PGlite. */
		DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/ }).optional(),
		PGLITE_DATA_DIR: z.string().min(1).default('.data/pglite'),
		/** A bearer token that may read /metrics from elsewhere than this machine (at least 32 characters). */
		METRICS_TOKEN: z.string().min(32).optional(),
		/** The least important log lines written (pino's levels); JSON lines in production. */
		LOG_LEVEL: z.enum(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent']).default('info'),
		/** How long a stopping server keeps taking requests while /readyz says 503, for a load balancer to notice (ms). */
		SHUTDOWN_DELAY_MS: z.coerce.number().int().min(0).max(600_000).default(0),
		/** How long a stopping server lets in-flight requests finish before it cuts them off (ms). */
		SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).max(600_000).default(10_000),
		/** How long the server waits at start for a database it cannot reach yet (ms), trying again with backoff. */
		DB_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(0).max(600_000).default(60_000),
		/** Apply the local shim and pending migrations at start-up. */
		MIGRATE_ON_START: booleanish.optional(),
		/** Insert the demo creators, sessions and wallets (embedded default). */
		DEMO_DATA: booleanish.optional(),
		SUPABASE_URL: z.url().optional(),
		SUPABASE_ANON_KEY: z.string().min(1).optional(),
		/** Supabase's secret key: the admin API, for account deletion only. Server-side only. */
		SUPABASE_SERVICE_ROLE_KEY: z.string().min(1).optional(),
		SMTP_URL: z.url({ protocol: /^smtps?$/ }).optional(),
		MAIL_FROM: z.string().min(3).default('Dareboost <no-reply@localhost>'),
		/** Serve /dev/mailbox (the mails kept when no SMTP is set). */
		DEV_MAILBOX: booleanish.optional(),
		/** Signs sessions, mail links and OAuth state (local platform); at least 32 characters. */
		BETTER_AUTH_SECRET: z.string().min(32).optional(),
		/** Reverse proxies in front of the app that append to X-Forwarded-For (0: ignore the header). */
		TRUST_PROXY: z.coerce.number().int().min(0).max(10).default(0),
		GOOGLE_CLIENT_ID: z.string().min(1).optional(),
		GOOGLE_CLIENT_SECRET: z.string().min(1).optional(),
		GOOGLE_ISSUER: z.url().optional(),
		TWITCH_CLIENT_ID: z.string().min(1).optional(),
		TWITCH_CLIENT_SECRET: z.string().min(1).optional(),
		TWITCH_ISSUER: z.url().optional(),
		TWITCH_API_URL: z.url().optional(),
		/** A Google OAuth client with the YouTube Data API: creators link their YouTube channel (docs/decisions/037-channel-oauth.md). */
		YOUTUBE_CLIENT_ID: z.string().min(1).optional(),
		YOUTUBE_CLIENT_SECRET: z.string().min(1).optional(),
		/** Google's authorization, token and YouTube API endpoints (tests point them at a stand-in). */
		YOUTUBE_AUTH_URL: z.url({ protocol: /^https?$/ }).optional(),
		YOUTUBE_TOKEN_URL: z.url({ protocol: /^https?$/ }).optional(),
		YOUTUBE_API_URL: z.url({ protocol: /^https?$/ }).optional(),
		/** A Kick app (kick.com/settings/developer): creators link their Kick channel. */
		KICK_CLIENT_ID: z.string().min(1).optional(),
		KICK_CLIENT_SECRET: z.string().min(1).optional(),
		/** Kick's authorization, token and public API endpoints (tests point them at a stand-in). */
		KICK_AUTH_URL: z.url({ protocol: /^https?$/ }).optional(),
		KICK_TOKEN_URL: z.url({ protocol: /^https?$/ }).optional(),
		KICK_API_URL: z.url({ protocol: /^https?$/ }).optional(),
		LOCALE_DOMAINS: localeDomains.default({}),
		/** The imprint's operator: required in production on a public APP_URL (see below). */
		OPERATOR_NAME: z.string().trim().min(1).max(200).optional(),
		/** Postal address; a line break is written as `\n` or a new line. */
		OPERATOR_ADDRESS: z.string().trim().min(1).max(500).optional(),
		OPERATOR_EMAIL: z.email().optional(),
		/** How often an open tab asks whether a new build is out (seconds; 0: never). */
		BUILD_CHECK_INTERVAL: z.coerce.number().int().min(0).max(86_400).default(300),
		/** Coin packs of the shop: coins=price pairs in SHOP_CURRENCY (defaults: docs/product.md §9.1). */
		SHOP_PACKS: shopPacks.default(parseShopPacksOrThrow('500=4.99,1100=9.99,2400=19.99,6500=49.99')),
		/** ISO 4217 currency of the shop's prices. */
		SHOP_CURRENCY: z.string().regex(/^[A-Z]{3}$/).default('EUR'),
		/** Stripe secret key: the shop sells through Stripe Checkout. Server-side only. */
		STRIPE_SECRET_KEY: z.string().regex(/^(sk|rk)_/).optional(),
		/** Signing secret of the Stripe webhook endpoint (/api/stripe/webhook). */
		STRIPE_WEBHOOK_SECRET: z.string().regex(/^whsec_/).optional(),
		/**
		 * Signing secret of a second Stripe event destination (thin events, Accounts v2:
		 * creators' payout accounts) sent to the same webhook path; without it an
		 * account is read again when its creator comes back from Stripe's onboarding.
		 */
		STRIPE_ACCOUNTS_WEBHOOK_SECRET: z.string().regex(/^whsec_/).optional(),
		/** Where the Stripe SDK sends its calls (tests point it at a stand-in); default Stripe's own API. */
		STRIPE_API_URL: z.url({ protocol: /^https?$/ }).optional(),
		/** The test checkout (credits at once, charges nothing); never with Stripe keys. */
		TEST_CHECKOUT: booleanish.optional(),
		/**
		 * A public demonstration site: demo data and the test checkout may run on
		 * a public APP_URL, and every page says that coins and accounts are not
		 * real. Never with Stripe keys.
		 */
		DEMO_SITE: booleanish.default(false),
		/** The platform's share of a completed dare's pot, in percent (0 to 100, two decimals). */
		PLATFORM_FEE_PERCENT: z.coerce.number().min(0).max(100).multipleOf(0.01).default(0),
		/** Days a creator's earnings stay pending before they may be paid out (docs/product.md §14). */
		PAYOUT_HOLD_DAYS: z.coerce.number().int().min(0).max(365).default(14),
		/** The fewest coins a payout request may take. */
		PAYOUT_MIN_COINS: z.coerce.number().int().min(1).max(1_000_000_000).default(2000),
		/** A payout above this many coins (and every creator's first) waits for an operator's approval. */
		PAYOUT_REVIEW_COINS: z.coerce.number().int().min(0).max(1_000_000_000).default(20_000),
		/** What a creator receives per coin, in minor units (cents) of PAYOUT_CURRENCY, up to four decimals. */
		PAYOUT_CENTS_PER_COIN: z
			.string()
			.regex(/^\d{1,4}(\.\d{1,4})?$/, 'expected a number of cents like 0.7 (up to four decimals)')
			.transform(Number)
			.refine((cents) => cents > 0 && cents <= 1000, 'must be more than 0 and at most 1000')
			.default(0.7),
		/** The platform's fee on a payout, in percent of its coins (0 to 100, two decimals); a ledger entry of its own. */
		PAYOUT_FEE_PERCENT: z.coerce.number().min(0).max(100).multipleOf(0.01).default(0),
		/** ISO 4217 currency payouts are made in (default SHOP_CURRENCY): the platform's Stripe balance must hold it. */
		PAYOUT_CURRENCY: z.string().regex(/^[A-Z]{3}$/).optional(),
		/** The platform's country (ISO 3166-1 alpha-2): Stripe's cross-border rules say which creators' countries it can pay (docs/decisions/052-stripe-connect-payouts.md). */
		PAYOUT_COUNTRY: z
			.string()
			.refine((code) => ISO_COUNTRIES.includes(code), 'expected an upper-case ISO 3166-1 alpha-2 code like DE')
			.default('DE'),
		/** Test payouts: onboarding and transfers through a stand-in inside the app, no money moves; never with Stripe keys. */
		TEST_PAYOUTS: booleanish.optional(),
		/** Days the two cookie-consent cookies are kept; the banner asks again afterwards. */
		CONSENT_MAX_AGE_DAYS: z.coerce.number().int().min(1).max(395).default(182),
		/** The cookie settings open as a modal that cannot be closed until the visitor chooses. */
		CONSENT_FORCE_MODAL: booleanish.default(false),
		/** PostHog project key (public, `phc_...`): analytics exist only with it, and load only after consent. */
		POSTHOG_KEY: z.string().regex(/^[A-Za-z0-9_-]{8,100}$/).optional(),
		/** The PostHog ingestion host our same-origin relay forwards to. */
		POSTHOG_HOST: z.url({ protocol: /^https?$/ }).default('https://eu.i.posthog.com'),
})

/** Every variable the app reads (the README's configuration table lists them all). */
export const ENV_VARIABLES = Object.keys(variables.shape)

const schema = variables
	.superRefine((env, ctx) => {
		if (env.STRIPE_SECRET_KEY && !env.STRIPE_WEBHOOK_SECRET) {
			ctx.addIssue({ code: 'custom', path: ['STRIPE_WEBHOOK_SECRET'], message: 'required with STRIPE_SECRET_KEY' })
		}
		if (env.STRIPE_SECRET_KEY && env.TEST_CHECKOUT) {
			ctx.addIssue({ code: 'custom', path: ['TEST_CHECKOUT'], message: 'the test checkout is off whenever Stripe is configured' })
		}
		if (env.STRIPE_SECRET_KEY && env.TEST_PAYOUTS) {
			ctx.addIssue({ code: 'custom', path: ['TEST_PAYOUTS'], message: 'test payouts are off whenever Stripe is configured' })
		}
		if (env.PLATFORM === 'supabase') {
			for (const key of ['SUPABASE_URL', 'SUPABASE_ANON_KEY', 'DATABASE_URL'] as const) {
				if (!env[key]) ctx.addIssue({ code: 'custom', path: [key], message: 'required when PLATFORM=supabase' })
			}
		}
		// The mailbox hands out every confirmation and password-reset link: a
		// production server with a public address refuses to start with it on.
		if (env.DEV_MAILBOX === true && env.NODE_ENV === 'production' && env.APP_URL && !isLoopbackUrl(env.APP_URL)) {
			ctx.addIssue({
				code: 'custom',
				path: ['DEV_MAILBOX'],
				message: 'must not be on in production with a public APP_URL (it shows every sign-in link)',
			})
		}
		// Demo sign-ins and free coins are for a developer's machine: on a
		// public APP_URL each one refuses to start, unless the operator
		// declares a demo site (which says so on every page). A demo site
		// takes no real money.
		if (env.APP_URL && !isLoopbackUrl(env.APP_URL) && !env.DEMO_SITE) {
			if (env.DEMO_DATA === true) {
				ctx.addIssue({
					code: 'custom',
					path: ['DEMO_DATA'],
					message: 'must not be on with a public APP_URL (anyone could sign in as a demo user); set DEMO_SITE=true for a demonstration site',
				})
			}
			if (env.TEST_CHECKOUT === true) {
				ctx.addIssue({
					code: 'custom',
					path: ['TEST_CHECKOUT'],
					message: 'must not be on with a public APP_URL (it gives coins to anyone); set DEMO_SITE=true for a demonstration site',
				})
			}
			if (env.TEST_PAYOUTS === true) {
				ctx.addIssue({
					code: 'custom',
					path: ['TEST_PAYOUTS'],
					message: 'must not be on with a public APP_URL (it marks payouts paid without paying anyone); set DEMO_SITE=true for a demonstration site',
				})
			}
		}
		if (env.DEMO_SITE && env.STRIPE_SECRET_KEY) {
			ctx.addIssue({ code: 'custom', path: ['DEMO_SITE'], message: 'a demonstration site takes no real payments: not with STRIPE_SECRET_KEY' })
		}
		// A public site must say who runs it (the imprint, and the privacy
		// policy's controller). The embedded default on localhost needs nothing.
		if (env.NODE_ENV === 'production' && env.APP_URL && !isLoopbackUrl(env.APP_URL)) {
			for (const key of ['OPERATOR_NAME', 'OPERATOR_ADDRESS', 'OPERATOR_EMAIL'] as const) {
				if (!env[key]) {
					ctx.addIssue({
						code: 'custom',
						path: [key],
						message: 'required in production on a public APP_URL: the imprint names the operator (OPERATOR_NAME, OPERATOR_ADDRESS, OPERATOR_EMAIL)',
					})
				}
			}
		}
	})
	.transform((env) => {
		const embedded = env.PLATFORM === 'local' && !env.DATABASE_URL
		const appUrl = env.APP_URL ?? `http://localhost:${env.PORT}`
		// Demo sign-ins and free coins: by default only on the embedded default
		// served to this machine (a loopback APP_URL) or on a declared demo site;
		// the checks above refuse them elsewhere.
		const freeByDefault = embedded && (isLoopbackUrl(appUrl) || env.DEMO_SITE)
		return {
			...env,
			APP_URL: appUrl,
			// The mailbox shows every confirmation and reset link: on by default
			// only on a developer's machine (loopback origin, listening on
			// loopback only), never under a container's HOST=0.0.0.0. Even when
			// on, only loopback clients reach it (app/security/hosts.server.ts).
			DEV_MAILBOX:
				env.DEV_MAILBOX ??
				(!env.SMTP_URL &&
					env.PLATFORM === 'local' &&
					isLoopbackUrl(appUrl) &&
					isLoopbackHost(env.HOST) &&
					// Extra public names mean a proxy serves this instance to others.
					env.ALLOWED_HOSTS.length === 0 &&
					Object.keys(env.LOCALE_DOMAINS).length === 0),
			MIGRATE_ON_START: env.MIGRATE_ON_START ?? env.PLATFORM === 'local',
			DEMO_DATA: env.DEMO_DATA ?? freeByDefault,
			// Never next to real payments.
			TEST_CHECKOUT: !env.STRIPE_SECRET_KEY && (env.TEST_CHECKOUT ?? freeByDefault),
			// Like the test checkout: never next to real payments.
			TEST_PAYOUTS: !env.STRIPE_SECRET_KEY && (env.TEST_PAYOUTS ?? freeByDefault),
			PAYOUT_CURRENCY: env.PAYOUT_CURRENCY ?? env.SHOP_CURRENCY,
			isProduction: env.NODE_ENV === 'production',
		}
	})

export type Env = z.output<typeof schema>

function isLoopbackUrl(url: string): boolean {
	return LOOPBACK_HOSTNAMES.includes(new URL(url).hostname)
}

/** A listen address that accepts loopback connections only. */
function isLoopbackHost(host: string): boolean {
	return host === 'localhost' || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)
}

export class EnvError extends Error {
	override name = 'EnvError'
}

/** Parse a set of variables; throws EnvError listing every bad one. */
export function parseEnv(source: Record<string, string | undefined>): Env {
	// An empty variable means "not set", as in most deployment tools.
	const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ''))
	const result = schema.safeParse(cleaned)
	if (!result.success) {
		const lines = result.error.issues.map((i) => `  ${i.path.join('.') || '(env)'}: ${i.message}`)
		throw new EnvError(`Invalid environment configuration:\n${lines.join('\n')}`)
	}
	return result.data
}

let current: Env | undefined

/** The parsed environment. `initEnv` must have run (server/app.ts does it at boot). */
export function getEnv(): Env {
	current ??= parseEnv(process.env)
	return current
}

export function initEnv(source: Record<string, string | undefined> = process.env): Env {
	current = parseEnv(source)
	return current
}

/** The only settings the browser sees. */
export function publicEnv(env: Env) {
	return {
		PLATFORM: env.PLATFORM,
		SUPABASE_URL: env.PLATFORM === 'supabase' ? env.SUPABASE_URL : undefined,
		SUPABASE_ANON_KEY: env.PLATFORM === 'supabase' ? env.SUPABASE_ANON_KEY : undefined,
		/** The public origin: canonical URLs, hreflang alternates and share cards. */
		APP_URL: env.APP_URL,
		BUILD_CHECK_INTERVAL: env.BUILD_CHECK_INTERVAL,
		/** A demonstration site: every page says coins and accounts are not real. */
		DEMO_SITE: env.DEMO_SITE,
	}
}
export type PublicEnv = ReturnType<typeof publicEnv>
