import { expect, test } from 'vitest'
import { DareActionSchema } from './schemas'

/** The creator's running vote (docs/product.md §6.7): more time within public.extend_vote's limits, and cancel. */

const dareId = '00000000-0000-4000-8000-000000000001'

test('more time: 30 to 600 seconds in steps of 5', () => {
	for (const seconds of ['30', '60', '120', '600']) {
		expect(DareActionSchema.safeParse({ intent: 'extend-vote', dareId, seconds }).data).toEqual({ intent: 'extend-vote', dareId, seconds: Number(seconds) })
	}
	for (const seconds of ['25', '33', '605', '-60', 'soon', '']) expect(DareActionSchema.safeParse({ intent: 'extend-vote', dareId, seconds }).success).toBe(false)
	expect(DareActionSchema.safeParse({ intent: 'extend-vote', dareId: 'x', seconds: '60' }).success).toBe(false)
})

test('cancel: the dare alone; the view’s `from` is no part of the action', () => {
	expect(DareActionSchema.safeParse({ intent: 'cancel-vote', dareId, from: 'creator-view' }).data).toEqual({ intent: 'cancel-vote', dareId })
})
