import { randomBytes } from 'node:crypto'
import { getMigrations } from 'better-auth/db/migration'
import { Kysely, sql } from 'kysely'
import { expect, test } from 'vitest'
import { createLocalAuth } from '#app/modules/account/backends/better-auth/backend.server'
import { AppDatabaseDialect } from '#app/modules/account/backends/better-auth/kysely-dialect.server'
import { describeEachDatabase } from '#tests/support/databases'

/**
 * The Kysely dialect Better Auth runs on: the app's own Database (PGlite's
 * single serialised connection, or the node-postgres pool), with Kysely's
 * imperative transactions mapped onto Database.transaction.
 */

interface Tables {
	't': { n: number; label: string }
}

describeEachDatabase('Kysely dialect over the app database', (getDb) => {
	test('reports affected rows, commits and rolls back transactions', async () => {
		const db = getDb()
		await db.exec('create table public.t (n int primary key, label text not null)')
		const k = new Kysely<Tables>({ dialect: new AppDatabaseDialect(db) })

		const inserted = await k.insertInto('t').values([{ n: 1, label: 'a' }, { n: 2, label: 'b' }, { n: 3, label: 'c' }]).executeTakeFirst()
		expect(inserted.numInsertedOrUpdatedRows).toBe(3n)
		const updated = await k.updateTable('t').set({ label: 'z' }).where('n', '>=', 2).executeTakeFirst()
		expect(updated.numUpdatedRows).toBe(2n)
		expect(await k.selectFrom('t').select(['n', 'label']).orderBy('n').execute()).toEqual([
			{ n: 1, label: 'a' },
			{ n: 2, label: 'z' },
			{ n: 3, label: 'z' },
		])

		await k.transaction().execute(async (trx) => {
			await trx.insertInto('t').values({ n: 4, label: 'd' }).execute()
		})
		await expect(
			k.transaction().execute(async (trx) => {
				await trx.insertInto('t').values({ n: 5, label: 'e' }).execute()
				throw new Error('changed my mind')
			}),
		).rejects.toThrow('changed my mind')
		// A statement that fails inside the transaction rolls all of it back.
		await expect(
			k.transaction().execute(async (trx) => {
				await trx.insertInto('t').values({ n: 6, label: 'f' }).execute()
				await trx.insertInto('t').values({ n: 1, label: 'duplicate' }).execute()
			}),
		).rejects.toThrow()
		const deleted = await k.deleteFrom('t').where('n', '>', 0).executeTakeFirst()
		expect(deleted.numDeletedRows).toBe(4n)
	})

	test('other callers wait for an open transaction instead of running inside it', async () => {
		const db = getDb()
		await db.exec('create table public.t (n int primary key, label text not null)')
		const k = new Kysely<Tables>({ dialect: new AppDatabaseDialect(db) })
		let releaseTx!: () => void
		const txHolds = new Promise<void>((resolve) => {
			releaseTx = resolve
		})
		const tx = k.transaction().execute(async (trx) => {
			await trx.insertInto('t').values({ n: 1, label: 'inside' }).execute()
			await txHolds
			throw new Error('roll back')
		})
		// Give the transaction time to open and insert.
		await new Promise((resolve) => setTimeout(resolve, 50))
		const outside = db.query<{ n: number }>('select count(*)::int as n from public.t')
		releaseTx()
		await expect(tx).rejects.toThrow('roll back')
		// Never saw the uncommitted row, on either engine.
		expect((await outside).rows).toEqual([{ n: 0 }])
		expect((await sql<{ ok: number }>`select 1 as ok`.execute(k)).rows).toEqual([{ ok: 1 }])
	})

	test('the local shim creates exactly the tables and columns Better Auth expects', async () => {
		const db = getDb()
		const local = createLocalAuth(
			db,
			{ transport: 'smtp', send: async () => {} },
			{ appUrl: 'http://localhost:3000', secret: randomBytes(32).toString('base64url'), log: () => {} },
		)
		const plan = await getMigrations(local.betterAuth.options)
		expect(plan.toBeCreated).toEqual([])
		expect(plan.toBeAdded).toEqual([])
		expect(plan.schemaProblems).toEqual([])
		// And nothing of it is reachable by the API roles.
		const { rows } = await db.query<{ role: string; usage: boolean }>(
			`select r as role, has_schema_privilege(r, 'better_auth', 'usage') as usage
			 from unnest(array['anon', 'authenticated', 'service_role']) as r`,
		)
		expect(rows).toEqual([
			{ role: 'anon', usage: false },
			{ role: 'authenticated', usage: false },
			{ role: 'service_role', usage: false },
		])
	})
})
