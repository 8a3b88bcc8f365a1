import type Stripe from 'stripe'
import type { AppServices } from '#app/context.server'
import { DbError, toAppError } from '#app/db/database.server'
import type { ShopPack } from '#app/env.server'
import type { Viewer } from '#app/modules/account/types'
import { asCaller } from '#app/modules/wallet/as-caller.server'
import { checkoutLocale, stripeClient } from './stripe.server'
import { purchases } from '#app/metrics.server'
import { handleTransferReversed, refreshAccountByExternalId } from '#app/modules/payouts/stripe-connect.server'

/** How the shop takes payment: Stripe Checkout, the test checkout, or not at all. */
export type CheckoutMode = 'stripe' | 'test' | 'closed'

export function checkoutMode(env: AppServices['env']): CheckoutMode {
	if (env.STRIPE_SECRET_KEY && env.STRIPE_WEBHOOK_SECRET) return 'stripe'
	return env.TEST_CHECKOUT ? 'test' : 'closed'
}

export interface ShopOffer {
	mode: CheckoutMode
	currency: string
	packs: ShopPack[]
}

export function shopOffer(env: AppServices['env']): ShopOffer {
	return { mode: checkoutMode(env), currency: env.SHOP_CURRENCY, packs: env.SHOP_PACKS }
}

export type BuyOutcome =
	| { kind: 'credited'; purchaseId: string; coins: number; balance: number }
	| { kind: 'checkout'; url: string }

interface PurchaseRow {
	id: string
	status: 'pending' | 'completed'
	checkout_session_id: string | null
}

/**
 * Buy a pack for the viewer, once per idempotency key. The test checkout
 * credits in the same transaction; Stripe records a pending purchase and
 * hands back the Checkout page (the webhook credits later). A repeat of the
 * same key returns the first outcome and moves nothing. Refusals are
 * DbErrors with their `error-...` code.
 */
export async function buyPack(
	services: AppServices,
	viewer: Viewer,
	input: { packId: string; idempotencyKey: string; locale: string; returnPath: string | null },
): Promise<BuyOutcome> {
	const { env, db } = services
	const pack = env.SHOP_PACKS.find((p) => p.id === input.packId)
	if (!pack) throw new DbError('error-unknown-pack')
	const mode = checkoutMode(env)
	if (mode === 'closed') throw new DbError('error-checkout-unavailable')

	const create = (tx: Parameters<Parameters<typeof asCaller>[2]>[0]) =>
		tx.query<PurchaseRow>(
			`select id, status, checkout_session_id from ledger.create_purchase($1, $2, $3, $4, $5, $6)`,
			[pack.id, pack.coins, pack.amountMinor, env.SHOP_CURRENCY, mode, input.idempotencyKey],
		)

	try {
		if (mode === 'test') {
			const result = await asCaller(db, viewer.claims, async (tx) => {
				const purchase = (await create(tx)).rows[0]!
				const { rows } = await tx.query<{ credited: boolean; balance: number }>(
					'select credited, balance from ledger.complete_purchase($1)',
					[purchase.id],
				)
				return { purchaseId: purchase.id, ...rows[0]! }
			})
			if (result.credited) purchases.inc({ checkout: 'test' })
			return { kind: 'credited', purchaseId: result.purchaseId, coins: pack.coins, balance: result.balance }
		}

		const purchase = (await asCaller(db, viewer.claims, async (tx) => (await create(tx)).rows[0]!))
		if (purchase.status === 'completed') {
			const { rows } = await db.query<{ balance: number }>('select balance from public.wallets where id = $1', [viewer.userId])
			return { kind: 'credited', purchaseId: purchase.id, coins: pack.coins, balance: rows[0]?.balance ?? 0 }
		}
		const stripe = stripeClient(env)!
		const back = input.returnPath ? `&returnPath=${encodeURIComponent(input.returnPath)}` : ''
		const base = `${env.APP_URL}/${input.locale}/shop`
		let session: Stripe.Checkout.Session
		try {
			// Stripe's own idempotency: the same purchase always gets the same
			// Checkout session, however often the form is sent.
			session = await stripe.checkout.sessions.create(
				{
					mode: 'payment',
					client_reference_id: purchase.id,
					metadata: { purchase_id: purchase.id },
					line_items: [
						{
							quantity: 1,
							price_data: {
								currency: env.SHOP_CURRENCY.toLowerCase(),
								unit_amount: pack.amountMinor,
								product_data: { name: `${pack.coins} coins` },
							},
						},
					],
					locale: checkoutLocale(input.locale),
					...(viewer.email ? { customer_email: viewer.email } : {}),
					success_url: `${base}/success?purchase=${purchase.id}${back}`,
					cancel_url: `${base}/cancel?purchase=${purchase.id}${back}`,
				},
				{ idempotencyKey: `checkout-${purchase.id}` },
			)
		} catch (error) {
			console.error(`stripe: creating the Checkout session of purchase ${purchase.id} failed`, error)
			throw new DbError('error-payment-provider', { cause: error })
		}
		if (!session.url) throw new DbError('error-payment-provider')
		await db.query('select ledger.set_checkout_session($1, $2)', [purchase.id, session.id])
		return { kind: 'checkout', url: session.url }
	} catch (error) {
		throw toAppError(error) ?? error
	}
}

export type WebhookOutcome = { status: 200 | 400 | 500; body: { received: boolean; error?: string } }

const RECEIVED: WebhookOutcome = { status: 200, body: { received: true } }

/**
 * The Stripe webhook (docs/decisions/019-stripe-checkout.md,
 * 052-stripe-connect-payouts.md). Verifies the signature over the raw body
 * with the official SDK, then:
 *  - checkout.session.completed / async_payment_succeeded: credits the
 *    purchase exactly once (a replayed or retried event finds it completed)
 *    and records its payment intent, which a later dispute names;
 *  - charge.dispute.created / closed: takes the disputed coins back from the
 *    buyer, and gives them back when the platform wins (docs/product.md §14.6);
 *  - transfer.reversed: a payout still under way returns its coins (ADR 052);
 *  - account.updated, and the thin events of Accounts v2 (a second event
 *    destination, signed with STRIPE_ACCOUNTS_WEBHOOK_SECRET): the creator's
 *    payout account is read again and saved.
 * Unknown objects and other events are acknowledged so Stripe stops
 * retrying them; they are logged. A bad signature is 400 and changes nothing;
 * a failure to read from Stripe is 500, so Stripe delivers the event again.
 */
export async function handleStripeWebhook(
	services: AppServices,
	rawBody: string,
	signature: string | null,
): Promise<WebhookOutcome> {
	const { env } = services
	const stripe = stripeClient(env)
	if (!stripe || !env.STRIPE_WEBHOOK_SECRET) return { status: 400, body: { received: false, error: 'not-configured' } }
	if (isThinEvent(rawBody)) {
		// Thin events (Accounts v2) come from an event destination of their own, with its own secret.
		let notification: Stripe.V2.Core.EventNotification
		try {
			notification = stripe.parseEventNotification(rawBody, signature ?? '', env.STRIPE_ACCOUNTS_WEBHOOK_SECRET ?? env.STRIPE_WEBHOOK_SECRET)
		} catch {
			return { status: 400, body: { received: false, error: 'bad-signature' } }
		}
		return handleThinEvent(services, notification)
	}
	let event: Stripe.Event
	try {
		event = stripe.webhooks.constructEvent(rawBody, signature ?? '', env.STRIPE_WEBHOOK_SECRET)
	} catch {
		return { status: 400, body: { received: false, error: 'bad-signature' } }
	}
	switch (event.type) {
		case 'checkout.session.completed':
		case 'checkout.session.async_payment_succeeded':
			await creditCheckoutSession(services, event)
			return RECEIVED
		case 'charge.dispute.created':
			await openDispute(services, event.data.object)
			return RECEIVED
		case 'charge.dispute.closed':
			await closeDispute(services, event.data.object)
			return RECEIVED
		case 'transfer.reversed':
			await handleTransferReversed(services, event.data.object)
			return RECEIVED
		case 'account.updated':
			return refreshPayoutAccount(services, event.data.object.id, event.id)
		default:
			return RECEIVED
	}
}

/** Whether the (not yet verified) body is a thin event notification; only picks the verifier. */
function isThinEvent(rawBody: string): boolean {
	try {
		return (JSON.parse(rawBody) as { object?: unknown } | null)?.object === 'v2.core.event'
	} catch {
		return false
	}
}

async function creditCheckoutSession(
	services: AppServices,
	event: Stripe.CheckoutSessionCompletedEvent | Stripe.CheckoutSessionAsyncPaymentSucceededEvent,
) {
	const session = event.data.object
	// Delayed payment methods complete the session unpaid; their
	// async_payment_succeeded event credits them.
	if (session.payment_status === 'unpaid') return
	const paymentIntent = typeof session.payment_intent === 'string' ? session.payment_intent : (session.payment_intent?.id ?? null)
	const { rows } = await services.db.query<{ user_id: string; credited: boolean; user_deleted: boolean; balance: number | null }>(
		'select user_id, credited, user_deleted, balance from ledger.complete_checkout_session($1, $2)',
		[session.id, paymentIntent],
	)
	const result = rows[0]
	if (result?.credited && !result.user_deleted) purchases.inc({ checkout: 'stripe' })
	if (!result) {
		console.warn(`stripe webhook: ${event.type} ${event.id} for unknown Checkout session ${session.id}; acknowledged`)
	} else if (result.user_deleted) {
		console.warn(`stripe webhook: Checkout session ${session.id} was paid by a deleted account; refund it in Stripe`)
	}
	// The new balance reaches the buyer's open pages from the ledger's mark (realtime broadcaster).
}

function paymentIntentOf(dispute: Stripe.Dispute): string | null {
	return typeof dispute.payment_intent === 'string' ? dispute.payment_intent : (dispute.payment_intent?.id ?? null)
}

/** A purchase's payment is disputed: its coins come back from the buyer as far as they are there (ledger.open_dispute). */
async function openDispute(services: AppServices, dispute: Stripe.Dispute) {
	const paymentIntent = paymentIntentOf(dispute)
	const { rows } = paymentIntent
		? await services.db.query<{ user_id: string; coins: number; clawed_back: number; debt: number; opened: boolean }>(
				'select user_id, coins, clawed_back, debt, opened from ledger.open_dispute($1, $2, $3)',
				[dispute.id, paymentIntent, dispute.amount],
			)
		: { rows: [] }
	const result = rows[0]
	if (!result) {
		console.warn(`stripe webhook: dispute ${dispute.id} names a payment no purchase knows (${paymentIntent ?? 'none'}); acknowledged`)
	} else if (result.opened) {
		console.warn(
			`stripe webhook: dispute ${dispute.id} on a purchase of ${result.user_id}: ${result.clawed_back} of ${result.coins} coins taken back, ${result.debt} owed`,
		)
	}
}

/**
 * The dispute is decided (ledger.close_dispute): won by the platform (or an
 * inquiry closed without a chargeback, `warning_closed`) gives the coins
 * back; lost keeps them taken. Any other status is logged.
 */
async function closeDispute(services: AppServices, dispute: Stripe.Dispute) {
	// `prevented`: the payment was refunded before it became a chargeback, so what was taken back stays taken.
	const won = dispute.status === 'won' || dispute.status === 'warning_closed' ? true : dispute.status === 'lost' || dispute.status === 'prevented' ? false : null
	if (won === null) {
		console.warn(`stripe webhook: dispute ${dispute.id} closed as ${dispute.status}; the ledger keeps it open`)
		return
	}
	const { rows } = await services.db.query<{ user_id: string; restored: number; changed: boolean }>(
		'select user_id, restored, changed from ledger.close_dispute($1, $2)',
		[dispute.id, won],
	)
	if (!rows[0]) console.warn(`stripe webhook: dispute ${dispute.id} was closed, but it was never opened here; acknowledged`)
}

/** The thin events of Accounts v2: any change to a creator's account is read again from Stripe. */
async function handleThinEvent(services: AppServices, notification: Stripe.V2.Core.EventNotification): Promise<WebhookOutcome> {
	const related = (notification as { related_object?: { id?: string; type?: string } | null }).related_object
	if (notification.type.startsWith('v2.core.account') && related?.type === 'v2.core.account' && related.id) {
		return refreshPayoutAccount(services, related.id, notification.id)
	}
	return RECEIVED
}

async function refreshPayoutAccount(services: AppServices, accountId: string, eventId: string): Promise<WebhookOutcome> {
	try {
		const outcome = await refreshAccountByExternalId(services, accountId)
		if (!outcome.handled) console.warn(`stripe webhook: event ${eventId} for account ${accountId}, which is no creator's here; acknowledged`)
		return RECEIVED
	} catch (error) {
		// Stripe could not be read: a 500 makes Stripe deliver the event again.
		console.warn(`stripe webhook: reading account ${accountId} for event ${eventId} failed; Stripe will retry`, error)
		return { status: 500, body: { received: false, error: 'provider-unavailable' } }
	}
}

export interface PurchaseHistoryRow {
	id: string
	createdAt: string
	packId: string
	coins: number
	amountMinor: number
	currency: string
	provider: 'test' | 'stripe'
	status: 'pending' | 'completed'
}

/** The viewer's purchases, newest first, read as them (public.purchase_history). */
export async function readPurchaseHistory(
	tx: { query: AppServices['db']['query'] },
	limit = 20,
): Promise<PurchaseHistoryRow[]> {
	const { rows } = await tx.query<{
		id: string
		created_at: Date
		pack_id: string
		coins: number
		amount_minor: number
		currency: string
		provider: 'test' | 'stripe'
		status: 'pending' | 'completed'
	}>('select id, created_at, pack_id, coins, amount_minor, currency, provider, status from public.purchase_history($1)', [limit])
	return rows.map((r) => ({
		id: r.id,
		createdAt: r.created_at.toISOString(),
		packId: r.pack_id,
		coins: r.coins,
		amountMinor: r.amount_minor,
		currency: r.currency,
		provider: r.provider,
		status: r.status,
	}))
}
