import { describe, expect, test } from 'vitest'
import type { DareView } from '#app/modules/dares/service.server'
import { LIVE_MAX_DARES, SessionFeed, applyDares, follows, parseSessionUpdate, type LiveDare, type SessionUpdate } from './session-feed'

/**
 * How a page applies a session's live updates (session-feed.ts, ADR 045):
 * only what follows what it has, only what is well formed; anything else is
 * ignored and read again once.
 */
const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`

function dare(n: number, pot: number, extra: Partial<DareView> = {}): DareView {
	return {
		id: id(n),
		description: `Dare number ${n}`,
		reward: 0,
		status: 'open',
		pot,
		authorId: id(900),
		authorName: 'alice',
		boosters: 1,
		yesVotes: 0,
		noVotes: 0,
		votingEndsAt: null,
		createdAt: `2026-11-27T10:00:${String(n % 60).padStart(2, '0')}.000Z`,
		myBoost: 0,
		myVote: null,
		...extra,
	}
}

function live(d: DareView, changes: Partial<LiveDare> = {}): LiveDare {
	const { id, status, pot, authorId, authorName, boosters, yesVotes, noVotes, votingEndsAt } = d
	return { id, status, pot, authorId, authorName, boosters, yesVotes, noVotes, votingEndsAt, ...changes }
}

function update(order: { seq: number; prev: number; since: number }, dares: LiveDare[], potTotal = 0): SessionUpdate {
	return { updatedKeys: ['session', 'dares'], sessionData: { session: { status: 'active', dareCount: 3, potTotal }, dares }, ...order }
}

const three = () => [dare(1, 300), dare(2, 200), dare(3, 100)]

describe('parseSessionUpdate', () => {
	const good = update({ seq: 10, prev: 0, since: 5 }, [live(dare(1, 300))])

	test('takes a well-formed update, and one that names nothing', () => {
		expect(parseSessionUpdate(JSON.parse(JSON.stringify(good)))).toEqual(good)
		expect(parseSessionUpdate({ updatedKeys: [], sessionData: {}, seq: 1, prev: 0, since: 0 })).toEqual({ updatedKeys: [], sessionData: {}, seq: 1, prev: 0, since: 0 })
	})

	test.each([
		['not an object', 'update'],
		['an unknown key', { ...good, extra: 1 }],
		['an unknown key in sessionData', { ...good, sessionData: { ...good.sessionData, chat: [] } }],
		['a key sessionData has but updatedKeys does not name', { ...good, updatedKeys: ['session'] }],
		['an unknown key of a dare', update({ seq: 10, prev: 0, since: 5 }, [{ ...live(dare(1, 1)), myBoost: 5 } as LiveDare])],
		['a negative pot', update({ seq: 10, prev: 0, since: 5 }, [live(dare(1, 1), { pot: -1 })])],
		['an unknown status', update({ seq: 10, prev: 0, since: 5 }, [live(dare(1, 1), { status: 'deleted' as never })])],
		['an id that is not a uuid', update({ seq: 10, prev: 0, since: 5 }, [live(dare(1, 1), { id: 'x' })])],
		['a description too long', update({ seq: 10, prev: 0, since: 5 }, [live(dare(1, 1), { description: 'x'.repeat(281), reward: 0, createdAt: '2026-11-27T10:00:00.000Z' })])],
		['a new dare without its date', update({ seq: 10, prev: 0, since: 5 }, [live(dare(1, 1), { description: 'Sing' })])],
		['no seq', { ...good, seq: undefined }],
		['a fractional seq', { ...good, seq: 1.5 }],
		['more dares than an update names', update({ seq: 10, prev: 0, since: 5 }, Array.from({ length: LIVE_MAX_DARES + 1 }, (_, i) => live(dare(i, 1))))],
	])('refuses %s', (_name, payload) => {
		expect(parseSessionUpdate(payload)).toBeNull()
	})
})

describe('follows', () => {
	test('an update follows the last one applied, or data read after its reading', () => {
		expect(follows({ seq: 10, covered: 0 }, { seq: 12, prev: 10, since: 50 })).toBe('apply')
		expect(follows({ seq: null, covered: 50 }, { seq: 12, prev: 10, since: 50 })).toBe('apply')
		expect(follows({ seq: 9, covered: 60 }, { seq: 12, prev: 10, since: 50 })).toBe('apply')
	})

	test('a missed update, or a sequence from the past, is a refetch', () => {
		expect(follows({ seq: 9, covered: 40 }, { seq: 12, prev: 10, since: 50 })).toBe('refetch')
		expect(follows({ seq: null, covered: 49 }, { seq: 12, prev: 10, since: 50 })).toBe('refetch')
		expect(follows({ seq: 12, covered: 100 }, { seq: 12, prev: 10, since: 50 })).toBe('refetch')
		expect(follows({ seq: 13, covered: 100 }, { seq: 12, prev: 10, since: 50 })).toBe('refetch')
	})
})

describe('applyDares', () => {
	test('changes only the dares named, keeps the others (the same objects), and sorts as the page does', () => {
		const dares = three()
		const next = applyDares(dares, [live(dares[2]!, { pot: 400, boosters: 2 })])!
		expect(next.map((d) => d.pot)).toEqual([400, 300, 200])
		expect(next[1]).toBe(dares[0])
		expect(next[2]).toBe(dares[1])
		expect(next[0]).toMatchObject({ id: id(3), pot: 400, boosters: 2, description: 'Dare number 3' })
	})

	test('the same values again: the same list, nothing drawn again', () => {
		const dares = three()
		expect(applyDares(dares, [live(dares[0]!)])).toBe(dares)
	})

	test('keeps the viewer’s own boost and vote, which an update never carries', () => {
		const dares = [dare(1, 300, { myBoost: 50, myVote: true })]
		expect(applyDares(dares, [live(dares[0]!, { pot: 310 })])![0]).toMatchObject({ pot: 310, myBoost: 50, myVote: true })
	})

	test('adds a new dare with its description; one it does not know without it is refused', () => {
		const dares = three()
		const added = applyDares(dares, [live(dare(4, 250), { description: 'Dance', reward: 250, createdAt: '2026-11-27T11:00:00.000Z' })])!
		expect(added.map((d) => d.id)).toEqual([id(1), id(4), id(2), id(3)])
		expect(added[1]).toMatchObject({ description: 'Dance', myBoost: 0, myVote: null })
		expect(applyDares(dares, [live(dare(4, 250))])).toBeNull()
	})

	test('settled dares go below the running ones, whatever their coins', () => {
		const dares = three()
		expect(applyDares(dares, [live(dares[0]!, { status: 'completed' })])!.map((d) => d.id)).toEqual([id(2), id(3), id(1)])
	})

	test('a removed dare is dropped; one the page never had (held, then rejected) changes nothing and asks for no refetch', () => {
		const dares = three()
		expect(applyDares(dares, [live(dares[1]!, { status: 'removed' })])!.map((d) => d.id)).toEqual([id(1), id(3)])
		expect(applyDares(dares, [live(dare(4, 0), { status: 'removed' })])).toBe(dares)
		expect(parseSessionUpdate({ updatedKeys: ['dares'], sessionData: { dares: [live(dares[1]!, { status: 'removed' })] }, seq: 2, prev: 1, since: 0 })).not.toBeNull()
	})
})

describe('SessionFeed', () => {
	const start = () => new SessionFeed({ session: { status: 'active', dareCount: 3, potTotal: 600 }, dares: three() }, 50)

	test('applies a chain of updates without a request', () => {
		const feed = start()
		expect(feed.receive(update({ seq: 100, prev: 90, since: 40 }, [live(dare(3, 500))], 1000))).toBe('applied')
		expect(feed.receive(update({ seq: 104, prev: 100, since: 70 }, [live(dare(2, 600))], 1400))).toBe('applied')
		expect(feed.view.dares.map((d) => d.pot)).toEqual([600, 500, 300])
		expect(feed.view.session).toEqual({ status: 'active', dareCount: 3, potTotal: 1400 })
	})

	test('a gap asks for one refetch; updates meanwhile are kept and applied on top of the new data', () => {
		const feed = start()
		expect(feed.receive(update({ seq: 100, prev: 90, since: 60 }, [live(dare(3, 500))]))).toBe('refetch')
		expect(feed.view.dares.map((d) => d.pot)).toEqual([300, 200, 100])
		// The next one, while the data is on its way, goes on from the first (which the data will have): applied and kept, no second request.
		expect(feed.receive(update({ seq: 104, prev: 100, since: 70 }, [live(dare(2, 600))]))).toBe('applied')
		// The refetch read the session after the first update, before the second.
		expect(feed.rebase({ session: { status: 'active', dareCount: 3, potTotal: 900 }, dares: [dare(3, 500), dare(1, 300), dare(2, 200)] }, 65)).toBe('done')
		expect(feed.view.dares.map((d) => [d.id, d.pot])).toEqual([
			[id(2), 600],
			[id(3), 500],
			[id(1), 300],
		])
		expect(feed.receive(update({ seq: 110, prev: 104, since: 75 }, [live(dare(1, 700))]))).toBe('applied')
	})

	test('malformed updates, unknown dares and sequences from the past are ignored (then one refetch)', () => {
		const feed = start()
		const before = feed.view
		expect(feed.receive({ seq: 'x' })).toBe('refetch')
		expect(feed.receive(update({ seq: 100, prev: 0, since: 10 }, [live(dare(4, 1))]))).toBe('ignored')
		expect(feed.view).toBe(before)
		// The second problem came while the data was being read: read once more.
		expect(feed.rebase(before, 60)).toBe('refetch')
		expect(feed.rebase({ ...before }, 70)).toBe('done')
		expect(feed.receive(update({ seq: 101, prev: 100, since: 10 }, [live(dare(1, 310))]))).toBe('applied')
		expect(feed.receive(update({ seq: 99, prev: 101, since: 10 }, [live(dare(1, 1))]))).toBe('refetch')
		expect(feed.view.dares[0]!.pot).toBe(310)
	})

	test('a rejoin asks for one refetch and no longer chains on to the last update', () => {
		const feed = start()
		expect(feed.receive(update({ seq: 100, prev: 90, since: 40 }, [live(dare(3, 500))]))).toBe('applied')
		expect(feed.rejoined()).toBe('refetch')
		expect(feed.position.seq).toBeNull()
	})

	test('the viewer’s own reading of a dare (an action’s answer) replaces the page’s, or adds it', () => {
		const feed = start()
		feed.own([dare(2, 900, { myBoost: 700 })], 80)
		feed.own([dare(5, 10, { myBoost: 10 })], 81)
		expect(feed.view.dares.map((d) => [d.pot, d.myBoost])).toEqual([
			[900, 700],
			[300, 0],
			[100, 0],
			[10, 10],
		])
	})

	test('the viewer’s own reading stays over data read before their action ended, and gives way to data read after', () => {
		const feed = start()
		feed.own([dare(2, 900, { myBoost: 700, myVote: true })], 80)
		// Read while the boost was running (covered 80: transaction 80 had not ended): their part stays, the pot is the data's.
		feed.rebase({ session: { status: 'active', dareCount: 3, potTotal: 600 }, dares: three() }, 80)
		expect(feed.view.dares.find((d) => d.id === id(2))).toMatchObject({ pot: 200, myBoost: 700, myVote: true })
		// Read after it: the data's own word.
		feed.rebase({ session: { status: 'active', dareCount: 3, potTotal: 600 }, dares: three() }, 81)
		expect(feed.view.dares.find((d) => d.id === id(2))).toMatchObject({ myBoost: 0, myVote: null })
	})

	test('the same data again (a render done twice) gives the same answer and changes nothing', () => {
		const feed = start()
		expect(feed.receive(update({ seq: 100, prev: 90, since: 60 }, [live(dare(3, 500))]))).toBe('refetch')
		expect(feed.receive(update({ seq: 110, prev: 104, since: 70 }, [live(dare(1, 700))]))).toBe('ignored')
		const data = { session: { status: 'active' as const, dareCount: 3, potTotal: 900 }, dares: three() }
		expect(feed.rebase(data, 65)).toBe('refetch')
		expect(feed.rebase(data, 65)).toBe('refetch')
		expect(feed.refetching).toBe(true)
	})

	test('after a rejoin one read is enough: the updates sent during the cut are what it is for', () => {
		const feed = start()
		expect(feed.receive(update({ seq: 100, prev: 90, since: 40 }, [live(dare(3, 500))]))).toBe('applied')
		expect(feed.rejoined()).toBe('refetch')
		// The first update after the join does not follow (one was sent during the cut): no second read.
		expect(feed.receive(update({ seq: 120, prev: 115, since: 90 }, [live(dare(1, 700))]))).toBe('ignored')
		expect(feed.rebase({ session: { status: 'active', dareCount: 3, potTotal: 900 }, dares: three() }, 95)).toBe('done')
		// A later gap is one again.
		expect(feed.receive(update({ seq: 130, prev: 125, since: 120 }, [live(dare(1, 800))]))).toBe('refetch')
	})

	test('more updates during a read than are kept: read once more after it', () => {
		const feed = start()
		expect(feed.receive(update({ seq: 100, prev: 90, since: 60 }, [live(dare(3, 500))]))).toBe('refetch')
		for (let i = 1; i <= 40; i++) expect(feed.receive(update({ seq: 100 + i, prev: 99 + i, since: 60 }, [live(dare(1, 300 + i))]))).toBe('applied')
		expect(feed.rebase({ session: { status: 'active', dareCount: 3, potTotal: 900 }, dares: three() }, 65)).toBe('refetch')
	})

	// Found while writing bench:audience: rebase applied again the updates kept
	// before the gap or the cut, older than the one missed, over the new data.
	const potOf = (feed: SessionFeed, n: number) => feed.view.dares.find((d) => d.id === id(n))?.pot

	test('a rejoin: the update from before the cut does not undo the newly read data', () => {
		const feed = start()
		expect(feed.receive(update({ seq: 100, prev: 90, since: 40 }, [live(dare(3, 500))]))).toBe('applied')
		// The socket is cut; meanwhile { seq: 104, prev: 100 } brought dare 3 to 900, and is lost.
		expect(feed.rejoined()).toBe('refetch')
		feed.rebase({ session: { status: 'active', dareCount: 3, potTotal: 1400 }, dares: [dare(3, 900), dare(1, 300), dare(2, 200)] }, 80)
		expect(potOf(feed, 3)).toBe(900)
		expect(feed.receive(update({ seq: 110, prev: 104, since: 75 }, [live(dare(1, 350))]))).toBe('applied')
		expect(potOf(feed, 3)).toBe(900)
	})

	test('a missed update: the updates kept from before the gap do not undo the newly read data', () => {
		const feed = start()
		expect(feed.receive(update({ seq: 100, prev: 90, since: 40 }, [live(dare(3, 500))]))).toBe('applied')
		// { seq: 104, prev: 100, since: 60 } (dare 3 to 900) never arrives; the next one shows the gap.
		expect(feed.receive(update({ seq: 110, prev: 104, since: 75 }, [live(dare(1, 350))]))).toBe('refetch')
		feed.rebase({ session: { status: 'active', dareCount: 3, potTotal: 1450 }, dares: [dare(3, 900), dare(1, 350), dare(2, 200)] }, 85)
		expect(feed.view.dares.map((d) => [d.id, d.pot])).toEqual([
			[id(3), 900],
			[id(1), 350],
			[id(2), 200],
		])
	})
})
