import type { Database } from '#app/db/database.server'
import { sweeperSwept } from '#app/metrics.server'
import { startRounds } from '#app/utils/rounds.server'

/**
 * Resolves due votes (docs/product.md §6.9: exactly once, at the end of voting,
 * also after a restart and with several server instances). Deadlines are rows
 * (public.dares.voting_ends_at); every tick asks the database to resolve the
 * due ones, which it does with `for update skip locked`, so two instances on
 * one database never resolve a dare twice and a restart across a deadline
 * resolves it on the first tick. Reads resolve the session's due votes too
 * (public.session_dares), so nobody sees a vote past its end unresolved.
 */
export const SWEEP_INTERVAL_MS = 500

export function startDareSweeper(db: Database, { intervalMs = SWEEP_INTERVAL_MS, log = console.error } = {}) {
	return startRounds(
		'dare sweeper',
		async (signal) => {
			// One dare a transaction (its refunds lock wallets in booster order;
			// several dares in one transaction would not keep one order), up to
			// 100 a tick; a larger backlog drains over the next ticks.
			for (let i = 0; i < 100 && !signal.aborted; i++) {
				const { rows } = await db.query<{ n: number }>('select ledger.resolve_due_dares(1) as n')
				if (!rows[0]?.n) break
			}
			sweeperSwept()
		},
		{ intervalMs, log },
	)
}

/** The operator's fee, as basis points of a completed dare's pot (ledger.settings). */
export async function configurePlatformFee(db: Database, percent: number): Promise<void> {
	await db.query('select ledger.set_platform_fee($1)', [Math.round(percent * 100)])
}
