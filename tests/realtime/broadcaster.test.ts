import { randomUUID } from 'node:crypto'
import { beforeEach, expect, test } from 'vitest'
import { asUser } from '#app/db/as-user.server'
import type { Database } from '#app/db/database.server'
import { publishDocumentVersions } from '#app/db/published-documents.server'
import { readSessionDares } from '#app/modules/dares/service.server'
import { readCovered, sessionTopic, startBroadcaster, type SessionUpdate } from '#app/modules/realtime/broadcaster.server'
import { SessionFeed } from '#app/modules/realtime/session-feed'
import { liveSession, manyDares, participant } from '#tests/support/dares'
import { describeEachDatabase, openConnection } from '#tests/support/databases'

/**
 * The broadcaster (app/modules/realtime/broadcaster.server.ts) reads the
 * marks the money transactions append. A mark's id is taken when its
 * transaction inserts it, not when it commits: two boosts in flight can
 * commit in the other order, and the broadcaster may read the later id
 * first. The earlier one must still reach the viewers (and the shared
 * session page must still be outdated by it).
 */
describeEachDatabase('the realtime broadcaster', (getDb, kind) => {
	beforeEach(async () => {
		await publishDocumentVersions(getDb(), {
			terms_of_service: 'v1',
			creator_agreement: 'v1',
		})
	})

	async function harness() {
		const published: { topic: string; seq: number; payload: unknown }[] = []
		const observed: string[][] = []
		// Ticks only when the test says so: no poll of its own within the test.
		const broadcaster = await startBroadcaster({
			db: getDb(),
			publish: (topic, _event, payload) => void published.push({ topic, seq: payload.seq, payload }),
			observe: (topics) => void observed.push(topics),
			intervalMs: 1,
			pollMs: 600_000,
		})
		return { published, observed, broadcaster }
	}

	test('every committed mark is observed and published once per batch', async () => {
		const db = getDb()
		const session = await liveSession(db)
		const { published, observed, broadcaster } = await harness()
		try {
			await db.query('insert into app_private.realtime_marks (topic) values ($1), ($1)', [sessionTopic(session.id)])
			await broadcaster.tick()
			expect(observed).toEqual([[sessionTopic(session.id)]])
			expect(published.map((p) => p.topic)).toEqual([sessionTopic(session.id)])
			await broadcaster.tick()
			expect(published).toHaveLength(1)
		} finally {
			await broadcaster.stop()
		}
	})

	test('a dare the creator hides goes out as removed, and a page applying it drops the dare (docs/product.md §13.4)', async () => {
		const db = getDb()
		const session = await liveSession(db)
		const viewer = await participant(db)
		const dare = await asUser(db, { sub: viewer, role: 'authenticated' }, async (tx) => (await tx.query<{ id: string }>('select id from public.create_dare($1, $2, 0, $3)', ['Sing the chorus backwards', session.id, randomUUID()])).rows[0]!.id)
		const { published, broadcaster } = await harness()
		try {
			const data = { session: null, dares: await readSessionDares(db, session.id) }
			await asUser(db, { sub: session.creator, role: 'authenticated' }, (tx) => tx.query('select public.hide_dare($1)', [dare]))
			await broadcaster.tick()
			const update = published.find((p) => p.topic === sessionTopic(session.id))!.payload as SessionUpdate
			expect(update.sessionData.dares).toEqual([expect.objectContaining({ id: dare, status: 'removed' })])
			// The page read its data after the broadcaster began and before the hide, so it covers what the
			// update follows. (Its own readCovered could be lower: another test file's transaction in the
			// same cluster holds the snapshot's xmin back, and the page would rightly refetch instead.)
			const page = new SessionFeed(data, update.since)
			expect(page.receive(update)).toBe('applied')
			expect(page.view.dares).toEqual([])
		} finally {
			await broadcaster.stop()
		}
	})

	test('exclusive (Supabase): of two instances one publishes, the other follows the marks and takes over, with what was marked meanwhile, when the first stops', async () => {
		const db = getDb()
		const session = await liveSession(db)
		const other = await liveSession(db)
		const start = async (name: string, sent: string[], observed: string[]) =>
			startBroadcaster({
				db,
				publish: (topic) => void sent.push(`${name} ${topic}`),
				observe: (topics) => void observed.push(...topics),
				exclusive: true,
				leaseRenewMs: 0,
				intervalMs: 1,
				pollMs: 600_000,
			})
		const sent: string[] = []
		const seenA: string[] = []
		const seenB: string[] = []
		const a = await start('a', sent, seenA)
		const b = await start('b', sent, seenB)
		try {
			await a.tick()
			await b.tick()
			await db.query('insert into app_private.realtime_marks (topic) values ($1)', [sessionTopic(session.id)])
			await b.tick()
			await a.tick()
			// Both read the mark; only the lease holder sent it.
			expect(seenA).toEqual([sessionTopic(session.id)])
			expect(seenB).toEqual([sessionTopic(session.id)])
			expect(sent).toEqual([`a ${sessionTopic(session.id)}`])
			// A mark while the leader is gone (stopped, the lease given up): the other sends it at its next poll.
			await db.query('insert into app_private.realtime_marks (topic) values ($1)', [sessionTopic(other.id)])
			await b.tick()
			await a.stop()
			expect(sent).toHaveLength(1)
			await b.tick()
			// With it, again what was marked in the last lease period: the leader may have stopped before sending it.
			expect(sent[0]).toBe(`a ${sessionTopic(session.id)}`)
			expect(sent.slice(1).sort()).toEqual([`b ${sessionTopic(other.id)}`, `b ${sessionTopic(session.id)}`].sort())
			await b.tick()
			expect(sent).toHaveLength(3)
		} finally {
			await a.stop()
			await b.stop()
		}
	})

	const as = (userId: string) => ({
		sub: userId,
		role: 'authenticated' as const,
	})
	const boost = (db: Database, userId: string, dareId: string, amount = 10) =>
		asUser(db, as(userId), (tx) => tx.query('select public.boost_dare($1, $2, $3)', [dareId, amount, randomUUID()]))
	/** A page's reading as the session page's loader takes it (page.server.ts): where it stands, then the dares, as a visitor. */
	const pageLoad = (db: Database, sessionId: string) =>
		asUser(db, null, async (tx) => {
			const covered = await readCovered(tx)
			return { covered, dares: await readSessionDares(tx, sessionId) }
		})

	test('a boost’s update carries that dare and the totals, under 1 KB in a session of 200 dares; a new dare’s carries its description', async () => {
		const db = getDb()
		const session = await liveSession(db, { max_dares_per_user: 100, max_free_dares_per_user: 100 })
		const ids = await manyDares(db, session.id, 200, (i) => `${'A long dare to read, '.repeat(13)}#${i}`)
		const writer = (await db.query<{ author_id: string }>('select author_id from public.dares where id = $1', [ids[7]])).rows[0]!.author_id
		const author = await participant(db, 10_000)
		const { published, broadcaster } = await harness()
		try {
			await boost(db, author, ids[7]!, 50)
			await broadcaster.tick()
			const update = published.find((p) => p.topic === sessionTopic(session.id))!.payload as SessionUpdate
			expect(update.sessionData.session).toEqual({
				status: 'active',
				dareCount: 200,
				potTotal: 50,
			})
			expect(update.sessionData.dares).toEqual([
				{
					id: ids[7],
					status: 'open',
					pot: 50,
					authorId: writer,
					authorName: expect.any(String),
					boosters: 1,
					yesVotes: 0,
					noVotes: 0,
					votingEndsAt: null,
				},
			])
			expect(Buffer.byteLength(JSON.stringify(update))).toBeLessThanOrEqual(1024)

			const created = await asUser(db, as(author), (tx) =>
				tx.query<{ id: string }>('select id from public.create_dare($1, $2, 0, $3)', ['Sing the alphabet backwards', session.id, randomUUID()]),
			)
			await broadcaster.tick()
			const next = published.filter((p) => p.topic === sessionTopic(session.id)).at(-1)!.payload as SessionUpdate
			expect(next.sessionData.dares).toEqual([
				expect.objectContaining({
					id: created.rows[0]!.id,
					description: 'Sing the alphabet backwards',
					reward: 0,
					createdAt: expect.any(String),
				}),
			])
			// The second follows the first.
			expect(next.prev).toBe(update.seq)
			expect(next.seq).toBeGreaterThan(update.seq)
		} finally {
			await broadcaster.stop()
		}
	})

	// Embedded only: on a Postgres server the other test files' transactions run meanwhile, and one in flight
	// while the page reads is a reason to read again (the next test); the audience bench measures how often.
	test('a session stopped with 150 running dares: two updates chained, each with the totals; a page applies both and equals a fresh load', async () => {
		const db = getDb()
		const session = await liveSession(db, { max_dares_per_user: 100, max_free_dares_per_user: 100 })
		await manyDares(db, session.id, 150, (i) => `Dare to expire #${i}`)
		const { published, broadcaster } = await harness()
		try {
			await broadcaster.tick()
			const loaded = await pageLoad(db, session.id)
			await asUser(db, as(session.creator), (tx) => tx.query('select public.stop_active_session($1)', [randomUUID()]))
			await broadcaster.tick()
			const updates = published.filter((p) => p.topic === sessionTopic(session.id)).map((p) => p.payload as SessionUpdate)
			expect(updates.map((u) => u.sessionData.dares?.length)).toEqual([100, 50])
			expect(updates[1]!.prev).toBe(updates[0]!.seq)
			for (const u of updates) expect(u.sessionData.session).toEqual({ status: 'ended', dareCount: 150, potTotal: 0 })
			// Read after the poll the first update's `since` stands for (other test files' transactions may keep its own bound lower).
			const feed = new SessionFeed({ session: { status: 'active', dareCount: 150, potTotal: 0 }, dares: loaded.dares }, Math.max(loaded.covered, updates[0]!.since))
			for (const u of updates) expect(feed.receive(u)).toBe('applied')
			expect(feed.view.dares).toEqual((await pageLoad(db, session.id)).dares)
			// Missing the first, a page reads again rather than apply the second.
			const other = new SessionFeed({ session: { status: 'active', dareCount: 150, potTotal: 0 }, dares: loaded.dares }, loaded.covered)
			expect(other.receive(updates[1])).toBe('refetch')
		} finally {
			await broadcaster.stop()
		}
	})

	if (kind === 'pglite') {
		test('a page read after an update applies the next one without a request, and ends up as a fresh load', async () => {
			const db = getDb()
			const session = await liveSession(db)
			const viewer = await participant(db, 1000)
			const dare = await asUser(db, as(viewer), (tx) =>
				tx.query<{ id: string }>('select id from public.create_dare($1, $2, 0, $3)', ['Hop on one foot', session.id, randomUUID()]),
			)
			const dareId = dare.rows[0]!.id
			const { published, broadcaster } = await harness()
			try {
				await broadcaster.tick()
				const loaded = await pageLoad(db, session.id)
				const feed = new SessionFeed(
					{
						session: { status: 'active', dareCount: 1, potTotal: 0 },
						dares: loaded.dares,
					},
					loaded.covered,
				)
				await boost(db, viewer, dareId)
				await broadcaster.tick()
				expect(feed.receive(published.at(-1)!.payload)).toBe('applied')
				expect(feed.view.dares).toEqual((await pageLoad(db, session.id)).dares)
			} finally {
				await broadcaster.stop()
			}
		})
	}

	if (kind === 'postgres') {
		test('a boost in flight while a page reads, published before the page listens: the next update is a gap, and the refetch makes it whole', async () => {
			const db = getDb()
			const session = await liveSession(db, { max_free_dares_per_user: 2 })
			const viewer = await participant(db, 1000)
			const other = await participant(db, 1000)
			const dares = await asUser(db, as(viewer), async (tx) => {
				const made: string[] = []
				for (const text of ['Hop on one foot', 'Whistle a tune'])
					made.push((await tx.query<{ id: string }>('select id from public.create_dare($1, $2, 0, $3)', [text, session.id, randomUUID()])).rows[0]!.id)
				return made
			})
			const { published, broadcaster } = await harness()
			const slow = await openConnection(db)
			try {
				await broadcaster.tick()
				// A boost of the first dare, its marks taken, not committed while the page reads.
				await slow.query('begin')
				await slow.query(`select set_config('request.jwt.claims', $1, true), set_config('role', 'authenticated', true)`, [JSON.stringify(as(viewer))])
				await slow.query('select public.boost_dare($1, 10, $2)', [dares[0], randomUUID()])
				const inFlight = Number((await slow.query<{ xid: string }>('select pg_current_xact_id()::text as xid')).rows[0]!.xid)
				const loaded = await pageLoad(db, session.id)
				expect(loaded.dares.find((d) => d.id === dares[0])!.pot).toBe(0)
				// The page's reading does not claim the boost in flight.
				expect(loaded.covered).toBeLessThanOrEqual(inFlight)
				await slow.query('commit')
				// Published before the page's socket joined: the page never gets it.
				await broadcaster.tick()
				const topic = () => published.filter((p) => p.topic === sessionTopic(session.id))
				const missed = topic().length
				await boost(db, other, dares[1]!)
				await broadcaster.tick()
				expect(topic().length).toBe(missed + 1)
				const feed = new SessionFeed(
					{
						session: { status: 'active', dareCount: 2, potTotal: 0 },
						dares: loaded.dares,
					},
					loaded.covered,
				)
				// It does not cover the first boost, and says so: its reading began after that boost's transaction.
				expect((topic().at(-1)!.payload as SessionUpdate).since).toBeGreaterThan(inFlight)
				expect(feed.receive(topic().at(-1)!.payload)).toBe('refetch')
				const again = await pageLoad(db, session.id)
				feed.rebase(
					{
						session: { status: 'active', dareCount: 2, potTotal: 20 },
						dares: again.dares,
					},
					again.covered,
				)
				expect(feed.view.dares).toEqual(again.dares)
				expect(feed.view.dares.map((d) => d.pot)).toEqual([10, 10])
			} finally {
				await slow.end()
				await broadcaster.stop()
			}
		})

		test('a mark that commits after a later one is still read and published, with a seq no lower than the last', async () => {
			const db = getDb()
			const session = await liveSession(db)
			const other = await liveSession(db)
			const { published, observed, broadcaster } = await harness()
			const slow = await openConnection(db)
			try {
				await slow.query('begin')
				// Takes the lower id, and does not commit yet.
				await slow.query('insert into app_private.realtime_marks (topic) values ($1), ($2)', [sessionTopic(session.id), sessionTopic(other.id)])
				await db.query('insert into app_private.realtime_marks (topic) values ($1)', [sessionTopic(session.id)])
				await broadcaster.tick()
				expect(observed.flat()).toEqual([sessionTopic(session.id)])
				await slow.query('commit')
				await broadcaster.tick()
				expect(observed.flat().toSorted()).toEqual([sessionTopic(session.id), sessionTopic(session.id), sessionTopic(other.id)].toSorted())
				expect(published.map((p) => p.topic).toSorted()).toEqual([sessionTopic(session.id), sessionTopic(session.id), sessionTopic(other.id)].toSorted())
				// The page refuses an update whose seq is not above the last it applied (session-feed.ts): the session's second update is above, and follows the first.
				const updates = published.filter((p) => p.topic === sessionTopic(session.id)).map((p) => p.payload as SessionUpdate)
				expect(updates[1]!.seq).toBeGreaterThan(updates[0]!.seq)
				expect(updates[1]!.prev).toBe(updates[0]!.seq)
				await broadcaster.tick()
				expect(published).toHaveLength(3)
			} finally {
				await slow.end()
				await broadcaster.stop()
			}
		})
	}
})
