import { sqlLiteral, type Database, type Queryable } from './database.server'

/**
 * The verified JWT claims of a signed-in user, as Supabase Auth issues them
 * (and as the local auth layer mints them). Only `sub` and `role` are read by
 * the database's own helpers (auth.uid(), auth.role()); the rest is available
 * to policies through auth.jwt().
 */
export type JwtClaims = {
	sub: string
	role: 'authenticated'
	email?: string
	aal?: 'aal1' | 'aal2'
	session_id?: string
	[k: string]: unknown
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/**
 * Run fn in one transaction as the given user (or as a visitor when claims is
 * null), the way PostgREST runs a Data API request: transaction-local role
 * `authenticated` (or `anon`) and `request.jwt.claims`. Row-level security,
 * column grants and the functions' auth.uid() checks then decide exactly as
 * they do on Supabase. Both settings are local to the transaction, so a
 * pooled connection never carries them into the next request.
 */
export async function asUser<T>(db: Database, claims: JwtClaims | null, fn: (tx: Queryable) => Promise<T>): Promise<T> {
	return db.transaction(fn, { setup: userSetup(claims) })
}

/**
 * Each query its own transaction as the given user (or visitor), sent with
 * the role and claims in one round trip (Database.statement): for calls that
 * are one statement, such as the money calls, so that no lock they take is
 * held across a round trip. Not for several queries that must commit
 * together: use asUser.
 */
export function statementsAsUser(db: Database, claims: JwtClaims | null): Queryable {
	const setup = userSetup(claims)
	return { query: (text, params) => db.statement(text, params ?? [], { setup }) }
}

function userSetup(claims: JwtClaims | null): string {
	if (claims !== null) {
		// Catch a wrong caller early and clearly: auth.uid() would otherwise fail
		// with an opaque cast error (or a policy would compare against garbage).
		if (claims.role !== 'authenticated') throw new TypeError(`asUser: claims.role must be 'authenticated'`)
		if (typeof claims.sub !== 'string' || !UUID.test(claims.sub)) throw new TypeError('asUser: claims.sub must be a uuid')
	}
	return claims === null ? impersonation('anon', { role: 'anon' }) : impersonation('authenticated', claims)
}

/**
 * Run fn in one transaction as service_role, which bypasses row-level
 * security. For named privileged work only (webhooks, operator commands,
 * background jobs); never with input a user controls the shape of.
 */
export function asServiceRole<T>(db: Database, fn: (tx: Queryable) => Promise<T>): Promise<T> {
	return db.transaction(fn, { setup: impersonation('service_role', { role: 'service_role' }) })
}

/**
 * The role and claims, as PostgREST sets them, sent with BEGIN (or the one
 * statement) in one round trip. is_local = true: both end with the
 * transaction, whether it commits or rolls back.
 */
function impersonation(role: 'anon' | 'authenticated' | 'service_role', claims: Record<string, unknown>): string {
	return `select set_config('role', ${sqlLiteral(role)}, true), set_config('request.jwt.claims', ${sqlLiteral(JSON.stringify(claims))}, true)`
}
