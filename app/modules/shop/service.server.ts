import type Stripe from 'stripe'
import type { AppServices } from '#app/context.server'
import { DbError, toAppError } from '#app/db/database.server'
import type { ShopPack } from '#app/env.server'
import type { Viewer } from '#app/modules/account/types'
import { asCaller } from '#app/modules/wallet/as-caller.server'
import { checkoutLocale, stripeClient } from './stripe.server'
import { purchases } from '#app/metrics.server'

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

export type WebhookOutcome = { status: 200 | 400; body: { received: boolean; error?: string } }

/**
 * The Stripe webhook: verifies the signature over the raw body, then credits
 * the purchase of a completed Checkout session exactly once (a replayed or
 * retried event finds it completed). Unknown sessions and other events are
 * acknowledged so Stripe stops retrying them; they are logged.
 */
export async function handleStripeWebhook(
	services: AppServices,
	rawBody: string,
	signature: string | null,
): Promise<WebhookOutcome> {
	const { env, db } = services
	const stripe = stripeClient(env)
	if (!stripe || !env.STRIPE_WEBHOOK_SECRET) return { status: 400, body: { received: false, error: 'not-configured' } }
	let event: Stripe.Event
	try {
		event = stripe.webhooks.constructEvent(rawBody, signature ?? '', env.STRIPE_WEBHOOK_SECRET)
	} catch {
		return { status: 400, body: { received: false, error: 'bad-signature' } }
	}
	if (event.type !== 'checkout.session.completed' && event.type !== 'checkout.session.async_payment_succeeded') {
		return { status: 200, body: { received: true } }
	}
	const session = event.data.object
	// Delayed payment methods complete the session unpaid; their
	// async_payment_succeeded event credits them.
	if (session.payment_status === 'unpaid') return { status: 200, body: { received: true } }
	const { rows } = await db.query<{ user_id: string; credited: boolean; user_deleted: boolean; balance: number | null }>(
		'select user_id, credited, user_deleted, balance from ledger.complete_checkout_session($1)',
		[session.id],
	)
	const result = rows[0]
	if (result?.credited && !result.user_deleted) purchases.inc({ checkout: 'stripe' })
	if (!result) {
		console.warn(`stripe webhook: ${event.type} ${event.id} for unknown Checkout session ${session.id}; acknowledged`)
	} else if (result.user_deleted) {
		console.warn(`stripe webhook: Checkout session ${session.id} was paid by a deleted account; refund it in Stripe`)
	}
	// The new balance reaches the buyer's open pages from the ledger's mark (realtime broadcaster).
	return { status: 200, body: { received: true } }
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
