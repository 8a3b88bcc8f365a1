import { randomUUID } from 'node:crypto'
import { expect, test } from 'vitest'
import { asUser } from '#app/db/as-user.server'
import type { Database, Queryable } from '#app/db/database.server'
import { publishDocumentVersions } from '#app/db/published-documents.server'
import { claimsFor, describeEachDatabase, errorOf } from '#tests/support/databases'
import { liveSession, participant } from '#tests/support/dares'
import { ledgerProblems } from '#tests/support/wallet'

/**
 * The creator's calls on stream (docs/product.md §6.7, §5.8): extending and
 * cancelling a running vote, and a session's recap, as the API roles call them.
 */

const as = <T>(db: Database, userId: string | null, fn: (tx: Queryable) => Promise<T>) => asUser(db, userId ? claimsFor(userId) : null, fn)

describeEachDatabase('the creator on stream', (getDb) => {
	async function votingDare(db: Database) {
		await publishDocumentVersions(db, { terms_of_service: 'v1', creator_agreement: 'v1' })
		const session = await liveSession(db, { min_boost: 50, voting_duration: 60 })
		const viewer = await participant(db, 1000)
		const dare = await as(db, viewer, async (tx) => (await tx.query<{ id: string }>('select id from public.create_dare($1, $2, 100, $3)', ['Sing the chorus backwards', session.id, randomUUID()])).rows[0]!.id)
		await as(db, session.creator, (tx) => tx.query('select public.accept_dare($1)', [dare]))
		await as(db, session.creator, (tx) => tx.query('select public.start_voting($1)', [dare]))
		return { session, viewer, dare }
	}
	const endsIn = async (db: Queryable, dare: string) =>
		Number((await db.query<{ s: string }>('select extract(epoch from voting_ends_at - now())::int as s from public.dares where id = $1', [dare])).rows[0]!.s)

	test('the creator extends a running vote within an hour; nobody else, and not past its end', async () => {
		const db = getDb()
		const { session, viewer, dare } = await votingDare(db)
		expect(await errorOf(as(db, viewer, (tx) => tx.query('select public.extend_vote($1, 60)', [dare])))).toBe('error-not-session-creator')
		expect(await errorOf(as(db, null, (tx) => tx.query('select public.extend_vote($1, 60)', [dare])))).toBe('42501')
		for (const seconds of [29, 601, 33, null]) {
			expect(await errorOf(as(db, session.creator, (tx) => tx.query('select public.extend_vote($1, $2)', [dare, seconds])))).toBe('error-invalid-vote-extension')
		}
		await as(db, session.creator, (tx) => tx.query('select public.extend_vote($1, 600)', [dare]))
		expect(await endsIn(db, dare)).toBeGreaterThan(600)
		for (let i = 0; i < 4; i++) await as(db, session.creator, (tx) => tx.query('select public.extend_vote($1, 600)', [dare]))
		expect(await errorOf(as(db, session.creator, (tx) => tx.query('select public.extend_vote($1, 600)', [dare])))).toBe('error-vote-too-long')
		await db.query(`update public.dares set voting_ends_at = now() - interval '1 second' where id = $1`, [dare])
		expect(await errorOf(as(db, session.creator, (tx) => tx.query('select public.extend_vote($1, 60)', [dare])))).toBe('error-voting-closed')
	})

	test('cancelling a vote drops its votes and accepts the dare again; a new vote starts from nothing', async () => {
		const db = getDb()
		const { session, viewer, dare } = await votingDare(db)
		await as(db, viewer, (tx) => tx.query('select public.vote_for_dare($1, false)', [dare]))
		expect(await errorOf(as(db, viewer, (tx) => tx.query('select public.cancel_vote($1)', [dare])))).toBe('error-not-session-creator')
		await as(db, session.creator, (tx) => tx.query('select public.cancel_vote($1)', [dare]))
		const row = await db.query('select status, voting_ends_at from public.dares where id = $1', [dare])
		expect(row.rows).toEqual([{ status: 'accepted', voting_ends_at: null }])
		expect((await db.query('select 1 from public.votes where dare_id = $1', [dare])).rows).toEqual([])
		expect(await errorOf(as(db, session.creator, (tx) => tx.query('select public.cancel_vote($1)', [dare])))).toBe('error-voting-closed')
		await as(db, session.creator, (tx) => tx.query('select public.start_voting($1)', [dare]))
		const page = await as(db, viewer, async (tx) => (await tx.query<{ yes_votes: number; no_votes: number; my_vote: boolean | null }>('select yes_votes, no_votes, my_vote from public.session_dares($1)', [session.id])).rows)
		expect(page).toEqual([{ yes_votes: 0, no_votes: 0, my_vote: null }])
		expect(await ledgerProblems(db)).toEqual([])
	})

	test("the recap: the coins the session earned its creator and its dares' outcomes, for the creator only", async () => {
		const db = getDb()
		const { session, viewer, dare } = await votingDare(db)
		const other = await as(db, viewer, async (tx) => (await tx.query<{ id: string }>('select id from public.create_dare($1, $2, 50, $3)', ['Do ten push-ups', session.id, randomUUID()])).rows[0]!.id)
		await as(db, session.creator, (tx) => tx.query('select public.reject_dare($1, $2)', [other, randomUUID()]))
		await as(db, viewer, (tx) => tx.query('select public.vote_for_dare($1, true)', [dare]))
		await db.query(`update public.dares set voting_ends_at = now() - interval '1 second' where id = $1`, [dare])
		await db.query('select ledger.resolve_due_dares(10)')
		const recap = (userId: string) => as(db, userId, async (tx) => (await tx.query('select * from public.session_recap($1)', [session.id])).rows)
		expect(await recap(session.creator)).toEqual([{ earned: 100, completed: 1, failed: 0, refunded: 1 }])
		expect(await recap(viewer)).toEqual([])
		expect(await errorOf(as(db, null, (tx) => tx.query('select * from public.session_recap($1)', [session.id])))).toBe('42501')
	})
})
