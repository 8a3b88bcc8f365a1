import { payoutProvider, type FailedPayoutNotice, type PayoutServices, type PayoutToSend } from './provider.server'
import { startRounds } from '#app/utils/rounds.server'

/**
 * Sends the approved payouts (docs/product.md §14.5): after a request or an
 * approval commits (the earnings page and the operators' console call
 * sendApprovedPayouts) and on a timer (startPayoutSender), which also picks
 * up what a crash or a provider outage left approved.
 *
 * Safe to run twice at once, in one process or on several instances: each
 * payout goes to the provider under its own idempotency key
 * (`payout-<id>`), and the ledger's steps (mark_payout_sent, _paid, _failed)
 * change a payout once. Within one process a second call while a round runs
 * waits for it and runs one more round, which sees what committed meanwhile.
 */

export interface SendRound {
	paid: number
	failed: number
	/** Left approved for the next round (the provider did not take it now). */
	retry: number
	/** Failed payouts to tell their creators about. */
	notices: FailedPayoutNotice[]
}

/** The most payouts one round reads at a time. */
const BATCH = 20

const rounds = new WeakMap<PayoutServices['db'], { running: Promise<SendRound>; again: Promise<SendRound> | null }>()

export function sendApprovedPayouts(services: PayoutServices, { signal }: { signal?: AbortSignal } = {}): Promise<SendRound> {
	const state = rounds.get(services.db)
	if (state) {
		// A round is running: it may have read the list before this call's payout
		// committed, so one more round follows it (shared by every caller meanwhile).
		state.again ??= state.running.catch(() => undefined).then(() => {
			state.again = null
			return sendApprovedPayouts(services, { signal })
		})
		return state.again
	}
	const running = oneRound(services, signal).finally(() => {
		if (rounds.get(services.db)?.running === running) rounds.delete(services.db)
	})
	rounds.set(services.db, { running, again: null })
	return running
}

async function oneRound(services: PayoutServices, signal: AbortSignal | undefined): Promise<SendRound> {
	const round: SendRound = { paid: 0, failed: 0, retry: 0, notices: [] }
	const provider = payoutProvider(services)
	// Payouts closed: approved payouts wait for a provider.
	if (!provider) return round
	const seen = new Set<string>()
	// A stopping server ends the round between two payouts (what is left stays approved).
	while (!signal?.aborted) {
		const { rows } = await services.db.query<PayoutToSend>(
			'select id, user_id, coins, fee_coins, amount_minor, currency, provider, external_account from ledger.payouts_to_send($1)',
			[BATCH + seen.size],
		)
		const fresh = rows.filter((row) => !seen.has(row.id))
		if (fresh.length === 0) return round
		for (const payout of fresh) {
			if (signal?.aborted) break
			seen.add(payout.id)
			const outcome = await provider.send({ ...payout, coins: Number(payout.coins), fee_coins: Number(payout.fee_coins), amount_minor: Number(payout.amount_minor) })
			if (outcome.kind === 'paid') round.paid++
			else if (outcome.kind === 'failed') {
				round.failed++
				if (outcome.notify) round.notices.push(outcome.notify)
			} else round.retry++
		}
	}
	return round
}

/** How often the timer sends what is approved (and tries again what was not taken). */
export const PAYOUT_SEND_INTERVAL_MS = 60_000

/**
 * The timer beside the requests, started at boot and stopped on drain (before
 * the database closes), like the dares' sweeper.
 */
export function startPayoutSender(
	services: PayoutServices,
	{ intervalMs = PAYOUT_SEND_INTERVAL_MS, log = console.error }: { intervalMs?: number; log?: (line: string) => void } = {},
) {
	return startRounds('payout sender', (signal) => sendApprovedPayouts(services, { signal }), { intervalMs, log })
}
