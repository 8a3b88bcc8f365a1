import { expect, test } from 'vitest'
import { keyEventOf } from './events'

test('a dare key event keeps only its own properties', () => {
	expect(keyEventOf({ name: 'dare-created', properties: { reward: 0, free: true, description: 'Sing', email: 'a@b.c' } })).toEqual({
		name: 'dare-created',
		properties: { reward: 0, free: true },
	})
	expect(keyEventOf({ name: 'boost', properties: { amount: 200, dareId: 'x' } })).toEqual({ name: 'boost', properties: { amount: 200 } })
	expect(keyEventOf({ name: 'vote', properties: { choice: 'no', userId: 'u' } })).toEqual({ name: 'vote', properties: { choice: 'no' } })
})

test('anything else a cookie could carry is dropped', () => {
	for (const value of [
		null,
		'boost',
		{ name: 'boost' },
		{ name: 'boost', properties: { amount: 0 } },
		{ name: 'boost', properties: { amount: -10 } },
		{ name: 'boost', properties: { amount: 1.5 } },
		{ name: 'boost', properties: { amount: '200' } },
		{ name: 'vote', properties: { choice: 'maybe' } },
		{ name: 'dare-created', properties: { reward: 100 } },
		{ name: 'sign-up', properties: { method: 'password' } },
		{ name: '$identify', properties: { email: 'a@b.c' } },
	])
		expect(keyEventOf(value), JSON.stringify(value)).toBeNull()
})
