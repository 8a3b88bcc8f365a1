import { afterEach, beforeEach, expect, test } from 'vitest'
import { createSupabaseAuth } from '#app/modules/account/backends/supabase/backend.server'
import { describeEachDatabase } from '#tests/support/databases'
import { APP_URL, Browser, expectOk } from './browser'
import { FakeGoTrue } from './fake-gotrue'
import { fundWallet, ledgerProblems } from '#tests/support/wallet'

/**
 * Account deletion on the Supabase platform goes through the database's
 * `before delete` trigger on auth.users, in one statement: the coins left in
 * the wallet move to the forfeit account through the ledger (docs/product.md
 * §8.4: coins are never destroyed). Supabase
 * Auth is the loopback stand-in (fake-gotrue.ts says why); the database is
 * real (the migrated core schema on PGlite, and Postgres when
 * TEST_DATABASE_URL is set).
 */

let fake: FakeGoTrue
beforeEach(async () => {
	fake = await FakeGoTrue.start()
})
afterEach(async () => {
	await fake.close()
})

describeEachDatabase('Supabase account deletion and the wallet', (getDb) => {
	async function setUp(balance: number) {
		const db = getDb()
		const user = fake.addUser('ada@example.com', 'correct horse')
		// Supabase's auth.users row (the local shim's here); the core migration's trigger gives it its wallet.
		await db.query('insert into auth.users (id, email) values ($1, $2)', [user.id, user.email])
		if (balance > 0) await fundWallet(db, user.id, balance)
		const { accounts } = createSupabaseAuth({ url: fake.url, anonKey: 'anon', appUrl: APP_URL, serviceRoleKey: fake.serviceRoleKey, db })
		const browser = new Browser()
		browser.take(await accounts.signIn(browser.request('/en/login'), { email: user.email, password: 'correct horse' }))
		return { accounts, browser, user, db }
	}

	test('the coins of a deleted account are forfeited by the trigger, in the same transaction as the deletion', async () => {
		const { accounts, browser, user, db } = await setUp(250)
		expect(expectOk(await accounts.deleteAccount(browser.request('/api/auth/delete'), { password: 'correct horse' }))).toBeNull()
		expect(fake.users.has(user.id)).toBe(false)
		expect((await db.query('select 1 from auth.users where id = $1', [user.id])).rows).toEqual([])
		const { rows: forfeits } = await db.query(`select amount::int from ledger.transfers where kind = 'forfeit' and reference = $1`, [user.id])
		expect(forfeits).toEqual([{ amount: 250 }])
		expect(await ledgerProblems(db)).toEqual([])
	})

	test('an empty wallet does not stop the deletion', async () => {
		const { accounts, browser, user, db } = await setUp(0)
		expect(expectOk(await accounts.deleteAccount(browser.request('/api/auth/delete'), { password: 'correct horse' }))).toBeNull()
		expect(fake.users.has(user.id)).toBe(false)
		expect((await db.query('select 1 from auth.users where id = $1', [user.id])).rows).toEqual([])
	})
})
