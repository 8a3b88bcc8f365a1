import { expect, test } from 'vitest'
import type { Database } from '#app/db/database.server'
import { createAuthUser, describeEachDatabase } from './databases'

/**
 * Each test starts from the database as the migrations leave it, however the
 * one before it left it (tests/support/databases.ts): its rows and sequences
 * put back, and after a change to the schema the schema too. The tests run in
 * order within the file, each on what the one before did.
 */
async function state(db: Database) {
	const accounts = await db.query<{ kind: string }>('select kind from ledger.accounts order by id')
	const users = await db.query<{ n: number }>('select count(*)::int as n from auth.users')
	const extra = await db.query<{ n: number }>("select count(*)::int as n from pg_class where relname = 'left_behind'")
	return { accounts: accounts.rows.map((r) => r.kind), users: users.rows[0]!.n, extraTables: extra.rows[0]!.n }
}

const MIGRATED = { accounts: ['world', 'platform_fee', 'forfeit', 'payouts'], users: 0, extraTables: 0 }

describeEachDatabase('a test database between tests', (getDb) => {
	let firstAccountId: number

	test('the first test finds the migrations’ own rows, and adds rows of its own', async () => {
		const db = getDb()
		expect(await state(db)).toEqual(MIGRATED)
		await createAuthUser(db)
		await db.exec('delete from ledger.settings')
		firstAccountId = (await db.query<{ id: number }>('select max(id)::int as id from ledger.accounts')).rows[0]!.id
		expect((await state(db)).users).toBe(1)
	})

	test('the next finds them gone, the migrations’ rows back and the sequences where they were; it changes the schema', async () => {
		const db = getDb()
		expect(await state(db)).toEqual(MIGRATED)
		expect((await db.query('select 1 from ledger.settings')).rows).toHaveLength(1)
		await createAuthUser(db)
		// The new wallet takes the id the first test's wallet took: the sequence was set back.
		expect((await db.query<{ id: number }>('select max(id)::int as id from ledger.accounts')).rows[0]!.id).toBe(firstAccountId)
		await db.exec('create table public.left_behind (id int); grant select on public.left_behind to anon')
	})

	test('after a change to the schema, the schema is the migrations’ again', async () => {
		expect(await state(getDb())).toEqual(MIGRATED)
	})
})
