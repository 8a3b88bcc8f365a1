import { randomUUID } from 'node:crypto'
import { beforeEach, expect, test } from 'vitest'
import { asUser, type JwtClaims } from '#app/db/as-user.server'
import { toAppError, type Database } from '#app/db/database.server'
import { publishDocumentVersions } from '#app/db/published-documents.server'
import { claimsFor, createAuthUser, describeEachDatabase, rejectionOf } from '#tests/support/databases'
import { liveSession, participant } from '#tests/support/dares'
import { fundWallet, ledgerProblems } from '#tests/support/wallet'

const PERMISSION_DENIED = '42501'

/** A second factor in auth.mfa_factors, as Supabase Auth stores one. */
async function addFactor(db: Database, userId: string, status: 'verified' | 'unverified'): Promise<void> {
	await db.query(`insert into auth.mfa_factors (id, user_id, factor_type, status) values (gen_random_uuid(), $1, 'totp', $2)`, [
		userId,
		status,
	])
}

/** A Better Auth user, inserted as Better Auth does (owner connection); the shim's triggers mirror it into auth.*. */
async function createBetterAuthUser(db: Database, twoFactorEnabled = false): Promise<string> {
	const id = randomUUID()
	await db.query(
		`insert into better_auth."user" ("id", "name", "email", "emailVerified", "twoFactorEnabled")
		 values ($1, '', $2, true, $3)`,
		[id, `${id}@test.local`, twoFactorEnabled],
	)
	return id
}

async function factorsOf(db: Database, userId: string) {
	const { rows } = await db.query<{ factor_type: string; status: string }>(
		'select factor_type, status from auth.mfa_factors where user_id = $1',
		[userId],
	)
	return rows
}

const aal1 = (userId: string): JwtClaims => claimsFor(userId, { aal: 'aal1' })
const aal2 = (userId: string): JwtClaims => claimsFor(userId, { aal: 'aal2' })
/** An older token, or a hand-made one, that says nothing about the level: it counts as aal1. */
const noAal = (userId: string): JwtClaims => claimsFor(userId)

async function hasAssurance(db: Database, claims: JwtClaims): Promise<boolean> {
	const { rows } = await asUser(db, claims, (tx) => tx.query<{ ok: boolean }>('select app_private.has_assurance() as ok'))
	return rows[0]!.ok
}

/** Every write a user makes to their own data: create the profile, rename it, consent. */
async function writeOwnData(db: Database, claims: JwtClaims): Promise<{ created: boolean; renamed: boolean; consented: boolean }> {
	const userId = claims.sub
	const created = await asUser(db, claims, (tx) =>
		tx.query('insert into public.profiles (id, username) values ($1, $2)', [userId, `u${userId.slice(0, 8)}`]),
	).then(
		() => true,
		(error: { code?: string }) => {
			// Row-level security's WITH CHECK refuses the row.
			expect(error.code).toBe(PERMISSION_DENIED)
			return false
		},
	)
	// The profile exists either way for the next step (the owner creates it when the user could not).
	await db.query('insert into public.profiles (id, username) values ($1, $2) on conflict do nothing', [
		userId,
		`u${userId.slice(0, 8)}`,
	])
	const { rowCount } = await asUser(db, claims, (tx) =>
		tx.query(`update public.profiles set username = 'renamed_' || left(username, 8) where id = $1`, [userId]),
	)
	const consented = await asUser(db, claims, (tx) => tx.query(`select public.give_consent('terms_of_service', 'v1')`)).then(
		() => true,
		(error: unknown) => {
			expect(toAppError(error)?.code).toBe('error-aal2-required')
			return false
		},
	)
	return { created, renamed: rowCount === 1, consented }
}

describeEachDatabase('two-factor assurance in SQL', (getDb) => {
	beforeEach(async () => {
		await publishDocumentVersions(getDb(), { terms_of_service: 'v1', creator_agreement: 'v1' })
	})

	test('a user without a second factor writes their data with an aal1 token', async () => {
		const db = getDb()
		const user = await createAuthUser(db)
		expect(await writeOwnData(db, aal1(user))).toEqual({ created: true, renamed: true, consented: true })
	})

	test('a user with a verified factor cannot create or rename their profile or consent with an aal1 token', async () => {
		const db = getDb()
		const user = await createAuthUser(db)
		await addFactor(db, user, 'verified')
		expect(await writeOwnData(db, aal1(user))).toEqual({ created: false, renamed: false, consented: false })
		const { rows } = await db.query('select username from public.profiles where id = $1', [user])
		expect(rows).toEqual([{ username: `u${user.slice(0, 8)}` }])
		expect((await db.query('select * from public.consents')).rows).toEqual([])
	})

	test('a token without an aal claim counts as aal1', async () => {
		const db = getDb()
		const user = await createAuthUser(db)
		await addFactor(db, user, 'verified')
		expect(await writeOwnData(db, noAal(user))).toEqual({ created: false, renamed: false, consented: false })
	})

	test('the same user writes everything with an aal2 token', async () => {
		const db = getDb()
		const user = await createAuthUser(db)
		await addFactor(db, user, 'verified')
		expect(await writeOwnData(db, aal2(user))).toEqual({ created: true, renamed: true, consented: true })
	})

	test('an unverified factor (enrolment not finished) does not raise the level required', async () => {
		const db = getDb()
		const user = await createAuthUser(db)
		await addFactor(db, user, 'unverified')
		expect(await writeOwnData(db, aal1(user))).toEqual({ created: true, renamed: true, consented: true })
	})

	test("has_assurance answers from the caller's own factors, never another user's", async () => {
		const db = getDb()
		const guarded = await createAuthUser(db)
		const plain = await createAuthUser(db)
		const pending = await createAuthUser(db)
		await addFactor(db, guarded, 'verified')
		await addFactor(db, pending, 'unverified')
		expect({
			guardedAal1: await hasAssurance(db, aal1(guarded)),
			guardedNoAal: await hasAssurance(db, noAal(guarded)),
			guardedAal2: await hasAssurance(db, aal2(guarded)),
			plainAal1: await hasAssurance(db, aal1(plain)),
			pendingAal1: await hasAssurance(db, aal1(pending)),
		}).toEqual({ guardedAal1: false, guardedNoAal: false, guardedAal2: true, plainAal1: true, pendingAal1: true })
	})

	// Issue 24, finding 9: with a verified factor, an aal1 token still read the wallet, the transfers,
	// the purchases and the overlay's secret key.
	test("with a verified factor, an aal1 token reads none of the user's own data; an aal2 token reads all of it", async () => {
		const db = getDb()
		const user = await createAuthUser(db)
		await db.query('insert into public.profiles (id, username) values ($1, $2)', [user, `u${user.slice(0, 8)}`])
		await db.query(`insert into public.consents (user_id, kind, version) values ($1, 'terms_of_service', 'v1')`, [user])
		await fundWallet(db, user, 500)
		await db.query(`insert into public.creator_profiles (id, twitch_channel) values ($1, $2)`, [user, `c_${user.slice(0, 8)}`])
		const { rows } = await db.query<{ id: string }>(`insert into public.sessions (creator_id, title, platform, channel) values ($1, 'Live', 'twitch', $2) returning id`, [
			user,
			`c_${user.slice(0, 8)}`,
		])
		await addFactor(db, user, 'verified')
		const reads = (claims: JwtClaims) =>
			asUser(db, claims, async (tx) => {
				const count = async (sql: string, params: unknown[] = []) => (await tx.query(sql, params)).rows.length
				return {
					wallet: await count('select * from public.wallets'),
					transfers: await count('select * from public.wallet_transfers()'),
					purchases: await count('select * from public.purchase_history()'),
					profile: await count('select * from public.profiles'),
					consents: await count('select * from public.consents'),
					creatorProfile: await count('select * from public.creator_profiles'),
				}
			})
		expect(await reads(aal1(user))).toEqual({ wallet: 0, transfers: 0, purchases: 0, profile: 0, consents: 0, creatorProfile: 0 })
		expect(await reads(aal2(user))).toEqual({ wallet: 1, transfers: 1, purchases: 0, profile: 1, consents: 1, creatorProfile: 1 })
		// The overlay's key: refused, not empty.
		const refused = await rejectionOf(asUser(db, aal1(user), (tx) => tx.query('select public.overlay_key($1)', [rows[0]!.id])))
		expect(toAppError(refused)?.code).toBe('error-aal2-required')
		const key = await asUser(db, aal2(user), (tx) => tx.query<{ k: string }>('select public.overlay_key($1) as k', [rows[0]!.id]))
		expect(key.rows[0]!.k).toMatch(/^[0-9a-f]{64}$/)
	})

	test("with a verified factor, an aal1 token sees none of its own boosts and votes on a session's dares", async () => {
		const db = getDb()
		const session = await liveSession(db)
		const viewer = await participant(db, 1000)
		const dare = await asUser(db, claimsFor(viewer), async (tx) => {
			const { rows } = await tx.query<{ id: string }>('select id from public.create_dare($1, $2, 0, $3)', ['Sing a song', session.id, randomUUID()])
			await tx.query('select public.boost_dare($1, 50, $2)', [rows[0]!.id, randomUUID()])
			return rows[0]!.id
		})
		await addFactor(db, viewer, 'verified')
		const mine = async (claims: JwtClaims) =>
			asUser(db, claims, async (tx) => ({
				list: (await tx.query<{ my_boost: number }>('select my_boost from public.session_dares($1) where id = $2', [session.id, dare])).rows[0]!.my_boost,
				one: (await tx.query<{ my_boost: number }>('select my_boost from public.session_dare($1)', [dare])).rows[0]!.my_boost,
			}))
		expect(await mine(aal1(viewer))).toEqual({ list: 0, one: 0 })
		expect(await mine(aal2(viewer))).toEqual({ list: 50, one: 50 })
	})

	test('a visitor cannot call the assurance helpers, and a user cannot call assert_assurance directly', async () => {
		const db = getDb()
		const user = await createAuthUser(db)
		for (const fn of ['has_assurance', 'assert_assurance']) {
			const error = await rejectionOf(asUser(db, null, (tx) => tx.query(`select app_private.${fn}()`)))
			expect(error.code, fn).toBe(PERMISSION_DENIED)
		}
		const error = await rejectionOf(asUser(db, aal2(user), (tx) => tx.query('select app_private.assert_assurance()')))
		expect(error.code).toBe(PERMISSION_DENIED)
	})
})

describeEachDatabase('the Better Auth mirror of auth.mfa_factors', (getDb) => {
	test('turning two-factor on gives the user one verified TOTP factor; off removes it', async () => {
		const db = getDb()
		const user = await createBetterAuthUser(db)
		expect(await factorsOf(db, user)).toEqual([])

		await db.query(`update better_auth."user" set "twoFactorEnabled" = true where id = $1`, [user])
		expect(await factorsOf(db, user)).toEqual([{ factor_type: 'totp', status: 'verified' }])
		expect(await hasAssurance(db, aal1(user))).toBe(false)

		// Enabling twice (a repeated verification) keeps one factor.
		await db.query(`update better_auth."user" set "twoFactorEnabled" = true where id = $1`, [user])
		expect(await factorsOf(db, user)).toHaveLength(1)

		await db.query(`update better_auth."user" set "twoFactorEnabled" = false where id = $1`, [user])
		expect(await factorsOf(db, user)).toEqual([])
		expect(await hasAssurance(db, aal1(user))).toBe(true)

		await db.query(`update better_auth."user" set "twoFactorEnabled" = null where id = $1`, [user])
		expect(await factorsOf(db, user)).toEqual([])
	})

	test('a user created with two-factor on has the factor; deleting the user deletes it', async () => {
		const db = getDb()
		const user = await createBetterAuthUser(db, true)
		const other = await createBetterAuthUser(db, true)
		expect(await factorsOf(db, user)).toEqual([{ factor_type: 'totp', status: 'verified' }])

		await db.query(`delete from better_auth."user" where id = $1`, [user])
		expect(await factorsOf(db, user)).toEqual([])
		expect((await db.query('select id from auth.users where id = $1', [user])).rows).toEqual([])
		expect(await factorsOf(db, other)).toHaveLength(1)
	})
})

describeEachDatabase('published document versions', (getDb) => {
	test('publishing is idempotent and keeps the first publication time', async () => {
		const db = getDb()
		await publishDocumentVersions(db, { terms_of_service: '2026-11-01', creator_agreement: '2026-11-01' })
		const first = (await db.query('select * from public.published_documents order by kind')).rows
		expect(first).toHaveLength(2)
		await publishDocumentVersions(db, { terms_of_service: '2026-11-01', creator_agreement: '2026-11-01' })
		expect((await db.query('select * from public.published_documents order by kind')).rows).toEqual(first)
	})

	test('visitors and users read the published versions and nobody but the owner writes them', async () => {
		const db = getDb()
		const user = await createAuthUser(db)
		await publishDocumentVersions(db, { terms_of_service: 'v1', creator_agreement: 'v1' })
		for (const claims of [null, aal2(user)]) {
			const { rows } = await asUser(db, claims, (tx) => tx.query('select kind, version from public.published_documents order by kind'))
			expect(rows).toEqual([
				{ kind: 'creator_agreement', version: 'v1' },
				{ kind: 'terms_of_service', version: 'v1' },
			])
			for (const sql of [
				`insert into public.published_documents (kind, version) values ('terms_of_service', 'v9')`,
				`update public.published_documents set version = 'v9'`,
				`delete from public.published_documents`,
			]) {
				const error = await rejectionOf(asUser(db, claims, (tx) => tx.query(sql)))
				expect(error.code, sql).toBe(PERMISSION_DENIED)
			}
		}
	})

	test('a consent to a version that is published later is refused until then', async () => {
		const db = getDb()
		const user = await createAuthUser(db)
		const give = () => asUser(db, aal1(user), (tx) => tx.query(`select public.give_consent('terms_of_service', '2027-01-01')`))
		expect(toAppError(await rejectionOf(give()))?.code).toBe('error-invalid-consent-version')
		await publishDocumentVersions(db, { terms_of_service: '2027-01-01', creator_agreement: 'v1' })
		await give()
		expect((await db.query('select kind, version from public.consents')).rows).toEqual([
			{ kind: 'terms_of_service', version: '2027-01-01' },
		])
	})
})

describeEachDatabase('account deletion keeps coins', (getDb, kind) => {
	const walletOf = async (db: Database, id: string) =>
		(await db.query<{ balance: number }>('select balance from public.wallets where id = $1', [id])).rows
	const forfeited = async (db: Database) =>
		Number((await db.query<{ balance: string }>(`select balance from ledger.accounts where id = ledger.system_account('forfeit')`)).rows[0]!.balance)

	// The Money work turned the refusal into a forfeit (docs/product.md §10.10):
	// the coins leave through the ledger, never with the wallet row.
	test('deleting a funded account from auth.users forfeits its coins through the ledger', async () => {
		const db = getDb()
		const user = await createAuthUser(db)
		await fundWallet(db, user, 10)
		await db.query('delete from auth.users where id = $1', [user])
		expect(await walletOf(db, user)).toEqual([])
		expect(await forfeited(db)).toBe(10)
		expect(await ledgerProblems(db)).toEqual([])
	})

	test("deleting a funded account through Better Auth's user row forfeits the same way", async () => {
		const db = getDb()
		const user = await createBetterAuthUser(db)
		await fundWallet(db, user, 250)
		await db.query('delete from better_auth."user" where id = $1', [user])
		expect((await db.query('select id from better_auth."user" where id = $1', [user])).rows).toEqual([])
		expect(await walletOf(db, user)).toEqual([])
		expect(await forfeited(db)).toBe(250)
		expect(await ledgerProblems(db)).toEqual([])
	})

	test('an account with an empty wallet is deleted, directly or through Better Auth', async () => {
		const db = getDb()
		const direct = await createAuthUser(db)
		const viaBetterAuth = await createBetterAuthUser(db)
		await db.query('delete from auth.users where id = $1', [direct])
		await db.query('delete from better_auth."user" where id = $1', [viaBetterAuth])
		const { rows } = await db.query('select id from auth.users where id = any($1::uuid[])', [[direct, viaBetterAuth]])
		expect(rows).toEqual([])
		expect(await walletOf(db, direct)).toEqual([])
		expect(await walletOf(db, viaBetterAuth)).toEqual([])
	})

	test('no API role can fire the deletion check by hand', async () => {
		const db = getDb()
		const user = await createAuthUser(db)
		for (const claims of [null, aal2(user)]) {
			const error = await rejectionOf(asUser(db, claims, (tx) => tx.query('select app_private.before_user_delete()')))
			expect(error.code).toBe(PERMISSION_DENIED)
		}
	})

	if (kind === 'postgres') {
		// Two connections are needed, so this one is for the server only.
		test('a credit committed while the deletion waits is seen: it is forfeited too, never destroyed', async () => {
			const db = getDb()
			const user = await createAuthUser(db)
			let deletion: Promise<unknown> | undefined
			await db.transaction(async (credit) => {
				await credit.query(
					`select * from ledger.transfer(ledger.system_account('world'), ledger.wallet_account($1), 100, 'purchase', 'test', $2)`,
					[user, `test-credit:${randomUUID()}`],
				)
				deletion = db.query('delete from auth.users where id = $1', [user]).then(
					() => 'deleted',
					(error: unknown) => toAppError(error)?.code ?? error,
				)
				// Commit the credit only once the deletion is waiting for the wallet row.
				for (let i = 0; i < 200; i++) {
					const { rows } = await db.query<{ n: number }>(
						`select count(*)::int as n from pg_stat_activity
						 where datname = current_database() and wait_event_type = 'Lock' and query like 'delete from auth.users%'`,
					)
					if (rows[0]!.n > 0) return
					await new Promise((resolve) => setTimeout(resolve, 25))
				}
				throw new Error('the deletion never waited for the wallet row')
			})
			expect(await deletion).toBe('deleted')
			expect(await walletOf(db, user)).toEqual([])
			expect(await forfeited(db)).toBe(100)
			expect(await ledgerProblems(db)).toEqual([])
		})
	}
})
