/**
 * npm run ledger:check
 *
 * Verifies the money invariant (docs/product.md §8.4) with ledger.check(): every
 * account's balance equals its transfers in minus out, every wallet's cached
 * balance equals its ledger balance, no balance but the outside world's is
 * negative, and all accounts sum to zero. Reads DATABASE_URL when set, else
 * the PGlite folder PGLITE_DATA_DIR (default .data/pglite; stop the server
 * first, PGlite opens a folder from one process at a time). Prints each
 * problem with the account it concerns and exits 1 when there is any.
 */
import { createDatabase, type Database } from '../app/db/database.server'

interface Problem {
	account_id: number | null
	kind: string
	owner: string | null
	problem: string
	expected: number
	actual: number
}

async function main(): Promise<void> {
	const url = process.env.DATABASE_URL || undefined
	const dataDir = process.env.PGLITE_DATA_DIR || '.data/pglite'
	console.log(`ledger:check: ${url ? 'Postgres at DATABASE_URL' : `PGlite in ${dataDir}`}`)
	let db: Database | undefined
	try {
		db = await createDatabase(url ? { url } : { dataDir })
		const started = Date.now()
		const { rows } = await db.query<Problem>('select * from ledger.check()')
		const { rows: totals } = await db.query<{ accounts: number; transfers: number }>(
			'select (select count(*) from ledger.accounts)::int as accounts, (select count(*) from ledger.transfers)::int as transfers',
		)
		const { accounts, transfers } = totals[0] ?? { accounts: 0, transfers: 0 }
		if (rows.length === 0) {
			console.log(`ledger:check: ok, ${accounts} accounts, ${transfers} transfers, checked in ${Date.now() - started} ms`)
			return
		}
		for (const p of rows) {
			const who = p.account_id === null ? p.kind : `account ${p.account_id} (${p.kind}${p.owner ? ` ${p.owner}` : ''})`
			console.error(`ledger:check: DRIFT ${who}: ${p.problem}: expected ${p.expected}, found ${p.actual}`)
		}
		console.error(`ledger:check: ${rows.length} problem(s) in ${accounts} accounts, ${transfers} transfers`)
		process.exitCode = 1
	} finally {
		await db?.close()
	}
}

main().catch((error: unknown) => {
	console.error(`ledger:check failed: ${error instanceof Error ? error.message : String(error)}`)
	process.exitCode = 2
})
