import { afterEach, beforeEach, expect, test } from 'vitest'
import type { Database } from '#app/db/database.server'
import { createSupabaseAuth } from '#app/modules/account/backends/supabase/backend.server'
import { describeEachDatabase } from '#tests/support/databases'
import { APP_URL, Browser, expectError, expectOk } from './browser'
import { FakeGoTrue } from './fake-gotrue'

/**
 * With the app's database, the Supabase platform counts attempts in
 * app_private.rate_limits, so every instance behind a balancer shares them.
 * Supabase Auth is the loopback stand-in (fake-gotrue.ts says why); the
 * database is real (PGlite, and Postgres when TEST_DATABASE_URL is set).
 */

let fake: FakeGoTrue
beforeEach(async () => {
	fake = await FakeGoTrue.start()
})
afterEach(async () => {
	await fake.close()
})

function instance(db: Database, secret = 'shared secret') {
	return createSupabaseAuth({
		url: fake.url,
		anonKey: 'anon',
		appUrl: APP_URL,
		db,
		rateLimitSecret: secret,
		rateLimits: { signInPerAddressAndClient: { max: 2, windowSeconds: 60 } },
		retry: { baseDelayMs: 1 },
	}).accounts
}

describeEachDatabase('Supabase rate limits shared through the database', (getDb) => {
	test('two instances count the same address together; the table holds no address', async () => {
		const db = getDb()
		fake.addUser('ada@example.com', 'correct horse')
		const [a, b] = [instance(db), instance(db)]
		expect(expectError(await a.signIn(new Browser().request('/en/login'), { email: 'ada@example.com', password: 'nope' })).code).toBe('error-invalid-credentials')
		expect(expectError(await b.signIn(new Browser().request('/en/login'), { email: 'ada@example.com', password: 'nope' })).code).toBe('error-invalid-credentials')
		const calls = fake.requestsTo('POST', '/token').length
		const third = await a.signIn(new Browser().request('/en/login'), { email: 'Ada@Example.com', password: 'correct horse' })
		expect(expectError(third)).toMatchObject({ code: 'error-rate-limited', status: 429 })
		expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0)
		expect(fake.requestsTo('POST', '/token').length).toBe(calls)

		const { rows } = await db.query<{ key: string; hits: number }>('select key, hits from app_private.rate_limits')
		expect(rows.length).toBeGreaterThan(0)
		for (const row of rows) expect(row.key).not.toMatch(/ada|example|@/i)
		// Another address is counted on its own.
		fake.addUser('bob@example.com', 'correct horse')
		expectOk(await b.signIn(new Browser().request('/en/login'), { email: 'bob@example.com', password: 'correct horse' }))
	})

	test('the API roles cannot read or write the counters', async () => {
		const db = getDb()
		for (const role of ['anon', 'authenticated']) {
			const failure = await db
				.transaction(async (tx) => {
					await tx.query(`set local role ${role}`)
					await tx.query('select * from app_private.rate_limits')
				})
				.then(
					() => null,
					(error: { code?: string }) => error,
				)
			expect(failure?.code, role).toBe('42501')
		}
	})
})
