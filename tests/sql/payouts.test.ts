import { randomUUID } from 'node:crypto'
import { beforeEach, expect, test } from 'vitest'
import { asUser } from '#app/db/as-user.server'
import type { Database, Queryable } from '#app/db/database.server'
import { publishDocumentVersions } from '#app/db/published-documents.server'
import { claimsFor, describeEachDatabase, errorOf } from '#tests/support/databases'
import { participant } from '#tests/support/dares'
import { fundWallet, ledgerProblems } from '#tests/support/wallet'

/**
 * Creators get paid (docs/product.md §14), every rule as the API roles meet
 * it: the caller from auth.uid(), the provider's steps on the owner
 * connection. How we know no coin is created or lost: ledger.check() is
 * empty after every test that moves coins, and each figure is compared with
 * what the transfers say.
 */

const as = <T>(db: Database, userId: string | null, fn: (tx: Queryable) => Promise<T>) => asUser(db, userId ? claimsFor(userId) : null, fn)

type Standing = {
	balance: number
	earned: number
	pending: number
	available: number
	in_payout: number
	paid_out: number
	debt: number
	blockers: string[]
	spending_restricted: boolean
}

/** Earnings the way a completed dare makes them: a boost into a pot, the pot to the creator ('payout'). */
async function earn(db: Queryable, creator: string, coins: number): Promise<void> {
	const booster = await participant(db, coins)
	const pot = `(select ledger.pot_account('${randomUUID()}'))`
	await db.query(`select ledger.transfer(ledger.wallet_account($1), ${pot}, $2, 'boost', null, $3)`, [booster, coins, `t-boost:${randomUUID()}`])
	await db.query(
		`select ledger.transfer(a.id, ledger.wallet_account($1), $2, 'payout', null, $3) from ledger.accounts a
		 where a.kind = 'pot' and a.balance = $2 and not exists (select 1 from ledger.transfers t where t.from_account = a.id)
		 order by a.id desc limit 1`,
		[creator, coins, `t-payout:${randomUUID()}`],
	)
}

async function settings(db: Queryable, over: Partial<{ hold: number; min: number; review: number; rate: number; fee: number }> = {}) {
	const s = { hold: 0, min: 2000, review: 20000, rate: 0.7, fee: 0, ...over }
	await db.query('select ledger.set_payout_settings($1, $2, $3, $4, $5, $6)', [s.hold, s.min, s.review, s.rate, s.fee, 'EUR'])
}

async function readyAccount(db: Queryable, user: string, status = 'ready'): Promise<void> {
	await db.query(`select ledger.save_payout_account($1, 'test', $2, 'DE', $3, '{}', null)`, [user, `test_${randomUUID()}`, status])
}

async function creatorWith(db: Database, coins: number, account: string | null = 'ready'): Promise<string> {
	const creator = await participant(db)
	await db.query('insert into public.creator_profiles (id, twitch_channel) values ($1, $2)', [creator, `c_${randomUUID().slice(0, 8)}`])
	if (coins > 0) await earn(db, creator, coins)
	if (account) await readyAccount(db, creator, account)
	return creator
}

async function standing(db: Database, user: string): Promise<Standing> {
	const { rows } = await as(db, user, (tx) => tx.query('select * from public.my_earnings()'))
	const row = rows[0] as Record<string, unknown>
	const numbers = ['balance', 'earned', 'pending', 'available', 'in_payout', 'paid_out', 'debt'] as const
	return { ...Object.fromEntries(numbers.map((k) => [k, Number(row[k])])), blockers: row.blockers, spending_restricted: row.spending_restricted } as Standing
}

const request = (db: Database, user: string, coins: number, key: string = randomUUID()) =>
	as(db, user, async (tx) => (await tx.query<{ id: string; status: string; replayed: boolean; amount_minor: string; fee_coins: string }>('select * from public.request_payout($1, $2)', [coins, key])).rows[0]!)

async function operator(db: Queryable): Promise<string> {
	const id = await participant(db)
	await db.query('insert into app_private.operators (user_id) values ($1)', [id])
	return id
}

const payoutStatus = async (db: Queryable, id: string) =>
	(await db.query<{ status: string; failure_reason: string | null }>('select status, failure_reason from ledger.payouts where id = $1', [id])).rows[0]!

describeEachDatabase('payouts', (getDb) => {
	beforeEach(async () => {
		await publishDocumentVersions(getDb(), { terms_of_service: 'v1', creator_agreement: 'v1' })
	})

	test('a viewer without earnings may not request, the API roles reach only the public calls, and a visitor nothing', async () => {
		const db = getDb()
		await settings(db)
		const viewer = await participant(db, 5000)
		expect(await errorOf(request(db, viewer, 2000))).toBe('error-not-a-creator')
		expect((await standing(db, viewer)).blockers).toContain('error-not-a-creator')
		expect(await errorOf(as(db, null, (tx) => tx.query('select * from public.request_payout(2000, $1)', [randomUUID()])))).toBe('42501')
		expect(await errorOf(as(db, null, (tx) => tx.query('select * from public.my_earnings()')))).toBe('42501')
		for (const call of [
			`select ledger.mark_payout_paid('${randomUUID()}')`,
			`select ledger.save_payout_account('${viewer}', 'test', 'x', 'DE', 'ready', '{}', null)`,
			`select * from ledger.open_dispute('dp_1', 'pi_1', 1)`,
			`select * from ledger.payouts`,
		]) {
			expect(await errorOf(as(db, viewer, (tx) => tx.query(call)))).toBe('42501')
		}
		// Bought coins are never earnings: nothing of the 5,000 may leave.
		await db.query('insert into public.creator_profiles (id, kick_channel) values ($1, $2)', [viewer, `k_${viewer.slice(0, 8)}`])
		await readyAccount(db, viewer)
		expect(await standing(db, viewer)).toMatchObject({ balance: 5000, earned: 0, available: 0 })
		expect(await errorOf(request(db, viewer, 2000))).toBe('error-payout-above-available')
	})

	test('earnings are pending for the hold period, each with the time it matures, then available', async () => {
		const db = getDb()
		await settings(db, { hold: 14 })
		const creator = await creatorWith(db, 3000)
		expect(await standing(db, creator)).toMatchObject({ earned: 3000, pending: 3000, available: 0, blockers: ['error-payout-below-minimum'] })
		const { rows } = await as(db, creator, (tx) => tx.query<{ days: number; coins: string }>(`select round(extract(epoch from matures_at - now()) / 86400)::int as days, coins from public.my_pending_earnings()`))
		expect(rows).toEqual([{ days: 14, coins: expect.anything() }])
		expect(Number(rows[0]!.coins)).toBe(3000)
		await settings(db, { hold: 0 })
		expect(await standing(db, creator)).toMatchObject({ earned: 3000, pending: 0, available: 3000, blockers: [] })
	})

	test('every blocker refuses with its code and changes nothing', async () => {
		const db = getDb()
		await settings(db)
		const noAccount = await creatorWith(db, 3000, null)
		expect(await errorOf(request(db, noAccount, 2000))).toBe('error-payout-account-missing')
		const onboarding = await creatorWith(db, 3000, 'onboarding')
		expect(await errorOf(request(db, onboarding, 2000))).toBe('error-payout-account-not-ready')
		const creator = await creatorWith(db, 3000)
		expect(await errorOf(request(db, creator, 1999))).toBe('error-payout-below-minimum')
		expect(await errorOf(request(db, creator, 3001))).toBe('error-payout-above-available')
		for (const coins of [0, -5]) expect(await errorOf(request(db, creator, coins))).toBe('error-invalid-amount')
		expect(await errorOf(request(db, creator, 2000, 'short'))).toBe('error-invalid-idempotency-key')
		await db.query('insert into app_private.account_restrictions (user_id, payouts_restricted_at) values ($1, now())', [creator])
		expect(await errorOf(request(db, creator, 2000))).toBe('error-payouts-restricted')
		expect((await standing(db, creator)).blockers).toEqual(['error-payouts-restricted'])
		expect(await standing(db, creator)).toMatchObject({ balance: 3000, in_payout: 0 })
		expect(await ledgerProblems(db)).toEqual([])
	})

	test('a request moves the coins to the payouts account once per key; the first waits for an operator, who approves; paid, they leave', async () => {
		const db = getDb()
		await settings(db, { rate: 0.7, fee: 500 })
		const creator = await creatorWith(db, 10000)
		const key = randomUUID()
		const first = await request(db, creator, 4000, key)
		expect(first).toMatchObject({ status: 'review', replayed: false })
		expect({ fee: Number(first.fee_coins), amount: Number(first.amount_minor) }).toEqual({ fee: 200, amount: 2660 })
		expect(await request(db, creator, 4000, key)).toMatchObject({ id: first.id, replayed: true })
		expect(await errorOf(request(db, creator, 3000, key))).toBe('error-idempotency-key-reused')
		expect(await standing(db, creator)).toMatchObject({ balance: 6000, available: 6000, in_payout: 4000 })
		const { rows: quote } = await as(db, creator, (tx) => tx.query('select * from public.payout_quote(4000)'))
		expect(quote[0]).toMatchObject({ currency: 'EUR' })
		expect(Number(quote[0]!.amount_minor)).toBe(2660)

		// Nothing is sent before the review; a creator is no operator.
		expect((await db.query('select * from ledger.payouts_to_send(10)')).rows.map((r) => r.id)).not.toContain(first.id)
		expect(await errorOf(as(db, creator, (tx) => tx.query(`select * from public.moderate('approve_payout', $1, 'none', 'ok')`, [first.id])))).toBe('error-not-operator')
		const op = await operator(db)
		const queue = await as(db, op, (tx) => tx.query('select * from public.payouts_awaiting_review()'))
		expect(queue.rows).toContainEqual(expect.objectContaining({ id: first.id, first_payout: true }))
		expect((await as(db, creator, (tx) => tx.query('select * from public.payouts_awaiting_review()'))).rows).toEqual([])
		await as(db, op, (tx) => tx.query(`select * from public.moderate('approve_payout', $1, 'none', 'Checked the account and the sessions')`, [first.id]))
		expect(await errorOf(as(db, op, (tx) => tx.query(`select * from public.moderate('reject_payout', $1, 'other', 'late')`, [first.id])))).toBe('error-payout-decided')
		expect(await errorOf(as(db, op, (tx) => tx.query(`select * from public.moderate('approve_payout', $1, 'none', 'x')`, [randomUUID()])))).toBe('error-payout-not-found')

		expect((await db.query('select id from ledger.payouts_to_send(10)')).rows.map((r) => r.id)).toContain(first.id)
		expect((await db.query('select ledger.mark_payout_sent($1, $2) as changed', [first.id, `tr_${first.id}`])).rows[0]!.changed).toBe(true)
		expect((await db.query('select ledger.payout_by_transfer($1) as id', [`tr_${first.id}`])).rows[0]!.id).toBe(first.id)
		expect((await db.query('select ledger.mark_payout_paid($1) as changed', [first.id])).rows[0]!.changed).toBe(true)
		expect((await db.query('select ledger.mark_payout_paid($1) as changed', [first.id])).rows[0]!.changed).toBe(false)
		expect((await db.query<{ changed: boolean }>('select changed from ledger.mark_payout_failed($1, $2)', [first.id, 'late'])).rows[0]!.changed).toBe(false)
		expect(await standing(db, creator)).toMatchObject({ balance: 6000, in_payout: 0, paid_out: 4000 })
		const fee = await db.query<{ amount: string }>(`select amount from ledger.transfers where kind = 'payout_fee' and reference = $1`, [first.id])
		expect(Number(fee.rows[0]!.amount)).toBe(200)

		// The next one below the review threshold goes straight on.
		expect(await request(db, creator, 2000)).toMatchObject({ status: 'approved' })
		expect(await ledgerProblems(db)).toEqual([])
	})

	test('a rejected or failed payout gives the coins back, with the reason; they are available again', async () => {
		const db = getDb()
		await settings(db)
		const creator = await creatorWith(db, 5000)
		const op = await operator(db)
		const first = await request(db, creator, 2500)
		const decided = await as(db, op, (tx) => tx.query(`select * from public.moderate('reject_payout', $1, 'other', 'The payout account names someone else')`, [first.id]))
		expect(decided.rows[0]).toMatchObject({ subject_id: creator })
		expect(await payoutStatus(db, first.id)).toEqual({ status: 'rejected', failure_reason: 'The payout account names someone else' })
		expect(await standing(db, creator)).toMatchObject({ balance: 5000, available: 5000, in_payout: 0 })
		const second = await request(db, creator, 2500)
		await as(db, op, (tx) => tx.query(`select * from public.moderate('approve_payout', $1, 'none', 'fine')`, [second.id]))
		await db.query('select ledger.mark_payout_sent($1, $2)', [second.id, `tr_${second.id}`])
		const failed = await db.query('select * from ledger.mark_payout_failed($1, $2)', [second.id, 'The bank refused the account'])
		expect(failed.rows[0]).toMatchObject({ changed: true, user_id: creator })
		expect(await payoutStatus(db, second.id)).toEqual({ status: 'failed', failure_reason: 'The bank refused the account' })
		expect(await standing(db, creator)).toMatchObject({ balance: 5000, available: 5000 })
		const { rows } = await as(db, creator, (tx) => tx.query('select status from public.my_payouts()'))
		expect(rows.map((r) => r.status)).toEqual(['failed', 'rejected'])
		expect(await ledgerProblems(db)).toEqual([])
	})

	test('spending counts bought and pending coins first; a payout never takes more than the wallet holds', async () => {
		const db = getDb()
		await settings(db)
		const creator = await creatorWith(db, 3000)
		await fundWallet(db, creator, 1000)
		await db.query(`select ledger.transfer(ledger.wallet_account($1), ledger.pot_account(gen_random_uuid()), 1500, 'boost', null, $2)`, [creator, `t-spend:${randomUUID()}`])
		expect(await standing(db, creator)).toMatchObject({ balance: 2500, earned: 3000, available: 2500 })
		expect(await errorOf(request(db, creator, 2600))).toBe('error-payout-above-available')
		await request(db, creator, 2500)
		expect(await standing(db, creator)).toMatchObject({ balance: 0, available: 0 })
		expect(await ledgerProblems(db)).toEqual([])
	})

	test('coins bought after earnings were spent are never available, whatever the balance', async () => {
		const db = getDb()
		await settings(db)
		const creator = await creatorWith(db, 10000)
		await db.query(`select ledger.transfer(ledger.wallet_account($1), ledger.pot_account(gen_random_uuid()), 10000, 'boost', null, $2)`, [creator, `t-spend:${randomUUID()}`])
		await fundWallet(db, creator, 10000)
		expect(await standing(db, creator)).toMatchObject({ balance: 10000, earned: 10000, available: 0 })
		expect(await errorOf(request(db, creator, 2000))).toBe('error-payout-above-available')
		// Earned again afterwards: only that is available.
		await earn(db, creator, 3000)
		expect(await standing(db, creator)).toMatchObject({ balance: 13000, available: 3000 })
		// A rejected request's coins come back as available, not as bought.
		const op = await operator(db)
		const asked = await request(db, creator, 3000)
		expect(await standing(db, creator)).toMatchObject({ balance: 10000, available: 0 })
		await as(db, op, (tx) => tx.query(`select * from public.moderate('reject_payout', $1, 'other', 'Check the account holder')`, [asked.id]))
		expect(await standing(db, creator)).toMatchObject({ balance: 13000, available: 3000 })
	})

	test('no operator approves their own payout, nor one whose creator is restricted or disputed meanwhile; the sender holds those back', async () => {
		const db = getDb()
		await settings(db)
		const op = await operator(db)
		await db.query('insert into public.creator_profiles (id, twitch_channel) values ($1, $2)', [op, `c_${randomUUID().slice(0, 8)}`])
		await earn(db, op, 3000)
		await readyAccount(db, op)
		const own = await request(db, op, 2000)
		expect(await errorOf(as(db, op, (tx) => tx.query(`select * from public.moderate('approve_payout', $1, 'none', 'mine')`, [own.id])))).toBe('error-payout-own')

		const creator = await creatorWith(db, 6000)
		const first = await request(db, creator, 2000)
		await db.query('insert into app_private.account_restrictions (user_id, payouts_restricted_at) values ($1, now())', [creator])
		expect(await errorOf(as(db, op, (tx) => tx.query(`select * from public.moderate('approve_payout', $1, 'none', 'fine')`, [first.id])))).toBe('error-payouts-restricted')
		await db.query('update app_private.account_restrictions set payouts_restricted_at = null where user_id = $1', [creator])
		await as(db, op, (tx) => tx.query(`select * from public.moderate('approve_payout', $1, 'none', 'fine')`, [first.id]))
		expect((await db.query('select id from ledger.payouts_to_send(100)')).rows.map((r) => r.id)).toContain(first.id)
		await db.query('update app_private.account_restrictions set payouts_restricted_at = now() where user_id = $1', [creator])
		expect((await db.query('select id from ledger.payouts_to_send(100)')).rows.map((r) => r.id)).not.toContain(first.id)
		expect(await ledgerProblems(db)).toEqual([])
	})

	test('two requests with one key at once: one payout, the coins moved once', async () => {
		const db = getDb()
		await settings(db)
		const creator = await creatorWith(db, 6000)
		const key = randomUUID()
		const results = await Promise.all([0, 1, 2].map(() => request(db, creator, 3000, key)))
		expect(new Set(results.map((r) => r.id)).size).toBe(1)
		expect(results.filter((r) => !r.replayed)).toHaveLength(1)
		// Three keys for more than is there: as many as fit.
		const spread = await Promise.allSettled([0, 1].map(() => request(db, creator, 2000)))
		expect(spread.filter((r) => r.status === 'fulfilled')).toHaveLength(1)
		expect(await standing(db, creator)).toMatchObject({ balance: 1000, in_payout: 5000 })
		expect(await ledgerProblems(db)).toEqual([])
	})

	test('a dispute takes its coins back as far as they are there, the rest is a debt a purchase settles first; spending waits; winning gives them back', async () => {
		const db = getDb()
		await settings(db)
		const buyer = await participant(db)
		const purchase = async (coins: number, intent: string) => {
			const { rows } = await db.query<{ id: string }>(
				`insert into ledger.purchases (user_id, idempotency_key, pack_id, coins, amount_minor, currency, provider, checkout_session_id)
				 values ($1, $2, 'pack', $3, $4, 'EUR', 'stripe', $5) returning id`,
				[buyer, randomUUID(), coins, coins, `cs_${randomUUID()}`],
			)
			await db.query(`select * from ledger.complete_checkout_session((select checkout_session_id from ledger.purchases where id = $1), $2)`, [rows[0]!.id, intent])
		}
		await purchase(1000, 'pi_first')
		await db.query(`select ledger.transfer(ledger.wallet_account($1), ledger.pot_account(gen_random_uuid()), 600, 'boost', null, $2)`, [buyer, `t-spend:${randomUUID()}`])
		expect(await db.query('select * from ledger.open_dispute($1, $2, $3)', ['dp_unknown', 'pi_nobody', 100]).then((r) => r.rows)).toEqual([])
		const opened = (await db.query('select * from ledger.open_dispute($1, $2, $3)', ['dp_1', 'pi_first', 1000])).rows[0]!
		expect({ coins: Number(opened.coins), clawed: Number(opened.clawed_back), debt: Number(opened.debt), opened: opened.opened }).toEqual({ coins: 1000, clawed: 400, debt: 600, opened: true })
		const again = (await db.query('select * from ledger.open_dispute($1, $2, $3)', ['dp_1', 'pi_first', 1000])).rows[0]!
		expect({ clawed: Number(again.clawed_back), debt: Number(again.debt), opened: again.opened }).toEqual({ clawed: 400, debt: 600, opened: false })
		expect(await standing(db, buyer)).toMatchObject({ balance: 0, debt: 600, spending_restricted: true })

		await purchase(1000, 'pi_second')
		expect(await standing(db, buyer)).toMatchObject({ balance: 400, debt: 0, spending_restricted: true })
		// A boost while the dispute is open is refused (the database's rule, whoever calls).
		const spend = db.query(`select ledger.transfer(ledger.wallet_account($1), ledger.pot_account(gen_random_uuid()), 100, 'boost', null, $2)`, [buyer, `t-spend:${randomUUID()}`])
		expect(await errorOf(spend)).toBe('error-spending-restricted')

		const closed = (await db.query('select * from ledger.close_dispute($1, true)', ['dp_1'])).rows[0]!
		expect({ restored: Number(closed.restored), changed: closed.changed }).toEqual({ restored: 1000, changed: true })
		expect((await db.query('select * from ledger.close_dispute($1, false)', ['dp_1'])).rows[0]).toMatchObject({ changed: false })
		expect(await standing(db, buyer)).toMatchObject({ balance: 1400, debt: 0, spending_restricted: false })

		// Lost, with a debt: the restriction stays until a purchase pays it.
		await db.query(`select ledger.transfer(ledger.wallet_account($1), ledger.pot_account(gen_random_uuid()), 1400, 'boost', null, $2)`, [buyer, `t-spend:${randomUUID()}`])
		await db.query('select * from ledger.open_dispute($1, $2, $3)', ['dp_2', 'pi_second', 500])
		await db.query('select * from ledger.close_dispute($1, false)', ['dp_2'])
		expect(await standing(db, buyer)).toMatchObject({ balance: 0, debt: 500, spending_restricted: true })
		await purchase(2000, 'pi_third')
		expect(await standing(db, buyer)).toMatchObject({ balance: 1500, debt: 0, spending_restricted: false })
		expect(await ledgerProblems(db)).toEqual([])
	})

	test('a payout request racing a dispute: whichever commits first, no balance goes below zero and the books hold', async () => {
		const db = getDb()
		await settings(db)
		const creator = await creatorWith(db, 3000)
		const { rows } = await db.query<{ id: string }>(
			`insert into ledger.purchases (user_id, idempotency_key, pack_id, coins, amount_minor, currency, provider, checkout_session_id)
			 values ($1, $2, 'pack', 2000, 2000, 'EUR', 'stripe', $3) returning id`,
			[creator, randomUUID(), `cs_${randomUUID()}`],
		)
		await db.query(`select * from ledger.complete_checkout_session((select checkout_session_id from ledger.purchases where id = $1), 'pi_race')`, [rows[0]!.id])
		// On Postgres the pool runs both at once; PGlite runs them one after the other.
		const [asked, disputed] = await Promise.allSettled([
			request(db, creator, 3000),
			db.query('select * from ledger.open_dispute($1, $2, $3)', ['dp_race', 'pi_race', 2000]),
		])
		expect(disputed.status).toBe('fulfilled')
		const after = await standing(db, creator)
		if (asked.status === 'fulfilled') {
			// The payout took the earnings; the dispute took the 2,000 bought coins.
			expect(after).toMatchObject({ balance: 0, in_payout: 3000, debt: 0 })
		} else {
			expect(await errorOf(Promise.reject(asked.reason))).toBe('error-spending-restricted')
			expect(after).toMatchObject({ balance: 3000, in_payout: 0 })
		}
		expect(await ledgerProblems(db)).toEqual([])
	})

	test('the checker finds a payouts account that differs from the payouts under way', async () => {
		const db = getDb()
		await settings(db)
		const creator = await creatorWith(db, 3000)
		const payout = await request(db, creator, 2000)
		expect(await ledgerProblems(db)).toEqual([])
		// Forge a state change without its transfer (the owner may; the checker must see it).
		await db.query(`update ledger.payouts set status = 'paid' where id = $1`, [payout.id])
		expect(await ledgerProblems(db)).toEqual([expect.objectContaining({ problem: 'payouts account differs from the payouts under way' })])
		await db.query(`update ledger.payouts set status = 'review' where id = $1`, [payout.id])
	})
})
