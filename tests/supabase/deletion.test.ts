import { afterEach, beforeEach, expect, test } from 'vitest'
import { createSupabaseAuth } from '#app/platform/supabase/backend.server'
import { describeEachDatabase, ensureWalletDeleteGuard } from '#tests/support/databases'
import { APP_URL, Browser, expectError, expectOk } from './browser'
import { FakeGoTrue } from './fake-gotrue'

/**
 * Account deletion on the Supabase platform goes through the database's
 * `before delete` trigger on auth.users, in one statement: an account whose
 * wallet holds coins stays (PRODUCT.md: coins are never destroyed). Supabase
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
		await ensureWalletDeleteGuard(db)
		const user = fake.addUser('ada@example.com', 'correct horse')
		// Supabase's auth.users row (the local shim's here); the core migration's trigger gives it its wallet.
		await db.query('insert into auth.users (id, email) values ($1, $2)', [user.id, user.email])
		await db.query('update public.wallets set balance = $2 where id = $1', [user.id, balance])
		const { accounts } = createSupabaseAuth({ url: fake.url, anonKey: 'anon', appUrl: APP_URL, serviceRoleKey: fake.serviceRoleKey, db })
		const browser = new Browser()
		browser.take(await accounts.signIn(browser.request('/en/login'), { email: user.email, password: 'correct horse' }))
		return { accounts, browser, user, db }
	}

	test('an account whose wallet holds coins is refused with 409 by the trigger, and nothing is deleted', async () => {
		const { accounts, browser, user, db } = await setUp(250)
		expect(expectError(await accounts.deleteAccount(browser.request('/api/auth/delete'), { password: 'correct horse' }))).toEqual({
			code: 'error-wallet-not-empty',
			status: 409,
		})
		expect(fake.requestsTo('DELETE', `/admin/users/${user.id}`)).toEqual([])
		expect(fake.users.has(user.id)).toBe(true)
		expect((await db.query('select 1 from auth.users where id = $1', [user.id])).rows).toHaveLength(1)
	})

	test('an empty wallet does not stop the deletion', async () => {
		const { accounts, browser, user, db } = await setUp(0)
		expect(expectOk(await accounts.deleteAccount(browser.request('/api/auth/delete'), { password: 'correct horse' }))).toBeNull()
		expect(fake.users.has(user.id)).toBe(false)
		expect((await db.query('select 1 from auth.users where id = $1', [user.id])).rows).toEqual([])
	})
})
