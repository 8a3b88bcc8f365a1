import { randomUUID } from 'node:crypto'
import type pg from 'pg'
import { expect, test } from 'vitest'
import { asUser, type JwtClaims } from '#app/db/as-user.server'
import type { Database, Queryable } from '#app/db/database.server'
import { toAppError } from '#app/db/database.server'
import { publishDocumentVersions } from '#app/db/published-documents.server'
import { startDareSweeper } from '#app/modules/dares/sweeper.server'
import { claimsFor, createAuthUser, describeEachDatabase, errorOf, openConnection, rejectionOf } from '#tests/support/databases'
import { liveSession, participant, type Session } from '#tests/support/dares'
import { fundWallet, ledgerProblems } from '#tests/support/wallet'
import { DARE_LIMITS } from '#app/modules/dares/limits'

/**
 * The dares' rules (docs/product.md §6) as the database enforces them, called
 * as the API roles call them: every case runs the public functions as an
 * `authenticated` user with that user's claims, and checks after each that
 * the ledger holds (ledger.check() has no row) and who got which coins.
 */

const key = () => randomUUID()

function as<T>(db: Database, userId: string | null, fn: (tx: Queryable) => Promise<T>, claims?: JwtClaims): Promise<T> {
	return asUser(db, claims ?? (userId ? claimsFor(userId) : null), fn)
}

async function createDare(db: Database, userId: string, sessionId: string, reward: number, k = key(), description = 'Sing the chorus backwards') {
	return as(db, userId, async (tx) => {
		const { rows } = await tx.query<{ id: string; status: string }>('select id, status from public.create_dare($1, $2, $3, $4)', [description, sessionId, reward, k])
		return rows[0]!
	})
}

async function boost(db: Database, userId: string, dareId: string, amount: number, k = key()) {
	await as(db, userId, (tx) => tx.query('select 1 from public.boost_dare($1, $2, $3)', [dareId, amount, k]))
}

async function creatorDoes(db: Database, creator: string, fn: 'accept_dare' | 'reject_dare' | 'start_voting', dareId: string) {
	return as(db, creator, async (tx) => (await tx.query<{ status: string }>(`select status from public.${fn}($1)`, [dareId])).rows[0]!.status)
}

async function vote(db: Database, userId: string, dareId: string, yes: boolean) {
	await as(db, userId, (tx) => tx.query('select 1 from public.vote_for_dare($1, $2)', [dareId, yes]))
}

async function balance(db: Queryable, userId: string): Promise<number> {
	const { rows } = await db.query<{ balance: number }>('select balance from public.wallets where id = $1', [userId])
	return Number(rows[0]?.balance ?? NaN)
}

async function pot(db: Queryable, dareId: string): Promise<number> {
	const { rows } = await db.query<{ balance: string }>(`select balance from ledger.accounts where kind = 'pot' and dare_id = $1`, [dareId])
	return Number(rows[0]?.balance ?? 0)
}

async function statusOf(db: Queryable, dareId: string): Promise<string> {
	return (await db.query<{ status: string }>('select status from public.dares where id = $1', [dareId])).rows[0]!.status
}


/** The creator accepts the dare and starts its vote. */
async function startVote(db: Database, session: Session, dareId: string) {
	await creatorDoes(db, session.creator, 'accept_dare', dareId)
	await creatorDoes(db, session.creator, 'start_voting', dareId)
}

/** A viewer's dare of `reward` coins whose vote has already ended (its deadline passed). */
async function dareWithEndedVote(db: Database, session: Session, viewer: string, reward = 200) {
	const dare = await createDare(db, viewer, session.id, reward)
	await startVote(db, session, dare.id)
	await endVote(db, dare.id)
	return dare
}

/** Ends the running vote of a dare now (the deadline is a row's value). */
async function endVote(db: Queryable, dareId: string) {
	await db.query(`update public.dares set voting_ends_at = now() - interval '1 second' where id = $1`, [dareId])
}

describeEachDatabase('dares', (getDb, kind) => {
	const setUp = async () => {
		const db = getDb()
		await publishDocumentVersions(db, { terms_of_service: 'v1', creator_agreement: 'v1' })
		return db
	}

	test('a viewer creates a paid dare: the reward moves from the wallet to the pot as its first boost', async () => {
		const db = await setUp()
		const session = await liveSession(db, { min_boost: 50 })
		const viewer = await participant(db, 500)
		const dare = await createDare(db, viewer, session.id, 200)
		expect(dare.status).toBe('open')
		expect(await balance(db, viewer)).toBe(300)
		expect(await pot(db, dare.id)).toBe(200)
		expect(await ledgerProblems(db)).toEqual([])
	})

	test('free dares: the reward may be 0 while fewer than maxFreeDaresPerUser exist; then at least minBoost', async () => {
		const db = await setUp()
		const session = await liveSession(db, { min_boost: 100, max_free_dares_per_user: 1, max_dares_per_user: 3 })
		const viewer = await participant(db, 1000)
		await createDare(db, viewer, session.id, 0)
		expect(await errorOf(createDare(db, viewer, session.id, 0))).toBe('error-free-dares-used')
		// A reward above 0 is at least the minimum, and a whole multiple of 10.
		expect(await errorOf(createDare(db, viewer, session.id, 90))).toBe('error-reward-too-low')
		expect(await errorOf(createDare(db, viewer, session.id, 105))).toBe('error-invalid-reward')
		expect(await errorOf(createDare(db, viewer, session.id, -10))).toBe('error-invalid-reward')
		expect(await errorOf(createDare(db, viewer, session.id, DARE_LIMITS.reward.max + DARE_LIMITS.reward.step))).toBe('error-invalid-reward')
		await createDare(db, viewer, session.id, 100)
		expect(await balance(db, viewer)).toBe(900)
		expect(await ledgerProblems(db)).toEqual([])
	})

	test('maxDaresPerUser counts every dare of the user in the session, whatever its state', async () => {
		const db = await setUp()
		const session = await liveSession(db, { max_dares_per_user: 2, max_free_dares_per_user: 2 })
		const viewer = await participant(db)
		const first = await createDare(db, viewer, session.id, 0)
		await creatorDoes(db, session.creator, 'reject_dare', first.id)
		await createDare(db, viewer, session.id, 0)
		expect(await errorOf(createDare(db, viewer, session.id, 0))).toBe('error-dare-limit-reached')
		// Another viewer has their own count.
		await createDare(db, await participant(db), session.id, 0)
	})

	test('descriptions: 3 to 280 characters after trimming, no control characters', async () => {
		const db = await setUp()
		const session = await liveSession(db, { max_dares_per_user: 10, max_free_dares_per_user: 10 })
		const viewer = await participant(db)
		expect(await errorOf(createDare(db, viewer, session.id, 0, key(), '  ab  '))).toBe('error-dare-description-too-short')
		expect(await errorOf(createDare(db, viewer, session.id, 0, key(), 'x'.repeat(281)))).toBe('error-dare-description-too-long')
		expect(await errorOf(createDare(db, viewer, session.id, 0, key(), 'bell\u0007ring'))).toBe('error-dare-description-invalid')
		expect(await errorOf(createDare(db, viewer, session.id, 0, key(), 'line\nbreak'))).toBe('error-dare-description-invalid')
		await createDare(db, viewer, session.id, 0, key(), `  ${'y'.repeat(280)}  `)
		const { rows } = await db.query<{ description: string }>('select description from public.dares where session_id = $1', [session.id])
		expect(rows).toEqual([{ description: 'y'.repeat(280) }])
	})

	test('the creator cannot dare, boost or vote in their own session; nobody can after it stopped', async () => {
		const db = await setUp()
		const session = await liveSession(db)
		await fundWallet(db, session.creator, 1000)
		expect(await errorOf(createDare(db, session.creator, session.id, 0))).toBe('error-own-session')
		const viewer = await participant(db, 1000)
		const dare = await createDare(db, viewer, session.id, 200)
		expect(await errorOf(boost(db, session.creator, dare.id, 50))).toBe('error-own-session')

		await as(db, session.creator, (tx) => tx.query('select public.stop_active_session()'))
		expect(await statusOf(db, dare.id)).toBe('expired')
		// Stopping refunded the open dare.
		expect(await balance(db, viewer)).toBe(1000)
		expect(await pot(db, dare.id)).toBe(0)
		expect(await errorOf(createDare(db, viewer, session.id, 0))).toBe('error-session-not-active')
		expect(await errorOf(boost(db, viewer, dare.id, 50))).toBe('error-session-not-active')
		expect(await ledgerProblems(db)).toEqual([])
	})

	test('boosts: at least 10, multiples of 10, not above the balance; open or accepted dares only', async () => {
		const db = await setUp()
		const session = await liveSession(db)
		const author = await participant(db)
		const booster = await participant(db, 100)
		const dare = await createDare(db, author, session.id, 0)
		for (const bad of [0, 5, 15, -10, DARE_LIMITS.boost.max + DARE_LIMITS.boost.step]) {
			expect(await errorOf(boost(db, booster, dare.id, bad)), String(bad)).toBe('error-invalid-amount')
		}
		expect(await errorOf(boost(db, booster, dare.id, 110))).toBe('error-insufficient-funds')
		await boost(db, booster, dare.id, 10)
		await creatorDoes(db, session.creator, 'accept_dare', dare.id)
		await boost(db, booster, dare.id, 90)
		expect(await balance(db, booster)).toBe(0)
		expect(await pot(db, dare.id)).toBe(100)
		await fundWallet(db, booster, 100)
		await creatorDoes(db, session.creator, 'start_voting', dare.id)
		expect(await errorOf(boost(db, booster, dare.id, 10))).toBe('error-dare-not-boostable')
		expect(await ledgerProblems(db)).toEqual([])
	})

	test('a repeated request (same key) returns the first result and moves nothing; a key reused for something else is refused', async () => {
		const db = await setUp()
		const session = await liveSession(db)
		const viewer = await participant(db, 1000)
		const k = key()
		const first = await createDare(db, viewer, session.id, 200, k)
		const again = await createDare(db, viewer, session.id, 200, k)
		expect(again.id).toBe(first.id)
		expect(await balance(db, viewer)).toBe(800)
		const b = key()
		await boost(db, viewer, first.id, 100, b)
		await boost(db, viewer, first.id, 100, b)
		expect(await balance(db, viewer)).toBe(700)
		expect(await errorOf(boost(db, viewer, first.id, 200, b))).toBe('error-idempotency-key-reused')
		// Another user cannot replay someone's key to learn or move anything.
		const other = await participant(db, 1000)
		expect(await errorOf(boost(db, other, first.id, 100, b))).toBe('error-idempotency-key-reused')
		expect(await balance(db, other)).toBe(1000)
		expect(await ledgerProblems(db)).toEqual([])
	})

	test('only the session creator accepts, rejects and starts voting, each from the right state', async () => {
		const db = await setUp()
		const session = await liveSession(db)
		const viewer = await participant(db, 1000)
		const dare = await createDare(db, viewer, session.id, 200)
		expect(await errorOf(creatorDoes(db, viewer, 'accept_dare', dare.id))).toBe('error-not-session-creator')
		expect(await errorOf(creatorDoes(db, session.creator, 'start_voting', dare.id))).toBe('error-dare-not-accepted')
		expect(await creatorDoes(db, session.creator, 'accept_dare', dare.id)).toBe('accepted')
		expect(await errorOf(creatorDoes(db, session.creator, 'accept_dare', dare.id))).toBe('error-dare-not-open')
		expect(await errorOf(creatorDoes(db, session.creator, 'accept_dare', randomUUID()))).toBe('error-dare-not-found')
		expect(await creatorDoes(db, session.creator, 'reject_dare', dare.id)).toBe('rejected')
		expect(await balance(db, viewer)).toBe(1000)
		expect(await errorOf(creatorDoes(db, session.creator, 'reject_dare', dare.id))).toBe('error-dare-not-rejectable')
		expect(await ledgerProblems(db)).toEqual([])
	})

	test('the creator’s reject and stop refund boosts, so they take a key: the same key again returns the first result and refunds nothing more', async () => {
		const db = await setUp()
		const session = await liveSession(db)
		const viewer = await participant(db, 1000)
		const dare = await createDare(db, viewer, session.id, 200)
		const other = await createDare(db, viewer, session.id, 300)
		const reject = (userId: string, dareId: string, k: string | null) =>
			as(db, userId, async (tx) => (await tx.query<{ id: string; status: string }>('select id, status from public.reject_dare($1, $2)', [dareId, k])).rows[0]!)
		const r = key()
		expect(await reject(session.creator, dare.id, r)).toEqual({ id: dare.id, status: 'rejected' })
		// A double click, a resent form, a retry after a 502: the first result, no second refund.
		expect(await reject(session.creator, dare.id, r)).toEqual({ id: dare.id, status: 'rejected' })
		expect(await balance(db, viewer)).toBe(700)
		// The key is the creator's for that dare: not for another dare, nor for anyone else.
		expect(await errorOf(reject(session.creator, other.id, r))).toBe('error-idempotency-key-reused')
		expect(await errorOf(reject(viewer, dare.id, r))).toBe('error-idempotency-key-reused')
		expect(await errorOf(reject(session.creator, dare.id, 'short'))).toBe('error-invalid-idempotency-key')
		// Another key, or none (the call without one, docs/product.md §8.6), is a new request: the dare is no longer rejectable.
		expect(await errorOf(reject(session.creator, dare.id, key()))).toBe('error-dare-not-rejectable')
		expect(await errorOf(reject(session.creator, dare.id, null))).toBe('error-dare-not-rejectable')
		expect(await statusOf(db, other.id)).toBe('open')

		const stop = (k: string | null) =>
			as(db, session.creator, async (tx) => (await tx.query<{ id: string; status: string }>('select id, status from public.stop_active_session($1)', [k])).rows[0]!)
		const s = key()
		expect(await stop(s)).toEqual({ id: session.id, status: 'ended' })
		expect(await balance(db, viewer)).toBe(1000)
		expect(await stop(s)).toEqual({ id: session.id, status: 'ended' })
		expect(await balance(db, viewer)).toBe(1000)
		// Another key is a new request, refused as one without a key is; a reject's key is no stop's.
		const refusal = await errorOf(stop(null))
		expect(refusal).toMatch(/^error-no/)
		expect(await errorOf(stop(key()))).toBe(refusal)
		expect(await errorOf(stop(r))).toBe(refusal)
		const someone = await participant(db)
		expect(await errorOf(as(db, someone, (tx) => tx.query('select public.stop_active_session($1)', [s])))).toBe('error-idempotency-key-reused')
		expect(await ledgerProblems(db)).toEqual([])
	})

	test('one vote at a time per session', async () => {
		const db = await setUp()
		const session = await liveSession(db, { max_free_dares_per_user: 2, max_dares_per_user: 2 })
		const viewer = await participant(db)
		const a = await createDare(db, viewer, session.id, 0)
		const b = await createDare(db, viewer, session.id, 0)
		await creatorDoes(db, session.creator, 'accept_dare', a.id)
		await creatorDoes(db, session.creator, 'accept_dare', b.id)
		expect(await creatorDoes(db, session.creator, 'start_voting', a.id)).toBe('voting')
		expect(await errorOf(creatorDoes(db, session.creator, 'start_voting', b.id))).toBe('error-vote-in-progress')
		// Once the first vote has ended (resolved on the way), the next may start.
		await endVote(db, a.id)
		expect(await creatorDoes(db, session.creator, 'start_voting', b.id)).toBe('voting')
		expect(await statusOf(db, a.id)).toBe('completed')
	})

	test('votes: one per user, changeable until the end; the creator may not vote; none after the end', async () => {
		const db = await setUp()
		const session = await liveSession(db)
		const author = await participant(db, 1000)
		const voter = await participant(db)
		const dare = await createDare(db, author, session.id, 200)
		expect(await errorOf(vote(db, voter, dare.id, true))).toBe('error-voting-closed')
		await startVote(db, session, dare.id)
		await vote(db, voter, dare.id, true)
		await vote(db, voter, dare.id, false)
		const { rows } = await db.query('select voter_id, vote from public.votes where dare_id = $1', [dare.id])
		expect(rows).toEqual([{ voter_id: voter, vote: false }])
		expect(await errorOf(vote(db, session.creator, dare.id, true))).toBe('error-own-session')
		await endVote(db, dare.id)
		expect(await errorOf(vote(db, voter, dare.id, true))).toBe('error-voting-closed')
	})

	test('resolution: yes >= no (no votes at all included) pays the creator less the fee; otherwise every booster is refunded', async () => {
		const db = await setUp()
		await db.query('select ledger.set_platform_fee(1000)') // 10 %
		const session = await liveSession(db, { max_free_dares_per_user: 3, max_dares_per_user: 3 })
		const alice = await participant(db, 1000)
		const bob = await participant(db, 1000)
		const run = async (votes: Array<[string, boolean]>) => {
			const dare = await createDare(db, alice, session.id, 200)
			await boost(db, bob, dare.id, 100)
			await startVote(db, session, dare.id)
			for (const [who, yes] of votes) await vote(db, who, dare.id, yes)
			await endVote(db, dare.id)
			expect(await db.query('select ledger.resolve_due_dares()').then((r) => r.rows[0])).toEqual({ resolve_due_dares: 1 })
			return dare.id
		}
		// No votes: done. 300 in the pot: 270 to the creator, 30 fee.
		const none = await run([])
		expect(await statusOf(db, none)).toBe('completed')
		expect(await balance(db, session.creator)).toBe(270)
		// A tie: done.
		const tie = await run([[alice, true], [bob, false]])
		expect(await statusOf(db, tie)).toBe('completed')
		expect(await balance(db, session.creator)).toBe(540)
		// More no than yes: failed, each booster gets their own coins back.
		const failed = await run([[bob, false]])
		expect(await statusOf(db, failed)).toBe('failed')
		expect(await balance(db, alice)).toBe(1000 - 200 * 3 + 200)
		expect(await balance(db, bob)).toBe(1000 - 100 * 3 + 100)
		const { rows } = await db.query<{ balance: string }>(`select balance from ledger.accounts where kind = 'platform_fee'`)
		expect(Number(rows[0]!.balance)).toBe(60)
		expect(await pot(db, failed)).toBe(0)
		expect(await ledgerProblems(db)).toEqual([])
	})

	test('a read past the deadline never shows the vote unresolved; resolution runs exactly once', async () => {
		const db = await setUp()
		const session = await liveSession(db)
		const viewer = await participant(db, 1000)
		const dare = await dareWithEndedVote(db, session, viewer)
		// A visitor's read resolves it.
		const seen = await as(db, null, async (tx) => (await tx.query<{ status: string; pot: string }>('select status, pot from public.session_dares($1)', [session.id])).rows)
		expect(seen).toEqual([{ status: 'completed', pot: expect.anything() }])
		expect(await balance(db, session.creator)).toBe(200)
		expect(await db.query('select ledger.resolve_due_dares()').then((r) => r.rows[0])).toEqual({ resolve_due_dares: 0 })
		expect(await balance(db, session.creator)).toBe(200)
		const { rows } = await db.query(`select count(*)::int as n from ledger.transfers where kind = 'payout' and reference = $1`, [dare.id])
		expect(rows).toEqual([{ n: 1 }])
	})

	test('session_dares: most coins first, with the caller’s own boost and vote', async () => {
		const db = await setUp()
		const session = await liveSession(db, { min_boost: 50, max_dares_per_user: 3 })
		const viewer = await participant(db, 1000)
		const small = await createDare(db, viewer, session.id, 50)
		const big = await createDare(db, viewer, session.id, 300)
		const other = await participant(db, 1000)
		await boost(db, other, small.id, 10)
		const rows = await as(db, other, async (tx) =>
			(await tx.query<{ id: string; pot: string; boosters: number; my_boost: string; author_username: string }>('select id, pot, boosters, my_boost, author_username from public.session_dares($1)', [session.id])).rows,
		)
		expect(rows.map((r) => [r.id, Number(r.pot), r.boosters, Number(r.my_boost)])).toEqual([
			[big.id, 300, 1, 0],
			[small.id, 60, 2, 10],
		])
		expect(rows[0]!.author_username).toBe(`u${viewer.slice(0, 8)}`)
	})

	test('session_totals: all dares counted, only running ones hold coins in play', async () => {
		const db = await setUp()
		const session = await liveSession(db, { max_dares_per_user: 3 })
		const viewer = await participant(db, 1000)
		await createDare(db, viewer, session.id, 200)
		const rejected = await createDare(db, viewer, session.id, 300)
		await creatorDoes(db, session.creator, 'reject_dare', rejected.id)
		const totals = await as(db, null, async (tx) => (await tx.query<{ dares: number; pot: string }>('select * from public.session_totals($1)', [session.id])).rows[0]!)
		expect({ dares: totals.dares, pot: Number(totals.pot) }).toEqual({ dares: 2, pot: 200 })
	})

	test('attacks: the API roles write no table; anon calls nothing that moves coins; aal1 with a factor is refused; incomplete accounts are refused', async () => {
		const db = await setUp()
		const session = await liveSession(db)
		const viewer = await participant(db, 1000)
		const dare = await createDare(db, viewer, session.id, 200)
		for (const sql of [
			[`insert into public.dares (session_id, description, reward, idempotency_key) values ($1, 'free money', 0, 'k-attack-1')`, [session.id]],
			[`update public.dares set status = 'completed' where id = $1`, [dare.id]],
			[`insert into public.boosts (dare_id, booster_id, amount, idempotency_key) values ($1, $2, 1000, 'k-attack-2')`, [dare.id, viewer]],
			[`insert into public.votes (dare_id, voter_id, vote) values ($1, $2, true)`, [dare.id, viewer]],
			['select app_private.resolve_dare($1)', [dare.id]],
			['select app_private.refund_dares(array[$1::uuid])', [dare.id]],
			['select app_private.settle_stopped_session($1)', [session.id]],
			['select app_private.record_boost($1, $2, 1000, $3)', [dare.id, viewer, 'k-attack-3']],
			['select ledger.resolve_due_dares()', []],
		] as const) {
			expect((await rejectionOf(as(db, viewer, (tx) => tx.query(sql[0], [...sql[1]])))).code, sql[0]).toBe('42501')
		}
		expect((await rejectionOf(as(db, null, (tx) => tx.query('select public.boost_dare($1, 10, $2)', [dare.id, key()])))).code).toBe('42501')
		expect((await rejectionOf(as(db, null, (tx) => tx.query(`select public.create_dare('a dare', $1, 0, $2)`, [session.id, key()])))).code).toBe('42501')

		// A user with a verified factor and a password-only token.
		await db.query(`insert into auth.mfa_factors (id, user_id, factor_type, status) values (gen_random_uuid(), $1, 'totp', 'verified')`, [viewer])
		expect(await errorOf(as(db, viewer, (tx) => tx.query('select public.boost_dare($1, 10, $2)', [dare.id, key()]), claimsFor(viewer, { aal: 'aal1' })))).toBe('error-aal2-required')
		await as(db, viewer, (tx) => tx.query('select public.boost_dare($1, 10, $2)', [dare.id, key()]), claimsFor(viewer, { aal: 'aal2' }))

		// No username or no terms yet: not a participant.
		const newcomer = await createAuthUser(db)
		await fundWallet(db, newcomer, 100)
		expect(await errorOf(boost(db, newcomer, dare.id, 10))).toBe('error-account-incomplete')
		expect(await balance(db, newcomer)).toBe(100)
		expect(await ledgerProblems(db)).toEqual([])
	})

	test('deleting a booster keeps their boost in the pot; if the dare fails it goes to the forfeit account', async () => {
		const db = await setUp()
		const session = await liveSession(db)
		const author = await participant(db, 1000)
		const booster = await participant(db, 500)
		const dare = await createDare(db, author, session.id, 200)
		await boost(db, booster, dare.id, 300)
		await db.query('delete from auth.users where id = $1', [booster])
		await creatorDoes(db, session.creator, 'reject_dare', dare.id)
		expect(await balance(db, author)).toBe(1000)
		const { rows } = await db.query<{ kind: string; amount: string }>(
			`select t.kind, t.amount from ledger.transfers t join ledger.accounts a on a.id = t.to_account where t.reference = $1 and a.kind = 'forfeit' order by t.id`,
			[dare.id],
		)
		// The refused dare's 300 from the deleted booster: to the forfeit account (their wallet's 200 went there at deletion).
		expect(rows.map((r) => Number(r.amount))).toEqual([300])
		expect(await ledgerProblems(db)).toEqual([])
	})

	test('deleting a creator stops their session and refunds every dare that holds coins, a running vote included', async () => {
		const db = await setUp()
		const session = await liveSession(db, { max_dares_per_user: 2 })
		const viewer = await participant(db, 1000)
		const open = await createDare(db, viewer, session.id, 200)
		const voting = await createDare(db, viewer, session.id, 300)
		await creatorDoes(db, session.creator, 'accept_dare', voting.id)
		await creatorDoes(db, session.creator, 'start_voting', voting.id)
		await db.query('delete from auth.users where id = $1', [session.creator])
		expect(await balance(db, viewer)).toBe(1000)
		expect(await pot(db, open.id)).toBe(0)
		expect(await pot(db, voting.id)).toBe(0)
		expect((await db.query('select 1 from public.dares where session_id = $1', [session.id])).rows).toEqual([])
		expect(await ledgerProblems(db)).toEqual([])
	})

	test('the sweeper resolves a vote whose end passed while no server ran, once, even with two sweepers on one database', async () => {
		const db = await setUp()
		const session = await liveSession(db)
		const viewer = await participant(db, 1000)
		// The deadline passed "during a restart".
		const dare = await dareWithEndedVote(db, session, viewer)
		const errors: string[] = []
		const sweepers = [startDareSweeper(db, { intervalMs: 20, log: (line) => errors.push(line) }), startDareSweeper(db, { intervalMs: 20, log: (line) => errors.push(line) })]
		try {
			await Promise.all(sweepers.map((s) => s.tick()))
			for (let i = 0; i < 50 && (await statusOf(db, dare.id)) === 'voting'; i++) await new Promise((resolve) => setTimeout(resolve, 20))
		} finally {
			await Promise.all(sweepers.map((s) => s.stop()))
		}
		expect(errors).toEqual([])
		expect(await statusOf(db, dare.id)).toBe('completed')
		expect(await balance(db, session.creator)).toBe(200)
		const { rows } = await db.query(`select count(*)::int as n from ledger.transfers where kind = 'payout' and reference = $1`, [dare.id])
		expect(rows).toEqual([{ n: 1 }])
		expect(await ledgerProblems(db)).toEqual([])
	})

	if (kind === 'postgres') {
		const actAs = (client: pg.Client, userId: string) =>
			client.query(`select set_config('role', 'authenticated', true), set_config('request.jwt.claims', $1, true)`, [JSON.stringify(claimsFor(userId))])
		/** Whether a promise is still pending after `ms` (it is waiting on a lock). */
		const stillWaiting = (promise: Promise<unknown>, ms = 300) =>
			Promise.race([promise.then(() => false, () => false), new Promise<boolean>((resolve) => setTimeout(() => resolve(true), ms))])

		test('a dare written while its session stops is refused or expired with the rest, never left open in an ended session', async () => {
			const db = await setUp()
			const session = await liveSession(db)
			const viewer = await participant(db, 1000)
			const stopper = await openConnection(db)
			const writer = await openConnection(db)
			try {
				// The stop goes first and has not committed: the dare waits for it, then finds the session ended.
				await stopper.query('begin')
				await actAs(stopper, session.creator)
				await stopper.query('select 1 from public.stop_active_session()')
				await writer.query('begin')
				await actAs(writer, viewer)
				const written = writer.query('select id from public.create_dare($1, $2, $3, $4)', ['Juggle three eggs', session.id, 200, key()])
				written.catch(() => {})
				expect(await stillWaiting(written)).toBe(true)
				await stopper.query('commit')
				expect(toAppError(await rejectionOf(written))?.code).toBe('error-session-not-active')
				await writer.query('rollback')
			} finally {
				await Promise.all([stopper.end(), writer.end()])
			}
			expect((await db.query('select 1 from public.dares where session_id = $1', [session.id])).rows).toEqual([])
			expect(await balance(db, viewer)).toBe(1000)
			expect(await ledgerProblems(db)).toEqual([])
		})

		test('a session stopping while a dare is being written waits for it, then expires and refunds it', async () => {
			const db = await setUp()
			const session = await liveSession(db)
			const viewer = await participant(db, 1000)
			const stopper = await openConnection(db)
			const writer = await openConnection(db)
			try {
				await writer.query('begin')
				await actAs(writer, viewer)
				const { rows } = await writer.query<{ id: string }>('select id from public.create_dare($1, $2, $3, $4)', ['Juggle three eggs', session.id, 200, key()])
				await stopper.query('begin')
				await actAs(stopper, session.creator)
				const stopped = stopper.query('select 1 from public.stop_active_session()')
				stopped.catch(() => {})
				expect(await stillWaiting(stopped)).toBe(true)
				await writer.query('commit')
				await stopped
				await stopper.query('commit')
				expect(await statusOf(db, rows[0]!.id)).toBe('expired')
				expect(await pot(db, rows[0]!.id)).toBe(0)
			} finally {
				await Promise.all([stopper.end(), writer.end()])
			}
			expect(await balance(db, viewer)).toBe(1000)
			expect(await ledgerProblems(db)).toEqual([])
		})

		test("a dare written while its author's account is being deleted waits for the deletion, then is refused as signed out (never a foreign key error)", async () => {
			const db = await setUp()
			const session = await liveSession(db)
			const viewer = await participant(db, 1000)
			const writer = await openConnection(db)
			const deleter = await openConnection(db)
			try {
				await deleter.query('begin')
				await deleter.query('delete from auth.users where id = $1', [viewer])
				await writer.query('begin')
				await actAs(writer, viewer)
				const written = writer.query('select id from public.create_dare($1, $2, $3, $4)', ['Juggle three eggs', session.id, 0, key()])
				written.catch(() => {})
				expect(await stillWaiting(written)).toBe(true)
				await deleter.query('commit')
				expect(toAppError(await rejectionOf(written))?.code).toBe('error-not-authenticated')
				await writer.query('rollback')
			} finally {
				await Promise.all([writer.end(), deleter.end()])
			}
			expect((await db.query('select 1 from public.dares where session_id = $1', [session.id])).rows).toEqual([])
			expect(await ledgerProblems(db)).toEqual([])
		})

		test("an account deleted while its dare is being written waits for the dare, which stays in the creator's session without an author, its coins in the pot", async () => {
			const db = await setUp()
			const session = await liveSession(db)
			const viewer = await participant(db, 1000)
			const writer = await openConnection(db)
			const deleter = await openConnection(db)
			try {
				await writer.query('begin')
				await actAs(writer, viewer)
				const { rows } = await writer.query<{ id: string }>('select id from public.create_dare($1, $2, $3, $4)', ['Juggle three eggs', session.id, 300, key()])
				const deleted = deleter.query('delete from auth.users where id = $1', [viewer])
				deleted.catch(() => {})
				expect(await stillWaiting(deleted)).toBe(true)
				await writer.query('commit')
				await deleted
				const { rows: dares } = await db.query('select status, author_id from public.dares where id = $1', [rows[0]!.id])
				expect(dares).toEqual([{ status: 'open', author_id: null }])
				expect(await pot(db, rows[0]!.id)).toBe(300)
			} finally {
				await Promise.all([writer.end(), deleter.end()])
			}
			// The rest of the wallet went to the forfeit account; nothing was created or lost.
			const { rows: forfeit } = await db.query<{ amount: string }>(`select amount from ledger.transfers where kind = 'forfeit' and reference = $1`, [viewer])
			expect(forfeit.map((row) => Number(row.amount))).toEqual([700])
			expect(await ledgerProblems(db)).toEqual([])
		})

		test('a creator deleted while a dare is being written: the dare is refunded before it goes with the session', async () => {
			const db = await setUp()
			const session = await liveSession(db)
			const viewer = await participant(db, 1000)
			const writer = await openConnection(db)
			const deleter = await openConnection(db)
			try {
				await writer.query('begin')
				await actAs(writer, viewer)
				const { rows } = await writer.query<{ id: string }>('select id from public.create_dare($1, $2, $3, $4)', ['Juggle three eggs', session.id, 300, key()])
				const deleted = deleter.query('delete from auth.users where id = $1', [session.creator])
				deleted.catch(() => {})
				expect(await stillWaiting(deleted)).toBe(true)
				await writer.query('commit')
				await deleted
				expect(await pot(db, rows[0]!.id)).toBe(0)
			} finally {
				await Promise.all([writer.end(), deleter.end()])
			}
			expect(await balance(db, viewer)).toBe(1000)
			expect(await ledgerProblems(db)).toEqual([])
		})

		test('a page read while the sweeper is resolving the vote waits for it and shows the result, not a running vote past its end', async () => {
			const db = await setUp()
			const session = await liveSession(db)
			const viewer = await participant(db, 1000)
			const dare = await dareWithEndedVote(db, session, viewer)
			const sweeper = await openConnection(db)
			const reader = await openConnection(db)
			try {
				await sweeper.query('begin')
				expect((await sweeper.query<{ n: number }>('select ledger.resolve_due_dares() as n')).rows).toEqual([{ n: 1 }])
				await reader.query('begin')
				await actAs(reader, viewer)
				const read = reader.query<{ id: string; status: string; pot: string }>('select id, status, pot from public.session_dares($1)', [session.id])
				read.catch(() => {})
				expect(await stillWaiting(read)).toBe(true)
				await sweeper.query('commit')
				expect((await read).rows.map((r) => [r.id, r.status, Number(r.pot)])).toEqual([[dare.id, 'completed', 200]])
				await reader.query('commit')
			} finally {
				await Promise.all([sweeper.end(), reader.end()])
			}
			const { rows } = await db.query(`select count(*)::int as n from ledger.transfers where kind = 'payout' and reference = $1`, [dare.id])
			expect(rows).toEqual([{ n: 1 }])
			expect(await ledgerProblems(db)).toEqual([])
		})

		test('stopping a session locks its dares before it refunds any, so a boost under way cannot deadlock with it', async () => {
			const db = await setUp()
			// More dares than PL/pgSQL fetches at once (10): a loop that locks as it goes would refund the first ten, then wait.
			const session = await liveSession(db, { max_dares_per_user: 12, min_boost: 50 })
			const viewer = await participant(db, 1000)
			const dares: Array<{ id: string }> = []
			for (let i = 0; i < 12; i++) {
				// Five dares a minute per author (docs/product.md §13): the earlier ones made a minute older.
				if (i % 5 === 0) await db.query(`update public.dares set created_at = created_at - interval '1 minute' where author_id = $1`, [viewer])
				dares.push(await createDare(db, viewer, session.id, 50))
			}
			dares.sort((a, b) => (a.id < b.id ? -1 : 1))
			const last = dares[11]!
			const booster = await openConnection(db)
			const stopper = await openConnection(db)
			try {
				// A boost of the last dare has its row and is about to lock the viewer's wallet.
				await booster.query('begin')
				await booster.query('select 1 from public.dares where id = $1 for update', [last.id])
				await stopper.query('begin')
				await actAs(stopper, session.creator)
				const stopped = stopper.query('select 1 from public.stop_active_session()')
				stopped.catch(() => {})
				expect(await stillWaiting(stopped)).toBe(true)
				// The stop holds no wallet while it waits (refunding the first dares
				// first would hold the viewer's, and this would be a deadlock).
				const walletLocked = booster.query('select 1 from public.wallets where id = $1 for update', [viewer])
				expect(await stillWaiting(walletLocked, 500)).toBe(false)
				await walletLocked
				await booster.query('commit')
				await stopped
				await stopper.query('commit')
			} finally {
				await Promise.all([booster.end(), stopper.end()])
			}
			for (const dare of dares) expect(await statusOf(db, dare.id)).toBe('expired')
			expect(await balance(db, viewer)).toBe(1000)
			expect(await ledgerProblems(db)).toEqual([])
		})

		for (const ending of ['failed', 'rejected'] as const) {
			test(`concurrency: 8 connections boosting one dare while another ${ending === 'failed' ? 'accepts, starts and resolves it' : 'rejects it'}; every coin accounted for`, async () => {
				const db = await setUp()
				const session = await liveSession(db, { min_boost: 50 })
				const author = await participant(db, 1000)
				const dare = await createDare(db, author, session.id, 100)
				const boosters = await Promise.all(Array.from({ length: 8 }, () => participant(db, 1000)))
				const clients = await Promise.all(boosters.map(() => openConnection(db)))
				try {
					const attempts = boosters.map(async (booster, i) => {
						const client = clients[i]!
						let ok = 0
						for (let n = 0; n < 20; n++) {
							try {
								await client.query('begin')
								await actAs(client, booster)
								await client.query('select public.boost_dare($1, $2, $3)', [dare.id, 10 * (1 + Math.floor(Math.random() * 5)), key()])
								await client.query('commit')
								ok++
							} catch {
								await client.query('rollback')
							}
						}
						return ok
					})
					const creatorWork = (async () => {
						// Let the boosts get going, then accept (still boostable) and start the vote (no longer) among them.
						for (let i = 0; i < 500; i++) {
							const { rows: landed } = await db.query<{ n: number }>('select count(*)::int as n from public.boosts where dare_id = $1', [dare.id])
							if (landed[0]!.n >= 9) break
							await new Promise((resolve) => setTimeout(resolve, 10))
						}
						if (ending === 'rejected') {
							expect(await creatorDoes(db, session.creator, 'reject_dare', dare.id)).toBe('rejected')
							return
						}
						await startVote(db, session, dare.id)
						await vote(db, boosters[0]!, dare.id, false)
						await endVote(db, dare.id)
						// As the sweeper does: a dare whose row a boost still holds is skipped and taken on the next round.
						for (let round = 0; round < 200 && (await statusOf(db, dare.id)) === 'voting'; round++) {
							await db.query('select ledger.resolve_due_dares()')
							await new Promise((resolve) => setTimeout(resolve, 10))
						}
					})()
					const [succeeded] = await Promise.all([Promise.all(attempts), creatorWork])
					// Boosts landed before voting started (or the rejection), and the rest were refused (not boostable), not lost.
					expect(succeeded.reduce((a, b) => a + b, 0)).toBeGreaterThan(0)
				} finally {
					await Promise.all(clients.map((c) => c.end()))
				}
				expect(await statusOf(db, dare.id)).toBe(ending)
				expect(await pot(db, dare.id)).toBe(0)
				// Every booster has exactly what they had: each boost came back.
				for (const booster of boosters) expect(await balance(db, booster)).toBe(1000)
				expect(await balance(db, author)).toBe(1000)
				const { rows: sums } = await db.query<{ boosted: string; refunded: string }>(
					`select (select sum(amount) from public.boosts where dare_id = $1) as boosted,
					        (select sum(amount) from ledger.transfers where kind = 'refund' and reference = $1::text) as refunded`,
					[dare.id],
				)
				expect(Number(sums[0]!.refunded)).toBe(Number(sums[0]!.boosted))
				expect(await ledgerProblems(db)).toEqual([])
			})
		}
	}
})
