import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, beforeEach, expect, test, vi } from 'vitest'
import { asUser } from '#app/db/as-user.server'
import type { Database, Queryable } from '#app/db/database.server'
import { publishDocumentVersions } from '#app/db/published-documents.server'
import { parseEnv } from '#app/env.server'
import { payoutProvider, readPayoutAccount, type PayoutProvider, type PayoutToSend } from '#app/modules/payouts/provider.server'
import { sendApprovedPayouts } from '#app/modules/payouts/sender.server'
import { configurePayoutSettings } from '#app/modules/payouts/settings.server'
import { asCaller } from '#app/modules/wallet/as-caller.server'
import { handleStripeWebhook } from '#app/modules/shop/service.server'
import type { AppServices } from '#app/context.server'
import type { Platform } from '#app/platform/types'
import { claimsFor, describeEachDatabase, errorOf } from '#tests/support/databases'
import { participant } from '#tests/support/dares'
import { OPERATOR } from '#tests/support/env'
import { startStripeConnect, type StripeConnectStandIn } from '#tests/support/stripe-connect'
import { ledgerProblems } from '#tests/support/wallet'

/**
 * Stripe Connect for creators (docs/decisions/052-stripe-connect-payouts.md)
 * against the ledger on both databases. Only Stripe is replaced: by a
 * loopback stand-in (tests/support/stripe-connect.js) that the real Stripe
 * SDK talks to over HTTP and that enforces the protocol the app relies on
 * (idempotency keys required and replayed, v2 accounts and account links,
 * v1 transfers to an account whose transfers capability is active, signed
 * events). Why: Stripe is outside this machine and a test cannot onboard a
 * real account; everything of ours (the provider, the sender, the webhook,
 * the SQL) runs as in production.
 */

let stripe: StripeConnectStandIn
beforeAll(async () => {
	stripe = await startStripeConnect()
})
afterAll(async () => {
	await stripe.close()
})

function servicesFor(db: Database, over: Record<string, string> = {}): AppServices {
	const env = parseEnv({
		...stripe.env,
		APP_URL: 'https://dares.example',
		...OPERATOR,
		DATABASE_URL: 'postgres://unused@127.0.0.1/unused',
		PAYOUT_HOLD_DAYS: '0',
		PAYOUT_COUNTRY: 'DE',
		...over,
	})
	// Nothing here uses the platform (mail, auth): the provider steps run on the owner connection.
	return { env, db, platform: {} as Platform, background: { stop: async () => {} } }
}

const as = <T>(db: Database, userId: string, fn: (tx: Queryable) => Promise<T>) => asUser(db, claimsFor(userId), fn)

/** Earnings the way a completed dare makes them: a boost into a pot, the pot to the creator ('payout'). */
async function earn(db: Queryable, creator: string, coins: number): Promise<void> {
	const booster = await participant(db, coins)
	const pot = randomUUID()
	await db.query(`select ledger.transfer(ledger.wallet_account($1), ledger.pot_account($2), $3, 'boost', null, $4)`, [booster, pot, coins, `t-boost:${pot}`])
	await db.query(`select ledger.transfer(ledger.pot_account($1), ledger.wallet_account($2), $3, 'payout', null, $4)`, [pot, creator, coins, `t-payout:${pot}`])
}

async function creator(db: Queryable, coins = 0): Promise<string> {
	const id = await participant(db)
	await db.query('insert into public.creator_profiles (id, twitch_channel) values ($1, $2)', [id, `c_${randomUUID().slice(0, 8)}`])
	if (coins > 0) await earn(db, id, coins)
	return id
}

async function emailOf(db: Queryable, userId: string): Promise<string> {
	return (await db.query<{ email: string }>('select email from auth.users where id = $1', [userId])).rows[0]!.email
}

/** The creator goes through onboarding at "Stripe" and comes back: their account is ready. */
async function onboarded(services: AppServices, provider: PayoutProvider, userId: string): Promise<string> {
	await provider.startOnboarding({ userId, email: await emailOf(services.db, userId) }, 'DE', 'https://dares.example/de/earnings?onboarding=return', 'https://dares.example/de/earnings?onboarding=refresh')
	const account = (await readPayoutAccount(services.db, userId))!
	stripe.completeOnboarding(account.externalId)
	expect((await provider.refreshAccount(userId))?.status).toBe('ready')
	return account.externalId
}

async function operator(db: Queryable): Promise<string> {
	const id = await participant(db)
	await db.query('insert into app_private.operators (user_id) values ($1)', [id])
	return id
}

/** A payout request by the creator, approved by an operator (the first always waits for one). */
async function approvedPayout(db: Database, userId: string, coins: number): Promise<string> {
	const { rows } = await as(db, userId, (tx) => tx.query<{ id: string; status: string }>('select id, status from public.request_payout($1, $2)', [coins, randomUUID()]))
	const payout = rows[0]!
	if (payout.status === 'review') {
		const op = await operator(db)
		await as(db, op, (tx) => tx.query(`select * from public.moderate('approve_payout', $1, 'none', 'Checked')`, [payout.id]))
	}
	return payout.id
}

const payoutRow = async (db: Queryable, id: string) =>
	(
		await db.query<{ status: string; failure_reason: string | null; provider_transfer_id: string | null; amount_minor: number }>(
			'select status, failure_reason, provider_transfer_id, amount_minor from ledger.payouts where id = $1',
			[id],
		)
	).rows[0]!

const balanceOf = async (db: Queryable, userId: string) =>
	(await db.query<{ balance: number }>('select balance from public.wallets where id = $1', [userId])).rows[0]!.balance

const available = async (db: Database, userId: string) =>
	Number((await as(db, userId, (tx) => tx.query<{ available: number }>('select available from public.my_earnings()'))).rows[0]!.available)

const posts = (path: string) => stripe.requests.filter((r) => r.method === 'POST' && r.path === path)

describeEachDatabase('Stripe Connect payouts', (getDb) => {
	beforeEach(async () => {
		stripe.reset()
		const db = getDb()
		await publishDocumentVersions(db, { terms_of_service: 'v1', creator_agreement: 'v1' })
		await configurePayoutSettings(db, servicesFor(db).env)
	})

	test('onboarding makes one v2 recipient account however often the creator clicks, then an account link each time', async () => {
		const db = getDb()
		const services = servicesFor(db)
		const provider = payoutProvider(services)!
		expect(provider.name).toBe('stripe')
		const user = await creator(db)
		const who = { userId: user, email: await emailOf(db, user) }
		const back = 'https://dares.example/de/earnings?onboarding=return'
		const again = 'https://dares.example/de/earnings?onboarding=refresh'

		// Two clicks at once, then a third later.
		const [first, second] = await Promise.all([provider.startOnboarding(who, 'de', back, again), provider.startOnboarding(who, 'DE', back, again)])
		const third = await provider.startOnboarding(who, 'DE', back, again)
		expect(first.url).toMatch(/^https:\/\/connect\.stripe\.test\/setup\/acct_/)
		expect(new Set([first.url, second.url, third.url]).size).toBe(3)

		expect(stripe.accounts.size).toBe(1)
		const created = posts('/v2/core/accounts')
		// The two concurrent clicks sent one request each under the same key: Stripe answered both with one account.
		expect(new Set(created.map((r) => r.idempotencyKey))).toEqual(new Set([`payout-account-${user}-DE`]))
		expect(created[0]!.body).toMatchObject({
			contact_email: who.email,
			dashboard: 'express',
			identity: { country: 'de' },
			configuration: { recipient: { capabilities: { stripe_balance: { stripe_transfers: { requested: true } } } } },
			defaults: { responsibilities: { fees_collector: 'application', losses_collector: 'application' } },
			metadata: { user_id: user },
		})
		const links = posts('/v2/core/account_links')
		expect(links).toHaveLength(3)
		for (const link of links) {
			expect(link.idempotencyKey).toBeTruthy()
			expect(link.body).toEqual({
				account: [...stripe.accounts.keys()][0],
				use_case: { type: 'account_onboarding', account_onboarding: { configurations: ['recipient'], return_url: back, refresh_url: again } },
			})
		}
		// What Stripe said about the new account, in our words.
		expect(await readPayoutAccount(db, user)).toEqual({
			userId: user,
			provider: 'stripe',
			externalId: [...stripe.accounts.keys()][0],
			country: 'DE',
			status: 'onboarding',
			requirements: ['identity', 'bank_account', 'terms'],
			disabledReason: 'requirements_past_due',
		})
	})

	test('a country Stripe cannot pay from the platform’s country is refused before any account is made', async () => {
		const db = getDb()
		const services = servicesFor(db)
		const provider = payoutProvider(services)!
		const user = await creator(db)
		for (const country of ['JP', 'BR', 'XX', '', 'germany']) {
			expect(await errorOf(provider.startOnboarding({ userId: user, email: 'c@example.com' }, country, 'https://dares.example/en/earnings', 'https://dares.example/en/earnings'))).toBe(
				'error-payout-country-unsupported',
			)
		}
		expect(stripe.requests).toEqual([])
		expect(await readPayoutAccount(db, user)).toBeNull()
		// A platform in Australia pays Australia only.
		const australian = payoutProvider(servicesFor(db, { PAYOUT_COUNTRY: 'AU' }))!
		expect(await errorOf(australian.startOnboarding({ userId: user, email: 'c@example.com' }, 'DE', 'https://dares.example/en/earnings', 'https://dares.example/en/earnings'))).toBe(
			'error-payout-country-unsupported',
		)
		expect(stripe.requests).toEqual([])
	})

	test("the account's requirements are saved from Stripe: on return, and from the signed thin events of Accounts v2", async () => {
		const db = getDb()
		const services = servicesFor(db)
		const provider = payoutProvider(services)!
		const user = await creator(db)
		await provider.startOnboarding({ userId: user, email: 'c@example.com' }, 'AT', 'https://dares.example/de/earnings', 'https://dares.example/de/earnings')
		const accountId = (await readPayoutAccount(db, user))!.externalId
		expect((await readPayoutAccount(db, user))?.country).toBe('AT')

		// Stripe restricts it, asking for a tax id: the thin event names the account only; we read it.
		stripe.restrict(accountId, 'requirements_past_due', ['identity.individual.id_number'])
		const requirements = stripe.thinAccountEvent('v2.core.account[requirements].updated', accountId)
		expect(await handleStripeWebhook(services, requirements.payload, requirements.signature)).toEqual({ status: 200, body: { received: true } })
		expect(await readPayoutAccount(db, user)).toMatchObject({ status: 'onboarding', requirements: ['tax'], disabledReason: 'requirements_past_due' })
		const read = stripe.requests.filter((r) => r.method === 'GET' && r.path === `/v2/core/accounts/${accountId}`)
		expect(read.at(-1)!.query).toContain('include[0]=configuration.recipient')

		stripe.completeOnboarding(accountId)
		const capability = stripe.thinAccountEvent('v2.core.account[configuration.recipient].capability_status_updated', accountId)
		expect((await handleStripeWebhook(services, capability.payload, capability.signature)).status).toBe(200)
		expect(await readPayoutAccount(db, user)).toMatchObject({ status: 'ready', requirements: [], disabledReason: null })

		stripe.restrict(accountId, 'rejected_fraud')
		expect((await provider.refreshAccount(user))?.status).toBe('restricted')
		expect(await readPayoutAccount(db, user)).toMatchObject({ status: 'restricted', disabledReason: 'rejected_fraud' })

		// An account that is no creator's here, and a thin event of another kind: acknowledged, nothing read.
		const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
		const before = stripe.requests.length
		const stranger = stripe.thinAccountEvent('v2.core.account.updated', 'acct_nobody_here')
		expect((await handleStripeWebhook(services, stranger.payload, stranger.signature)).status).toBe(200)
		expect(warn).toHaveBeenCalledWith(expect.stringContaining('acct_nobody_here'))
		const ping = stripe.thinAccountEvent('v2.core.event_destination.ping', accountId)
		expect((await handleStripeWebhook(services, ping.payload, ping.signature)).status).toBe(200)
		expect(stripe.requests.length).toBe(before)
	})

	test('a transfer per approved payout, under the key payout-<id>; sending twice at once pays once', async () => {
		const db = getDb()
		const services = servicesFor(db)
		const provider = payoutProvider(services)!
		const user = await creator(db, 5000)
		const accountId = await onboarded(services, provider, user)
		const payout = await approvedPayout(db, user, 3000)
		expect((await payoutRow(db, payout)).status).toBe('approved')

		const [a, b] = await Promise.all([sendApprovedPayouts(services), sendApprovedPayouts(services)])
		expect(a.paid + b.paid).toBe(1)
		expect(stripe.transfers.size).toBe(1)
		const transfer = [...stripe.transfers.values()][0]!
		expect(transfer).toMatchObject({ amount: 2100, currency: 'eur', destination: accountId, transfer_group: `payout-${payout}`, metadata: { payout_id: payout } })
		const sent = posts('/v1/transfers')
		expect(sent.length).toBeGreaterThanOrEqual(1)
		for (const request of sent) expect(request.idempotencyKey).toBe(`payout-${payout}`)
		expect(await payoutRow(db, payout)).toMatchObject({ status: 'paid', provider_transfer_id: transfer.id, failure_reason: null })

		// Nothing left to send: no more calls. A second payout gets a transfer of its own.
		await sendApprovedPayouts(services)
		expect(posts('/v1/transfers').length).toBe(sent.length)
		await earn(db, user, 2000)
		const next = await approvedPayout(db, user, 2000)
		expect((await sendApprovedPayouts(services)).paid).toBe(1)
		expect(stripe.transfers.size).toBe(2)
		expect(posts('/v1/transfers').at(-1)!.idempotencyKey).toBe(`payout-${next}`)
		// 7,000 earned, 5,000 paid out.
		expect(await balanceOf(db, user)).toBe(2000)
		expect(await ledgerProblems(db)).toEqual([])
	})

	test('two instances sending one payout at once make one transfer; a round that lost the answer finds it by its group', async () => {
		const db = getDb()
		const services = servicesFor(db)
		const provider = payoutProvider(services)!
		const user = await creator(db, 3000)
		await onboarded(services, provider, user)
		const payout = await approvedPayout(db, user, 3000)
		const row = (await db.query<PayoutToSend>('select * from ledger.payouts_to_send(10)')).rows[0]!
		// As two servers would: each its own round, both to Stripe under the same key.
		const [one, two] = await Promise.all([provider.send(row), provider.send(row)])
		expect(one).toEqual(two)
		expect(one).toMatchObject({ kind: 'paid' })
		expect(posts('/v1/transfers').map((r) => r.idempotencyKey)).toEqual([`payout-${payout}`, `payout-${payout}`])
		expect(stripe.transfers.size).toBe(1)
		// The same approved row sent again (a crash between Stripe's answer and our mark, after the key expired):
		stripe.requests.length = 0
		expect(await provider.send(row)).toMatchObject({ kind: 'paid' })
		expect(posts('/v1/transfers')).toEqual([])
		expect(stripe.transfers.size).toBe(1)
		expect((await payoutRow(db, payout)).status).toBe('paid')
		expect(await ledgerProblems(db)).toEqual([])
	})

	test('a transfer Stripe refuses fails the payout with its reason and gives the coins back', async () => {
		const db = getDb()
		const services = servicesFor(db)
		const provider = payoutProvider(services)!
		const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
		const user = await creator(db, 6000)
		const accountId = await onboarded(services, provider, user)
		const payout = await approvedPayout(db, user, 3000)
		expect(await available(db, user)).toBe(3000)

		// Stripe restricted the account after the approval.
		stripe.restrict(accountId, 'requirements_past_due', ['payout_method'])
		const round = await sendApprovedPayouts(services)
		expect(round).toMatchObject({ paid: 0, failed: 1, retry: 0 })
		expect(round.notices).toEqual([{ payoutId: payout, userId: user, email: await emailOf(db, user), language: expect.any(String), reason: 'account_not_ready' }])
		expect(await payoutRow(db, payout)).toMatchObject({ status: 'failed', failure_reason: 'account_not_ready', provider_transfer_id: null })
		expect(await available(db, user)).toBe(6000)
		expect(await balanceOf(db, user)).toBe(6000)
		// The refusal made us read the account again: the creator sees what Stripe needs.
		expect(await readPayoutAccount(db, user)).toMatchObject({ status: 'onboarding', requirements: ['bank_account'] })
		expect(await ledgerProblems(db)).toEqual([])

		// The platform's balance cannot cover a payout: it fails with a reason of its own.
		stripe.completeOnboarding(accountId)
		await provider.refreshAccount(user)
		const saved = stripe.available.eur!
		stripe.available.eur = 100
		try {
			const second = await approvedPayout(db, user, 2000)
			expect((await sendApprovedPayouts(services)).failed).toBe(1)
			expect(await payoutRow(db, second)).toMatchObject({ status: 'failed', failure_reason: 'platform_balance' })
		} finally {
			stripe.available.eur = saved
		}
		expect(stripe.transfers.size).toBe(0)
		expect(await balanceOf(db, user)).toBe(6000)
		expect(await ledgerProblems(db)).toEqual([])
		expect(warn).toHaveBeenCalled()
	})

	test('while Stripe does not answer, an approved payout stays approved and is sent in a later round', async () => {
		const db = getDb()
		const services = servicesFor(db)
		const provider = payoutProvider(services)!
		vi.spyOn(console, 'warn').mockImplementation(() => {})
		const user = await creator(db, 3000)
		await onboarded(services, provider, user)
		const payout = await approvedPayout(db, user, 3000)
		stripe.outage('/v1/transfers', 1)
		expect(await sendApprovedPayouts(services)).toMatchObject({ paid: 0, failed: 0, retry: 1 })
		expect((await payoutRow(db, payout)).status).toBe('approved')
		expect(await sendApprovedPayouts(services)).toMatchObject({ paid: 1 })
		expect((await payoutRow(db, payout)).status).toBe('paid')
		expect(await ledgerProblems(db)).toEqual([])
	})

	test('a reversed transfer returns the coins of a payout still under way; one already paid is left to the operator', async () => {
		const db = getDb()
		const services = servicesFor(db)
		const provider = payoutProvider(services)!
		const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
		const user = await creator(db, 5000)
		await onboarded(services, provider, user)
		const payout = await approvedPayout(db, user, 3000)
		await sendApprovedPayouts(services)
		const transfer = [...stripe.transfers.values()][0]!
		const reversed = stripe.snapshotEvent('transfer.reversed', stripe.reverse(transfer.id))
		expect(await handleStripeWebhook(services, reversed.payload, reversed.signature)).toEqual({ status: 200, body: { received: true } })
		expect((await payoutRow(db, payout)).status).toBe('paid')
		expect(warn).toHaveBeenCalledWith(expect.stringContaining('settle it by hand'))

		// A payout Stripe took but we had not yet marked paid (sent): reversed, it fails and its coins come back.
		await earn(db, user, 2000)
		const second = await approvedPayout(db, user, 2000)
		await db.query(`select ledger.mark_payout_sent($1, 'tr_sent_only')`, [second])
		const event = stripe.snapshotEvent('transfer.reversed', { id: 'tr_sent_only', object: 'transfer', amount: 1400, amount_reversed: 1400, reversed: true, currency: 'eur' })
		expect((await handleStripeWebhook(services, event.payload, event.signature)).status).toBe(200)
		expect(await payoutRow(db, second)).toMatchObject({ status: 'failed', failure_reason: 'reversed' })
		// 7,000 earned, 3,000 paid out: the 2,000 of the reversed payout are back.
		expect(await balanceOf(db, user)).toBe(4000)
		expect(await available(db, user)).toBe(4000)
		expect(await ledgerProblems(db)).toEqual([])
	})

	test('a dispute takes the purchase’s coins back as far as they are there; won gives them back, lost keeps them', async () => {
		const db = getDb()
		const services = servicesFor(db)
		const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
		const buyer = await participant(db)

		/** A Checkout purchase of 1,100 coins, credited by its webhook, which records the payment intent. */
		async function purchase(paymentIntent: string) {
			const sessionId = `cs_test_${randomUUID().replaceAll('-', '')}`
			await asCaller(db, claimsFor(buyer), async (tx) => {
				const { rows } = await tx.query<{ id: string }>(`select id from ledger.create_purchase('coins-1100', 1100, 999, 'EUR', 'stripe', $1)`, [randomUUID()])
				await tx.query('select ledger.set_checkout_session($1, $2)', [rows[0]!.id, sessionId])
			})
			const completed = stripe.snapshotEvent('checkout.session.completed', {
				id: sessionId,
				object: 'checkout.session',
				payment_status: 'paid',
				status: 'complete',
				payment_intent: paymentIntent,
			})
			expect((await handleStripeWebhook(services, completed.payload, completed.signature)).status).toBe(200)
		}
		const dispute = (id: string, paymentIntent: string, status: string, amount = 999) => ({ id, object: 'dispute', amount, currency: 'eur', payment_intent: paymentIntent, status })
		const send = async (type: string, object: unknown) => {
			const event = stripe.snapshotEvent(type, object)
			return handleStripeWebhook(services, event.payload, event.signature)
		}

		await purchase('pi_first')
		expect(await balanceOf(db, buyer)).toBe(1100)
		expect((await db.query('select payment_intent_id from ledger.purchases')).rows).toEqual([{ payment_intent_id: 'pi_first' }])
		// The buyer spent 800 of them before the dispute.
		await db.query(`select ledger.transfer(ledger.wallet_account($1), ledger.pot_account(gen_random_uuid()), 800, 'boost', null, $2)`, [buyer, `t-spend:${randomUUID()}`])

		expect(await send('charge.dispute.created', dispute('dp_1', 'pi_first', 'needs_response'))).toEqual({ status: 200, body: { received: true } })
		expect(await balanceOf(db, buyer)).toBe(0)
		// Delivered again: nothing more is taken.
		expect((await send('charge.dispute.created', dispute('dp_1', 'pi_first', 'needs_response'))).status).toBe(200)
		const restricted = await as(db, buyer, (tx) => tx.query<{ debt: number; spending_restricted: boolean }>('select debt, spending_restricted from public.my_earnings()'))
		expect(restricted.rows[0]).toMatchObject({ spending_restricted: true })
		expect(Number(restricted.rows[0]!.debt)).toBe(800)
		expect(await ledgerProblems(db)).toEqual([])

		// Won: the 300 taken come back, nothing is owed.
		expect((await send('charge.dispute.closed', dispute('dp_1', 'pi_first', 'won'))).status).toBe(200)
		expect(await balanceOf(db, buyer)).toBe(300)
		const cleared = await as(db, buyer, (tx) => tx.query<{ debt: number; spending_restricted: boolean }>('select debt, spending_restricted from public.my_earnings()'))
		expect(cleared.rows[0]).toMatchObject({ spending_restricted: false })
		expect(Number(cleared.rows[0]!.debt)).toBe(0)

		// Another purchase, disputed and lost: what was taken stays taken.
		await purchase('pi_second')
		expect(await balanceOf(db, buyer)).toBe(1400)
		expect((await send('charge.dispute.created', dispute('dp_2', 'pi_second', 'needs_response'))).status).toBe(200)
		expect(await balanceOf(db, buyer)).toBe(300)
		expect((await send('charge.dispute.closed', dispute('dp_2', 'pi_second', 'lost'))).status).toBe(200)
		expect(await balanceOf(db, buyer)).toBe(300)
		expect((await db.query('select id, status from ledger.disputes order by id')).rows).toEqual([
			{ id: 'dp_1', status: 'won' },
			{ id: 'dp_2', status: 'lost' },
		])

		// A dispute on a payment no purchase knows, and other events: acknowledged, nothing changes.
		expect((await send('charge.dispute.created', dispute('dp_3', 'pi_unknown', 'needs_response'))).status).toBe(200)
		expect(warn).toHaveBeenCalledWith(expect.stringContaining('pi_unknown'))
		expect((await send('payout.paid', { id: 'po_1', object: 'payout' })).status).toBe(200)
		expect(await balanceOf(db, buyer)).toBe(300)
		expect(await ledgerProblems(db)).toEqual([])
	})

	test('a bad signature is refused with 400 and changes nothing', async () => {
		const db = getDb()
		const services = servicesFor(db)
		const provider = payoutProvider(services)!
		const user = await creator(db, 3000)
		const accountId = await onboarded(services, provider, user)
		const payout = await approvedPayout(db, user, 3000)
		await sendApprovedPayouts(services)
		const transfer = [...stripe.transfers.values()].find((t) => t.transfer_group === `payout-${payout}`)!
		stripe.restrict(accountId, 'rejected_fraud')
		stripe.requests.length = 0

		const reversal = stripe.snapshotEvent('transfer.reversed', { ...transfer, reversed: true, amount_reversed: transfer.amount })
		const dispute = stripe.snapshotEvent('charge.dispute.created', { id: 'dp_x', object: 'dispute', amount: 999, payment_intent: 'pi_x', status: 'needs_response' })
		const thin = stripe.thinAccountEvent('v2.core.account[requirements].updated', accountId)
		const attempts: Array<[string, string | null]> = [
			[reversal.payload, null],
			[reversal.payload, 't=1,v1=deadbeef'],
			[reversal.payload.replace('"reversed":true', '"reversed":true '), reversal.signature],
			[dispute.payload, thin.signature],
			// A thin event signed with the snapshot destination's secret, or altered.
			[thin.payload, stripe.thinAccountEvent('v2.core.account[requirements].updated', accountId, stripe.webhookSecret).signature],
			[thin.payload.replace(accountId, 'acct_other'), thin.signature],
		]
		for (const [body, signature] of attempts) {
			expect(await handleStripeWebhook(services, body, signature)).toEqual({ status: 400, body: { received: false, error: 'bad-signature' } })
		}
		expect(stripe.requests).toEqual([])
		expect((await payoutRow(db, payout)).status).toBe('paid')
		expect((await readPayoutAccount(db, user))?.status).toBe('ready')
		expect((await db.query('select * from ledger.disputes')).rows).toEqual([])
		expect(await ledgerProblems(db)).toEqual([])
	})

	test('a payout requested through the test stand-in is never sent to Stripe: it fails and its coins come back', async () => {
		const db = getDb()
		const services = servicesFor(db)
		const user = await creator(db, 3000)
		await db.query(`select ledger.save_payout_account($1, 'test', $2, 'DE', 'ready', '{}', null)`, [user, `acct_test_${randomUUID().slice(0, 8)}`])
		const payout = await approvedPayout(db, user, 3000)
		expect((await sendApprovedPayouts(services)).failed).toBe(1)
		expect(await payoutRow(db, payout)).toMatchObject({ status: 'failed', failure_reason: 'account_not_ready' })
		expect(stripe.requests.filter((r) => r.path.startsWith('/v1/transfers'))).toEqual([])
		expect(await balanceOf(db, user)).toBe(3000)
		expect(await ledgerProblems(db)).toEqual([])
	})
})
