import { randomUUID } from 'node:crypto'
import { expect, test } from 'vitest'
import { asUser } from '#app/db/as-user.server'
import type { Database, Queryable } from '#app/db/database.server'
import { DEMO_USERS, seedDemoData } from '#app/db/seed.server'
import { asCaller } from '#app/modules/wallet/as-caller.server'
import { claimsFor, createAuthUser, describeEachDatabase, openConnection, rejectionOf } from '#tests/support/databases'
import { fundWallet, ledgerProblems } from '#tests/support/wallet'

const PERMISSION_DENIED = '42501'

async function balanceOf(db: Queryable, userId: string): Promise<number | null> {
	const { rows } = await db.query<{ balance: number }>('select balance from public.wallets where id = $1', [userId])
	return rows[0]?.balance ?? null
}

async function systemBalance(db: Queryable, kind: 'world' | 'forfeit' | 'platform_fee'): Promise<number> {
	const { rows } = await db.query<{ balance: number }>('select balance from ledger.accounts where kind = $1', [kind])
	return rows[0]!.balance
}

async function transferCount(db: Queryable): Promise<number> {
	const { rows } = await db.query<{ n: number }>('select count(*)::int as n from ledger.transfers')
	return rows[0]!.n
}

function transfer(db: Queryable, from: string, to: string, amount: unknown, key: string) {
	return db.query<{ transfer_id: number; replayed: boolean }>(
		`select * from ledger.transfer(ledger.wallet_account($1), ledger.wallet_account($2), $3, 'boost', null, $4)`,
		[from, to, amount, key],
	)
}

async function purchase(db: Database, userId: string, key: string, claims = claimsFor(userId)) {
	return asCaller(db, claims, async (tx) => {
		const { rows } = await tx.query<{ id: string }>(
			`select id from ledger.create_purchase('p500', 500, 499, 'EUR', 'test', $1)`,
			[key],
		)
		const { rows: done } = await tx.query<{ credited: boolean; balance: number }>(
			'select credited, balance from ledger.complete_purchase($1)',
			[rows[0]!.id],
		)
		return { id: rows[0]!.id, ...done[0]! }
	})
}

describeEachDatabase('wallet ledger', (getDb, kind) => {
	test('a transfer moves coins between wallets, records one row and keeps the books balanced', async () => {
		const db = getDb()
		const a = await createAuthUser(db)
		const b = await createAuthUser(db)
		await fundWallet(db, a, 1000)
		const { rows } = await transfer(db, a, b, 300, `k-${randomUUID()}`)
		expect(rows[0]?.replayed).toBe(false)
		expect(await balanceOf(db, a)).toBe(700)
		expect(await balanceOf(db, b)).toBe(300)
		expect(await systemBalance(db, 'world')).toBe(-1000)
		expect(await transferCount(db)).toBe(2)
		expect(await ledgerProblems(db)).toEqual([])
	})

	test('a debit larger than the balance is refused with error-insufficient-funds and moves nothing', async () => {
		const db = getDb()
		const a = await createAuthUser(db)
		const b = await createAuthUser(db)
		await fundWallet(db, a, 100)
		const error = await rejectionOf(transfer(db, a, b, 101, `k-${randomUUID()}`))
		expect(error.message).toBe('error-insufficient-funds')
		expect(await balanceOf(db, a)).toBe(100)
		expect(await balanceOf(db, b)).toBe(0)
		expect(await transferCount(db)).toBe(1)
	})

	test('zero, negative, huge and fractional amounts and missing keys are refused', async () => {
		const db = getDb()
		const a = await createAuthUser(db)
		const b = await createAuthUser(db)
		await fundWallet(db, a, 100)
		for (const amount of [0, -5, 1_000_000_001, Number.MAX_SAFE_INTEGER]) {
			const error = await rejectionOf(transfer(db, a, b, amount, `k-${randomUUID()}`))
			expect(error.message, String(amount)).toBe('error-invalid-amount')
		}
		const fractional = await rejectionOf(transfer(db, a, b, '1.5', `k-${randomUUID()}`))
		expect(fractional.code).toBe('22P02')
		for (const key of [null, '', 'short', 'has a space in it', 'x'.repeat(201)]) {
			const error = await rejectionOf(transfer(db, a, b, 10, key as string))
			expect(error.message, String(key)).toBe('error-invalid-idempotency-key')
		}
		const self = await rejectionOf(transfer(db, a, a, 10, `k-${randomUUID()}`))
		expect(self.message).toBe('error-invalid-transfer')
		expect(await balanceOf(db, a)).toBe(100)
		expect(await transferCount(db)).toBe(1)
	})

	test('a wallet balance can never go negative, even for the owner', async () => {
		const db = getDb()
		const a = await createAuthUser(db)
		const error = await rejectionOf(db.query('update public.wallets set balance = -1 where id = $1', [a]))
		expect(error.constraint).toBe('wallets_balance_not_negative')
	})

	test('a transaction whose cached balances disagree with its transfers does not commit', async () => {
		const db = getDb()
		const a = await createAuthUser(db)
		await fundWallet(db, a, 100)

		// A cached balance changed without its transfer.
		const direct = await rejectionOf(db.query('update public.wallets set balance = balance + 1000 where id = $1', [a]))
		expect(direct.message).toBe('error-ledger-unbalanced')

		// A transfer without its cached balance change.
		const bare = await rejectionOf(
			db.query(
				`insert into ledger.transfers (from_account, to_account, amount, kind, idempotency_key)
				 values (ledger.system_account('world'), ledger.wallet_account($1), 50, 'purchase', 'bare-transfer-1')`,
				[a],
			),
		)
		expect(bare.message).toBe('error-ledger-unbalanced')

		// The ledger's own balances follow the transfers only.
		const derived = await rejectionOf(db.query(`update ledger.accounts set balance = 0 where kind = 'world'`))
		expect(derived.message).toBe('error-ledger-balance-is-derived')

		// A wallet that still holds coins cannot simply vanish.
		const vanish = await rejectionOf(db.query('delete from public.wallets where id = $1', [a]))
		expect(vanish.message).toBe('error-ledger-unbalanced')

		expect(await balanceOf(db, a)).toBe(100)
		expect(await transferCount(db)).toBe(1)
		expect(await ledgerProblems(db)).toEqual([])
	})

	test('ledger.check() names every account that drifted, and all accounts that do not sum to zero', async () => {
		const db = getDb()
		const a = await createAuthUser(db)
		await fundWallet(db, a, 100)
		expect(await ledgerProblems(db)).toEqual([])
		// Only by switching the guards off (as the owner can) can drift exist.
		await db.exec(`
			alter table public.wallets disable trigger wallets_match_ledger;
			update public.wallets set balance = 150 where id = '${a}';
			alter table public.wallets enable trigger wallets_match_ledger;
			alter table ledger.accounts disable trigger accounts_guard_balance;
			update ledger.accounts set balance = balance + 7 where kind = 'forfeit';
			alter table ledger.accounts enable trigger accounts_guard_balance;
		`)
		const problems = await ledgerProblems(db)
		expect(problems).toEqual(
			expect.arrayContaining([
				expect.objectContaining({ kind: 'wallet', owner: a, problem: 'wallet cache differs from ledger', expected: 100, actual: 150 }),
				expect.objectContaining({ kind: 'forfeit', problem: 'balance differs from transfers', expected: 0, actual: 7 }),
				expect.objectContaining({ kind: 'all', problem: 'accounts do not sum to zero', actual: 7 }),
			]),
		)
		expect(problems).toHaveLength(3)
	})

	test('transfers are append-only, for the owner too', async () => {
		const db = getDb()
		const a = await createAuthUser(db)
		await fundWallet(db, a, 100)
		for (const sql of [
			'update ledger.transfers set amount = 1',
			'delete from ledger.transfers',
			'truncate ledger.transfers cascade',
			'delete from ledger.accounts where kind = $$forfeit$$',
		]) {
			const error = await rejectionOf(db.query(sql))
			expect(error.message, sql).toBe('error-ledger-append-only')
		}
		expect(await transferCount(db)).toBe(1)
	})

	test('the same idempotency key twice moves coins once and returns the first transfer', async () => {
		const db = getDb()
		const a = await createAuthUser(db)
		const b = await createAuthUser(db)
		await fundWallet(db, a, 1000)
		const key = `k-${randomUUID()}`
		const first = (await transfer(db, a, b, 200, key)).rows[0]!
		const second = (await transfer(db, a, b, 200, key)).rows[0]!
		expect(second).toEqual({ transfer_id: first.transfer_id, replayed: true })
		expect(await balanceOf(db, a)).toBe(800)

		const reused = await rejectionOf(transfer(db, a, b, 300, key))
		expect(reused.message).toBe('error-idempotency-key-reused')
		expect(await balanceOf(db, b)).toBe(200)
	})

	test('a purchase credits its coins once, however often it is completed', async () => {
		const db = getDb()
		const a = await createAuthUser(db)
		const key = randomUUID()
		const first = await purchase(db, a, key)
		expect(first).toMatchObject({ credited: true, balance: 500 })
		const again = await purchase(db, a, key)
		expect(again).toMatchObject({ id: first.id, credited: false, balance: 500 })
		const reused = await rejectionOf(
			asCaller(db, claimsFor(a), (tx) => tx.query(`select * from ledger.create_purchase('p1100', 1100, 999, 'EUR', 'test', $1)`, [key])),
		)
		expect(reused.message).toBe('error-idempotency-key-reused')
		expect(await balanceOf(db, a)).toBe(500)
		expect(await ledgerProblems(db)).toEqual([])

		// The same key is another user's own: keys are per user.
		const b = await createAuthUser(db)
		expect(await purchase(db, b, key)).toMatchObject({ credited: true, balance: 500 })
	})

	test('a user with a second factor needs aal2 to buy; without a factor aal1 is enough', async () => {
		const db = getDb()
		const a = await createAuthUser(db)
		await db.query(`insert into auth.mfa_factors (id, user_id, status) values (gen_random_uuid(), $1, 'verified')`, [a])
		const refused = await rejectionOf(purchase(db, a, randomUUID(), claimsFor(a, { aal: 'aal1' })))
		expect(refused.message).toBe('error-aal2-required')
		expect(await balanceOf(db, a)).toBe(0)
		expect(await purchase(db, a, randomUUID(), claimsFor(a, { aal: 'aal2' }))).toMatchObject({ credited: true })

		const b = await createAuthUser(db)
		expect(await purchase(db, b, randomUUID(), claimsFor(b, { aal: 'aal1' }))).toMatchObject({ credited: true })

		const visitor = await rejectionOf(
			db.transaction((tx) => tx.query(`select * from ledger.create_purchase('p500', 500, 499, 'EUR', 'test', 'visitor-key-1')`)),
		)
		expect(visitor.message).toBe('error-not-authenticated')
	})

	test('deleting an account forfeits its coins through the ledger and keeps the ledger rows', async () => {
		const db = getDb()
		const a = await createAuthUser(db)
		await fundWallet(db, a, 700)
		await db.query('delete from auth.users where id = $1', [a])
		expect(await balanceOf(db, a)).toBeNull()
		expect(await systemBalance(db, 'forfeit')).toBe(700)
		const { rows } = await db.query<{ kind: string; amount: number }>(
			`select t.kind, t.amount from ledger.transfers t
			 join ledger.accounts f on f.id = t.from_account
			 where f.user_id = $1`,
			[a],
		)
		expect(rows).toEqual([{ kind: 'forfeit', amount: 700 }])
		expect(await transferCount(db)).toBe(2)
		expect(await ledgerProblems(db)).toEqual([])

		// An empty wallet goes without a transfer.
		const b = await createAuthUser(db)
		await db.query('delete from auth.users where id = $1', [b])
		expect(await transferCount(db)).toBe(2)
	})

	test('demo wallets are funded through the ledger', async () => {
		const db = getDb()
		await seedDemoData(db)
		await seedDemoData(db)
		const { rows } = await db.query<{ n: number }>(`select count(*)::int as n from ledger.transfers where kind = 'demo_grant'`)
		expect(rows[0]?.n).toBe(Object.keys(DEMO_USERS).length)
		expect(await ledgerProblems(db)).toEqual([])
	})

	test('browsers read their own transfers and purchases and nothing else', async () => {
		const db = getDb()
		const a = await createAuthUser(db)
		const b = await createAuthUser(db)
		await purchase(db, a, randomUUID())
		await transfer(db, a, b, 120, `k-${randomUUID()}`)
		const mine = await asUser(db, claimsFor(a), (tx) => tx.query('select kind, amount from public.wallet_transfers()'))
		expect(mine.rows).toEqual([
			{ kind: 'boost', amount: -120 },
			{ kind: 'purchase', amount: 500 },
		])
		const theirs = await asUser(db, claimsFor(b), (tx) => tx.query('select kind, amount from public.wallet_transfers()'))
		expect(theirs.rows).toEqual([{ kind: 'boost', amount: 120 }])
		const history = await asUser(db, claimsFor(a), (tx) => tx.query('select pack_id, coins, status from public.purchase_history()'))
		expect(history.rows).toEqual([{ pack_id: 'p500', coins: 500, status: 'completed' }])
		expect((await asUser(db, claimsFor(b), (tx) => tx.query('select * from public.purchase_history()'))).rows).toEqual([])

		for (const fn of ['wallet_transfers', 'purchase_history']) {
			const error = await rejectionOf(asUser(db, null, (tx) => tx.query(`select * from public.${fn}()`)))
			expect(error.code, fn).toBe(PERMISSION_DENIED)
		}
	})

	test('anon and authenticated can write nothing money-related and reach nothing in the ledger schema', async () => {
		const db = getDb()
		const a = await createAuthUser(db)
		const b = await createAuthUser(db)
		await fundWallet(db, a, 100)
		const attempts = [
			`update public.wallets set balance = 1000000 where id = '${a}'`,
			`insert into public.wallets (id, balance) values (gen_random_uuid(), 5)`,
			`delete from public.wallets where id = '${a}'`,
			'select * from ledger.transfers',
			'select * from ledger.accounts',
			'select * from ledger.purchases',
			`insert into ledger.transfers (from_account, to_account, amount, kind, idempotency_key) values (1, 4, 5, 'purchase', 'attack-key-1')`,
			`update ledger.accounts set balance = 0`,
			`select * from ledger.transfer(1, 4, 5, 'purchase', null, 'attack-key-2')`,
			`select * from ledger.grant_demo_coins('${a}', 1000)`,
			`select * from ledger.create_purchase('p500', 500, 0, 'EUR', 'test', 'attack-key-3')`,
			`select * from ledger.complete_purchase(gen_random_uuid())`,
			`select * from ledger.complete_checkout_session('cs_test')`,
			`select ledger.forfeit_wallet('${b}')`,
			'select * from ledger.check()',
		]
		for (const claims of [claimsFor(a), claimsFor(a, { aal: 'aal2' }), null]) {
			for (const sql of attempts) {
				const error = await rejectionOf(asUser(db, claims, (tx) => tx.query(sql)))
				expect(error.code, `${claims ? 'authenticated' : 'anon'}: ${sql}`).toBe(PERMISSION_DENIED)
			}
		}
		expect(await balanceOf(db, a)).toBe(100)
		expect(await transferCount(db)).toBe(1)
	})

	test('the API roles hold no privilege in the ledger schema and execute only the two read functions', async () => {
		const db = getDb()
		const { rows: schema } = await db.query<{ role: string; usage: boolean }>(
			`select r as role, has_schema_privilege(r, 'ledger', 'usage') as usage from unnest(array['anon', 'authenticated', 'service_role']) r`,
		)
		expect(schema.every((row) => !row.usage)).toBe(true)
		const { rows: functions } = await db.query<{ name: string; grantee: string }>(
			`select p.proname as name, r.rolname as grantee
			 from pg_proc p join pg_namespace n on n.oid = p.pronamespace
			 cross join pg_roles r
			 where n.nspname in ('public', 'ledger')
			   and (p.proname in ('wallet_transfers', 'purchase_history') or n.nspname = 'ledger')
			   and r.rolname in ('anon', 'authenticated')
			   and has_function_privilege(r.oid, p.oid, 'execute')
			 order by 1, 2`,
		)
		expect(functions).toEqual([
			{ name: 'purchase_history', grantee: 'authenticated' },
			{ name: 'wallet_transfers', grantee: 'authenticated' },
		])
	})

	if (kind === 'postgres') {
		test('two concurrent debits of one pot that together exceed it: one moves, the other is refused with error-insufficient-funds', async () => {
			const db = getDb()
			const [booster, first, second] = [await createAuthUser(db), await createAuthUser(db), await createAuthUser(db)]
			await fundWallet(db, booster, 100)
			const pot = randomUUID()
			await db.query(`select * from ledger.transfer(ledger.wallet_account($1), ledger.pot_account($2), 100, 'boost', null, $3)`, [
				booster,
				pot,
				`boost-${randomUUID()}`,
			])
			// The pot's account id is looked up once, as a dare's settling does
			// before it moves coins, so no lookup inside the calls orders them.
			const { rows } = await db.query<{ id: string }>('select ledger.pot_account($1) as id', [pot])
			const potAccount = rows[0]!.id
			const [a, b] = [await openConnection(db), await openConnection(db)]
			const refund = (c: typeof a, to: string) =>
				c.query(`select * from ledger.transfer($1, ledger.wallet_account($2), 100, 'refund', null, $3)`, [potAccount, to, `refund-${randomUUID()}`])
			try {
				// The first debit is made and not yet committed when the second
				// (to another wallet, so no wallet lock orders them) reads the pot.
				const pid = async (c: typeof a) => (await c.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid
				const [pidA, pidB] = [await pid(a), await pid(b)]
				await a.query('begin')
				await refund(a, first)
				await b.query('begin')
				const late = rejectionOf(refund(b, second))
				// Wait until the second call is blocked on a lock the first holds
				// (other suites run beside this one: asked of these two backends).
				await expect
					.poll(async () => (await db.query<{ blocked: boolean }>('select $1::int = any (pg_blocking_pids($2)) as blocked', [pidA, pidB])).rows[0]!.blocked)
					.toBe(true)
				await a.query('commit')
				const error = await late
				await b.query('rollback')
				expect(error.message).toBe('error-insufficient-funds')
				expect(await balanceOf(db, first)).toBe(100)
				expect(await balanceOf(db, second)).toBe(0)
				expect(await ledgerProblems(db)).toEqual([])
			} finally {
				await Promise.all([a.end(), b.end()])
			}
		})

		test('five concurrent duplicates from separate connections make one transfer', async () => {
			const db = getDb()
			const a = await createAuthUser(db)
			const b = await createAuthUser(db)
			await fundWallet(db, a, 1000)
			const clients = await Promise.all(Array.from({ length: 5 }, () => openConnection(db)))
			try {
				const key = `dup-${randomUUID()}`
				// Each connection opens its transaction first, so all five calls are
				// in flight together.
				await Promise.all(clients.map((c) => c.query('begin')))
				const results = await Promise.all(
					clients.map(async (c) => {
						const r = await c.query(
							`select * from ledger.transfer(ledger.wallet_account($1), ledger.wallet_account($2), 300, 'boost', null, $3)`,
							[a, b, key],
						)
						await c.query('commit')
						return r.rows[0] as { transfer_id: string; replayed: boolean }
					}),
				)
				expect(new Set(results.map((r) => r.transfer_id)).size).toBe(1)
				expect(results.filter((r) => !r.replayed)).toHaveLength(1)
				expect(await balanceOf(db, a)).toBe(700)
				expect(await balanceOf(db, b)).toBe(300)

				// The same for completing one purchase five times at once.
				const { id } = await asCaller(db, claimsFor(a), async (tx) => {
					const r = await tx.query<{ id: string }>(`select id from ledger.create_purchase('p500', 500, 499, 'EUR', 'stripe', $1)`, [
						randomUUID(),
					])
					await tx.query(`select ledger.set_checkout_session($1, 'cs_test_dup')`, [r.rows[0]!.id])
					return r.rows[0]!
				})
				const credits = await Promise.all(
					clients.map(async (c) => (await c.query(`select credited from ledger.complete_checkout_session('cs_test_dup')`)).rows[0]),
				)
				expect(credits.filter((r) => r.credited)).toHaveLength(1)
				expect(id).toBeTruthy()
				expect(await balanceOf(db, a)).toBe(1200)
				expect(await ledgerProblems(db)).toEqual([])
			} finally {
				await Promise.all(clients.map((c) => c.end()))
			}
		})
	}
})
