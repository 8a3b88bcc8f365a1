import type { Queryable } from '#app/db/database.server'
import type { Platform } from '#app/platform/types'

/** The signed-in user's balance, read as them (RLS: their own wallet only); null without a wallet. */
export async function readOwnBalance(tx: Queryable): Promise<number | null> {
	const { rows } = await tx.query<{ balance: number }>('select balance from public.wallets limit 1')
	return rows[0]?.balance ?? null
}

/** The wallet topic of PRODUCT.md's live updates: only its owner may join it. */
export function walletTopic(userId: string): string {
	return `wallets_${userId}`
}

/**
 * Tell the user's open pages their new balance. Only after the transaction
 * that changed it has committed (a rolled-back change must not be
 * announced); the realtime interface never throws.
 */
export function publishBalance(platform: Platform, userId: string, balance: number): Promise<void> {
	return platform.realtime.broadcast(walletTopic(userId), 'balance', { balance })
}
