import Stripe from 'stripe'
import { DbError } from '#app/db/database.server'
import { stripeClient } from '#app/modules/shop/stripe.server'
import {
	checkPayoutCountry,
	payoutAccountOwner,
	readPayoutAccount,
	recordFailed,
	recordPaid,
	requirementCodes,
	savePayoutAccount,
	type PayoutAccount,
	type PayoutAccountStatus,
	type PayoutFailureReason,
	type PayoutProvider,
	type PayoutServices,
	type PayoutToSend,
	type PayoutUser,
	type SendOutcome,
} from './provider.server'

/**
 * Stripe Connect for creators (docs/decisions/052-stripe-connect-payouts.md):
 * one Accounts v2 account per creator with the recipient configuration (its
 * stripe_balance.stripe_transfers capability receives our transfers), Stripe's
 * hosted onboarding through v2 account links, and a v1 transfer per approved
 * payout under the idempotency key `payout-<payout id>`. Everything goes
 * through the official SDK (the shop's client, STRIPE_API_URL in tests).
 */

/** What we ask Stripe to include when it returns an account: the parts we read. */
const ACCOUNT_INCLUDE: Stripe.V2.Core.AccountRetrieveParams.Include[] = ['configuration.recipient', 'requirements', 'identity']

/**
 * Status details that mean Stripe itself stopped the account (rejected,
 * unsupported, restricted for its own reasons): the creator cannot fix them
 * by onboarding. Anything else not yet active (information due or being
 * verified) is still onboarding.
 */
function stoppedByStripe(code: string): boolean {
	return code.startsWith('rejected_') || code.startsWith('unsupported_') || code === 'restricted_other'
}

/** A v2 account as the ledger keeps it: our status, our requirement codes, Stripe's reason. */
export function describeAccount(account: Stripe.V2.Core.Account, userId: string, fallbackCountry: string): PayoutAccount {
	const capability = account.configuration?.recipient?.capabilities?.stripe_balance?.stripe_transfers
	const details = capability?.status_details ?? []
	const codes = details.map((d) => String(d.code))
	let status: PayoutAccountStatus
	if (account.closed) status = 'restricted'
	else if (capability?.status === 'active') status = 'ready'
	else if (capability?.status === 'rejected' || capability?.status === 'unsupported' || codes.some(stoppedByStripe)) status = 'restricted'
	else status = 'onboarding'
	// What the creator has to provide now (not what Stripe is checking, nor what is due some day).
	const due = (account.requirements?.entries ?? [])
		.filter((entry) => entry.awaiting_action_from === 'user' && entry.minimum_deadline?.status !== 'eventually_due')
		.map((entry) => entry.description)
	return {
		userId,
		provider: 'stripe',
		externalId: account.id,
		country: (account.identity?.country ?? fallbackCountry).toUpperCase(),
		status,
		requirements: requirementCodes(due),
		disabledReason: status === 'ready' ? null : account.closed ? 'closed' : (codes[0] ?? capability?.status ?? 'not_requested'),
	}
}

/** Stripe's error codes that mean the destination account cannot receive a transfer. */
const ACCOUNT_REFUSALS = new Set([
	'account_closed',
	'account_invalid',
	'capability_not_active',
	'insufficient_capabilities_for_transfer',
	'no_account',
	'transfers_not_allowed',
])

/**
 * A failed Stripe call, sorted: a refusal of this transfer (4xx: it fails,
 * with our reason) or anything else (no answer, Stripe's own error, a
 * configuration error of ours, a concurrent request under the same key):
 * tried again next round under the same key.
 */
export function transferRefusal(error: unknown): PayoutFailureReason | null {
	if (!(error instanceof Stripe.errors.StripeError)) return null
	if (error.type !== 'StripeInvalidRequestError' && error.type !== 'StripeCardError') return null
	const code = error.code ?? ''
	if (code === 'balance_insufficient') return 'platform_balance'
	if (ACCOUNT_REFUSALS.has(code) || error.param === 'destination') return 'account_not_ready'
	return 'transfer_refused'
}

function requireClient(services: PayoutServices): Stripe {
	const stripe = stripeClient(services.env)
	if (!stripe) throw new Error('Stripe Connect needs STRIPE_SECRET_KEY')
	return stripe
}

export function stripeConnectProvider(services: PayoutServices): PayoutProvider {
	const { env, db } = services
	const stripe = requireClient(services)

	async function refreshAccount(userId: string): Promise<PayoutAccount | null> {
		const saved = await readPayoutAccount(db, userId)
		if (!saved || saved.provider !== 'stripe') return saved
		const account = await stripe.v2.core.accounts.retrieve(saved.externalId, { include: ACCOUNT_INCLUDE })
		const described = describeAccount(account, userId, saved.country)
		await savePayoutAccount(db, described)
		return described
	}

	return {
		name: 'stripe',

		async startOnboarding(user: PayoutUser, countryInput: string, returnUrl: string, refreshUrl: string) {
			const country = checkPayoutCountry(env, countryInput)
			let account = await readPayoutAccount(db, user.userId)
			try {
				if (!account || account.provider !== 'stripe') {
					// One account per creator: the key makes a second click (or a
					// retry after the save below failed) get the same account back.
					const created = await stripe.v2.core.accounts.create(
						{
							...(user.email ? { contact_email: user.email } : {}),
							dashboard: 'express',
							identity: { country: country.toLowerCase() },
							configuration: { recipient: { capabilities: { stripe_balance: { stripe_transfers: { requested: true } } } } },
							defaults: { responsibilities: { fees_collector: 'application', losses_collector: 'application' } },
							metadata: { user_id: user.userId },
							include: ACCOUNT_INCLUDE,
						},
						{ idempotencyKey: `payout-account-${user.userId}-${country}` },
					)
					account = describeAccount(created, user.userId, country)
					await savePayoutAccount(db, account)
				}
				// `configurations` is in Stripe's API reference for v2 account links
				// but not in stripe-node 23.1's types; the SDK sends it as given.
				const onboarding = {
					configurations: ['recipient'],
					return_url: returnUrl,
					refresh_url: refreshUrl,
				} as Stripe.V2.Core.AccountLinkCreateParams.UseCase.AccountOnboarding
				const link = await stripe.v2.core.accountLinks.create({
					account: account.externalId,
					use_case: { type: 'account_onboarding', account_onboarding: onboarding },
				})
				return { url: link.url }
			} catch (error) {
				if (error instanceof DbError) throw error
				console.error(`stripe connect: onboarding of ${user.userId} failed`, error)
				throw new DbError('error-payment-provider', { cause: error })
			}
		},

		async refreshAccount(userId: string) {
			try {
				return await refreshAccount(userId)
			} catch (error) {
				if (error instanceof DbError) throw error
				console.warn(`stripe connect: reading the payout account of ${userId} failed`, error)
				throw new DbError('error-payment-provider', { cause: error })
			}
		},

		async send(payout: PayoutToSend): Promise<SendOutcome> {
			// Requested through the test stand-in before Stripe was configured:
			// its account is no Stripe account, and nothing was ever paid.
			if (payout.provider !== 'stripe') {
				return { kind: 'failed', reason: 'account_not_ready', notify: await recordFailed(db, payout.id, 'account_not_ready') }
			}
			const key = `payout-${payout.id}`
			let transfer: Stripe.Transfer
			try {
				// Stripe keeps an idempotency key for 24 hours: a transfer made by an
				// earlier round whose answer was lost is found by its group first.
				const earlier = await stripe.transfers.list({ transfer_group: key, limit: 1 })
				transfer =
					earlier.data[0] ??
					(await stripe.transfers.create(
						{
							amount: payout.amount_minor,
							currency: payout.currency.toLowerCase(),
							destination: payout.external_account,
							transfer_group: key,
							description: `Payout ${payout.id}`,
							metadata: { payout_id: payout.id, user_id: payout.user_id },
						},
						{ idempotencyKey: key },
					))
			} catch (error) {
				const reason = transferRefusal(error)
				if (!reason) {
					const message = error instanceof Error ? error.message : String(error)
					if (error instanceof Stripe.errors.StripeError && error.type !== 'StripeConnectionError' && error.type !== 'StripeAPIError') {
						// Ours to fix (a key, a permission, a reused idempotency key): say so loudly.
						console.error(`stripe connect: payout ${payout.id} could not be sent (${error.type}); it stays approved`, error)
					} else {
						console.warn(`stripe connect: payout ${payout.id} not sent now (${message}); trying again next round`)
					}
					return { kind: 'retry', reason: message }
				}
				console.warn(`stripe connect: Stripe refused payout ${payout.id} (${(error as Stripe.errors.StripeError).code ?? 'no code'}): ${reason}`)
				const notify = await recordFailed(db, payout.id, reason)
				if (reason === 'account_not_ready') {
					// The refusal says the account changed: read what Stripe says about it now.
					await refreshAccount(payout.user_id).catch((refreshError: unknown) =>
						console.warn(`stripe connect: reading the payout account of ${payout.user_id} failed`, refreshError),
					)
				}
				return { kind: 'failed', reason, notify }
			}
			// A transfer to a connected account is complete when Stripe creates it: the
			// money is in the creator's Stripe balance (ADR 052: that is "paid").
			await recordPaid(db, payout.id, transfer.id)
			return { kind: 'paid', transferId: transfer.id }
		},
	}
}

export type AccountEventOutcome = { handled: true; userId: string } | { handled: false; reason: 'unknown-account' }

/**
 * An account changed (a thin v2.core.account… event, or v1 account.updated):
 * read it from Stripe and save what it says. Accounts we do not know are
 * reported, not made.
 */
export async function refreshAccountByExternalId(services: PayoutServices, externalId: string): Promise<AccountEventOutcome> {
	const userId = await payoutAccountOwner(services.db, externalId)
	if (!userId) return { handled: false, reason: 'unknown-account' }
	const saved = await readPayoutAccount(services.db, userId)
	if (!saved || saved.provider !== 'stripe' || saved.externalId !== externalId) return { handled: false, reason: 'unknown-account' }
	const stripe = requireClient(services)
	const account = await stripe.v2.core.accounts.retrieve(externalId, { include: ACCOUNT_INCLUDE })
	await savePayoutAccount(services.db, describeAccount(account, userId, saved.country))
	return { handled: true, userId }
}

/**
 * A transfer was reversed in Stripe (transfer.reversed). Wholly reversed, the
 * payout failed: its coins go back to the wallet if the ledger still has them
 * under way. A payout the ledger already counts as paid, or a partial
 * reversal, is logged for the operator (ADR 052).
 */
export async function handleTransferReversed(services: PayoutServices, transfer: Stripe.Transfer) {
	const { rows } = await services.db.query<{ id: string | null }>('select ledger.payout_by_transfer($1) as id', [transfer.id])
	const payoutId = rows[0]?.id
	if (!payoutId) {
		console.warn(`stripe webhook: transfer ${transfer.id} was reversed; no payout made it. Acknowledged`)
		return null
	}
	if (!transfer.reversed || transfer.amount_reversed < transfer.amount) {
		console.warn(`stripe webhook: transfer ${transfer.id} (payout ${payoutId}) was partly reversed (${transfer.amount_reversed} of ${transfer.amount}); the ledger is unchanged, settle it by hand`)
		return null
	}
	const notify = await recordFailed(services.db, payoutId, 'reversed')
	if (!notify) {
		console.warn(`stripe webhook: transfer ${transfer.id} was reversed, but payout ${payoutId} is no longer under way (paid or returned); the ledger is unchanged, settle it by hand`)
	}
	return notify
}
