import { expect, test } from 'vitest'
import { asServiceRole, asUser } from '#app/db/as-user.server'
import type { Database } from '#app/db/database.server'
import { claimsFor, createAuthUser, describeEachDatabase, rejectionOf } from '#tests/support/databases'
import { fundWallet, spendAll } from '#tests/support/wallet'

const PERMISSION_DENIED = '42501'

/** Two accounts with profiles, A a creator with a session and a consent; B's data is what A must not reach. */
async function twoUsers(db: Database) {
	const a = await createAuthUser(db, 'a@test.local')
	const b = await createAuthUser(db, 'b@test.local')
	await db.query(`insert into public.profiles (id, username) values ($1, 'user_a'), ($2, 'user_b')`, [a, b])
	await db.query(
		`insert into public.creator_profiles (id, twitch_channel) values ($1, 'chan_a'), ($2, 'chan_b')`,
		[a, b],
	)
	await db.query(
		`insert into public.consents (user_id, kind, version) values ($1, 'terms_of_service', 'v1'), ($2, 'terms_of_service', 'v1')`,
		[a, b],
	)
	await fundWallet(db, a, 500)
	await fundWallet(db, b, 500)
	await db.query(
		`insert into public.sessions (creator_id, title, platform, channel) values ($1, 'Live with A', 'twitch', 'chan_a')`,
		[a],
	)
	return { a, b }
}

describeEachDatabase('row-level security', (getDb) => {
	test("a new account's wallet is created by the trigger with balance 0", async () => {
		const db = getDb()
		const id = await createAuthUser(db)
		const { rows } = await db.query<{ balance: number }>('select balance from public.wallets where id = $1', [id])
		expect(rows).toEqual([{ balance: 0 }])
	})

	test('a user reads their own wallet, profile, creator profile and consents, and nothing of another user', async () => {
		const db = getDb()
		const { a, b } = await twoUsers(db)
		await asUser(db, claimsFor(a), async (tx) => {
			expect((await tx.query('select id, balance from public.wallets')).rows).toEqual([{ id: a, balance: 500 }])
			expect((await tx.query('select id, username from public.profiles')).rows).toEqual([{ id: a, username: 'user_a' }])
			expect((await tx.query('select id from public.creator_profiles')).rows).toEqual([{ id: a }])
			expect((await tx.query('select user_id from public.consents')).rows).toEqual([{ user_id: a }])

			for (const table of ['wallets', 'profiles', 'creator_profiles']) {
				const { rows } = await tx.query(`select * from public.${table} where id = $1`, [b])
				expect(rows, table).toEqual([])
			}
			expect((await tx.query('select * from public.consents where user_id = $1', [b])).rows).toEqual([])
		})
	})

	test('a user cannot change any wallet, not even their own', async () => {
		const db = getDb()
		const { a, b } = await twoUsers(db)
		for (const target of [a, b]) {
			const error = await rejectionOf(
				asUser(db, claimsFor(a), (tx) => tx.query('update public.wallets set balance = balance + 1000 where id = $1', [target])),
			)
			expect(error.code).toBe(PERMISSION_DENIED)
		}
		const insert = await rejectionOf(
			asUser(db, claimsFor(a), (tx) => tx.query('insert into public.wallets (id, balance) values ($1, 1000000)', [a])),
		)
		expect(insert.code).toBe(PERMISSION_DENIED)
		const remove = await rejectionOf(asUser(db, claimsFor(a), (tx) => tx.query('delete from public.wallets')))
		expect(remove.code).toBe(PERMISSION_DENIED)

		const { rows } = await db.query('select balance from public.wallets where id in ($1, $2)', [a, b])
		expect(rows).toEqual([{ balance: 500 }, { balance: 500 }])
	})

	test('a user creates and renames only their own profile', async () => {
		const db = getDb()
		const a = await createAuthUser(db)
		const b = await createAuthUser(db)

		const forB = await rejectionOf(
			asUser(db, claimsFor(a), (tx) => tx.query(`insert into public.profiles (id, username) values ($1, 'not_mine')`, [b])),
		)
		expect(forB.code).toBe(PERMISSION_DENIED)
		expect(forB.message).toMatch(/row-level security/)

		await asUser(db, claimsFor(a), (tx) => tx.query(`insert into public.profiles (id, username) values ($1, 'alpha')`, [a]))
		await asUser(db, claimsFor(b), (tx) => tx.query(`insert into public.profiles (id, username) values ($1, 'beta')`, [b]))

		// Renaming: own row only; another user's row is invisible to the update.
		await asUser(db, claimsFor(a), async (tx) => {
			await tx.query(`update public.profiles set username = 'alpha2' where id = $1`, [a])
			const { rows } = await tx.query(`update public.profiles set username = 'stolen' where id = $1 returning id`, [b])
			expect(rows).toEqual([])
		})
		const { rows } = await db.query('select username from public.profiles order by username')
		expect(rows).toEqual([{ username: 'alpha2' }, { username: 'beta' }])

		// The id and timestamps are not the user's to set.
		const moveId = await rejectionOf(
			asUser(db, claimsFor(a), (tx) => tx.query('update public.profiles set id = $1 where id = $2', [b, a])),
		)
		expect(moveId.code).toBe(PERMISSION_DENIED)
		const backdate = await rejectionOf(
			asUser(db, claimsFor(a), (tx) => tx.query(`update public.profiles set created_at = '2000-01-01' where id = $1`, [a])),
		)
		expect(backdate.code).toBe(PERMISSION_DENIED)
		const remove = await rejectionOf(asUser(db, claimsFor(a), (tx) => tx.query('delete from public.profiles')))
		expect(remove.code).toBe(PERMISSION_DENIED)
	})

	test('usernames are unique and follow the rule, for every writer', async () => {
		const db = getDb()
		const a = await createAuthUser(db)
		const b = await createAuthUser(db)
		await db.query(`insert into public.profiles (id, username) values ($1, 'taken')`, [a])
		const dup = await rejectionOf(
			asUser(db, claimsFor(b), (tx) => tx.query(`insert into public.profiles (id, username) values ($1, 'taken')`, [b])),
		)
		expect(dup.code).toBe('23505')
		for (const bad of ['Taken', '', 'has space', 'a'.repeat(31), 'émile', 'dash-ed']) {
			const error = await rejectionOf(db.query('insert into public.profiles (id, username) values ($1, $2)', [b, bad]))
			expect(error.code, bad).toBe('23514')
		}
	})

	test('visitors read no wallet, profile, creator profile or consent', async () => {
		const db = getDb()
		await twoUsers(db)
		for (const table of ['wallets', 'profiles', 'creator_profiles', 'consents']) {
			const error = await rejectionOf(asUser(db, null, (tx) => tx.query(`select * from public.${table}`)))
			expect(error.code, table).toBe(PERMISSION_DENIED)
		}
	})

	test('nobody but the auth layer reads or writes auth.users', async () => {
		const db = getDb()
		const { a } = await twoUsers(db)
		for (const claims of [null, claimsFor(a)]) {
			const error = await rejectionOf(asUser(db, claims, (tx) => tx.query('select id from auth.users')))
			expect(error.code).toBe(PERMISSION_DENIED)
		}
	})

	test('creator profiles and consents cannot be written by their owner', async () => {
		const db = getDb()
		const { a } = await twoUsers(db)
		const statements = [
			`update public.creator_profiles set twitch_channel = 'someone_famous' where id = $1`,
			`insert into public.consents (user_id, kind, version) values ($1, 'creator_agreement', 'v1')`,
			`delete from public.consents where user_id = $1`,
		]
		for (const sql of statements) {
			const error = await rejectionOf(asUser(db, claimsFor(a), (tx) => tx.query(sql, [a])))
			expect(error.code, sql).toBe(PERMISSION_DENIED)
		}
	})

	test('sessions and public profiles are readable by everyone, and only readable', async () => {
		const db = getDb()
		const { a, b } = await twoUsers(db)
		for (const claims of [null, claimsFor(b)]) {
			await asUser(db, claims, async (tx) => {
				const sessions = await tx.query<{ creator_id: string }>('select creator_id from public.sessions')
				expect(sessions.rows).toEqual([{ creator_id: a }])
				const names = await tx.query('select * from public.public_profiles order by username')
				expect(names.rows).toEqual([
					{ id: a, username: 'user_a' },
					{ id: b, username: 'user_b' },
				])
			})
			for (const sql of [
				`update public.public_profiles set username = 'hijacked'`,
				`update public.sessions set title = 'hijacked'`,
				`insert into public.sessions (creator_id, title, platform, channel) values ('${a}', 'x', 'kick', 'x')`,
			]) {
				const error = await rejectionOf(asUser(db, claims, (tx) => tx.query(sql)))
				expect(error.code, sql).toBe(PERMISSION_DENIED)
			}
		}
	})

	test('service role reads every row (named privileged work)', async () => {
		const db = getDb()
		await twoUsers(db)
		const { rows } = await asServiceRole(db, (tx) => tx.query('select id from public.wallets'))
		expect(rows).toHaveLength(2)
	})

	test('a balance can never go negative', async () => {
		const db = getDb()
		const { a } = await twoUsers(db)
		const error = await rejectionOf(db.query('update public.wallets set balance = balance - 501 where id = $1', [a]))
		expect(error.code).toBe('23514')
		expect(error.constraint).toBe('wallets_balance_not_negative')
	})

	test("deleting an account with an empty wallet removes the user's rows", async () => {
		const db = getDb()
		const { a, b } = await twoUsers(db)
		await spendAll(db, a)
		await db.query('delete from auth.users where id = $1', [a])
		for (const [table, column] of [
			['wallets', 'id'],
			['profiles', 'id'],
			['creator_profiles', 'id'],
			['consents', 'user_id'],
			['sessions', 'creator_id'],
		] as const) {
			const { rows } = await db.query<{ owner: string }>(`select ${column} as owner from public.${table}`)
			expect(rows.map((r) => r.owner), table).not.toContain(a)
		}
		expect((await db.query('select id from public.wallets')).rows).toEqual([{ id: b }])
	})
})
