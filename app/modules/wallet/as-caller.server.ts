import type { JwtClaims } from '#app/db/as-user.server'
import { sqlLiteral, type Database, type Queryable } from '#app/db/database.server'

/**
 * Run fn in one transaction on the server's own connection (the owner of
 * the ledger), with the signed-in user's JWT claims set, so that the ledger's
 * internal functions (not executable by any API role) still take the caller
 * from auth.uid() and check their two-factor assurance themselves
 * (ledger.create_purchase). For money work only; everything else goes
 * through asUser.
 */
export function asCaller<T>(db: Database, claims: JwtClaims, fn: (tx: Queryable) => Promise<T>): Promise<T> {
	// The claims travel with BEGIN, as asUser's do (database.server.ts, TransactionOptions).
	return db.transaction(fn, { setup: `select set_config('request.jwt.claims', ${sqlLiteral(JSON.stringify(claims))}, true)` })
}
