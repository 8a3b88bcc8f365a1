import { describe, expect, test } from 'vitest'
import type { DareView } from '#app/modules/dares/service.server'
import { SessionFeed, type LiveDare, type SessionUpdate } from './session-feed'

/**
 * Found while writing bench:audience (issue 22): `rebase` applied again every
 * kept update, including those received before the gap or the cut that made
 * the page refetch. Those are older than the update that was missed, so on
 * top of the newly read data they put back a value the missed update had
 * replaced, and the next update (of other dares) followed, so nothing
 * brought the right value back until that dare changed again. A gap and a
 * rejoin now forget what was kept (SessionFeed).
 */
const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`

function dare(n: number, pot: number): DareView {
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
		createdAt: `2026-11-27T10:00:0${n}.000Z`,
		myBoost: 0,
		myVote: null,
	}
}

function live(n: number, pot: number): LiveDare {
	const { id, status, authorId, authorName, boosters, yesVotes, noVotes, votingEndsAt } = dare(n, pot)
	return { id, status, pot, authorId, authorName, boosters, yesVotes, noVotes, votingEndsAt }
}

function update(order: { seq: number; prev: number; since: number }, dares: LiveDare[]): SessionUpdate {
	return { updatedKeys: ['session', 'dares'], sessionData: { session: { status: 'active', dareCount: 3, potTotal: dares.reduce((s, d) => s + d.pot, 0) }, dares }, ...order }
}

const potOf = (feed: SessionFeed, n: number) => feed.view.dares.find((d) => d.id === id(n))?.pot

describe('SessionFeed after a refetch (bench:audience)', () => {
	test('a rejoin: the update from before the cut does not undo the newly read data', () => {
		const feed = new SessionFeed({ session: { status: 'active', dareCount: 3, potTotal: 600 }, dares: [dare(1, 300), dare(2, 200), dare(3, 100)] }, 50)
		expect(feed.receive(update({ seq: 100, prev: 90, since: 40 }, [live(3, 500)]))).toBe('applied')
		// The socket is cut; meanwhile { seq: 104, prev: 100 } brought dare 3 to 900, and is lost.
		expect(feed.rejoined()).toBe('refetch')
		// The page's data read again, after that: dare 3 has 900.
		feed.rebase({ session: { status: 'active', dareCount: 3, potTotal: 1400 }, dares: [dare(3, 900), dare(1, 300), dare(2, 200)] }, 80)
		expect(potOf(feed, 3)).toBe(900)
		// The next update, of another dare, follows (since 75 <= covered 80) and does not bring it back either.
		expect(feed.receive(update({ seq: 110, prev: 104, since: 75 }, [live(1, 350)]))).toBe('applied')
		expect(potOf(feed, 3)).toBe(900)
	})

	test('a missed update: the updates kept from before the gap do not undo the newly read data', () => {
		const feed = new SessionFeed({ session: { status: 'active', dareCount: 3, potTotal: 600 }, dares: [dare(1, 300), dare(2, 200), dare(3, 100)] }, 50)
		expect(feed.receive(update({ seq: 100, prev: 90, since: 40 }, [live(3, 500)]))).toBe('applied')
		// { seq: 104, prev: 100, since: 60 } (dare 3 to 900) never arrives; the next one shows the gap.
		expect(feed.receive(update({ seq: 110, prev: 104, since: 75 }, [live(1, 350)]))).toBe('refetch')
		// Read after both: dare 1 has 350, dare 3 900.
		feed.rebase({ session: { status: 'active', dareCount: 3, potTotal: 1450 }, dares: [dare(3, 900), dare(1, 350), dare(2, 200)] }, 85)
		expect(feed.view.dares.map((d) => [d.id, d.pot])).toEqual([
			[id(3), 900],
			[id(1), 350],
			[id(2), 200],
		])
	})
})
