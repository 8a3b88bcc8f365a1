import type { AppServices } from '#app/context.server'
import { DbError, type Queryable } from '#app/db/database.server'
import type { Env } from '#app/env.server'
import { canPayTo, normalizeCountry } from './countries'
import { stripeConnectProvider } from './stripe-connect.server'
import { testPayoutProvider } from './test-provider.server'

/**
 * The payment provider that pays creators (docs/product.md §14,
 * docs/decisions/052-stripe-connect-payouts.md): Stripe Connect (Accounts v2,
 * recipient configuration) when Stripe is configured, the test stand-in
 * inside the app when TEST_PAYOUTS is on (never both), else none: payouts
 * wait, approved, until one is configured.
 */
export type PayoutMode = 'stripe' | 'test' | 'closed'

export function payoutMode(env: Env): PayoutMode {
	if (env.STRIPE_SECRET_KEY && env.STRIPE_WEBHOOK_SECRET) return 'stripe'
	return env.TEST_PAYOUTS ? 'test' : 'closed'
}

/** What the provider steps need of the services: the settings and the owner connection. */
export type PayoutServices = Pick<AppServices, 'env' | 'db'>

export type PayoutAccountStatus = 'onboarding' | 'ready' | 'restricted'

/** The creator's payout account as ledger.payout_accounts keeps it. */
export interface PayoutAccount {
	userId: string
	provider: 'stripe' | 'test'
	externalId: string
	country: string
	status: PayoutAccountStatus
	/** What the provider still needs from the creator, as REQUIREMENT_CODES. */
	requirements: RequirementCode[]
	/** The provider's reason when the account cannot receive money (its own code, for the operator). */
	disabledReason: string | null
}

/** An approved payout as ledger.payouts_to_send lists it. */
export interface PayoutToSend {
	id: string
	user_id: string
	coins: number
	fee_coins: number
	amount_minor: number
	currency: string
	provider: 'stripe' | 'test'
	external_account: string
}

/** Who is onboarding: the signed-in creator. */
export interface PayoutUser {
	userId: string
	email: string | null
}

/**
 * What sending one payout came to:
 *  - paid: the provider took it and the money left (ledger.mark_payout_paid, with the transfer's id);
 *  - failed: the provider refused it for good; the coins went back to the wallet with `reason`;
 *  - retry: it could not be sent now (the provider did not answer, or answered an error of its
 *    own); it stays approved and the next round sends it again under the same idempotency key.
 */
export type SendOutcome =
	| { kind: 'paid'; transferId: string }
	| { kind: 'failed'; reason: PayoutFailureReason; notify: FailedPayoutNotice | null }
	| { kind: 'retry'; reason: string }

/** Who to tell about a failed payout (ledger.mark_payout_failed's row, when it changed something). */
export interface FailedPayoutNotice {
	payoutId: string
	userId: string
	email: string | null
	language: string
	reason: PayoutFailureReason
}

export interface PayoutProvider {
	readonly name: 'stripe' | 'test'
	/**
	 * The creator's onboarding: the provider account is made once (a second
	 * click reuses it) and saved with ledger.save_payout_account; the answer is
	 * where to send the creator. Refuses a country the platform cannot pay
	 * (error-payout-country-unsupported) before anything is made.
	 */
	startOnboarding(user: PayoutUser, country: string, returnUrl: string, refreshUrl: string): Promise<{ url: string }>
	/** Reads the creator's account from the provider and saves what it says; null without one. */
	refreshAccount(userId: string): Promise<PayoutAccount | null>
	/** Sends one approved payout (idempotency key `payout-<id>`) and records the outcome in the ledger. */
	send(payout: PayoutToSend): Promise<SendOutcome>
}

/**
 * Our own codes for what a provider still needs from a creator: the earnings
 * page translates these (a short fixed set, so every provider code a creator
 * might meet reads as plain words).
 */
export const REQUIREMENT_CODES = ['identity', 'bank_account', 'tax', 'terms', 'other'] as const
export type RequirementCode = (typeof REQUIREMENT_CODES)[number]

/**
 * A provider's requirement (Stripe's requirement `description`, such as
 * `identity.individual.dob`, `payout_method` or
 * `identity.attestations.terms_of_service.account`) as one of ours.
 */
export function requirementCode(providerCode: string): RequirementCode {
	const code = providerCode.toLowerCase()
	if ((REQUIREMENT_CODES as readonly string[]).includes(code)) return code as RequirementCode
	if (/(terms_of_service|tos_acceptance|attestation)/.test(code)) return 'terms'
	if (/(tax|id_number|vat|ssn)/.test(code)) return 'tax'
	if (/(bank_account|external_account|payout_method|payouts_method)/.test(code)) return 'bank_account'
	if (/(identity|individual|person|representative|verification|document|dob|address|name|phone|email|relationship)/.test(code))
		return 'identity'
	return 'other'
}

/** Provider requirements as our codes, each once, in REQUIREMENT_CODES' order. */
export function requirementCodes(providerCodes: readonly string[]): RequirementCode[] {
	const found = new Set(providerCodes.map(requirementCode))
	return REQUIREMENT_CODES.filter((code) => found.has(code))
}

/**
 * Why a payout failed (ledger.payouts.failure_reason), as codes the earnings
 * page translates:
 *  - account_not_ready: the creator's payout account cannot receive it (the
 *    provider refused the destination, or the payout was requested through a
 *    provider no longer in use); the creator finishes onboarding, then asks again;
 *  - platform_balance: the platform's balance could not cover it (the
 *    operator's to fix); the creator may ask again later;
 *  - transfer_refused: the provider refused it for another reason;
 *  - reversed: the transfer was taken back in the provider's dashboard.
 */
export const PAYOUT_FAILURE_REASONS = ['account_not_ready', 'platform_balance', 'transfer_refused', 'reversed'] as const
export type PayoutFailureReason = (typeof PAYOUT_FAILURE_REASONS)[number]

/**
 * The country a creator chose, checked against where the platform
 * (PAYOUT_COUNTRY) can pay; refuses with error-payout-country-unsupported.
 */
export function checkPayoutCountry(env: Env, country: unknown): string {
	const code = normalizeCountry(country)
	if (!code || !canPayTo(env.PAYOUT_COUNTRY, code)) throw new DbError('error-payout-country-unsupported')
	return code
}

interface PayoutAccountRow {
	user_id: string
	provider: 'stripe' | 'test'
	external_id: string
	country: string
	status: PayoutAccountStatus
	requirements: string[]
	disabled_reason: string | null
}

function fromRow(row: PayoutAccountRow): PayoutAccount {
	return {
		userId: row.user_id,
		provider: row.provider,
		externalId: row.external_id,
		country: row.country,
		status: row.status,
		requirements: requirementCodes(row.requirements),
		disabledReason: row.disabled_reason,
	}
}

const ACCOUNT_COLUMNS = 'user_id, provider, external_id, country, status, requirements, disabled_reason'

/** The creator's saved payout account, or null. */
export async function readPayoutAccount(db: Queryable, userId: string): Promise<PayoutAccount | null> {
	const { rows } = await db.query<PayoutAccountRow>(`select ${ACCOUNT_COLUMNS} from ledger.payout_accounts where user_id = $1`, [userId])
	return rows[0] ? fromRow(rows[0]) : null
}

/** The creator whose provider account this is, or null. */
export async function payoutAccountOwner(db: Queryable, externalId: string): Promise<string | null> {
	const { rows } = await db.query<{ user_id: string }>('select user_id from ledger.payout_accounts where external_id = $1', [externalId])
	return rows[0]?.user_id ?? null
}

/** Records the account as the provider describes it (ledger.save_payout_account, an upsert by creator). */
export async function savePayoutAccount(db: Queryable, account: PayoutAccount): Promise<void> {
	await db.query('select ledger.save_payout_account($1, $2, $3, $4, $5, $6, $7)', [
		account.userId,
		account.provider,
		account.externalId,
		account.country,
		account.status,
		account.requirements,
		account.disabledReason,
	])
}

/** The money left, with the provider's transfer, in one step (ledger.mark_payout_paid; a second call changes nothing). */
export async function recordPaid(db: Queryable, payoutId: string, transferId: string): Promise<void> {
	await db.query('select ledger.mark_payout_paid($1, $2)', [payoutId, transferId])
}

/** The payout will not be paid: its coins back to the wallet (once), and who to tell. */
export async function recordFailed(db: Queryable, payoutId: string, reason: PayoutFailureReason): Promise<FailedPayoutNotice | null> {
	const { rows } = await db.query<{ changed: boolean; user_id: string; email: string | null; language: string }>(
		'select changed, user_id, email, language from ledger.mark_payout_failed($1, $2)',
		[payoutId, reason],
	)
	const row = rows[0]
	if (!row?.changed) return null
	return { payoutId, userId: row.user_id, email: row.email, language: row.language, reason }
}

/**
 * The provider for the current configuration, or null when payouts are
 * closed (nothing else picks one).
 */
export function payoutProvider(services: PayoutServices): PayoutProvider | null {
	const mode = payoutMode(services.env)
	if (mode === 'stripe') return stripeConnectProvider(services)
	if (mode === 'test') return testPayoutProvider(services)
	return null
}

// The page helpers' entry points, from one module.
export { sendApprovedPayouts } from './sender.server'
export { completeTestOnboarding } from './test-provider.server'
