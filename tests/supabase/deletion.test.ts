import { afterEach, beforeEach, expect, test } from 'vitest'
import { createSupabaseAuth } from '#app/platform/supabase/account-service.server'
import { describeEachDatabase } from '#tests/support/databases'
import { APP_URL, Browser, expectError, expectOk } from './browser'
import { FakeGoTrue } from './fake-gotrue'
import { fundWallet } from '#tests/support/wallet'

/**
 * Account deletion on the Supabase platform checks the wallet in the app's
 * database first (PRODUCT.md: coins are never destroyed; as on the local
 * platform, an account holding coins stays until the ledger can move them).
 * Supabase Auth is the loopback stand-in (fake-gotrue.ts says why); the
 * database is real (the migrated core schema on PGlite, and Postgres when
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
		return { accounts, browser, user }
	}

	test('an account whose wallet holds coins is not deleted', async () => {
		const { accounts, browser, user } = await setUp(250)
		expect(expectError(await accounts.deleteAccount(browser.request('/api/auth/delete')))).toEqual({
			code: 'error-unknown',
			status: 409,
			reasons: ['wallet-not-empty'],
		})
		expect(fake.requestsTo('DELETE', `/admin/users/${user.id}`)).toEqual([])
		expect(fake.users.has(user.id)).toBe(true)
	})

	test('an empty wallet does not stop the deletion', async () => {
		const { accounts, browser, user } = await setUp(0)
		expect(expectOk(await accounts.deleteAccount(browser.request('/api/auth/delete')))).toBeNull()
		expect(fake.users.has(user.id)).toBe(false)
	})
})
