import { createHash } from 'node:crypto'
import type { Database } from '#app/db/database.server'
import type { Env } from '#app/env.server'
import { createSmtpMailer } from '#app/mail/smtp.server'
import type { MailAdapter, Platform } from '#app/platform/types'
import { createSupabaseAuth, type SupabaseAuthOptions } from './backend.server'

export { SUPABASE_COOKIE_OPTIONS, createSupabaseServerClient } from './client.server'

/** The options for the Supabase account backend, from the environment. */
export function supabaseAuthOptions(env: Env, db?: Database): SupabaseAuthOptions {
	if (!env.SUPABASE_URL || !env.SUPABASE_ANON_KEY) throw new Error('SUPABASE_URL and SUPABASE_ANON_KEY are required')
	const serviceRoleKey = env.SUPABASE_SERVICE_ROLE_KEY?.trim() ?? ''
	return {
		url: env.SUPABASE_URL,
		anonKey: env.SUPABASE_ANON_KEY,
		...(serviceRoleKey ? { serviceRoleKey } : {}),
		appUrl: env.APP_URL,
		secureCookies: env.APP_URL.startsWith('https:'),
		trustProxy: env.TRUST_PROXY,
		...(db ? { db, rateLimitSecret: rateLimitSecret(serviceRoleKey || env.DATABASE_URL || env.SUPABASE_ANON_KEY) } : {}),
	}
}

/**
 * The key of the rate-limit counters' HMACs: every instance must agree on it
 * without one more variable to configure, so it is derived from a secret they
 * already share (the service role key, else the database URL, which holds the
 * database password).
 */
function rateLimitSecret(shared: string): string {
	return createHash('sha256').update(`dareboost rate limits\0${shared}`).digest('base64url')
}

/**
 * Platform `supabase`: Supabase Auth through @supabase/ssr, the project's
 * Postgres through DATABASE_URL (queries still run as the user, with the
 * claims Supabase verified). (Delivery through Supabase Realtime is
 * app/modules/realtime's, ADR 035.)
 *
 * `db` (optional, always given by the server) lets account deletion remove
 * the auth.users row in one statement (the `before delete` trigger settles
 * the user's sessions and forfeits the wallet there), lets a repeated sign-up see that the address exists, and
 * keeps the rate-limit counters in app_private.rate_limits, shared by every
 * instance; without it the counters are per process.
 */
export async function createSupabasePlatform(env: Env, db?: Database): Promise<Platform> {
	const { accounts, auth, ready } = createSupabaseAuth(supabaseAuthOptions(env, db))
	await ready()
	// Supabase sends its own auth mails (supabase/templates); the app's other
	// mails go through SMTP when configured.
	const mail: MailAdapter = env.SMTP_URL
		? createSmtpMailer(env.SMTP_URL, env.MAIL_FROM)
		: {
				transport: 'supabase',
				async send(m) {
					throw new Error(`No SMTP_URL configured: cannot send "${m.kind}" mail on the supabase platform`)
				},
			}
	return {
		name: 'supabase',
		auth,
		mail,
		accounts,
	}
}
