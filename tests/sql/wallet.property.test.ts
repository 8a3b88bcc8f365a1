import { randomUUID } from 'node:crypto'
import fc from 'fast-check'
import { expect, test } from 'vitest'
import { createDatabase, type Database, type Queryable } from '#app/db/database.server'
import { asCaller } from '#app/modules/wallet/as-caller.server'
import { claimsFor, createAuthUser, describeEachDatabase } from '#tests/support/databases'
import { ledgerProblems } from '#tests/support/wallet'

type Command =
	| { op: 'purchase'; user: number; coins: number; conn: number }
	| { op: 'boost'; user: number; pot: number; amount: number; conn: number }
	| { op: 'refund'; user: number; pot: number; amount: number; conn: number }
	| { op: 'replay'; index: number; conn: number }
	| { op: 'delete'; user: number; conn: number }

const USERS = 5
const POTS = 3
const amount = fc.integer({ min: 1, max: 120 }).map((n) => n * 10)
const conn = fc.integer({ min: 0, max: 3 })
const command: fc.Arbitrary<Command> = fc.oneof(
	{ weight: 3, arbitrary: fc.record({ op: fc.constant('purchase' as const), user: fc.nat(USERS - 1), coins: fc.constantFrom(500, 1100, 2400), conn }) },
	{ weight: 4, arbitrary: fc.record({ op: fc.constant('boost' as const), user: fc.nat(USERS - 1), pot: fc.nat(POTS - 1), amount, conn }) },
	{ weight: 3, arbitrary: fc.record({ op: fc.constant('refund' as const), user: fc.nat(USERS - 1), pot: fc.nat(POTS - 1), amount, conn }) },
	{ weight: 2, arbitrary: fc.record({ op: fc.constant('replay' as const), index: fc.nat(), conn }) },
	{ weight: 1, arbitrary: fc.record({ op: fc.constant('delete' as const), user: fc.nat(USERS - 1), conn }) },
)

const EXPECTED_REFUSALS = new Set(['error-insufficient-funds', 'error-wallet-not-found'])

describeEachDatabase('wallet ledger under random operations', (getDb, kind) => {
	test('after any sequence of purchases, transfers, replays and deletions across connections the books balance', async () => {
		const db = getDb()
		// Several connections on Postgres (batches run on them at once); PGlite has one.
		const extra: Database[] = []
		if (kind === 'postgres') {
			const { rows } = await db.query<{ db: string }>('select current_database() as db')
			const url = new URL(process.env.TEST_DATABASE_URL!)
			url.pathname = `/${rows[0]!.db}`
			for (let i = 0; i < 3; i++) extra.push(await createDatabase({ url: url.toString(), poolSize: 1 }))
		}
		const connections: Database[] = [db, ...extra]
		const pots = Array.from({ length: POTS }, () => randomUUID())
		try {
			await fc.assert(
				fc.asyncProperty(fc.array(fc.array(command, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 8 }), async (batches) => {
					const users = await Promise.all(Array.from({ length: USERS }, () => createAuthUser(db)))
					// The accounts exist before anything moves, as in the app: a wallet's
					// ledger account with its first coins, a pot with its dare
					// (create_dare). Created lazily here by two concurrent transfers in
					// opposite argument order, they deadlocked on each other's new index
					// entry, a race of this harness that the app's order never runs.
					await db.query('select ledger.wallet_account(u) from unnest($1::uuid[]) as u', [users])
					await db.query('select ledger.pot_account(p) from unnest($1::uuid[]) as p', [pots])
					const done: Array<(c: Queryable) => Promise<unknown>> = []
					for (const batch of batches) {
						await Promise.all(
							batch.map(async (cmd) => {
								const on = connections[cmd.conn % connections.length]!
								const run = step(cmd, users, pots, done)
								if (!run) return
								try {
									await run(on)
								} catch (error) {
									const message = error instanceof Error ? error.message : String(error)
									if (!EXPECTED_REFUSALS.has(message)) throw error
								}
							}),
						)
					}
					expect(await ledgerProblems(db)).toEqual([])
					const { rows } = await db.query<{ n: number }>('select count(*)::int as n from public.wallets where balance < 0')
					expect(rows[0]?.n).toBe(0)
				}),
				// On Postgres a failure depends on timing across connections, which shrinking cannot replay: report the
				// failing run's own error at once (CI once timed out here, perhaps shrinking such a failure; not reproduced).
				{ numRuns: kind === 'postgres' ? 15 : 25, endOnFailure: kind === 'postgres' },
			)
		} finally {
			await Promise.all(extra.map((e) => e.close()))
		}
	})
})

/** What a command does, as a function of a connection (kept for replays); null when there is nothing to do. */
function step(
	cmd: Command,
	users: string[],
	pots: string[],
	done: Array<(c: Queryable) => Promise<unknown>>,
): ((c: Queryable | Database) => Promise<unknown>) | null {
	const key = `prop-${randomUUID()}`
	let run: (c: Queryable | Database) => Promise<unknown>
	switch (cmd.op) {
		case 'purchase': {
			const user = users[cmd.user]!
			run = (c) =>
				'transaction' in c
					? asCaller(c, claimsFor(user), async (tx) => {
							const { rows } = await tx.query<{ id: string }>(
								`select id from ledger.create_purchase($1, $2, 100, 'EUR', 'test', $3)`,
								[`coins-${cmd.coins}`, cmd.coins, key],
							)
							await tx.query('select * from ledger.complete_purchase($1)', [rows[0]!.id])
						})
					: Promise.resolve()
			break
		}
		case 'boost':
			run = (c) =>
				c.query(`select * from ledger.transfer(ledger.wallet_account($1), ledger.pot_account($2), $3, 'boost', null, $4)`, [
					users[cmd.user],
					pots[cmd.pot],
					cmd.amount,
					key,
				])
			break
		case 'refund':
			run = (c) =>
				c.query(`select * from ledger.transfer(ledger.pot_account($1), ledger.wallet_account($2), $3, 'refund', null, $4)`, [
					pots[cmd.pot],
					users[cmd.user],
					cmd.amount,
					key,
				])
			break
		case 'replay': {
			if (done.length === 0) return null
			return done[cmd.index % done.length]!
		}
		case 'delete': {
			const user = users[cmd.user]!
			return (c) => c.query('delete from auth.users where id = $1', [user])
		}
	}
	done.push(run)
	return run
}
