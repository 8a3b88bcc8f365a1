import { expect, test } from 'vitest'
import { asServiceRole, asUser, statementsAsUser } from '#app/db/as-user.server'
import { createDatabase, DbError, inlineParameters, toAppError, type Database } from '#app/db/database.server'
import { claimsFor, connectionUrl, createAuthUser, describeEachDatabase, openConnection, rejectionOf } from '#tests/support/databases'

describeEachDatabase('database access layer', (getDb, kind) => {
	test('a transaction commits, or rolls back entirely when its function throws', async () => {
		const db = getDb()
		await db.exec('create table public.t (n int primary key)')
		await db.transaction(async (tx) => {
			await tx.query('insert into public.t values (1)')
		})
		await expect(
			db.transaction(async (tx) => {
				await tx.query('insert into public.t values (2)')
				throw new Error('boom')
			}),
		).rejects.toThrow('boom')
		expect((await db.query('select n from public.t')).rows).toEqual([{ n: 1 }])
	})

	test('a swallowed statement error still fails the transaction, and the connection stays usable', async () => {
		const db = getDb()
		await db.exec('create table public.t (n int primary key)')
		await expect(
			db.transaction(async (tx) => {
				await tx.query('insert into public.t values (1)')
				await tx.query('insert into public.t values (1)').catch(() => {})
				return 'looks fine'
			}),
		).rejects.toThrow()
		expect((await db.query('select count(*)::int as n from public.t')).rows).toEqual([{ n: 0 }])
		expect((await db.query('select 1 as ok')).rows).toEqual([{ ok: 1 }])
	})

	test('concurrent transactions do not interleave: one rolling back leaves the other committed', async () => {
		const db = getDb()
		await db.exec('create table public.t (n int)')
		const results = await Promise.allSettled(
			Array.from({ length: 6 }, (_, i) =>
				db.transaction(async (tx) => {
					await tx.query('insert into public.t values ($1)', [i])
					await new Promise((resolve) => setTimeout(resolve, 5))
					if (i % 2 === 1) throw new Error(`fail ${i}`)
				}),
			),
		)
		expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'rejected', 'fulfilled', 'rejected'])
		const { rows } = await db.query<{ n: number }>('select n from public.t order by n')
		expect(rows.map((r) => r.n)).toEqual([0, 2, 4])
	})

	test('exec() of SQL that opens its own transaction and fails leaves no aborted connection behind', async () => {
		const db = getDb()
		await expect(db.exec('begin; create table public.t (n int); select 1/0;')).rejects.toThrow()
		expect((await db.query('select 1 as ok')).rows).toEqual([{ ok: 1 }])
		expect((await db.query("select to_regclass('public.t') as t")).rows).toEqual([{ t: null }])
	})

	test('asUser sets role and claims for its transaction only', async () => {
		const db = getDb()
		const user = await createAuthUser(db)
		const owner = (await db.query<{ u: string }>('select current_user as u')).rows[0]?.u

		const inside = await asUser(db, claimsFor(user, { email: 'x@test.local', aal: 'aal2' }), async (tx) =>
			(
				await tx.query<{ role: string; uid: string; jwt_role: string; aal: string; email: string }>(
					"select current_user as role, auth.uid() as uid, auth.role() as jwt_role, auth.jwt() ->> 'aal' as aal, auth.email() as email",
				)
			).rows,
		)
		expect(inside).toEqual([{ role: 'authenticated', uid: user, jwt_role: 'authenticated', aal: 'aal2', email: 'x@test.local' }])

		const anon = await asUser(db, null, async (tx) =>
			(await tx.query('select current_user as role, auth.uid() as uid, auth.role() as jwt_role')).rows,
		)
		expect(anon).toEqual([{ role: 'anon', uid: null, jwt_role: 'anon' }])

		const service = await asServiceRole(db, async (tx) =>
			(await tx.query('select current_user as role, auth.role() as jwt_role')).rows,
		)
		expect(service).toEqual([{ role: 'service_role', jwt_role: 'service_role' }])

		// Nothing leaks to the next user of the connection, even after a failure.
		await asUser(db, claimsFor(user), (tx) => tx.query('select 1/0')).catch(() => {})
		await expectNoRoleLeft(db, owner)
	})

	test("asUser's claims reach the database as they are, whatever they hold (they travel as a literal with BEGIN)", async () => {
		const db = getDb()
		const user = await createAuthUser(db)
		// Quotes, backslashes, a statement break, a dollar quote and non-ASCII: none of it is SQL.
		const email = `o'neil\\'); set role service_role; select ('$$@tést.local`
		const claims = claimsFor(user, { email, note: "\\x27 ' \\' E'" })
		const { rows } = await asUser(db, claims, (tx) =>
			tx.query<{ role: string; claims: unknown }>("select current_user as role, current_setting('request.jwt.claims', true)::jsonb as claims"),
		)
		expect(rows).toEqual([{ role: 'authenticated', claims: JSON.parse(JSON.stringify(claims)) }])
	})

	test('statementsAsUser: each query its own transaction as the user, nothing left behind, a failure rolls the whole call back', async () => {
		const db = getDb()
		const user = await createAuthUser(db)
		const owner = (await db.query<{ u: string }>('select current_user as u')).rows[0]?.u
		await db.exec('create table public.t (n int primary key); grant insert, select on public.t to authenticated')
		const viewer = statementsAsUser(db, claimsFor(user, { aal: 'aal1' }))
		expect((await viewer.query('select current_user as role, auth.uid() as uid, auth.jwt() ->> $1 as aal', ['aal'])).rows).toEqual([
			{ role: 'authenticated', uid: user, aal: 'aal1' },
		])
		expect((await statementsAsUser(db, null).query('select current_user as role, auth.uid() as uid')).rows).toEqual([{ role: 'anon', uid: null }])

		// Committed on its own.
		await viewer.query('insert into public.t values ($1)', [1])
		// A statement that fails after writing leaves nothing, and the next call works.
		const failed = await rejectionOf(viewer.query('with added as (insert into public.t values ($1) returning n) select n / 0 from added', [2]))
		expect(failed.message).toMatch(/division by zero/)
		expect((await viewer.query('select n from public.t order by n')).rows).toEqual([{ n: 1 }])
		// Refused by the database: the same (duplicate key), and still nothing leaks to the connection's next user.
		await expect(viewer.query('insert into public.t values ($1)', [1])).rejects.toThrow()
		await expectNoRoleLeft(db, owner)
	})

	test('statementsAsUser: values written into the statement arrive as they are, never as SQL', async () => {
		const db = getDb()
		const user = await createAuthUser(db)
		const viewer = statementsAsUser(db, claimsFor(user))
		const hostile = `o'neil\\'); set role service_role; select ('$$ \\x27 E'' $1 tést`
		const { rows } = await viewer.query<{ text: string; minus: number; flag: boolean; nothing: null; role: string }>(
			'select $1::text as text, 1-$2::int as minus, $3::boolean as flag, $4::text as nothing, current_user as role',
			[hostile, -5, false, null],
		)
		// 1-$2 with $2 = -5 would be "1--5" (a comment) if the number were not quoted.
		expect(rows).toEqual([{ text: hostile, minus: 6, flag: false, nothing: null, role: 'authenticated' }])
		expect(() => inlineParameters('select $1', ['a\0b'])).toThrow(RangeError)
		expect(() => inlineParameters('select $2', ['a'])).toThrow(RangeError)
		expect(() => inlineParameters('select $1', [Number.NaN])).toThrow(RangeError)
		expect(() => inlineParameters('select $1', [{}])).toThrow(TypeError)
	})

	test('a statement the server refuses keeps its connection: the next one runs on the same backend', async () => {
		const db = getDb()
		const pid = async () => (await db.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid
		const before = await pid()
		await expect(db.query('select 1 / 0')).rejects.toThrow(/division by zero/)
		await expect(db.statement('select 1 / $1::int', [0])).rejects.toThrow(/division by zero/)
		expect(await pid()).toBe(before)
	})

	if (kind === 'postgres') {
		test('a connection lost mid-call fails that call only: the process lives on and the caller waiting for the pool gets a good connection', async () => {
			const db = getDb()
			// One connection: the waiting caller gets exactly the one the lost call had.
			const one = await createDatabase({ url: await connectionUrl(db), poolSize: 1 })
			const admin = await openConnection(db)
			admin.on('error', () => {})
			const sleepers = `select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and query like '%pg_sleep(%' and state = 'active'`
			const calls: Array<[string, (db: Database) => Promise<unknown>]> = [
				['query', (d) => d.query('select pg_sleep(30)')],
				['statement', (d) => d.statement('select pg_sleep($1)', [30])],
				['transaction', (d) => d.transaction((tx) => tx.query('select pg_sleep(30)'))],
			]
			try {
				for (const [name, call] of calls) {
					const lost = rejectionOf(call(one))
					const waiting = one.query<{ ok: number }>('select 1 as ok')
					await expect.poll(async () => (await admin.query(sleepers)).rowCount, { message: name }).toBe(1)
					// The server ends the backend (an operator, a failover): a FATAL error, then the socket closes.
					await admin.query(`select pg_terminate_backend(pid) from (${sleepers}) s`)
					expect((await lost).message, name).toMatch(/terminat/i)
					expect((await waiting).rows, name).toEqual([{ ok: 1 }])
				}
				// A transaction block left open by a failed statement is not handed on.
				await expect(one.query('begin; select 1 / 0')).rejects.toThrow(/division by zero/)
				expect((await one.query<{ ok: number }>('select 1 as ok')).rows).toEqual([{ ok: 1 }])
			} finally {
				await one.close()
				await admin.end()
			}
		})
	}

	test('asUser refuses malformed claims before touching the database', async () => {
		const db = getDb()
		await expect(asUser(db, { sub: 'not-a-uuid', role: 'authenticated' }, async () => null)).rejects.toThrow(TypeError)
		await expect(
			asUser(db, { sub: '00000000-0000-4000-8000-000000000000', role: 'service_role' as 'authenticated' }, async () => null),
		).rejects.toThrow(TypeError)
	})

	test('int8 comes back as a number on both engines, and refuses to lose precision', async () => {
		const db = getDb()
		const { rows } = await db.query('select 2500::int8 as coins, array[1, 2]::int8[] as list, count(*) as n from (values (1)) v(x)')
		expect(rows).toEqual([{ coins: 2500, list: [1, 2], n: 1 }])
		await expect(db.query('select 9007199254740993::int8 as too_big')).rejects.toThrow(RangeError)
	})

	test('toAppError keeps error- codes and known constraint violations, and nothing else', async () => {
		const db = getDb()
		const raised = await rejectionOf(db.query("do $$ begin raise exception 'error-session-not-active'; end $$"))
		const mapped = toAppError(raised)
		expect(mapped).toBeInstanceOf(DbError)
		expect(mapped?.code).toBe('error-session-not-active')

		const a = await createAuthUser(db)
		const b = await createAuthUser(db)
		await db.query(`insert into public.profiles (id, username) values ($1, 'same')`, [a])
		const duplicate = await rejectionOf(db.query(`insert into public.profiles (id, username) values ($1, 'same')`, [b]))
		expect(toAppError(duplicate)?.code).toBe('error-username-taken')
		const invalid = await rejectionOf(db.query(`insert into public.profiles (id, username) values ($1, 'No Way')`, [b]))
		expect(toAppError(invalid)?.code).toBe('error-invalid-username')

		expect(toAppError(await rejectionOf(db.query('select 1/0')))).toBeNull()
		expect(toAppError(await rejectionOf(db.query("do $$ begin raise exception 'error-Bad Format!'; end $$")))).toBeNull()
		expect(toAppError(new Error('error-looks-like-one'))).toBeNull()
		expect(toAppError('error-string')).toBeNull()
	})
})

/** Every pooled connection (four, the pool's size) is back to the owner, with no claims set. */
async function expectNoRoleLeft(db: Database, owner: string | undefined) {
	for (let i = 0; i < 4; i++) {
		const { rows } = await db.query("select current_user as role, auth.uid() as uid, current_setting('request.jwt.claims', true) as claims")
		expect(rows).toEqual([{ role: owner, uid: null, claims: expect.toSatisfy((v: unknown) => v === null || v === '') }])
	}
}
