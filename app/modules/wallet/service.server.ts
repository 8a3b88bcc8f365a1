import type { Queryable } from '#app/db/database.server'

/** The signed-in user's balance, read as them (RLS: their own wallet only); null without a wallet. */
export async function readOwnBalance(tx: Queryable): Promise<number | null> {
	const { rows } = await tx.query<{ balance: number }>('select balance from public.wallets limit 1')
	return rows[0]?.balance ?? null
}
