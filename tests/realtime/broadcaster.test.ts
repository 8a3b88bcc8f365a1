import { beforeEach, expect, test } from 'vitest'
import { publishDocumentVersions } from '#app/db/published-documents.server'
import { sessionTopic, startBroadcaster } from '#app/modules/realtime/broadcaster.server'
import { liveSession } from '#tests/support/dares'
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
		await publishDocumentVersions(getDb(), { terms_of_service: 'v1', creator_agreement: 'v1' })
	})

	async function harness() {
		const published: { topic: string; seq: number }[] = []
		const observed: string[][] = []
		// Ticks only when the test says so: no poll of its own within the test.
		const broadcaster = await startBroadcaster({
			db: getDb(),
			publish: (topic, _event, payload) => void published.push({ topic, seq: payload.seq }),
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

	if (kind === 'postgres') {
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
				// The page drops an update older than the last it applied (use-live.ts): the session's second update is not.
				const seqs = published.filter((p) => p.topic === sessionTopic(session.id)).map((p) => p.seq)
				expect(seqs[1]).toBeGreaterThanOrEqual(seqs[0]!)
				await broadcaster.tick()
				expect(published).toHaveLength(3)
			} finally {
				await slow.end()
				await broadcaster.stop()
			}
		})
	}
})
