import { createHash } from 'node:crypto'
import type { Database } from '#app/db/database.server'
import type { Env } from '#app/env.server'
import type { AccountService, AuthAdapter } from '#app/modules/account/types'
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
 * The Supabase platform's accounts: Supabase Auth through @supabase/ssr
 * (backend.server.ts), over the project's Postgres through DATABASE_URL
 * (queries still run as the user, with the claims Supabase verified). The
 * platform (app/platform/index.server.ts) calls this.
 *
 * `db` (optional, always given by the server) lets account deletion remove
 * the auth.users row in one statement (the `before delete` trigger settles
 * the user's sessions and forfeits the wallet there), lets a repeated sign-up see that the address exists, and
 * keeps the rate-limit counters in app_private.rate_limits, shared by every
 * instance; without it the counters are per process.
 */
export async function createSupabaseAccounts(env: Env, db?: Database): Promise<{ accounts: AccountService; auth: AuthAdapter }> {
	const { accounts, auth, ready } = createSupabaseAuth(supabaseAuthOptions(env, db))
	await ready()
	return { accounts, auth }
}
