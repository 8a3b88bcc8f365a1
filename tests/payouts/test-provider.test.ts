import { randomUUID } from 'node:crypto'
import { beforeEach, expect, test, vi } from 'vitest'
import { asUser } from '#app/db/as-user.server'
import type { Database, Queryable } from '#app/db/database.server'
import { publishDocumentVersions } from '#app/db/published-documents.server'
import { parseEnv } from '#app/env.server'
import { completeTestOnboarding, payoutProvider, readPayoutAccount } from '#app/modules/payouts/provider.server'
import { sendApprovedPayouts, startPayoutSender } from '#app/modules/payouts/sender.server'
import { configurePayoutSettings } from '#app/modules/payouts/settings.server'
import { testPayoutProvider } from '#app/modules/payouts/test-provider.server'
import { claimsFor, describeEachDatabase, errorOf } from '#tests/support/databases'
import { participant } from '#tests/support/dares'
import { ledgerProblems } from '#tests/support/wallet'

/**
 * The test payout provider (TEST_PAYOUTS): onboarding and payouts played
 * inside the app, with no money moving, on both databases; the payout
 * settings written at start-up; the sender's timer.
 */

function servicesFor(db: Database, over: Record<string, string> = {}) {
	return { env: parseEnv({ APP_URL: 'http://localhost:3000', PAYOUT_HOLD_DAYS: '0', ...over }), db }
}

const as = <T>(db: Database, userId: string, fn: (tx: Queryable) => Promise<T>) => asUser(db, claimsFor(userId), fn)

async function creatorWithEarnings(db: Queryable, coins: number): Promise<string> {
	const id = await participant(db)
	await db.query('insert into public.creator_profiles (id, kick_channel) values ($1, $2)', [id, `k_${randomUUID().slice(0, 8)}`])
	const booster = await participant(db, coins)
	const pot = randomUUID()
	await db.query(`select ledger.transfer(ledger.wallet_account($1), ledger.pot_account($2), $3, 'boost', null, $4)`, [booster, pot, coins, `t-boost:${pot}`])
	await db.query(`select ledger.transfer(ledger.pot_account($1), ledger.wallet_account($2), $3, 'payout', null, $4)`, [pot, id, coins, `t-payout:${pot}`])
	return id
}

async function approve(db: Database, payout: string) {
	const op = await participant(db)
	await db.query('insert into app_private.operators (user_id) values ($1)', [op])
	await as(db, op, (tx) => tx.query(`select * from public.moderate('approve_payout', $1, 'none', 'Checked')`, [payout]))
}

describeEachDatabase('test payouts', (getDb) => {
	beforeEach(async () => {
		await publishDocumentVersions(getDb(), { terms_of_service: 'v1', creator_agreement: 'v1' })
	})

	test('the payout settings reach the ledger at start-up', async () => {
		const db = getDb()
		await configurePayoutSettings(db, servicesFor(db, { PAYOUT_HOLD_DAYS: '7', PAYOUT_MIN_COINS: '500', PAYOUT_REVIEW_COINS: '9000', PAYOUT_CENTS_PER_COIN: '0.8125', PAYOUT_FEE_PERCENT: '2.5', SHOP_CURRENCY: 'USD' }).env)
		const { rows } = await db.query(
			'select payout_hold_days, payout_min_coins, payout_review_coins, payout_cents_per_coin::text as rate, payout_fee_basis_points, payout_currency from ledger.settings',
		)
		expect(rows).toEqual([
			{ payout_hold_days: 7, payout_min_coins: 500, payout_review_coins: 9000, rate: '0.8125', payout_fee_basis_points: 250, payout_currency: 'USD' },
		])
	})

	test('onboarding through the stand-in: a test account, our own page, then ready; a payout is paid at once with no money moving', async () => {
		const db = getDb()
		const services = servicesFor(db)
		await configurePayoutSettings(db, services.env)
		const provider = payoutProvider(services)!
		expect(provider.name).toBe('test')
		const creator = await creatorWithEarnings(db, 4000)

		expect(await errorOf(provider.startOnboarding({ userId: creator, email: null }, 'JP', 'http://localhost:3000/de/earnings', 'x'))).toBe('error-payout-country-unsupported')
		expect(await readPayoutAccount(db, creator)).toBeNull()

		const { url } = await provider.startOnboarding({ userId: creator, email: null }, 'de', 'http://localhost:3000/de/earnings?onboarding=return', 'x')
		expect(url).toBe('http://localhost:3000/de/earnings/test-onboarding')
		expect(await readPayoutAccount(db, creator)).toMatchObject({ provider: 'test', country: 'DE', status: 'onboarding', requirements: ['identity', 'bank_account', 'terms'] })
		expect(await errorOf(as(db, creator, (tx) => tx.query('select * from public.request_payout(2000, $1)', [randomUUID()])))).toBe('error-payout-account-not-ready')

		expect(await errorOf(completeTestOnboarding(services, creator, 'JP'))).toBe('error-payout-country-unsupported')
		await completeTestOnboarding(services, { userId: creator }, 'DE')
		expect(await provider.refreshAccount(creator)).toMatchObject({ status: 'ready', requirements: [], disabledReason: null })
		// Onboarding again keeps the ready account.
		await provider.startOnboarding({ userId: creator, email: null }, 'DE', 'http://localhost:3000/en/earnings', 'x')
		expect((await readPayoutAccount(db, creator))?.status).toBe('ready')

		const { rows } = await as(db, creator, (tx) => tx.query<{ id: string; status: string }>('select id, status from public.request_payout(3000, $1)', [randomUUID()]))
		const payout = rows[0]!
		expect(payout.status).toBe('review')
		await approve(db, payout.id)
		expect(await sendApprovedPayouts(services)).toMatchObject({ paid: 1, failed: 0, retry: 0 })
		const { rows: paid } = await db.query('select status, provider_transfer_id, paid_at is not null as paid from ledger.payouts where id = $1', [payout.id])
		expect(paid).toEqual([{ status: 'paid', provider_transfer_id: `tr_test_${payout.id.replaceAll('-', '')}`, paid: true }])
		expect(await ledgerProblems(db)).toEqual([])
	})

	test('the stand-in is never used next to Stripe, and a Stripe account is never paid by it', async () => {
		const db = getDb()
		const withStripe = { env: parseEnv({ STRIPE_SECRET_KEY: 'sk_test_x', STRIPE_WEBHOOK_SECRET: 'whsec_x' }), db }
		expect(() => testPayoutProvider(withStripe)).toThrow(/test payouts are off/)
		await expect(completeTestOnboarding(withStripe, randomUUID(), 'DE')).rejects.toThrow(/test payouts are off/)
		const closed = servicesFor(db, { APP_URL: 'https://dares.example', NODE_ENV: 'development' })
		expect(payoutProvider(closed)).toBeNull()
		expect(await sendApprovedPayouts(closed)).toEqual({ paid: 0, failed: 0, retry: 0, notices: [] })

		const services = servicesFor(db)
		await configurePayoutSettings(db, services.env)
		const creator = await creatorWithEarnings(db, 3000)
		await db.query(`select ledger.save_payout_account($1, 'stripe', 'acct_from_before', 'DE', 'ready', '{}', null)`, [creator])
		const { rows } = await as(db, creator, (tx) => tx.query<{ id: string }>('select id from public.request_payout(3000, $1)', [randomUUID()]))
		await approve(db, rows[0]!.id)
		expect(await sendApprovedPayouts(services)).toMatchObject({ failed: 1 })
		expect((await db.query('select status, failure_reason from ledger.payouts')).rows).toEqual([{ status: 'failed', failure_reason: 'account_not_ready' }])
		expect(await ledgerProblems(db)).toEqual([])
	})

	test('the timer sends what is approved; stopping waits for its round', async () => {
		const db = getDb()
		const services = servicesFor(db)
		await configurePayoutSettings(db, services.env)
		const creator = await creatorWithEarnings(db, 6000)
		await completeTestOnboarding(services, creator, 'AT')
		const ids: string[] = []
		for (const coins of [2000, 2000]) {
			const { rows } = await as(db, creator, (tx) => tx.query<{ id: string; status: string }>('select id, status from public.request_payout($1, $2)', [coins, randomUUID()]))
			// The first waits for an operator; the second is approved at once.
			if (rows[0]!.status === 'review') await approve(db, rows[0]!.id)
			ids.push(rows[0]!.id)
		}
		const log = vi.fn()
		const sender = startPayoutSender(services, { intervalMs: 60_000, log })
		await sender.tick()
		await sender.stop()
		const { rows } = await db.query<{ id: string; status: string }>('select id, status from ledger.payouts')
		expect(Object.fromEntries(rows.map((r) => [r.id, r.status]))).toEqual({ [ids[0]!]: 'paid', [ids[1]!]: 'paid' })
		expect(log).not.toHaveBeenCalled()
		expect(await ledgerProblems(db)).toEqual([])
	})
})
