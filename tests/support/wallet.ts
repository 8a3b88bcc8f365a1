import { randomUUID } from 'node:crypto'
import type { Queryable } from '#app/db/database.server'

/**
 * Coins into a wallet the way money enters the product, through the ledger
 * (from the outside world), on the owner connection. Writing
 * public.wallets.balance directly no longer commits: the ledger's deferred
 * check refuses it.
 */
export async function fundWallet(db: Queryable, userId: string, amount: number): Promise<void> {
	await db.query(
		`select * from ledger.transfer(ledger.system_account('world'), ledger.wallet_account($1), $2, 'purchase', 'test', $3)`,
		[userId, amount, `test-fund:${randomUUID()}`],
	)
}

/** Rows of ledger.check(): empty when the books are right. */
export async function ledgerProblems(db: Queryable): Promise<Array<Record<string, unknown>>> {
	const { rows } = await db.query('select * from ledger.check()')
	return rows
}

/** Move a wallet's whole balance into a pot, as boosts would spend it. */
export async function spendAll(db: Queryable, userId: string): Promise<void> {
	await db.query(
		`select t.* from public.wallets w,
		   lateral ledger.transfer(ledger.wallet_account($1), ledger.pot_account(gen_random_uuid()), w.balance, 'boost', null, $2) t
		 where w.id = $1 and w.balance > 0`,
		[userId, `test-spend:${randomUUID()}`],
	)
}
