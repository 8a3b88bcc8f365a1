import type { Queryable } from '#app/db/database.server'
import type { Env } from '#app/env.server'

/**
 * The operator's payout settings (PAYOUT_* in the environment, docs/product.md
 * §14) written where the ledger reads them (ledger.settings), at start-up on
 * the owner connection, like the platform fee. A request converts at the
 * rate of its moment: changing PAYOUT_CENTS_PER_COIN changes no payout
 * already requested.
 */
export async function configurePayoutSettings(db: Queryable, env: Env): Promise<void> {
	await db.query('select ledger.set_payout_settings($1, $2, $3, $4, $5, $6)', [
		env.PAYOUT_HOLD_DAYS,
		env.PAYOUT_MIN_COINS,
		env.PAYOUT_REVIEW_COINS,
		// numeric: the decimal as written, not a binary fraction.
		String(env.PAYOUT_CENTS_PER_COIN),
		Math.round(env.PAYOUT_FEE_PERCENT * 100),
		env.PAYOUT_CURRENCY,
	])
}
