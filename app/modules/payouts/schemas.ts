import { IDEMPOTENCY_KEY } from '#app/utils/idempotency-key'
import { z } from '#app/utils/zod'

/**
 * The forms of the earnings page (/{lang}/earnings, docs/product.md §14),
 * told apart by their submit button's intent. The database checks every
 * rule of a payout again (public.request_payout: the minimum, what is
 * available, the account, restrictions); these read the fields and give a
 * clear answer to a form nobody could send from the page.
 */

export const PAYOUT_INTENTS = {
	/** Set up or finish the payout account: on to the provider's onboarding. */
	onboard: 'payout-onboard',
	/** The first step of a request: the conversion and fee shown before confirming (public.payout_quote). */
	quote: 'payout-quote',
	/** The confirmed request (public.request_payout), with the key minted when the page rendered. */
	request: 'payout-request',
} as const

/** The largest amount a form may name: far above any wallet, far below 2^53 (the database refuses past what is available). */
export const PAYOUT_COINS_MAX = 1_000_000_000_000

const coins = z.coerce.number({ error: 'error-invalid-amount' }).int({ error: 'error-invalid-amount' }).min(1, { error: 'error-invalid-amount' }).max(PAYOUT_COINS_MAX, { error: 'error-invalid-amount' })

// Minted when the page renders and carried through the confirmation step: a
// resubmitted confirmation or a double click asks once (docs/product.md §8.5).
const idempotencyKey = z.string({ error: 'error-invalid-idempotency-key' }).regex(IDEMPOTENCY_KEY, { error: 'error-invalid-idempotency-key' })

export const PayoutQuoteSchema = z.object({ intent: z.literal(PAYOUT_INTENTS.quote), coins, idempotencyKey })
export const PayoutRequestSchema = z.object({ intent: z.literal(PAYOUT_INTENTS.request), coins, idempotencyKey })
/** A country (ISO 3166-1 alpha-2); whether the platform can pay there is the provider's check (checkPayoutCountry). */
const country = z.string().trim().toUpperCase().regex(/^[A-Z]{2}$/)

/** Setting up the payout account: a new one's country (an existing account keeps its own, and its form sends none). */
export const PayoutOnboardSchema = z.object({ intent: z.literal(PAYOUT_INTENTS.onboard), country: country.optional() })

/** The test provider's onboarding page: the country the test account is in. */
export const TestOnboardingSchema = z.object({ country })

/** The operator's decision on a payout waiting for review (public.moderate's approve_payout and reject_payout). */
export const PAYOUT_DECISIONS = ['approve_payout', 'reject_payout'] as const
export type PayoutDecision = (typeof PAYOUT_DECISIONS)[number]

const PayoutDecisionFields = z.object({
	kind: z.literal('payout'),
	target: z.uuid(),
	action: z.enum(PAYOUT_DECISIONS),
	ground: z.enum(['hate', 'harassment', 'sexual', 'violence', 'illegal', 'spam', 'other', 'none']),
	explanation: z.string().trim().min(1).max(2000),
})
export type PayoutDecisionForm = z.infer<typeof PayoutDecisionFields>

/**
 * The operator's decision on a payout, or the first reason it cannot be
 * sent (the codes and keys of the console's other decision forms). Approving
 * takes no measure, so its ground is "none" whatever the form said; a
 * rejection withholds money from the creator and names the rule it rests on
 * (the statement of reasons cites it).
 */
export function parsePayoutDecision(
	formData: FormData,
): { ok: true; value: PayoutDecisionForm } | { ok: false; error: 'error-invalid-decision' | 'error-decision-explanation-required' | 'operator.ground-needed' } {
	const fields = Object.fromEntries(['kind', 'target', 'action', 'ground', 'explanation'].map((name) => [name, formData.get(name) ?? undefined]))
	if (fields.action === 'approve_payout') fields.ground = 'none'
	const parsed = PayoutDecisionFields.safeParse(fields)
	if (!parsed.success) {
		const field = parsed.error.issues[0]?.path[0]
		if (field === 'explanation') return { ok: false, error: 'error-decision-explanation-required' }
		if (field === 'ground') return { ok: false, error: 'operator.ground-needed' }
		return { ok: false, error: 'error-invalid-decision' }
	}
	if (parsed.data.action === 'reject_payout' && parsed.data.ground === 'none') return { ok: false, error: 'operator.ground-needed' }
	return { ok: true, value: parsed.data }
}
