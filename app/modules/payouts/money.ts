/**
 * The earnings page's arithmetic and words that need no server: coins at
 * the operator's rate (docs/product.md §14), and what the payment provider
 * still needs, in the few kinds the page explains.
 */

/**
 * `coins` at `centsPerCoin` (the currency's minor units per coin, a decimal
 * string such as "0.7" as Postgres returns numeric), rounded down to a whole
 * minor unit: computed in integers, so 1,000 coins at 0.7 is 700, never 699.
 * What a payout actually pays is public.payout_quote's answer; this is the
 * page's "worth about".
 */
export function minorUnitsFor(coins: number, centsPerCoin: string): number {
	const match = /^(\d+)(?:\.(\d+))?$/.exec(centsPerCoin.trim())
	if (!match || !Number.isSafeInteger(coins) || coins < 0) return 0
	const decimals = match[2] ?? ''
	const rate = BigInt(`${match[1]}${decimals}`)
	const scale = 10n ** BigInt(decimals.length)
	return Number((BigInt(coins) * rate) / scale)
}

/**
 * What a payment provider still needs of a creator, as ledger.payout_accounts
 * keeps it: the app's own codes (provider.server.ts's requirementCode sorts
 * the provider's into these), which the page says in plain words.
 */
export const REQUIREMENT_KINDS = ['identity', 'bank_account', 'tax', 'terms', 'other'] as const
export type RequirementKind = (typeof REQUIREMENT_KINDS)[number]

/** Each kind once, in the order the page lists them; a code the page does not know reads as "other". */
export function requirementKinds(codes: readonly string[]): RequirementKind[] {
	const kinds = new Set(codes.map((code) => ((REQUIREMENT_KINDS as readonly string[]).includes(code) ? code : 'other')))
	return REQUIREMENT_KINDS.filter((kind) => kinds.has(kind))
}
