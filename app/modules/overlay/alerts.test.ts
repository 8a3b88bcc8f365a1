import { expect, test } from 'vitest'
import type { DareView } from '#app/modules/dares/service.server'
import { ALERT_QUEUE_MAX, alertDuration, alertsBetween, enqueue, marksOf, type OverlayAlert } from './alerts'

const dare = (id: number, over: Partial<DareView> = {}): DareView => ({
	id: `00000000-0000-4000-8000-${String(id).padStart(12, '0')}`,
	description: `Dare ${id}`,
	reward: 100,
	status: 'open',
	pot: 100,
	authorId: null,
	authorName: 'nora',
	boosters: 1,
	yesVotes: 0,
	noVotes: 0,
	votingEndsAt: null,
	createdAt: '2026-11-27T08:00:00.000Z',
	myBoost: 0,
	myVote: null,
	...over,
})

test('a new running dare, a pot that grew and a vote that ended are alerts; the rest is not', () => {
	const before = [dare(1), dare(2, { pot: 300 }), dare(3, { status: 'voting', pot: 500 }), dare(4, { status: 'voting' }), dare(5)]
	const after = [
		dare(1, { pot: 200 }), // boosted
		dare(2, { pot: 250 }), // a refund: less, nothing to celebrate
		dare(3, { status: 'completed', pot: 500, yesVotes: 3, noVotes: 1 }),
		dare(4, { status: 'failed', noVotes: 2 }),
		dare(5, { status: 'accepted' }), // accepted, same pot
		dare(6, { pot: 150 }), // new
		dare(7, { status: 'completed' }), // settled before the overlay saw it (a read after a gap)
	]
	expect(alertsBetween(marksOf(before), after)).toEqual([
		{ kind: 'boost', dareId: dare(1).id, description: 'Dare 1', amount: 100, pot: 200 },
		{ kind: 'completed', dareId: dare(3).id, description: 'Dare 3', pot: 500, yes: 3, no: 1 },
		{ kind: 'failed', dareId: dare(4).id, description: 'Dare 4', pot: 100, yes: 0, no: 2 },
		{ kind: 'dare', dareId: dare(6).id, description: 'Dare 6', pot: 150 },
	])
	expect(alertsBetween(marksOf(after), after)).toEqual([])
})

test('a dare gone from the list (hidden by the creator) is no alert', () => {
	expect(alertsBetween(marksOf([dare(1), dare(2)]), [dare(1)])).toEqual([])
})

const boost = (id: string, dareNo: number, amount: number, pot: number): OverlayAlert => ({
	id,
	kind: 'boost',
	dareId: dare(dareNo).id,
	description: `Dare ${dareNo}`,
	amount,
	pot,
})

test('boosts of one dare add up in the alert waiting or showing; a new dare takes the higher pot', () => {
	let queue = enqueue([], [boost('a', 1, 100, 200)])
	queue = enqueue(queue, [boost('b', 1, 50, 250), boost('c', 2, 10, 110)])
	expect(queue).toEqual([boost('a', 1, 150, 250), boost('c', 2, 10, 110)])

	const fresh: OverlayAlert = { id: 'd', kind: 'dare', dareId: dare(3).id, description: 'Dare 3', pot: 100 }
	expect(enqueue([fresh], [boost('e', 3, 40, 140)])).toEqual([{ ...fresh, pot: 140 }])
})

test('past the limit the oldest waiting boosts go first; the alert on screen stays', () => {
	const result = (id: string, n: number): OverlayAlert => ({ id, kind: 'completed', dareId: dare(n).id, description: '', pot: 0, yes: 1, no: 0 })
	const queue = [boost('showing', 1, 10, 10), result('r1', 2), boost('b1', 3, 10, 10), result('r2', 4), boost('b2', 5, 10, 10), result('r3', 6)]
	const next = enqueue(queue, [result('r4', 7), result('r5', 8)])
	expect(next).toHaveLength(ALERT_QUEUE_MAX)
	expect(next.map((a) => a.id)).toEqual(['showing', 'r1', 'r2', 'r3', 'r4', 'r5'])
	const onlyResults = enqueue(next, [result('r6', 9)])
	expect(onlyResults.map((a) => a.id)).toEqual(['showing', 'r2', 'r3', 'r4', 'r5', 'r6'])
})

test('alerts go faster while more wait', () => {
	expect(alertDuration(1)).toBeGreaterThan(alertDuration(4))
})
